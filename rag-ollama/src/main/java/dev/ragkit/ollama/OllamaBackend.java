package dev.ragkit.ollama;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ragkit.error.ModelNotFoundException;
import dev.ragkit.error.RagException;
import dev.ragkit.budget.BudgetLimits;
import dev.ragkit.tokens.CalibratedTokenCounter;
import dev.ragkit.tokens.TokenCounter;
import dev.ragkit.tokens.TokenCounters;
import dev.ragkit.internal.Settings;
import dev.ragkit.generation.Cancellable;
import dev.ragkit.generation.ChatMessage;
import dev.ragkit.generation.ChatRequest;
import dev.ragkit.generation.ChatResult;
import dev.ragkit.generation.FinishReason;
import dev.ragkit.generation.HealthStatus;
import dev.ragkit.generation.KnownModels;
import dev.ragkit.generation.LlmBackend;
import dev.ragkit.generation.ModelInfo;
import dev.ragkit.generation.StreamHandler;
import dev.ragkit.http.HttpSettings;
import dev.ragkit.http.LineStream;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.function.Consumer;
import java.util.function.Supplier;
import okhttp3.HttpUrl;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;
import okio.BufferedSource;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An {@link LlmBackend} on Ollama's HTTP API. Thread-safe; build one per server and share it.
 *
 * <pre>{@code
 * OllamaBackend ollama = OllamaBackend.builder().config(OllamaConfig.fromEnvironment()).build();
 * RagPipeline rag = RagPipeline.builder().backend(ollama).tokenCounter(ollama.tokenCounter("llama3.2"))...;
 * }</pre>
 *
 * <ul>
 *   <li>{@code POST /api/chat}, whole ({@code stream:false}) or streamed (NDJSON; each token reaches the handler
 *       as its line arrives). Every request sends {@code options.num_ctx} = the budgeted context window and
 *       {@code options.num_predict} = the response reserve, so the server — whose default window is 4,096 tokens
 *       (2,048 on older servers) — never truncates the prompt silently; also {@code temperature}, {@code seed},
 *       {@code keep_alive}.</li>
 *   <li>{@code POST /api/show} for a model's context length ({@code <architecture>.context_length}), cached;
 *       {@code GET /api/tags} for the models present ({@code llama3.2} matches {@code llama3.2:latest});
 *       {@code GET /api/version} for health.</li>
 *   <li>Errors: cannot connect or 503 → {@link dev.ragkit.error.LlmUnavailableException}; too slow →
 *       {@link dev.ragkit.error.LlmTimeoutException} naming the limits, also for HTTP 408/504 from a proxy in front of
 *       Ollama (not retried: a retry would wait as long again); unknown model (404) →
 *       {@link ModelNotFoundException} saying {@code ollama pull <model>} (or, with {@code pullIfMissing}, the
 *       model is pulled and the call repeated); other statuses and {@code {"error": …}} lines inside a stream →
 *       {@link OllamaServerException} with the server's text and the partial answer; garbage →
 *       {@link OllamaProtocolException}. Connection failures and 429/502/503 are retried with exponential backoff
 *       before any token was delivered.</li>
 *   <li>Every reported prompt count calibrates {@link #tokenCounter(String)} for that model.</li>
 * </ul>
 */
public final class OllamaBackend implements LlmBackend, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(OllamaBackend.class);
    /** Ollama's default address. */
    public static final String DEFAULT_BASE_URL = "http://localhost:11434";

    private final OllamaHttp http;
    private final OkHttpClient pullClient;
    private final boolean ownsClient;
    private final Executor executor;
    private final @Nullable String keepAlive;
    private final @Nullable Long seed;
    private final boolean pullIfMissing;
    private final PullListener pullListener;
    private final TokenCounter localCounter;
    private final double calibrationMargin;
    private final Map<String, ModelInfo> modelInfo = new ConcurrentHashMap<>();
    private final Map<String, CalibratedTokenCounter> counters = new ConcurrentHashMap<>();

    private OllamaBackend(Builder b) {
        HttpSettings.Resolved settings = b.resolve(b.config.timeout());
        this.ownsClient = settings.ownsClient();
        OkHttpClient client = settings.client();
        this.http = new OllamaHttp(client, Settings.layered(b.baseUrl, OllamaHttp.parseBaseUrl(
                b.config.baseUrl().toString())), settings.maxRetries(), settings.backoff());
        this.pullClient = client.newBuilder().callTimeout(Duration.ZERO).build();
        this.executor = settings.executor();
        this.keepAlive = b.keepAlive;
        this.seed = b.seed;
        this.pullIfMissing = b.pullIfMissing;
        this.pullListener = b.pullListener;
        this.localCounter = b.localCounter;
        this.calibrationMargin = b.calibrationMargin;
    }

    /** @return a builder for a server at {@value #DEFAULT_BASE_URL} */
    public static Builder builder() {
        return new Builder();
    }

    @Override
    public String name() {
        return "ollama";
    }

    /** @return the server's base URL */
    public URI baseUrl() {
        return http.base.uri();
    }

    @Override
    public ChatResult chat(ChatRequest request) {
        Objects.requireNonNull(request, "request");
        long start = System.nanoTime();
        JsonNode reply = withPull(request.model(),
                () -> http.post("/api/chat", chatBody(request, false), request.model()));
        JsonNode message = reply.get("message");
        if (message == null || !message.hasNonNull("content")) {
            throw new OllamaProtocolException("Ollama's /api/chat reply has no message.content: '"
                    + OllamaHttp.abbreviate(reply.toString()) + "'", "", null);
        }
        ChatResult result = result(reply, message.get("content").asText(), request.model(), start);
        calibrate(request, result);
        return result;
    }

    @Override
    public Cancellable stream(ChatRequest request, StreamHandler handler) {
        Objects.requireNonNull(request, "request");
        Objects.requireNonNull(handler, "handler");
        LineStream call = new LineStream(http, http.post("/api/chat", chatBody(request, true)), request.model(),
                handler, new ChatLines(request), open -> withPull(request.model(), open));
        executor.execute(call);
        return call;
    }

    @Override
    public ModelInfo modelInfo(String model) {
        Objects.requireNonNull(model, "model");
        String key = KnownModels.canonical(model);
        ModelInfo known = modelInfo.get(key);
        if (known != null) {
            return known;
        }
        // Not computeIfAbsent: a pull may run inside, for minutes, and it clears this cache.
        ModelInfo info = fetchModelInfo(model);
        ModelInfo raced = modelInfo.putIfAbsent(key, info);
        return raced != null ? raced : info;
    }

    private ModelInfo fetchModelInfo(String model) {
        ObjectNode body = OllamaHttp.MAPPER.createObjectNode().put("model", model);
        JsonNode show = withPull(model, () -> http.post("/api/show", body, model));
        int window = contextLength(show.path("model_info"));
        if (window < 1) {
            throw new OllamaProtocolException("Ollama's /api/show reply for '" + model + "' has no "
                    + "<architecture>.context_length in model_info; set the model's limits with "
                    + "RagPipeline.Builder.modelInfo(...)", "", null);
        }
        int response = KnownModels.lookup(model).map(ModelInfo::maxResponseTokens)
                .orElse(Math.max(1, Math.min(4096, window / 4)));
        return new ModelInfo(model, window, Math.min(response, window));
    }

    /** {@code model_info["<general.architecture>.context_length"]}, or any {@code *.context_length}; 0 if none. */
    static int contextLength(JsonNode modelInfo) {
        String architecture = modelInfo.path("general.architecture").asText("");
        JsonNode exact = modelInfo.get(architecture + ".context_length");
        if (exact != null && exact.canConvertToInt()) {
            return exact.asInt();
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = modelInfo.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            if (e.getKey().endsWith(".context_length") && e.getValue().canConvertToInt()) {
                return e.getValue().asInt();
            }
        }
        return 0;
    }

    /**
     * @return the names of the models on the server ({@code GET /api/tags}), e.g. {@code llama3.2:latest}
     */
    public List<String> availableModels() {
        List<String> names = new ArrayList<>();
        for (JsonNode m : http.get("/api/tags").path("models")) {
            String name = m.path("name").asText(m.path("model").asText(""));
            if (!name.isEmpty()) {
                names.add(name);
            }
        }
        return names;
    }

    /**
     * @param model a model name; {@code llama3.2} matches {@code llama3.2:latest}, case-insensitively
     * @return whether the server has it
     */
    public boolean isAvailable(String model) {
        return matches(availableModels(), model);
    }

    static boolean matches(List<String> available, String model) {
        String wanted = KnownModels.canonical(model);
        for (String name : available) {
            if (KnownModels.canonical(name).equals(wanted)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Checks the model list ({@code GET /api/tags}) before a request does any work: a model that is not pulled
     * fails here with the {@code ollama pull} command, or is pulled first when {@code pullIfMissing} is on.
     *
     * @param model a model name; {@code llama3.2} matches {@code llama3.2:latest}
     * @throws ModelNotFoundException when the server does not have it (and pulling is off)
     * @throws dev.ragkit.error.LlmUnavailableException when the server cannot be reached
     */
    @Override
    public void requireModel(String model) {
        Objects.requireNonNull(model, "model");
        if (isAvailable(model)) {
            return;
        }
        if (pullIfMissing) {
            LOG.info("model '{}' is not on {}; pulling it (pullIfMissing)", model, http.base);
            pull(model, pullListener);
            return;
        }
        throw new ModelNotFoundException("model '" + model + "' is not on the Ollama server at " + http.base
                + " (it is not in GET /api/tags); run: ollama pull " + model);
    }

    /** @return the HTTP client with this backend's time limits (for tests) */
    OkHttpClient httpClient() {
        return http.client;
    }

    @Override
    public HealthStatus health(String model) {
        Objects.requireNonNull(model, "model");
        long start = System.nanoTime();
        String version;
        try {
            version = http.get("/api/version").path("version").asText(null);
        } catch (RagException e) {
            return new HealthStatus(false, false, Duration.ofNanos(System.nanoTime() - start), null, e.getMessage());
        }
        Duration latency = Duration.ofNanos(System.nanoTime() - start);
        try {
            boolean present = isAvailable(model);
            return new HealthStatus(true, present, latency, version, present
                    ? "Ollama " + version + " at " + http.base + " has " + model
                    : "Ollama " + version + " at " + http.base + " does not have " + model + "; run: ollama pull "
                            + model);
        } catch (RagException e) {
            return new HealthStatus(true, false, latency, version, "listing models failed: " + e.getMessage());
        }
    }

    /**
     * @param model a model
     * @return its calibrated counter ({@link #tokenCounter(String)}): the pipeline budgets the model with it
     */
    @Override
    public Optional<TokenCounter> tokenCounterFor(String model) {
        return Optional.of(tokenCounter(model));
    }

    /**
     * The token counter that learns this model's tokenizer from the prompt counts the server reports; pass it to
     * the pipeline ({@code RagPipeline.Builder.tokenCounter}) so budgets converge on the model's real counts.
     *
     * @param model a model
     * @return its counter, shared by every call for that model
     */
    public CalibratedTokenCounter tokenCounter(String model) {
        return counters.computeIfAbsent(KnownModels.canonical(model),
                key -> new CalibratedTokenCounter(localCounter, calibrationMargin));
    }

    /**
     * Pulls a model ({@code POST /api/pull}, streamed), reporting each progress line. No whole-call time limit
     * applies: downloads take minutes.
     *
     * @param model    the model, e.g. {@code llama3.2}
     * @param listener receives progress
     * @throws OllamaServerException when the server reports an error (e.g. no such model in the registry)
     */
    public void pull(String model, PullListener listener) {
        Objects.requireNonNull(model, "model");
        Objects.requireNonNull(listener, "listener");
        ObjectNode body = OllamaHttp.MAPPER.createObjectNode().put("model", model).put("stream", true);
        Request request = http.post("/api/pull", body);
        try (Response response = pullClient.newCall(request).execute()) {
            if (!response.isSuccessful()) {
                throw http.statusError(response.code(), response.body() == null ? "" : response.body().string(),
                        null, request.url());
            }
            BufferedSource source = Objects.requireNonNull(response.body()).source();
            String line;
            String status = "";
            while ((line = source.readUtf8Line()) != null) {
                if (line.isBlank()) {
                    continue;
                }
                JsonNode n = readLine(line, "", "/api/pull");
                if (n.hasNonNull("error")) {
                    String error = n.get("error").asText();
                    throw new OllamaServerException("pulling '" + model + "' failed: " + error, 200, error, "");
                }
                status = n.path("status").asText("");
                listener.onProgress(new PullProgress(model, status, n.path("completed").asLong(0),
                        n.path("total").asLong(0)));
            }
            if (!"success".equals(status)) {
                throw new OllamaProtocolException("the pull of '" + model + "' ended without 'success' (last status '"
                        + status + "')", "", null);
            }
        } catch (IOException e) {
            throw http.ioError(e);
        }
        modelInfo.remove(KnownModels.canonical(model));
    }

    /** Runs {@code call}; with {@code pullIfMissing}, pulls a missing model once and runs it again. */
    private <T> T withPull(String model, Supplier<T> call) {
        try {
            return call.get();
        } catch (ModelNotFoundException e) {
            if (!pullIfMissing) {
                throw e;
            }
            LOG.info("model '{}' is not on {}; pulling it (pullIfMissing)", model, http.base);
            pull(model, pullListener);
            return call.get();
        }
    }

    private ObjectNode chatBody(ChatRequest r, boolean stream) {
        ObjectNode body = OllamaHttp.MAPPER.createObjectNode();
        body.put("model", r.model());
        ArrayNode messages = body.putArray("messages");
        for (ChatMessage m : r.messages()) {
            messages.addObject().put("role", m.role().wireName()).put("content", m.content());
        }
        body.put("stream", stream);
        ObjectNode options = body.putObject("options");
        options.put("num_ctx", r.contextWindow());
        options.put("num_predict", r.maxResponseTokens());
        options.put("temperature", r.temperature());
        Long s = r.seed() != null ? r.seed() : seed;
        if (s != null) {
            options.put("seed", s);
        }
        if (keepAlive != null) {
            body.put("keep_alive", keepAlive);
        }
        return body;
    }

    private static ChatResult result(JsonNode last, String text, String model, long start) {
        String reason = last.path("done_reason").asText("");
        FinishReason finish = "stop".equals(reason) ? FinishReason.STOP
                : "length".equals(reason) ? FinishReason.LENGTH : FinishReason.OTHER;
        return new ChatResult(text, last.path("model").asText(model), finish, count(last, "prompt_eval_count"),
                count(last, "eval_count"), Duration.ofNanos(System.nanoTime() - start));
    }

    private static @Nullable Integer count(JsonNode node, String field) {
        JsonNode n = node.get(field);
        return n != null && n.canConvertToInt() && n.asInt() >= 0 ? n.asInt() : null;
    }

    /** Teaches the model's counter from the prompt count the server reported. */
    private void calibrate(ChatRequest request, ChatResult result) {
        Integer reported = result.promptTokens();
        if (reported == null) {
            return;
        }
        // The same per-message allowance for the chat template as the budget's, so that the learned ratio is
        // about the tokenizer rather than the template.
        int local = 0;
        for (ChatMessage m : request.messages()) {
            local += localCounter.count(m.content()) + BudgetLimits.DEFAULT_MESSAGE_OVERHEAD;
        }
        tokenCounter(request.model()).observe(local, reported);
    }

    private JsonNode readLine(String line, String partial, String path) {
        try {
            return http.readJson(line, path + " (streamed)", partial);
        } catch (IOException e) {
            throw new OllamaProtocolException("Ollama sent a stream line that is not JSON: '"
                    + OllamaHttp.abbreviate(line) + "'", partial, e);
        }
    }

    /** Closes the HTTP client's threads and connections when the backend created the client. */
    @Override
    public void close() {
        if (ownsClient) {
            OllamaHttp.release(http.client);
        }
    }

    /** Ollama's NDJSON stream: a message per line, {@code done:true} on the last, {@code error} lines. */
    private final class ChatLines implements LineStream.Reader {
        private final ChatRequest request;
        private final long start = System.nanoTime();

        ChatLines(ChatRequest request) {
            this.request = request;
        }

        @Override
        public @Nullable ChatResult read(String line, CharSequence partial, Consumer<String> emit) {
            JsonNode n = readLine(line, partial.toString(), "/api/chat");
            if (n.hasNonNull("error")) {
                String error = n.get("error").asText();
                throw new OllamaServerException("Ollama reported an error in the middle of the answer: " + error
                        + " (" + partial.length() + " characters were streamed before it)", 200, error,
                        partial.toString());
            }
            String token = n.path("message").path("content").asText("");
            if (!token.isEmpty()) {
                emit.accept(token);
            }
            if (!n.path("done").asBoolean(false)) {
                return null;
            }
            ChatResult result = OllamaBackend.result(n, partial.toString(), request.model(), start);
            calibrate(request, result);
            return result;
        }

    }

    /** Configures an {@link OllamaBackend}. Not thread-safe. */
    public static final class Builder extends HttpSettings<Builder> {
        private OllamaConfig config = OllamaConfig.defaults();
        private @Nullable HttpUrl baseUrl;
        private @Nullable String keepAlive;
        private @Nullable Long seed;
        private boolean pullIfMissing;
        private PullListener pullListener = p -> LOG.info("pull {}: {} {}/{}", p.model(), p.status(), p.completed(),
                p.total());
        private TokenCounter localCounter = TokenCounters.cached(TokenCounters.jtokkit(), 10_000);
        private double calibrationMargin = 0.05;

        private Builder() {
            super(Duration.ofSeconds(5), Duration.ofMillis(250));
        }

        @Override
        protected Builder self() {
            return this;
        }

        /**
         * The base layer: the base URL ({@code OLLAMA_BASE_URL}) and the time limit ({@code RAG_TIMEOUT_SECONDS},
         * for the read and whole-call limits). {@link #baseUrl}, {@link #readTimeout} and {@link #callTimeout} set
         * on this builder win over it, before or after this call.
         *
         * @param config the configuration, e.g. {@link OllamaConfig#fromEnvironment()}
         * @return this builder
         */
        public Builder config(OllamaConfig config) {
            this.config = Objects.requireNonNull(config, "config");
            return this;
        }

        /** @param url the server, e.g. {@code http://localhost:11434} (http or https) @return this builder */
        public Builder baseUrl(String url) {
            this.baseUrl = OllamaHttp.parseBaseUrl(url);
            return this;
        }



        /**
         * @param timeout the limit for a whole call, streamed answers included (default: the configuration's, 30 s
         *                or {@code RAG_TIMEOUT_SECONDS}); model pulls are exempt
         * @return this builder
         */

        /** @param keepAlive how long the server keeps the model loaded, e.g. {@code 5m} or {@code -1} @return this */
        public Builder keepAlive(String keepAlive) {
            Objects.requireNonNull(keepAlive, "keepAlive");
            if (keepAlive.isBlank()) {
                throw new IllegalArgumentException("keepAlive must not be blank; e.g. 5m, 1h, or -1 (forever)");
            }
            this.keepAlive = keepAlive.strip();
            return this;
        }

        /** @param seed the sampling seed for requests that carry none @return this builder */
        public Builder seed(long seed) {
            this.seed = seed;
            return this;
        }

        /** @param pull pull a missing model instead of failing (default off) @return this builder */
        public Builder pullIfMissing(boolean pull) {
            this.pullIfMissing = pull;
            return this;
        }

        /** @param listener receives pull progress (default: logged at INFO) @return this builder */
        public Builder pullListener(PullListener listener) {
            this.pullListener = Objects.requireNonNull(listener, "listener");
            return this;
        }





        /**
         * @param local  the local counter that calibration scales (default: cached {@code cl100k_base}, the
         *               pipeline's default counter)
         * @param margin the safety margin on top of the learned ratio, in [0, 1) (default 0.05)
         * @return this builder
         */
        public Builder calibration(TokenCounter local, double margin) {
            Objects.requireNonNull(local, "local");
            if (!(margin >= 0 && margin < 1)) {
                throw new IllegalArgumentException("margin must be in [0, 1), got " + margin);
            }
            this.localCounter = local;
            this.calibrationMargin = margin;
            return this;
        }

        /** @return the backend */
        public OllamaBackend build() {
            return new OllamaBackend(this);
        }
    }
}
