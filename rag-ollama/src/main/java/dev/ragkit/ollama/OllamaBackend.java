package dev.ragkit.ollama;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ragkit.error.ModelNotFoundException;
import dev.ragkit.generation.ChatRequest;
import dev.ragkit.generation.ChatResult;
import dev.ragkit.generation.KnownModels;
import dev.ragkit.generation.LlmBackend;
import dev.ragkit.generation.ModelInfo;
import dev.ragkit.http.LineStream;
import dev.ragkit.http.ModelHttp;
import dev.ragkit.http.ModelProtocolException;
import dev.ragkit.http.ModelServerBackend;
import dev.ragkit.http.ModelServerException;
import dev.ragkit.tokens.CalibratedTokenCounter;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.Supplier;
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
 *       {@link ModelServerException} with the server's text and the partial answer; garbage →
 *       {@link ModelProtocolException}. Connection failures and 429/502/503 are retried with exponential backoff
 *       before any token was delivered.</li>
 *   <li>Every reported prompt count calibrates {@link #tokenCounter(String)} for that model.</li>
 * </ul>
 *
 * <p>What every model-server backend shares (the client, streaming, the model list checks, calibration) is
 * {@link ModelServerBackend}'s; this class is Ollama's wire protocol.
 */
public final class OllamaBackend extends ModelServerBackend<OllamaHttp> {
    private static final Logger LOG = LoggerFactory.getLogger(OllamaBackend.class);
    /** Ollama's default address. */
    public static final String DEFAULT_BASE_URL = "http://localhost:11434";

    private final OkHttpClient pullClient;
    private final @Nullable String keepAlive;
    private final boolean pullIfMissing;
    private final PullListener pullListener;

    private OllamaBackend(Builder b) {
        super(b, OllamaHttp::new);
        this.pullClient = http.client.newBuilder().callTimeout(Duration.ZERO).build();
        this.keepAlive = b.keepAlive;
        this.pullIfMissing = b.pullIfMissing;
        this.pullListener = b.pullListener;
    }

    /** @return a builder for a server at {@value #DEFAULT_BASE_URL} */
    public static Builder builder() {
        return new Builder();
    }

    @Override
    public String name() {
        return "ollama";
    }

    @Override
    protected String chatPath() {
        return "/api/chat";
    }

    @Override
    protected ObjectNode chatBody(ChatRequest r, boolean stream) {
        ObjectNode body = chatMessages(r);
        body.put("stream", stream);
        ObjectNode options = body.putObject("options");
        options.put("num_ctx", r.contextWindow());
        options.put("num_predict", r.maxResponseTokens());
        options.put("temperature", r.temperature());
        Long s = seed(r);
        if (s != null) {
            options.put("seed", s);
        }
        if (keepAlive != null) {
            body.put("keep_alive", keepAlive);
        }
        return body;
    }

    @Override
    protected ChatResult reply(ChatRequest request, JsonNode reply, Duration elapsed) {
        JsonNode message = reply.get("message");
        if (message == null || !message.hasNonNull("content")) {
            throw http.protocolError("Ollama's /api/chat reply has no message.content: '"
                    + ModelHttp.abbreviate(reply.toString()) + "'", "", null);
        }
        return result(reply, message.get("content").asText(), request.model(), elapsed);
    }

    @Override
    protected LineStream.Reader streamReader(ChatRequest request) {
        return new ChatLines(request);
    }

    /** Pulls a missing model once and sends again, with {@code pullIfMissing}. */
    @Override
    protected <T> T send(ChatRequest request, Supplier<T> send) {
        return withPull(request.model(), send);
    }

    @Override
    protected ModelInfo fetchModelInfo(String model) {
        ObjectNode body = ModelHttp.MAPPER.createObjectNode().put("model", model);
        JsonNode show = withPull(model, () -> http.post("/api/show", body, model));
        int window = contextLength(show.path("model_info"));
        if (window < 1) {
            throw http.protocolError("Ollama's /api/show reply for '" + model + "' has no "
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
    @Override
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

    /** {@code llama3.2} matches {@code llama3.2:latest}, case-insensitively. */
    @Override
    protected boolean lists(List<String> available, String model) {
        return matches(available, model);
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

    @Override
    protected String missing(String model, List<String> available) {
        return "model '" + model + "' is not on the Ollama server at " + http.base
                + " (it is not in GET /api/tags); run: ollama pull " + model;
    }

    /** With {@code pullIfMissing}, pulls the model. */
    @Override
    protected boolean fetchMissing(String model) {
        if (!pullIfMissing) {
            return false;
        }
        LOG.info("model '{}' is not on {}; pulling it (pullIfMissing)", model, http.base);
        pull(model, pullListener);
        return true;
    }

    /** {@code GET /api/version}. */
    @Override
    protected @Nullable String serverVersion() {
        return http.get("/api/version").path("version").asText(null);
    }

    /** @return the HTTP client with this backend's time limits (for tests) */
    OkHttpClient httpClient() {
        return http.client;
    }

    /**
     * The token counter that learns this model's tokenizer from the prompt counts the server reports; pass it to
     * the pipeline ({@code RagPipeline.Builder.tokenCounter}) so budgets converge on the model's real counts.
     *
     * @param model a model
     * @return its counter, shared by every call for that model
     */
    @Override
    public CalibratedTokenCounter tokenCounter(String model) {
        // every Ollama counter is calibrated: this backend knows no exact tokenizer (exactCounter is not overridden)
        return (CalibratedTokenCounter) super.tokenCounter(model);
    }

    /**
     * Pulls a model ({@code POST /api/pull}, streamed), reporting each progress line. No whole-call time limit
     * applies: downloads take minutes.
     *
     * @param model    the model, e.g. {@code llama3.2}
     * @param listener receives progress
     * @throws ModelServerException when the server reports an error (e.g. no such model in the registry)
     */
    public void pull(String model, PullListener listener) {
        Objects.requireNonNull(model, "model");
        Objects.requireNonNull(listener, "listener");
        ObjectNode body = ModelHttp.MAPPER.createObjectNode().put("model", model).put("stream", true);
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
                    throw new ModelServerException(http.provider(), 200, error, "Ollama at " + http.base
                            + " could not pull '" + model + "': " + error, "check the model's name and tag at "
                            + "https://ollama.com/library");
                }
                status = n.path("status").asText("");
                listener.onProgress(new PullProgress(model, status, n.path("completed").asLong(0),
                        n.path("total").asLong(0)));
            }
            if (!"success".equals(status)) {
                throw http.protocolError("the pull of '" + model + "' from Ollama at " + http.base
                        + " ended without 'success' (last status '" + status + "')", "", null);
            }
        } catch (IOException e) {
            throw http.ioError(e);
        }
        forgetModelInfo(model);
    }

    /** Runs {@code call}; with {@code pullIfMissing}, pulls a missing model once and runs it again. */
    private <T> T withPull(String model, Supplier<T> call) {
        try {
            return call.get();
        } catch (ModelNotFoundException e) {
            if (!fetchMissing(model)) {
                throw e;
            }
            return call.get();
        }
    }

    private static ChatResult result(JsonNode last, String text, String model, Duration elapsed) {
        return new ChatResult(text, last.path("model").asText(model), finishReason(last.path("done_reason").asText("")),
                tokens(last, "prompt_eval_count"), tokens(last, "eval_count"), elapsed);
    }

    private JsonNode readLine(String line, String partial, String path) {
        try {
            return http.readJson(line, path + " (streamed)", partial);
        } catch (IOException e) {
            throw http.protocolError("Ollama sent a stream line that is not JSON: '" + ModelHttp.abbreviate(line)
                    + "'", partial, e);
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
                throw http.streamedError(n.get("error").asText(), null, partial.toString());
            }
            String token = n.path("message").path("content").asText("");
            if (!token.isEmpty()) {
                emit.accept(token);
            }
            return n.path("done").asBoolean(false) ? result(n, partial.toString(), request.model(),
                    Duration.ofNanos(System.nanoTime() - start)) : null;
        }
    }

    /** Configures an {@link OllamaBackend}. Not thread-safe. */
    public static final class Builder extends ModelServerBackend.Builder<Builder> {
        private @Nullable String keepAlive;
        private boolean pullIfMissing;
        private PullListener pullListener = p -> LOG.info("pull {}: {} {}/{}", p.model(), p.status(), p.completed(),
                p.total());

        private Builder() {
            super(OllamaHttp.EXAMPLE_URL, Duration.ofSeconds(5), Duration.ofMillis(250));
            config(OllamaConfig.defaults());
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
            Objects.requireNonNull(config, "config");
            return baseLayer(config.baseUrl(), config.timeout());
        }

        /** @param keepAlive how long the server keeps the model loaded, e.g. {@code 5m} or {@code -1} @return this */
        public Builder keepAlive(String keepAlive) {
            Objects.requireNonNull(keepAlive, "keepAlive");
            if (keepAlive.isBlank()) {
                throw new IllegalArgumentException("keepAlive must not be blank; e.g. 5m, 1h, or -1 (forever)");
            }
            this.keepAlive = keepAlive.strip();
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

        /** @return the backend */
        public OllamaBackend build() {
            return new OllamaBackend(this);
        }
    }
}
