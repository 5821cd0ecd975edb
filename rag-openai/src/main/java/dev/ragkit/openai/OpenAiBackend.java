package dev.ragkit.openai;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ragkit.error.ModelNotFoundException;
import dev.ragkit.error.RagException;
import dev.ragkit.generation.ChatRequest;
import dev.ragkit.generation.ChatResult;
import dev.ragkit.generation.LlmBackend;
import dev.ragkit.generation.ModelInfo;
import dev.ragkit.http.LineStream;
import dev.ragkit.http.ModelHttp;
import dev.ragkit.http.ModelProtocolException;
import dev.ragkit.http.ModelServerBackend;
import dev.ragkit.http.ModelServerException;
import dev.ragkit.tokens.TokenCounter;
import dev.ragkit.tokens.TokenCounters;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Supplier;
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
 *
 * <p>What every model-server backend shares (the client, streaming, the model list checks, calibration) is
 * {@link ModelServerBackend}'s; this class is the OpenAI protocol. Server errors are {@link ModelServerException}s,
 * replies that are not the protocol {@link ModelProtocolException}s.
 */
public final class OpenAiBackend extends ModelServerBackend<OpenAiHttp> {
    private final List<String> stop;
    private final boolean includeUsage;
    private final @Nullable Integer contextWindow;

    private OpenAiBackend(Builder b) {
        super(b, settings -> new OpenAiHttp(settings, b.apiKey != null ? b.apiKey : b.config.apiKey()));
        this.stop = b.stop;
        this.includeUsage = b.includeUsage;
        this.contextWindow = b.contextWindow != null ? b.contextWindow : b.config.contextWindow();
    }

    /** @return a builder for OpenAI's API ({@value OpenAiConfig#DEFAULT_BASE_URL}) */
    public static Builder builder() {
        return new Builder();
    }

    @Override
    public String name() {
        return "openai";
    }

    @Override
    protected String chatPath() {
        return "/chat/completions";
    }

    @Override
    protected ObjectNode chatBody(ChatRequest r, boolean stream) {
        ObjectNode body = chatMessages(r);
        body.put("max_tokens", r.maxResponseTokens());
        body.put("temperature", r.temperature());
        Long s = seed(r);
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

    @Override
    protected ChatResult reply(ChatRequest request, JsonNode reply, Duration elapsed) {
        JsonNode choice = reply.path("choices").path(0);
        JsonNode message = choice.path("message");
        if (!message.isObject()) {
            throw http.protocolError("the reply of " + http.server() + " to chat/completions has no "
                    + "choices[0].message: '" + ModelHttp.abbreviate(reply.toString()) + "'", "", null);
        }
        String text = message.path("content").isTextual() ? message.path("content").asText()
                : message.path("refusal").asText("");
        return new ChatResult(text, reply.path("model").asText(request.model()),
                finishReason(choice.path("finish_reason").asText("")), tokens(reply.path("usage"), "prompt_tokens"),
                tokens(reply.path("usage"), "completion_tokens"), elapsed);
    }

    @Override
    protected LineStream.Reader streamReader(ChatRequest request) {
        return new Events(request);
    }

    @Override
    protected ModelInfo fetchModelInfo(String model) {
        Optional<ModelInfo> known = OpenAiModels.lookup(model);
        if (known.isPresent()) {
            return known.get();
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
        return new ModelInfo(model, window, Math.max(1, Math.min(4096, window / 4)));
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
    @Override
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

    @Override
    protected String missing(String model, List<String> available) {
        return "model '" + model + "' is not on the OpenAI-compatible server at " + http.base + "; it has: "
                + listed(available);
    }

    private static String listed(List<String> available) {
        return available.isEmpty() ? "none" : String.join(", ", available.size() <= 20 ? available
                : available.subList(0, 20)) + (available.size() > 20 ? ", … (" + available.size() + " in all)" : "");
    }

    /** Exact counting (jtokkit) for OpenAI's model families. */
    @Override
    protected Optional<TokenCounter> exactCounter(String model) {
        return OpenAiModels.encoding(model).map(e -> TokenCounters.cached(TokenCounters.jtokkit(e), 10_000));
    }

    /** Runs a call, giving an unknown model the server's list and a context that is too long the budget's numbers. */
    @Override
    protected <T> T send(ChatRequest request, Supplier<T> call) {
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
        } catch (ModelServerException e) {
            if (e.status() != 400 || !OpenAiHttp.isContextTooLong((e.serverError() + " " + e.code())
                    .toLowerCase(Locale.ROOT))) {
                throw e;
            }
            throw new ModelServerException(e.provider(), 400, e.code(), e.serverError(), "the request is longer than "
                    + "model '" + request.model() + "' on " + http.server() + " takes (" + e.serverError() + ")",
                    "RagKit budgeted a context window of " + request.contextWindow() + " tokens with "
                    + request.maxResponseTokens() + " reserved for the answer: set RAG_CONTEXT_WINDOW (or "
                    + "OpenAiBackend.builder().contextWindow(...)) to the window the server really runs the model "
                    + "with, or lower the response reserve", "");
        }
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
                throw http.protocolError(http.server() + " sent an event that is not JSON: '"
                        + ModelHttp.abbreviate(data) + "'", partial.toString(), e);
            }
            if (chunk.hasNonNull("error")) {
                throw http.streamedError(http.scrub(ModelHttp.errorText(data)), OpenAiHttp.errorCode(data),
                        partial.toString());
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
                promptTokens = tokens(usage, "prompt_tokens");
                completionTokens = tokens(usage, "completion_tokens");
            }
            return null;
        }

        private ChatResult result(String text) {
            return new ChatResult(text, model != null ? model : request.model(),
                    finishReason(String.valueOf(finishReason)), promptTokens, completionTokens,
                    Duration.ofNanos(System.nanoTime() - start));
        }

        @Override
        public @Nullable ChatResult ended(String partial) {
            return finishReason != null ? result(partial) : null;   // a server that ends without [DONE]
        }
    }

    /** Configures an {@link OpenAiBackend}. Not thread-safe. */
    public static final class Builder extends ModelServerBackend.Builder<Builder> {
        private OpenAiConfig config;
        private @Nullable String apiKey;
        private List<String> stop = List.of();
        private boolean includeUsage = true;
        private @Nullable Integer contextWindow;

        private Builder() {
            super(OpenAiHttp.EXAMPLE_URL, Duration.ofSeconds(10), Duration.ofMillis(500));
            config(OpenAiConfig.defaults());
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
            return baseLayer(config.baseUrl(), config.timeout());
        }

        /** @param key the API key, sent as a bearer token and never shown @return this builder */
        public Builder apiKey(String key) {
            this.apiKey = requireKey(key);
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

        /** @return the backend */
        public OpenAiBackend build() {
            return new OpenAiBackend(this);
        }
    }
}
