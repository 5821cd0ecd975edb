package dev.ragkit.langchain4j;

import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.StreamingChatModel;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.chat.response.PartialResponse;
import dev.langchain4j.model.chat.response.PartialResponseContext;
import dev.langchain4j.model.chat.response.StreamingChatResponseHandler;
import dev.langchain4j.model.chat.response.StreamingHandle;
import dev.langchain4j.model.output.TokenUsage;
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
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * Any LangChain4j {@link ChatModel}, optionally with a {@link StreamingChatModel}, as a RagKit {@link LlmBackend}.
 *
 * <pre>{@code
 * LlmBackend backend = LangChain4jBackend.of(chatModel, streamingChatModel);
 * }</pre>
 *
 * <h2>What is passed to LangChain4j</h2>
 * <ul>
 *   <li>Messages: {@code SYSTEM} → {@code SystemMessage}, {@code USER} → {@code UserMessage}, {@code ASSISTANT} →
 *       {@code AiMessage}, in order. LangChain4j rejects blank messages, so a blank message throws
 *       {@link IllegalArgumentException} naming it.</li>
 *   <li>{@link ChatRequest#temperature()} and {@link ChatRequest#maxResponseTokens()} as LangChain4j's
 *       {@code temperature} and {@code maxOutputTokens} request parameters (they override the model's
 *       defaults).</li>
 *   <li><b>Not passed:</b> {@link ChatRequest#seed()} and {@link ChatRequest#contextWindow()}, because LangChain4j
 *       has no provider-neutral parameter for them: configure them on the LangChain4j model itself (e.g. the
 *       context size of an Ollama model). {@link ChatRequest#model()} is passed as the request's model name only
 *       with {@link Builder#passModelName(boolean) passModelName(true)}; by default the LangChain4j model answers
 *       with the model it was built with.</li>
 * </ul>
 * LangChain4j's finish reasons map to {@link FinishReason#STOP}, {@link FinishReason#LENGTH} or
 * {@link FinishReason#OTHER}; its token usage fills {@link ChatResult#promptTokens()} and
 * {@link ChatResult#completionTokens()} when reported. Its exceptions become RagKit's: timeouts
 * {@link dev.ragkit.error.LlmTimeoutException}, retriable errors {@link dev.ragkit.error.LlmUnavailableException}, unknown
 * models {@link ModelNotFoundException}, anything else {@link RagException}.
 *
 * <h2>Streaming and cancellation</h2>
 * With a {@link StreamingChatModel}, {@link #stream} delivers each partial response as a token. Cancelling is best
 * effort: RagKit stops delivering at once, and cancels LangChain4j's {@code StreamingHandle} when the model has
 * handed one out with a partial response (models that do not, keep generating until they finish, unseen). A model
 * whose {@code chat} call blocks until the answer is complete makes {@link #stream} block as well. Without a
 * streaming model, {@link #stream} calls {@link #chat} on the {@linkplain Builder#executor(Executor) executor}
 * (the caller's thread unless one is set) and delivers the whole answer as one token; cancelling then only
 * suppresses delivery.
 *
 * <h2>Model limits and health</h2>
 * LangChain4j models do not report context windows: {@link #modelInfo} answers from the limits given to
 * {@link Builder#modelInfo(ModelInfo)}, then from {@link KnownModels}, and otherwise throws a
 * {@link ModelNotFoundException} that says how to configure them. {@link #health} runs the
 * {@linkplain Builder#healthCheck(Function) configured check}; without one it calls nothing and says so: the
 * status is "reachable" (the model object is in this process) with the model <em>not</em> confirmed available.
 * {@link Builder#pingHealthCheck()} sends a one-token request instead.
 */
public final class LangChain4jBackend implements LlmBackend {

    private final ChatModel chatModel;
    private final @Nullable StreamingChatModel streamingModel;
    private final String name;
    private final Map<String, ModelInfo> modelInfo;
    /** The caller's health check; null when pinging or without a check. */
    private final @Nullable Function<String, HealthStatus> healthCheck;
    /** Whether {@code health} pings this backend's own chat model; toBuilder copies the flag, so a rebuilt backend pings its own model. */
    private final boolean ping;
    private final boolean passModelName;
    private final Executor executor;

    private LangChain4jBackend(Builder b) {
        this.chatModel = Objects.requireNonNull(b.chatModel);
        this.streamingModel = b.streamingModel;
        this.name = b.name;
        this.modelInfo = Map.copyOf(b.modelInfo);
        this.healthCheck = b.ping ? null : b.healthCheck;
        this.ping = b.ping;
        this.passModelName = b.passModelName;
        this.executor = b.executor;
    }

    /**
     * A backend on a chat model; {@link #stream} runs {@link #chat} on the caller's thread and delivers one token.
     *
     * @param chatModel the LangChain4j chat model
     * @return the backend with the defaults of {@link #builder()}
     */
    public static LangChain4jBackend of(ChatModel chatModel) {
        return builder().chatModel(chatModel).build();
    }

    /**
     * A backend on a chat model and its streaming twin.
     *
     * @param chatModel      the LangChain4j chat model, for {@link #chat}
     * @param streamingModel the LangChain4j streaming chat model, for {@link #stream}
     * @return the backend with the defaults of {@link #builder()}
     */
    public static LangChain4jBackend of(ChatModel chatModel, StreamingChatModel streamingModel) {
        return builder().chatModel(chatModel).streamingChatModel(streamingModel).build();
    }

    /**
     * @return a builder named {@code langchain4j}, without a streaming model, model limits or health check, that
     *         does not pass model names and streams on the caller's thread when it has no streaming model
     */
    public static Builder builder() {
        return new Builder();
    }

    /** @return a builder holding this backend's settings */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.chatModel = chatModel;
        b.streamingModel = streamingModel;
        b.name = name;
        b.modelInfo.putAll(modelInfo);
        b.healthCheck = healthCheck;
        b.ping = ping;
        b.passModelName = passModelName;
        b.executor = executor;
        return b;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public ChatResult chat(ChatRequest request) {
        Objects.requireNonNull(request, "request");
        dev.langchain4j.model.chat.request.ChatRequest lc = toLangChain4j(request);
        long start = System.nanoTime();
        ChatResponse response;
        try {
            response = chatModel.chat(lc);
        } catch (RuntimeException e) {
            throw Failures.translate(e, "chat with LangChain4j model " + describe(chatModel));
        }
        if (response == null) {
            throw new RagException("LangChain4j model " + describe(chatModel) + " returned no response");
        }
        return toResult(response, request, null, Duration.ofNanos(System.nanoTime() - start));
    }

    @Override
    public Cancellable stream(ChatRequest request, StreamHandler handler) {
        Objects.requireNonNull(request, "request");
        Objects.requireNonNull(handler, "handler");
        dev.langchain4j.model.chat.request.ChatRequest lc = toLangChain4j(request);
        StreamingChatModel streaming = streamingModel;
        return streaming == null ? streamByChat(request, handler) : streamByModel(streaming, lc, request, handler);
    }

    private Cancellable streamByModel(StreamingChatModel streaming, dev.langchain4j.model.chat.request.ChatRequest lc,
            ChatRequest request, StreamHandler handler) {
        Delivery delivery = new Delivery(handler);
        long start = System.nanoTime();
        StringBuilder text = new StringBuilder();
        StreamingChatResponseHandler lcHandler = new StreamingChatResponseHandler() {
            @Override
            public void onPartialResponse(String partial) {
                if (partial != null && !partial.isEmpty()) {
                    synchronized (text) {
                        text.append(partial);
                    }
                    delivery.token(partial);
                }
            }

            @Override
            public void onPartialResponse(PartialResponse partial, PartialResponseContext context) {
                if (context != null && context.streamingHandle() != null) {
                    delivery.handle(context.streamingHandle());
                }
                onPartialResponse(partial == null ? null : partial.text());
            }

            @Override
            public void onCompleteResponse(ChatResponse response) {
                ChatResult result;
                try {
                    String sofar;
                    synchronized (text) {
                        sofar = text.toString();
                    }
                    if (response == null) {
                        throw new RagException("LangChain4j streaming model " + describe(streaming)
                                + " completed without a response");
                    }
                    result = toResult(response, request, sofar, Duration.ofNanos(System.nanoTime() - start));
                } catch (RuntimeException e) {
                    delivery.error(e);
                    return;
                }
                delivery.complete(result);
            }

            @Override
            public void onError(Throwable error) {
                delivery.error(error instanceof RuntimeException r
                        ? Failures.translate(r, "streaming chat with LangChain4j model " + describe(streaming))
                        : error);
            }
        };
        try {
            streaming.chat(lc, lcHandler);
        } catch (RuntimeException e) {
            throw Failures.translate(e, "streaming chat with LangChain4j model " + describe(streaming));
        }
        return delivery;
    }

    private Cancellable streamByChat(ChatRequest request, StreamHandler handler) {
        Delivery delivery = new Delivery(handler);
        executor.execute(() -> {
            if (delivery.isCancelled()) {
                return;
            }
            ChatResult result;
            try {
                result = chat(request);
            } catch (RuntimeException e) {
                delivery.error(e);
                return;
            }
            if (!result.text().isEmpty()) {
                delivery.token(result.text());
            }
            delivery.complete(result);
        });
        return delivery;
    }

    @Override
    public ModelInfo modelInfo(String model) {
        Objects.requireNonNull(model, "model");
        ModelInfo configured = modelInfo.get(KnownModels.canonical(model));
        if (configured != null) {
            return configured;
        }
        return KnownModels.lookup(model).orElseThrow(() -> new ModelNotFoundException("the limits of model '" + model
                + "' are unknown: LangChain4j models do not report their context window; configure them with"
                + " LangChain4jBackend.builder().modelInfo(new ModelInfo(\"" + model + "\", contextWindow,"
                + " maxResponseTokens)) or RagPipeline.builder().modelInfo(..)"));
    }

    @Override
    public HealthStatus health(String model) {
        Objects.requireNonNull(model, "model");
        Function<String, HealthStatus> check = ping ? this::ping : healthCheck;
        if (check == null) {
            return new HealthStatus(true, false, Duration.ZERO, null, "not checked: LangChain4j model "
                    + describe(chatModel) + " offers no health check, so RagKit called nothing; configure"
                    + " LangChain4jBackend.builder().pingHealthCheck() or healthCheck(..) to check model '" + model + "'");
        }
        long start = System.nanoTime();
        try {
            HealthStatus status = check.apply(model);
            if (status == null) {
                return new HealthStatus(false, false, Duration.ofNanos(System.nanoTime() - start), null,
                        "the configured health check returned nothing");
            }
            return status;
        } catch (RuntimeException e) {
            return new HealthStatus(false, false, Duration.ofNanos(System.nanoTime() - start), null,
                    "health check failed: " + e.getMessage());
        }
    }

    private HealthStatus ping(String model) {
        long start = System.nanoTime();
        ChatRequest request = new ChatRequest(model, List.of(ChatMessage.user("ping")), 0, 1, 1, null);
        try {
            chat(request);
            return new HealthStatus(true, true, Duration.ofNanos(System.nanoTime() - start), null,
                    "LangChain4j model " + describe(chatModel) + " answered a one-token request");
        } catch (ModelNotFoundException e) {
            return new HealthStatus(true, false, Duration.ofNanos(System.nanoTime() - start), null, e.getMessage());
        } catch (RuntimeException e) {
            return new HealthStatus(false, false, Duration.ofNanos(System.nanoTime() - start), null,
                    String.valueOf(e.getMessage()));
        }
    }

    @Override
    public String toString() {
        return "LangChain4jBackend[" + name + ", chat " + describe(chatModel)
                + (streamingModel == null ? "" : ", streaming " + describe(streamingModel)) + "]";
    }

    private dev.langchain4j.model.chat.request.ChatRequest toLangChain4j(ChatRequest request) {
        List<dev.langchain4j.data.message.ChatMessage> messages = new ArrayList<>(request.messages().size());
        for (int i = 0; i < request.messages().size(); i++) {
            ChatMessage m = request.messages().get(i);
            if (m.content().isBlank()) {
                throw new IllegalArgumentException("message " + i + " (" + m.role().wireName() + ") is blank;"
                        + " LangChain4j rejects blank messages, so leave it out");
            }
            messages.add(switch (m.role()) {
                case SYSTEM -> SystemMessage.from(m.content());
                case USER -> UserMessage.from(m.content());
                case ASSISTANT -> AiMessage.from(m.content());
            });
        }
        dev.langchain4j.model.chat.request.ChatRequest.Builder b = dev.langchain4j.model.chat.request.ChatRequest
                .builder().messages(messages).temperature(request.temperature())
                .maxOutputTokens(request.maxResponseTokens());
        if (passModelName) {
            b.modelName(request.model());
        }
        return b.build();
    }

    private ChatResult toResult(ChatResponse response, ChatRequest request, @Nullable String streamed,
            Duration duration) {
        AiMessage message = response.aiMessage();
        String text = message == null ? null : message.text();
        if (text == null) {
            if (streamed != null) {
                text = streamed;
            } else if (message != null && message.hasToolExecutionRequests()) {
                throw new RagException("LangChain4j model " + describe(chatModel) + " asked to run tools instead of"
                        + " answering; RagKit sends no tool specifications, so check the model's configuration");
            } else {
                text = "";
            }
        }
        TokenUsage usage = response.tokenUsage();
        Integer prompt = usage == null ? null : usage.inputTokenCount();
        Integer completion = usage == null ? null : usage.outputTokenCount();
        String model = response.modelName() == null || response.modelName().isBlank()
                ? request.model() : response.modelName();
        return new ChatResult(text, model, finishReason(response.finishReason()),
                prompt == null || prompt < 0 ? null : prompt, completion == null || completion < 0 ? null : completion,
                duration);
    }

    private static FinishReason finishReason(dev.langchain4j.model.output.@Nullable FinishReason reason) {
        if (reason == null) {
            return FinishReason.OTHER;
        }
        return switch (reason) {
            case STOP -> FinishReason.STOP;
            case LENGTH -> FinishReason.LENGTH;
            default -> FinishReason.OTHER;
        };
    }

    private static String describe(Object model) {
        return model.getClass().getSimpleName().isEmpty() ? model.getClass().getName() : model.getClass().getSimpleName();
    }

    /** Delivers one call's events to a {@link StreamHandler} one at a time, once terminal, never after cancel. */
    private static final class Delivery implements Cancellable {
        private final StreamHandler handler;
        private final AtomicBoolean cancelled = new AtomicBoolean();
        private final AtomicReference<@Nullable StreamingHandle> handle = new AtomicReference<>();
        private boolean done;

        Delivery(StreamHandler handler) {
            this.handler = handler;
        }

        void handle(StreamingHandle h) {
            if (handle.compareAndSet(null, h) && cancelled.get()) {
                cancelQuietly(h);
            }
        }

        synchronized void token(String token) {
            if (!done && !cancelled.get()) {
                handler.onToken(token);
            }
        }

        synchronized void complete(ChatResult result) {
            if (!done && !cancelled.get()) {
                done = true;
                handler.onComplete(result);
            }
        }

        synchronized void error(Throwable error) {
            if (!done && !cancelled.get()) {
                done = true;
                handler.onError(error);
            }
        }

        @Override
        public void cancel() {
            if (cancelled.compareAndSet(false, true)) {
                StreamingHandle h = handle.get();
                if (h != null) {
                    cancelQuietly(h);
                }
            }
        }

        @Override
        public boolean isCancelled() {
            return cancelled.get();
        }

        private static void cancelQuietly(StreamingHandle h) {
            try {
                h.cancel();
            } catch (RuntimeException ignored) {
                // best effort: delivery has stopped already
            }
        }
    }

    /** Configures a {@link LangChain4jBackend}. Not thread-safe. */
    public static final class Builder {
        private @Nullable ChatModel chatModel;
        private @Nullable StreamingChatModel streamingModel;
        private String name = "langchain4j";
        private final Map<String, ModelInfo> modelInfo = new HashMap<>();
        private @Nullable Function<String, HealthStatus> healthCheck;
        private boolean ping;
        private boolean passModelName;
        private Executor executor = Runnable::run;

        private Builder() {
        }

        /** @param chatModel answers {@link LlmBackend#chat} (required) @return this builder */
        public Builder chatModel(ChatModel chatModel) {
            this.chatModel = Objects.requireNonNull(chatModel, "chatModel");
            return this;
        }

        /** @param streamingModel answers {@link LlmBackend#stream}; optional @return this builder */
        public Builder streamingChatModel(StreamingChatModel streamingModel) {
            this.streamingModel = Objects.requireNonNull(streamingModel, "streamingModel");
            return this;
        }

        /** @param name the backend's name in logs and responses, not blank; default {@code langchain4j} @return this builder */
        public Builder name(String name) {
            Objects.requireNonNull(name, "name");
            if (name.isBlank()) {
                throw new IllegalArgumentException("name must not be blank");
            }
            this.name = name;
            return this;
        }

        /**
         * Declares a model's limits, which LangChain4j cannot report. Call once per model.
         *
         * @param info the model's name, context window and response limit
         * @return this builder
         */
        public Builder modelInfo(ModelInfo info) {
            Objects.requireNonNull(info, "info");
            this.modelInfo.put(KnownModels.canonical(info.name()), info);
            return this;
        }

        /**
         * @param check answers {@link LlmBackend#health} for a model name; exceptions it throws become an unhealthy
         *              status
         * @return this builder
         * @throws IllegalStateException when {@link #pingHealthCheck()} was chosen already
         */
        public Builder healthCheck(Function<String, HealthStatus> check) {
            Objects.requireNonNull(check, "check");
            if (ping) {
                throw new IllegalStateException("pingHealthCheck() was chosen already; choose one health check");
            }
            this.healthCheck = check;
            return this;
        }

        /**
         * Checks health by sending a one-token request ({@code "ping"}, temperature 0): it costs a model call.
         *
         * @return this builder
         * @throws IllegalStateException when a {@link #healthCheck(Function)} was set already
         */
        public Builder pingHealthCheck() {
            if (healthCheck != null) {
                throw new IllegalStateException("healthCheck(..) was set already; choose one health check");
            }
            this.ping = true;
            return this;
        }

        /**
         * @param pass whether to send {@link ChatRequest#model()} as LangChain4j's request model name, overriding the
         *             model the LangChain4j model was built with; default {@code false}
         * @return this builder
         */
        public Builder passModelName(boolean pass) {
            this.passModelName = pass;
            return this;
        }

        /**
         * @param executor runs {@link #chat} for {@link LlmBackend#stream} when there is no streaming model; default:
         *                 the caller's thread (so {@code stream} blocks until the answer is complete)
         * @return this builder
         */
        public Builder executor(Executor executor) {
            this.executor = Objects.requireNonNull(executor, "executor");
            return this;
        }

        /**
         * @return the backend
         * @throws IllegalStateException when no chat model was given
         */
        public LangChain4jBackend build() {
            if (chatModel == null) {
                throw new IllegalStateException("a LangChain4jBackend needs chatModel(..)");
            }
            return new LangChain4jBackend(this);
        }
    }
}
