package dev.ragkit.testing;

import dev.ragkit.error.ModelNotFoundException;
import dev.ragkit.tokens.TokenCounter;
import dev.ragkit.generation.Cancellable;
import dev.ragkit.generation.ChatMessage;
import dev.ragkit.generation.ChatRequest;
import dev.ragkit.generation.ChatResult;
import dev.ragkit.generation.FinishReason;
import dev.ragkit.generation.HealthStatus;
import dev.ragkit.generation.LlmBackend;
import dev.ragkit.generation.ModelInfo;
import dev.ragkit.generation.StreamHandler;
import dev.ragkit.grounding.SelfRating;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * The recording fake backend of RagKit's tests: answers come from a script (a function of the request), every
 * request is recorded, and streaming delivers the scripted answer word by word on its own thread, optionally
 * waiting at a gate after the first token so tests can cancel mid-stream.
 */
public final class RecordingBackend implements LlmBackend {
    private static final Pattern SOURCE_ID = Pattern.compile("\\[SourceId: ([a-f0-9-]{36}:\\d+)]");
    private static final String RATING_SYSTEM = SelfRating
            .prompt("q", "a", List.of()).get(0).content();

    /** Every request, in arrival order (chat and stream). */
    public final List<ChatRequest> requests = new CopyOnWriteArrayList<>();
    /** How many times {@link #modelInfo} was asked. */
    public final AtomicInteger modelInfoCalls = new AtomicInteger();
    /** Set when a streamed call was cancelled. */
    public final AtomicBoolean streamCancelled = new AtomicBoolean();
    /** The threads that delivered streamed answers; join one to know it delivered everything it was going to. */
    public final List<Thread> streamThreads = new CopyOnWriteArrayList<>();

    private final Function<ChatRequest, String> script;
    private final Map<String, ModelInfo> models = new ConcurrentHashMap<>();
    private volatile FinishReason finishReason = FinishReason.STOP;
    private volatile CountDownLatch gate = new CountDownLatch(0);
    private volatile boolean healthy = true;
    private volatile @Nullable TokenCounter counter;

    private RecordingBackend(Function<ChatRequest, String> script) {
        this.script = script;
    }

    /**
     * @param script the answer to each request (throw from it to simulate a failing server)
     * @return a backend following the script
     */
    public static RecordingBackend scripted(Function<ChatRequest, String> script) {
        return new RecordingBackend(Objects.requireNonNull(script, "script"));
    }

    /**
     * @param answer the answer to every question (a function of the request)
     * @param rating the reply to every self-rating request
     * @return a backend answering questions and ratings separately
     */
    public static RecordingBackend answering(Function<ChatRequest, String> answer, String rating) {
        return scripted(r -> isRating(r) ? rating : answer.apply(r));
    }

    /** @param r a request @return whether it is the confidence scorer's self-rating request */
    public static boolean isRating(ChatRequest r) {
        return r.messages().get(0).content().equals(RATING_SYSTEM);
    }

    /**
     * @param r a request
     * @return whether it is the follow-up rewrite ({@code LlmQueryTransformer}); the backend answers it with the
     *         question unchanged, and it is not one of the {@link #answerRequests()}
     */
    public static boolean isRewrite(ChatRequest r) {
        return r.messages().get(0).content().startsWith("Rewrite the user's last question");
    }

    /** @param r a request @return the SourceIds in its system message, in order */
    public static List<String> sourceIds(ChatRequest r) {
        List<String> ids = new ArrayList<>();
        Matcher m = SOURCE_ID.matcher(r.messages().get(0).content());
        while (m.find()) {
            ids.add(m.group(1));
        }
        return ids;
    }

    /** @return the recorded requests that were not self-rating requests */
    public List<ChatRequest> answerRequests() {
        List<ChatRequest> answers = new ArrayList<>();
        for (ChatRequest r : requests) {
            if (!isRating(r) && !isRewrite(r)) {
                answers.add(r);
            }
        }
        return answers;
    }

    /** @param info limits {@link #modelInfo} reports for {@code info.name()} @return this backend */
    public RecordingBackend withModel(ModelInfo info) {
        models.put(info.name(), info);
        return this;
    }

    /** @param reason the finish reason of every answer @return this backend */
    public RecordingBackend finishing(FinishReason reason) {
        this.finishReason = reason;
        return this;
    }

    /** @param gate streaming waits on it after the first token @return this backend */
    public RecordingBackend gatedAfterFirstToken(CountDownLatch gate) {
        this.gate = gate;
        return this;
    }

    /** @param counter what {@link #tokenCounterFor} offers for every model @return this backend */
    public RecordingBackend countingWith(TokenCounter counter) {
        this.counter = counter;
        return this;
    }

    @Override
    public Optional<TokenCounter> tokenCounterFor(String model) {
        return Optional.ofNullable(counter);
    }

    /** How often {@link #requireModel} was called. */
    public final AtomicInteger requireModelCalls = new AtomicInteger();
    private final java.util.Set<String> missing = ConcurrentHashMap.newKeySet();

    /** @param names models {@link #requireModel} reports as not pulled @return this backend */
    public RecordingBackend missing(String... names) {
        missing.addAll(List.of(names));
        return this;
    }

    @Override
    public void requireModel(String model) {
        requireModelCalls.incrementAndGet();
        if (missing.contains(model)) {
            throw new dev.ragkit.error.ModelNotFoundException("model '" + model + "' is not pulled; run: ollama pull "
                    + model);
        }
    }

    /** @param healthy what {@link #health} reports @return this backend */
    public RecordingBackend healthy(boolean healthy) {
        this.healthy = healthy;
        return this;
    }

    @Override
    public String name() {
        return "recording";
    }

    @Override
    public ChatResult chat(ChatRequest request) {
        requests.add(request);
        if (isRewrite(request)) {
            String content = request.messages().get(1).content();
            String question = content.substring(content.lastIndexOf("Last question: ") + "Last question: ".length());
            return new ChatResult(question, request.model(), FinishReason.STOP, 50, 10, Duration.ofMillis(1));
        }
        String text = script.apply(request);
        return new ChatResult(text, request.model(), finishReason, 100, text.length(), Duration.ofMillis(1));
    }

    @Override
    public Cancellable stream(ChatRequest request, StreamHandler handler) {
        requests.add(request);
        AtomicBoolean cancelled = new AtomicBoolean();
        Thread t = new Thread(() -> {
            String text;
            try {
                text = script.apply(request);
            } catch (RuntimeException e) {
                handler.onError(e);
                return;
            }
            String[] words = text.split("(?<= )");
            for (int i = 0; i < words.length; i++) {
                if (cancelled.get()) {
                    return;
                }
                handler.onToken(words[i]);
                if (i == 0) {
                    try {
                        if (!gate.await(10, TimeUnit.SECONDS)) {
                            handler.onError(new IllegalStateException("test gate never opened"));
                            return;
                        }
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        return;
                    }
                }
            }
            if (!cancelled.get()) {
                handler.onComplete(new ChatResult(text, request.model(), finishReason, 100, words.length,
                        Duration.ofMillis(1)));
            }
        }, "recording-backend-stream");
        t.setDaemon(true);
        streamThreads.add(t);
        t.start();
        return new Cancellable() {
            @Override
            public void cancel() {
                cancelled.set(true);
                streamCancelled.set(true);
            }

            @Override
            public boolean isCancelled() {
                return cancelled.get();
            }
        };
    }

    @Override
    public ModelInfo modelInfo(String model) {
        modelInfoCalls.incrementAndGet();
        ModelInfo info = models.get(model);
        if (info == null) {
            throw new ModelNotFoundException("model '" + model + "' is not available; run: ollama pull " + model);
        }
        return info;
    }

    @Override
    public HealthStatus health(String model) {
        return new HealthStatus(healthy, healthy, Duration.ofMillis(1), "test", healthy ? "ok" : "down");
    }

    /** @param messages messages @return the last user message's content */
    public static String question(List<ChatMessage> messages) {
        return messages.get(messages.size() - 1).content();
    }
}
