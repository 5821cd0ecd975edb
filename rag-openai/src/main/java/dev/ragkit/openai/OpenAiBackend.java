package dev.ragkit.openai;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ragkit.budget.BudgetLimits;
import dev.ragkit.error.ModelNotFoundException;
import dev.ragkit.error.RagException;
import dev.ragkit.generation.Cancellable;
import dev.ragkit.generation.ChatMessage;
import dev.ragkit.generation.ChatRequest;
import dev.ragkit.generation.ChatResult;
import dev.ragkit.generation.FinishReason;
import dev.ragkit.generation.HealthStatus;
import dev.ragkit.generation.LlmBackend;
import dev.ragkit.generation.ModelInfo;
import dev.ragkit.generation.StreamHandler;
import dev.ragkit.http.HttpSettings;
import dev.ragkit.http.LineStream;
import dev.ragkit.http.ModelHttp;
import dev.ragkit.internal.Settings;
import dev.ragkit.tokens.CalibratedTokenCounter;
import dev.ragkit.tokens.TokenCounter;
import dev.ragkit.tokens.TokenCounters;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.function.Consumer;
import java.util.function.Supplier;
import okhttp3.HttpUrl;
import org.jspecify.annotations.Nullable;

/**
 * An {@link LlmBackend} on the OpenAI chat completions protocol, for OpenAI and every server that speaks it (vLLM,
 * llama.cpp's server, LM Studio, LocalAI, Ollama's {@code /v1}). Thread-safe; build one per server and share it.
 *
 * <pre>{@code
 * OpenAiBackend openai = OpenAiBackend.builder().config(OpenAiConfig.fromEnvironment(System.getenv())).build();
 * RagPipeline rag = RagPipeline.builder().backend(openai).model("gpt-4o-mini")...build();
 * }</pre>
 *
 * <ul>
 *   <li>{@code POST /chat/completions}, whole or streamed (server-sent events, each token reaching the handler as
 *       its event arrives, until {@code data: [DONE]}), with {@code max_tokens} = the budget's response reserve,
 *       {@code temperature}, {@code seed} and {@code stop}; {@code GET /models} for the model list and health.</li>
 *   <li>The API key goes in an {@code Authorization: Bearer} header and nowhere else: not in messages, logs,
 *       {@code toString()} or audit records.</li>
 *   <li>Context windows: OpenAI's model families from a table (with exact token counts through jtokkit's
 *       {@code o200k_base} or {@code cl100k_base}); other models from the server's model list where it says
 *       (vLLM's {@code max_model_len}, llama.cpp's {@code meta.n_ctx_train}), else the configured
 *       {@code RAG_CONTEXT_WINDOW}; their token counts are calibrated from the {@code usage.prompt_tokens} each
 *       reply reports.</li>
 *   <li>Errors say what to do: 401 set the key, 404 an unknown model (naming the models the server has), 400 a
 *       context that is too long (with the budget's numbers), 429 rate limited, 5xx the server, a time limit, a
 *       reply that is not the protocol, a stream cut off (its partial text kept). Connection failures and
 *       429/502/503 are retried with exponential backoff, never after a token was delivered.</li>
 * </ul>
 */
public final class OpenAiBackend implements LlmBackend, AutoCloseable {
    private final OpenAiHttp http;
    private final boolean ownsClient;
    private final Executor executor;
    private final @Nullable Long seed;
    private final List<String> stop;
    private final boolean includeUsage;
    private final @Nullable Integer contextWindow;
    private final TokenCounter localCounter;
    private final Map<String, ModelInfo> modelInfo = new ConcurrentHashMap<>();
    private final Map<String, TokenCounter> counters = new ConcurrentHashMap<>();

    private OpenAiBackend(Builder b) {
        HttpSettings.Resolved settings = b.resolve(b.config.timeout());
        this.ownsClient = settings.ownsClient();
        this.http = new OpenAiHttp(settings.client(), Settings.layered(b.baseUrl, parseBaseUrl(
                b.config.baseUrl().toString())), settings.maxRetries(), settings.backoff(),
                b.apiKey != null ? b.apiKey : b.config.apiKey());
        this.executor = settings.executor();
        this.seed = b.seed;
        this.stop = b.stop;
        this.includeUsage = b.includeUsage;
        this.contextWindow = b.contextWindow != null ? b.contextWindow : b.config.contextWindow();
        this.localCounter = b.localCounter;
    }

    /** @return a builder for OpenAI's API ({@value OpenAiConfig#DEFAULT_BASE_URL}) */
    public static Builder builder() {
        return new Builder();
    }

    static HttpUrl parseBaseUrl(String url) {
        return ModelHttp.parseBaseUrl(url, "https://api.openai.com/v1 or http://localhost:8000/v1");
    }

    @Override
    public String name() {
        return "openai";
    }

    /** @return the server's base URL */
    public URI baseUrl() {
        return http.base.uri();
    }

    @Override
    public ChatResult chat(ChatRequest request) {
        Objects.requireNonNull(request, "request");
        long start = System.nanoTime();
        JsonNode reply = explained(request, () -> http.post("/chat/completions", body(request, false),
                request.model()));
        JsonNode choice = reply.path("choices").path(0);
        JsonNode message = choice.path("message");
        if (!message.isObject()) {
            throw new OpenAiProtocolException("the reply of " + http.base + "chat/completions has no "
                    + "choices[0].message: '" + ModelHttp.abbreviate(reply.toString()) + "'", "", null);
        }
        String text = message.path("content").isTextual() ? message.path("content").asText()
                : message.path("refusal").asText("");
        ChatResult result = new ChatResult(text, reply.path("model").asText(request.model()),
                finish(choice.path("finish_reason").asText("")), count(reply.path("usage"), "prompt_tokens"),
                count(reply.path("usage"), "completion_tokens"), Duration.ofNanos(System.nanoTime() - start));
        calibrate(request, result);
        return result;
    }

    @Override
    public Cancellable stream(ChatRequest request, StreamHandler handler) {
        Objects.requireNonNull(request, "request");
        Objects.requireNonNull(handler, "handler");
        LineStream call = new LineStream(http, http.post("/chat/completions", body(request, true)),
                request.model(), handler, new Events(request), open -> explained(request, open));
        executor.execute(call);
        return call;
    }

    @Override
    public ModelInfo modelInfo(String model) {
        Objects.requireNonNull(model, "model");
        Optional<ModelInfo> known = OpenAiModels.lookup(model);
        if (known.isPresent()) {
            return known.get();
        }
        ModelInfo cached = modelInfo.get(model);
        if (cached != null) {
            return cached;
        }
        int window = listedWindow(model);
        if (window < 1) {
            if (contextWindow == null) {
                throw new RagException("the context window of model '" + model + "' is not known (it is not one of "
                        + "OpenAI's models, and " + http.base + "models does not say); set RAG_CONTEXT_WINDOW or "
                        + "OpenAiBackend.builder().contextWindow(...) to the window the server runs it with");
            }
            window = contextWindow;
        }
        ModelInfo info = new ModelInfo(model, window, Math.max(1, Math.min(4096, window / 4)));
        modelInfo.put(model, info);
        return info;
    }

    /** The window the server's model list gives (vLLM's max_model_len, llama.cpp's meta.n_ctx_train), or 0. */
    private int listedWindow(String model) {
        for (JsonNode m : http.get("/models").path("data")) {
            if (model.equals(m.path("id").asText())) {
                for (JsonNode n : new JsonNode[] {m.path("max_model_len"), m.path("context_length"),
                        m.path("meta").path("n_ctx_train")}) {
                    if (n.canConvertToInt() && n.asInt() > 0) {
                        return n.asInt();
                    }
                }
            }
        }
        return 0;
    }

    /** @return the ids of the models the server lists ({@code GET /models}) */
    public List<String> availableModels() {
        List<String> ids = new ArrayList<>();
        for (JsonNode m : http.get("/models").path("data")) {
            String id = m.path("id").asText("");
            if (!id.isEmpty()) {
                ids.add(id);
            }
        }
        return ids;
    }

    /**
     * Checks the server's model list before a request does any work.
     *
     * @param model the model id, as the server lists it
     * @throws ModelNotFoundException naming the models the server has
     */
    @Override
    public void requireModel(String model) {
        Objects.requireNonNull(model, "model");
        List<String> available = availableModels();
        if (!available.contains(model)) {
            throw notFound(model, available);
        }
    }

    private ModelNotFoundException notFound(String model, List<String> available) {
        return new ModelNotFoundException("model '" + model + "' is not on the OpenAI-compatible server at "
                + http.base + "; it has: " + listed(available));
    }

    private static String listed(List<String> available) {
        return available.isEmpty() ? "none" : String.join(", ", available.size() <= 20 ? available
                : available.subList(0, 20)) + (available.size() > 20 ? ", … (" + available.size() + " in all)" : "");
    }

    @Override
    public HealthStatus health(String model) {
        Objects.requireNonNull(model, "model");
        long start = System.nanoTime();
        List<String> available;
        try {
            available = availableModels();
        } catch (RagException e) {
            return new HealthStatus(false, false, Duration.ofNanos(System.nanoTime() - start), null, e.getMessage());
        }
        Duration latency = Duration.ofNanos(System.nanoTime() - start);
        boolean present = available.contains(model);
        return new HealthStatus(true, present, latency, null, present ? http.base + " serves " + model
                : notFound(model, available).getMessage());
    }

    @Override
    public Optional<TokenCounter> tokenCounterFor(String model) {
        return Optional.of(tokenCounter(model));
    }

    /**
     * @param model a model
     * @return exact counting (jtokkit) for OpenAI's model families; otherwise a counter calibrated by the prompt
     *         counts the server reports for that model
     */
    public TokenCounter tokenCounter(String model) {
        Objects.requireNonNull(model, "model");
        return counters.computeIfAbsent(model, m -> OpenAiModels.encoding(m)
                .<TokenCounter>map(e -> TokenCounters.cached(TokenCounters.jtokkit(e), 10_000))
                .orElseGet(() -> new CalibratedTokenCounter(localCounter, 0.05)));
    }

    /** Runs a call, giving an unknown model the server's list and a context that is too long the budget's numbers. */
    private <T> T explained(ChatRequest request, Supplier<T> call) {
        try {
            return call.get();
        } catch (OpenAiHttp.ModelMissing e) {
            List<String> available;
            try {
                available = availableModels();
            } catch (RagException listing) {
                throw e;
            }
            if (available.contains(e.model)) {
                // listed, yet refused by name: a key without access to it (OpenAI says "does not exist" then too)
                throw new ModelNotFoundException(http.url("/models") + " lists model '" + e.model + "', but " + e.url
                        + " answered HTTP 404 (" + e.serverError + "); check that the API key may use this model (its "
                        + "project's model permissions)", e);
            }
            throw new ModelNotFoundException("model '" + e.model + "' not found: " + e.url + " answered HTTP 404 ("
                    + e.serverError + "); use one the server has: " + listed(available), e);
        } catch (OpenAiServerException e) {
            if (e.status() != 400 || !OpenAiHttp.isContextTooLong((e.serverError() + " " + e.code())
                    .toLowerCase(Locale.ROOT))) {
                throw e;
            }
            throw new OpenAiServerException("the request is longer than model '" + request.model() + "' takes ("
                    + e.serverError() + "); RagKit budgeted a context window of " + request.contextWindow()
                    + " tokens with " + request.maxResponseTokens() + " reserved for the answer: set RAG_CONTEXT_WINDOW"
                    + " (or OpenAiBackend.builder().contextWindow(...)) to the window the server really runs the model "
                    + "with, or lower the response reserve", 400, e.code(), e.serverError(), "");
        }
    }

    private ObjectNode body(ChatRequest r, boolean stream) {
        ObjectNode body = ModelHttp.MAPPER.createObjectNode();
        body.put("model", r.model());
        ArrayNode messages = body.putArray("messages");
        for (ChatMessage m : r.messages()) {
            messages.addObject().put("role", m.role().wireName()).put("content", m.content());
        }
        body.put("max_tokens", r.maxResponseTokens());
        body.put("temperature", r.temperature());
        Long s = r.seed() != null ? r.seed() : seed;
        if (s != null) {
            body.put("seed", s);
        }
        if (!stop.isEmpty()) {
            ArrayNode list = body.putArray("stop");
            stop.forEach(list::add);
        }
        body.put("stream", stream);
        if (stream && includeUsage) {
            body.putObject("stream_options").put("include_usage", true);
        }
        return body;
    }

    static FinishReason finish(String reason) {
        return "stop".equals(reason) ? FinishReason.STOP : "length".equals(reason) ? FinishReason.LENGTH
                : FinishReason.OTHER;
    }

    private static @Nullable Integer count(JsonNode usage, String field) {
        JsonNode n = usage.get(field);
        return n != null && n.canConvertToInt() && n.asInt() >= 0 ? n.asInt() : null;
    }

    /** Teaches a calibrated counter from the prompt count the server reported (exact counters need nothing). */
    private void calibrate(ChatRequest request, ChatResult result) {
        Integer reported = result.promptTokens();
        if (reported == null || !(tokenCounter(request.model()) instanceof CalibratedTokenCounter calibrated)) {
            return;
        }
        int local = 0;
        for (ChatMessage m : request.messages()) {
            local += localCounter.count(m.content()) + BudgetLimits.DEFAULT_MESSAGE_OVERHEAD;
        }
        calibrated.observe(local, reported);
    }

    /** Closes the HTTP client's threads and connections when the backend created the client. */
    @Override
    public void close() {
        if (ownsClient) {
            ModelHttp.release(http.client);
        }
    }

    @Override
    public String toString() {
        return "OpenAiBackend[" + http.base + "]";
    }

    /** Server-sent events of one streamed answer: {@code data:} chunks, {@code data: [DONE]} at the end. */
    private final class Events implements LineStream.Reader {
        private final ChatRequest request;
        private final long start = System.nanoTime();
        private @Nullable String finishReason;
        private @Nullable Integer promptTokens;
        private @Nullable Integer completionTokens;
        private @Nullable String model;

        Events(ChatRequest request) {
            this.request = request;
        }

        @Override
        public @Nullable ChatResult read(String line, CharSequence partial, Consumer<String> emit) {
            if (!line.startsWith("data:")) {
                return null;                        // comments (":"), event:, id: and retry: lines
            }
            String data = line.substring(5).strip();
            if (data.equals("[DONE]")) {
                return result(partial.toString());
            }
            JsonNode chunk;
            try {
                chunk = http.readJson(data, http.url("/chat/completions").encodedPath() + " (streamed)",
                        partial.toString());
            } catch (IOException e) {
                throw new OpenAiProtocolException("the server sent an event that is not JSON: '"
                        + ModelHttp.abbreviate(data) + "'", partial.toString(), e);
            }
            if (chunk.hasNonNull("error")) {
                String error = http.scrub(ModelHttp.errorText(data));
                throw new OpenAiServerException("the server reported an error in the middle of the answer: " + error
                        + " (" + partial.length() + " characters were streamed before it)", 200,
                        OpenAiHttp.errorCode(data), error, partial.toString());
            }
            if (chunk.hasNonNull("model")) {
                model = chunk.get("model").asText();
            }
            for (JsonNode choice : chunk.path("choices")) {
                String token = choice.path("delta").path("content").asText("");
                if (!token.isEmpty()) {
                    emit.accept(token);
                }
                if (choice.hasNonNull("finish_reason")) {
                    finishReason = choice.get("finish_reason").asText();
                }
            }
            JsonNode usage = chunk.path("usage");
            if (usage.isObject()) {
                promptTokens = count(usage, "prompt_tokens");
                completionTokens = count(usage, "completion_tokens");
            }
            return null;
        }

        private ChatResult result(String text) {
            ChatResult result = new ChatResult(text, model != null ? model : request.model(),
                    finish(String.valueOf(finishReason)), promptTokens, completionTokens,
                    Duration.ofNanos(System.nanoTime() - start));
            calibrate(request, result);
            return result;
        }

        @Override
        public @Nullable ChatResult ended(String partial) {
            return finishReason != null ? result(partial) : null;   // a server that ends without [DONE]
        }
    }

    /** Configures an {@link OpenAiBackend}. Not thread-safe. */
    public static final class Builder extends HttpSettings<Builder> {
        private OpenAiConfig config = OpenAiConfig.defaults();
        private @Nullable HttpUrl baseUrl;
        private @Nullable String apiKey;
        private @Nullable Long seed;
        private List<String> stop = List.of();
        private boolean includeUsage = true;
        private @Nullable Integer contextWindow;
        private TokenCounter localCounter = TokenCounters.cached(TokenCounters.jtokkit(), 10_000);

        private Builder() {
            super(Duration.ofSeconds(10), Duration.ofMillis(500));
        }

        @Override
        protected Builder self() {
            return this;
        }

        static String requireKey(String key) {
            Objects.requireNonNull(key, "apiKey");
            if (key.isBlank() || key.chars().anyMatch(c -> c < 0x21 || c > 0x7e)) {
                throw new IllegalArgumentException("the API key must be printable ASCII without spaces (it goes in an "
                        + "HTTP header)");
            }
            return key;
        }

        static int requireWindow(int tokens) {
            if (tokens < OpenAiConfig.MIN_WINDOW || tokens > OpenAiConfig.MAX_WINDOW) {
                throw new IllegalArgumentException("contextWindow must be from " + OpenAiConfig.MIN_WINDOW + " to "
                        + OpenAiConfig.MAX_WINDOW + " tokens, got " + tokens);
            }
            return tokens;
        }

        /**
         * The base layer: base URL, API key, time limit and context window from {@link OpenAiConfig}. Values set
         * on this builder win over it, before or after this call.
         *
         * @param config e.g. {@link OpenAiConfig#fromEnvironment(Map)}
         * @return this builder
         */
        public Builder config(OpenAiConfig config) {
            this.config = Objects.requireNonNull(config, "config");
            return this;
        }

        /** @param url the API's base, including its version path, e.g. {@code http://localhost:8000/v1} @return this */
        public Builder baseUrl(String url) {
            this.baseUrl = parseBaseUrl(url);
            return this;
        }

        /** @param key the API key, sent as a bearer token and never shown @return this builder */
        public Builder apiKey(String key) {
            this.apiKey = requireKey(key);
            return this;
        }




        /** @param seed the seed of every request that names none (servers that support it repeat answers) @return this */
        public Builder seed(long seed) {
            this.seed = seed;
            return this;
        }

        /** @param sequences up to 4 stop sequences, none blank @return this builder */
        public Builder stop(List<String> sequences) {
            List<String> copy = List.copyOf(Objects.requireNonNull(sequences, "sequences"));
            if (copy.size() > 4 || copy.stream().anyMatch(String::isEmpty)) {
                throw new IllegalArgumentException("stop takes up to 4 non-empty sequences, got " + copy.size());
            }
            this.stop = copy;
            return this;
        }

        /**
         * @param include whether streamed requests ask for token usage ({@code stream_options.include_usage}); on
         *                by default; turn it off for a server that rejects the option
         * @return this builder
         */
        public Builder includeUsage(boolean include) {
            this.includeUsage = include;
            return this;
        }

        /** @param tokens the context window of models the backend does not know @return this builder */
        public Builder contextWindow(int tokens) {
            this.contextWindow = requireWindow(tokens);
            return this;
        }





        /** @param counter the local counter that calibrated counters scale (default cached cl100k_base) @return this */
        public Builder localTokenCounter(TokenCounter counter) {
            this.localCounter = Objects.requireNonNull(counter, "counter");
            return this;
        }

        /** @return the backend */
        public OpenAiBackend build() {
            return new OpenAiBackend(this);
        }
    }
}
