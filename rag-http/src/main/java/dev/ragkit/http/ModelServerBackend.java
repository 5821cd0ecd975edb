package dev.ragkit.http;

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
import dev.ragkit.generation.KnownModels;
import dev.ragkit.generation.LlmBackend;
import dev.ragkit.generation.ModelInfo;
import dev.ragkit.generation.StreamHandler;
import dev.ragkit.tokens.CalibratedTokenCounter;
import dev.ragkit.tokens.TokenCounter;
import dev.ragkit.tokens.TokenCounters;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * What every model-server {@link LlmBackend} shares, so that each backend writes only its wire protocol: the
 * HTTP client and whether it is ours to close, the executor that runs streamed answers, one chat call and one
 * streamed call (with the server's dialect in {@link ModelHttp}, and stream ends in {@link LineStream}), the model
 * list behind {@link #requireModel} and {@link #health}, a cache of model limits, and a token counter per model that
 * learns the model's tokenizer from the prompt counts the server reports.
 *
 * <p>A backend supplies its paths and bodies ({@link #chatPath()}, {@link #chatBody}), how a whole reply and a
 * stream's lines read ({@link #reply}, {@link #streamReader}), how its model list and model limits are asked for
 * ({@link #availableModels()}, {@link #fetchModelInfo}) and what to say of a missing model ({@link #missing}).
 * Calibration is done here for every result, whole or streamed, so no backend can forget it.
 *
 * <p>For RagKit's own backends ({@code OllamaBackend}, {@code OpenAiBackend}); not an API for applications, which use
 * those. Thread-safe once built.
 *
 * @param <H> the server's HTTP dialect
 */
public abstract class ModelServerBackend<H extends ModelHttp> implements LlmBackend, AutoCloseable {
    /** The server: its HTTP client, base URL and error dialect. */
    protected final H http;
    private final boolean ownsClient;
    private final Executor executor;
    private final @Nullable Long seed;
    private final TokenCounter localCounter;
    private final double calibrationMargin;
    private final Map<String, ModelInfo> modelInfo = new ConcurrentHashMap<>();
    private final Map<String, TokenCounter> counters = new ConcurrentHashMap<>();

    /**
     * @param builder the backend's settings
     * @param http    makes the server's dialect from the resolved HTTP settings
     */
    protected ModelServerBackend(Builder<?> builder, Function<HttpSettings.Resolved, H> http) {
        HttpSettings.Resolved settings = builder.resolve();
        this.http = Objects.requireNonNull(http.apply(settings), "http");
        this.ownsClient = settings.ownsClient();
        this.executor = builder.executor != null ? builder.executor
                : settings.client().dispatcher().executorService();
        this.seed = builder.seed;
        this.localCounter = builder.localCounter;
        this.calibrationMargin = builder.calibrationMargin;
    }

    // ---------------------------------------------------------------------------------------------------------
    // The wire protocol: what each backend writes

    /** @return the chat API's path, e.g. {@code /api/chat} */
    protected abstract String chatPath();

    /**
     * @param request the call
     * @param stream  whether the answer is to be streamed
     * @return the chat request's JSON body (start from {@link #chatMessages})
     */
    protected abstract ObjectNode chatBody(ChatRequest request, boolean stream);

    /**
     * @param request the call
     * @param reply   the server's whole reply
     * @param elapsed how long the call took
     * @return the result, before calibration (done here)
     * @throws RagException ({@link ModelHttp#protocolError}) when the reply is not the protocol
     */
    protected abstract ChatResult reply(ChatRequest request, JsonNode reply, Duration elapsed);

    /**
     * @param request the call
     * @return a reader of one streamed answer's lines; the results it returns are calibrated here
     */
    protected abstract LineStream.Reader streamReader(ChatRequest request);

    /**
     * Sends one chat call, whole or the opening of a stream. Override to recover from a failure before any token
     * arrived: pull a missing model and send again, or explain an error with what the backend knows.
     *
     * @param request the call
     * @param send    sends it
     * @param <T>     what sending returns
     * @return what {@code send} returns
     */
    protected <T> T send(ChatRequest request, Supplier<T> send) {
        return send.get();
    }

    /**
     * @param model a model
     * @return its context window and response limit, asked of the server (cached by {@link #modelInfo})
     */
    protected abstract ModelInfo fetchModelInfo(String model);

    /** @return the names of the models the server has, as it lists them */
    public abstract List<String> availableModels();

    /**
     * @param model     a model the server does not list
     * @param available what it lists
     * @return what to say, and how to get the model
     */
    protected abstract String missing(String model, List<String> available);

    /**
     * @param available the server's models
     * @param model     a model name
     * @return whether the list holds it; exact by default
     */
    protected boolean lists(List<String> available, String model) {
        return available.contains(model);
    }

    /**
     * Gets a model the server does not have, where the backend can (Ollama pulls it when asked to); by default it
     * cannot.
     *
     * @param model the model
     * @return whether the server has it now
     */
    protected boolean fetchMissing(String model) {
        return false;
    }

    /**
     * The server's version, for {@link #health}: the first contact, whose failure means "unreachable". By default
     * there is no version to ask for and the model list is the first contact.
     *
     * @return the version, or {@code null} when the server does not say
     * @throws RagException when the server cannot be reached
     */
    protected @Nullable String serverVersion() {
        return null;
    }

    /**
     * An exact counter for a model whose tokenizer is known; by default none, so every model's counter is calibrated.
     *
     * @param model the model
     * @return the exact counter, or empty
     */
    protected Optional<TokenCounter> exactCounter(String model) {
        return Optional.empty();
    }

    // ---------------------------------------------------------------------------------------------------------
    // What they share

    /** @return the server's base URL */
    public URI baseUrl() {
        return http.base.uri();
    }

    @Override
    public final ChatResult chat(ChatRequest request) {
        Objects.requireNonNull(request, "request");
        long start = System.nanoTime();
        JsonNode reply = send(request, () -> http.post(chatPath(), chatBody(request, false), request.model()));
        return calibrated(request, reply(request, reply, Duration.ofNanos(System.nanoTime() - start)));
    }

    @Override
    public final Cancellable stream(ChatRequest request, StreamHandler handler) {
        Objects.requireNonNull(request, "request");
        Objects.requireNonNull(handler, "handler");
        LineStream call = new LineStream(http, http.post(chatPath(), chatBody(request, true)), request.model(),
                handler, new Calibrating(request, streamReader(request)), open -> send(request, open));
        executor.execute(call);
        return call;
    }

    /** The model's limits: cached per model (case and {@code :latest} aside) once the server said. */
    @Override
    public final ModelInfo modelInfo(String model) {
        Objects.requireNonNull(model, "model");
        String key = KnownModels.canonical(model);
        ModelInfo known = modelInfo.get(key);
        if (known != null) {
            return known;
        }
        // Not computeIfAbsent: fetching may take long (Ollama may pull the model inside, and that clears this cache).
        ModelInfo info = fetchModelInfo(model);
        ModelInfo raced = modelInfo.putIfAbsent(key, info);
        return raced != null ? raced : info;
    }

    /**
     * Drops a model's cached limits, e.g. after the model was replaced.
     *
     * @param model the model
     */
    protected final void forgetModelInfo(String model) {
        modelInfo.remove(KnownModels.canonical(model));
    }

    /**
     * @param model a model name
     * @return whether the server lists it ({@link #lists})
     */
    public boolean isAvailable(String model) {
        return lists(availableModels(), Objects.requireNonNull(model, "model"));
    }

    /**
     * Checks the server's model list before a request does any work; a missing model is fetched where the backend
     * can ({@link #fetchMissing}).
     *
     * @param model the model
     * @throws ModelNotFoundException when the server does not have it; the message says how to get it
     * @throws dev.ragkit.error.LlmUnavailableException when the server cannot be reached
     */
    @Override
    public final void requireModel(String model) {
        Objects.requireNonNull(model, "model");
        List<String> available = availableModels();
        if (!lists(available, model) && !fetchMissing(model)) {
            throw new ModelNotFoundException(missing(model, available));
        }
    }

    /**
     * Contacts the server ({@link #serverVersion()}, else the model list), then checks the model is listed. Never
     * throws for a server that cannot be reached or answers with an error: that is the status' detail.
     */
    @Override
    public final HealthStatus health(String model) {
        Objects.requireNonNull(model, "model");
        long start = System.nanoTime();
        String version;
        List<String> available = null;
        try {
            version = serverVersion();
            if (version == null) {
                available = availableModels();
            }
        } catch (RagException e) {
            return new HealthStatus(false, false, Duration.ofNanos(System.nanoTime() - start), null, e.getMessage());
        }
        Duration latency = Duration.ofNanos(System.nanoTime() - start);
        try {
            if (available == null) {
                available = availableModels();
            }
        } catch (RagException e) {
            return new HealthStatus(true, false, latency, version, "listing models failed: " + e.getMessage());
        }
        boolean present = lists(available, model);
        return new HealthStatus(true, present, latency, version, present ? http.server()
                + (version != null ? " (version " + version + ")" : "") + " serves " + model
                : missing(model, available));
    }

    /** @return the model's counter ({@link #tokenCounter(String)}): the pipeline budgets the model with it */
    @Override
    public Optional<TokenCounter> tokenCounterFor(String model) {
        return Optional.of(tokenCounter(model));
    }

    /**
     * The model's token counter: exact where the backend knows the tokenizer, else one that learns it from the
     * prompt counts the server reports (pass it to the pipeline so budgets converge on the model's real counts).
     *
     * @param model a model
     * @return its counter, shared by every call for that model (case and {@code :latest} aside)
     */
    public TokenCounter tokenCounter(String model) {
        Objects.requireNonNull(model, "model");
        return counters.computeIfAbsent(KnownModels.canonical(model), key -> exactCounter(model)
                .orElseGet(() -> new CalibratedTokenCounter(localCounter, calibrationMargin)));
    }

    /** Teaches a calibrated counter from the prompt count the server reported (exact counters need nothing). */
    private ChatResult calibrated(ChatRequest request, ChatResult result) {
        Integer reported = result.promptTokens();
        if (reported != null && tokenCounter(request.model()) instanceof CalibratedTokenCounter calibrated) {
            // The same per-message allowance for the chat template as the budget's, so that the learned ratio is
            // about the tokenizer rather than the template.
            int local = 0;
            for (ChatMessage m : request.messages()) {
                local += localCounter.count(m.content()) + BudgetLimits.DEFAULT_MESSAGE_OVERHEAD;
            }
            calibrated.observe(local, reported);
        }
        return result;
    }

    /**
     * The start of every chat body: the model and the messages.
     *
     * @param request the call
     * @return a body with {@code model} and {@code messages} ({@code role}, {@code content})
     */
    protected static ObjectNode chatMessages(ChatRequest request) {
        ObjectNode body = ModelHttp.MAPPER.createObjectNode();
        body.put("model", request.model());
        ArrayNode messages = body.putArray("messages");
        for (ChatMessage m : request.messages()) {
            messages.addObject().put("role", m.role().wireName()).put("content", m.content());
        }
        return body;
    }

    /**
     * @param request the call
     * @return its seed, else the backend's, else {@code null}
     */
    protected final @Nullable Long seed(ChatRequest request) {
        return request.seed() != null ? request.seed() : seed;
    }

    /**
     * @param node  a reply or its usage object
     * @param field a token count's field, e.g. {@code prompt_eval_count}
     * @return the count, or {@code null} when it is missing or not a count
     */
    protected static @Nullable Integer tokens(JsonNode node, String field) {
        JsonNode n = node.get(field);
        return n != null && n.canConvertToInt() && n.asInt() >= 0 ? n.asInt() : null;
    }

    /**
     * @param reason the server's finish reason, e.g. {@code stop}
     * @return it as RagKit's
     */
    protected static FinishReason finishReason(String reason) {
        return "stop".equals(reason) ? FinishReason.STOP : "length".equals(reason) ? FinishReason.LENGTH
                : FinishReason.OTHER;
    }

    /** Closes the HTTP client's threads and connections when the backend created the client; a shared one stays. */
    @Override
    public void close() {
        if (ownsClient) {
            ModelHttp.release(http.client);
        }
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "[" + http.base + "]";
    }

    /** Calibrates the result of a streamed answer, however it ended. */
    private final class Calibrating implements LineStream.Reader {
        private final ChatRequest request;
        private final LineStream.Reader reader;

        Calibrating(ChatRequest request, LineStream.Reader reader) {
            this.request = request;
            this.reader = Objects.requireNonNull(reader, "reader");
        }

        @Override
        public @Nullable ChatResult read(String line, CharSequence partial, Consumer<String> emit) {
            ChatResult result = reader.read(line, partial, emit);
            return result == null ? null : calibrated(request, result);
        }

        @Override
        public @Nullable ChatResult ended(String partial) {
            ChatResult result = reader.ended(partial);
            return result == null ? null : calibrated(request, result);
        }
    }

    /**
     * The settings every model-server backend's builder has, over {@link HttpSettings}: the executor of streamed
     * answers, a default seed, and the token calibration.
     *
     * @param <B> the builder's own type
     */
    public abstract static class Builder<B extends Builder<B>> extends HttpSettings<B> {
        private @Nullable Executor executor;
        private @Nullable Long seed;
        private TokenCounter localCounter = TokenCounters.cached(TokenCounters.jtokkit(), 10_000);
        private double calibrationMargin = 0.05;

        /**
         * @param baseUrlExample an example base URL for the message of a bad one
         * @param connectTimeout the default connect limit
         * @param retryBackoff   the default first retry's wait
         */
        protected Builder(String baseUrlExample, Duration connectTimeout, Duration retryBackoff) {
            super(baseUrlExample, connectTimeout, retryBackoff);
        }

        /** @param executor runs streamed calls (default: the HTTP client's dispatcher threads) @return this builder */
        public B executor(Executor executor) {
            this.executor = Objects.requireNonNull(executor, "executor");
            return self();
        }

        /** @param seed the sampling seed of every request that names none @return this builder */
        public B seed(long seed) {
            this.seed = seed;
            return self();
        }

        /**
         * @param local  the local counter that calibration scales (default: cached {@code cl100k_base}, the
         *               pipeline's default counter)
         * @param margin the safety margin on top of the learned ratio, in [0, 1) (default 0.05)
         * @return this builder
         */
        public B calibration(TokenCounter local, double margin) {
            Objects.requireNonNull(local, "local");
            if (!(margin >= 0 && margin < 1)) {
                throw new IllegalArgumentException("margin must be in [0, 1), got " + margin);
            }
            this.localCounter = local;
            this.calibrationMargin = margin;
            return self();
        }

        /**
         * @param counter the local counter that calibration scales, keeping the margin (default cached
         *                {@code cl100k_base})
         * @return this builder
         */
        public B localTokenCounter(TokenCounter counter) {
            this.localCounter = Objects.requireNonNull(counter, "counter");
            return self();
        }
    }
}
