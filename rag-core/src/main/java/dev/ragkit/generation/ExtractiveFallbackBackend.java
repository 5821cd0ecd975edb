package dev.ragkit.generation;

import dev.ragkit.embedding.Embedder;
import dev.ragkit.error.LlmTimeoutException;
import dev.ragkit.error.LlmUnavailableException;
import dev.ragkit.error.RagException;
import dev.ragkit.tokens.TokenCounter;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongSupplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A language model with the {@link ExtractiveBackend} behind it: every call goes to the model server, and when the
 * server cannot be reached ({@link LlmUnavailableException}) or does not answer in time ({@link LlmTimeoutException})
 * the extractive backend answers instead. Its answers carry the model name {@value ExtractiveBackend#MODEL}, so the
 * pipeline flags them ({@code ResponseFlag.EXTRACTIVE_ANSWER}), reports that model, and asks for no self-rating.
 * Other errors — a model the server does not have, a server error — still fail the call: they need a fix, not a
 * quieter answer.
 *
 * <pre>{@code
 * LlmBackend backend = ExtractiveFallbackBackend.of(OllamaBackend.builder().build());
 * }</pre>
 *
 * <p>After a failure the server is left alone for the {@linkplain #of(LlmBackend, Duration) retry interval}
 * (default {@link #DEFAULT_RETRY_AFTER}): calls go straight to the extractive backend, so a server that is down costs
 * one failed connection per interval, not one (with its retries) per question. The first call after the interval
 * tries the server again. {@link #withoutModel(String)} is the same with no server at all, for an application whose
 * configured backend is not on the class path.
 *
 * <p>A streamed call falls back only while nothing was delivered: once the model sent a token, a failure goes to the
 * handler as it is. {@link #health} reports the server's own status (or, without one, unreachable and why), so a
 * health check still shows that the model is missing. Thread-safe.
 */
public final class ExtractiveFallbackBackend implements LlmBackend, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ExtractiveFallbackBackend.class);

    /** How long the server is left alone after it failed, by default. */
    public static final Duration DEFAULT_RETRY_AFTER = Duration.ofSeconds(30);

    private final @Nullable LlmBackend primary;
    private final String missingReason;
    private final ExtractiveBackend extractive;
    private final long retryAfterNanos;
    private final LongSupplier nanoTime;
    /** While the server is left alone: until this {@link #nanoTime} value; meaningful only when {@link #down}. */
    private volatile long downUntil;
    private volatile boolean down;
    private final AtomicReference<@Nullable String> lastFailure = new AtomicReference<>();

    private ExtractiveFallbackBackend(@Nullable LlmBackend primary, String missingReason, Duration retryAfter,
            LongSupplier nanoTime, ExtractiveBackend extractive) {
        this.primary = primary;
        this.extractive = extractive;
        this.missingReason = missingReason;
        Objects.requireNonNull(retryAfter, "retryAfter");
        if (retryAfter.isNegative()) {
            throw new IllegalArgumentException("retryAfter must not be negative, got " + retryAfter);
        }
        this.retryAfterNanos = retryAfter.toNanos();
        this.nanoTime = nanoTime;
    }

    /**
     * @param primary the model server
     * @return the server, answering extractively while it cannot be reached
     */
    public static ExtractiveFallbackBackend of(LlmBackend primary) {
        return of(primary, DEFAULT_RETRY_AFTER);
    }

    /**
     * @param primary    the model server
     * @param retryAfter how long the server is left alone after a failure; zero tries it on every call
     * @return the server, answering extractively while it cannot be reached
     */
    public static ExtractiveFallbackBackend of(LlmBackend primary, Duration retryAfter) {
        return of(primary, retryAfter, System::nanoTime);
    }

    /** For tests: the clock that times the retry interval. */
    static ExtractiveFallbackBackend of(LlmBackend primary, Duration retryAfter, LongSupplier nanoTime) {
        return new ExtractiveFallbackBackend(Objects.requireNonNull(primary, "primary"), "", retryAfter, nanoTime,
                new ExtractiveBackend());
    }

    /**
     * @param reason why there is no model server, with the fix (e.g. that the backend's module is not on the class
     *               path); {@link #health} reports it
     * @return a backend that always answers extractively
     */
    public static ExtractiveFallbackBackend withoutModel(String reason) {
        Objects.requireNonNull(reason, "reason");
        return new ExtractiveFallbackBackend(null, reason, Duration.ZERO, System::nanoTime, new ExtractiveBackend());
    }

    /**
     * @param embedder the model that helps choose the quoted sentences ({@link ExtractiveBackend#quotingWith})
     * @return a backend like this one (the same server, reason and retry interval; its own record of failures) whose
     *         extractive answers also ask {@code embedder} which sentences are closest to the question
     */
    public ExtractiveFallbackBackend quotingWith(Embedder embedder) {
        return new ExtractiveFallbackBackend(primary, missingReason, Duration.ofNanos(retryAfterNanos), nanoTime,
                extractive.quotingWith(embedder));
    }

    /** @return the model that helps choose the quoted sentences, or {@code null} when the question's words alone do */
    public @Nullable Embedder embedder() {
        return extractive.embedder();
    }

    /**
     * @param question the question
     * @param answer   an extractive answer this backend wrote
     * @return {@link ExtractiveBackend#quoteSimilarity}'s, for its extractive answers
     */
    public List<Double> quoteSimilarity(String question, String answer) {
        return extractive.quoteSimilarity(question, answer);
    }

    /** @return the model server's name, or {@value ExtractiveBackend#MODEL} without one */
    @Override
    public String name() {
        return primary == null ? ExtractiveBackend.MODEL : primary.name();
    }

    /**
     * @return whether calls go to the extractive backend now: there is no server, or it failed within the retry
     *         interval
     */
    public boolean answeringExtractively() {
        return primary == null || leftAlone();
    }

    /** @return the last failure of the server that made a call fall back, or empty when none did (or it recovered) */
    public Optional<String> lastFailure() {
        return primary == null ? Optional.of(missingReason) : Optional.ofNullable(lastFailure.get());
    }

    private boolean leftAlone() {
        return down && nanoTime.getAsLong() - downUntil < 0;
    }

    /** The server failed: left alone for the retry interval; the first failure after it worked is logged. */
    private void failed(RagException e) {
        downUntil = nanoTime.getAsLong() + retryAfterNanos;
        boolean wasDown = down;
        down = true;
        lastFailure.set(e.getMessage());
        if (!wasDown) {
            LOG.warn("the model server failed ({}); answering extractively (quotes from the documents){}",
                    e.getMessage(), retryAfterNanos > 0 ? ", trying it again in "
                            + Duration.ofNanos(retryAfterNanos).toSeconds() + " s" : "");
        }
    }

    /** The server answered: if it had failed, that is over. */
    private void answered() {
        if (down) {
            down = false;
            lastFailure.set(null);
            LOG.info("the model server answers again; answers come from the model");
        }
    }

    private static boolean fallsBack(Throwable e) {
        return e instanceof LlmUnavailableException || e instanceof LlmTimeoutException;
    }

    @Override
    public ChatResult chat(ChatRequest request) {
        Objects.requireNonNull(request, "request");
        LlmBackend server = primary;
        if (server == null || leftAlone()) {
            return extractive.chat(request);
        }
        try {
            ChatResult result = server.chat(request);
            answered();
            return result;
        } catch (LlmUnavailableException | LlmTimeoutException e) {
            failed(e);
            return extractive.chat(request);
        }
    }

    @Override
    public Cancellable stream(ChatRequest request, StreamHandler handler) {
        Objects.requireNonNull(request, "request");
        Objects.requireNonNull(handler, "handler");
        LlmBackend server = primary;
        if (server == null || leftAlone()) {
            return extractive.stream(request, handler);
        }
        Handle handle = new Handle();
        AtomicBoolean delivered = new AtomicBoolean();
        StreamHandler watching = new StreamHandler() {
            @Override
            public void onToken(String token) {
                delivered.set(true);
                handler.onToken(token);
            }

            @Override
            public void onComplete(ChatResult result) {
                answered();
                handler.onComplete(result);
            }

            @Override
            public void onError(Throwable error) {
                if (!delivered.get() && !handle.isCancelled() && fallsBack(error)) {
                    failed((RagException) error);
                    handle.current.set(extractive.stream(request, handler));
                } else {
                    handler.onError(error);
                }
            }
        };
        try {
            Cancellable call = server.stream(request, watching);
            if (handle.current.compareAndSet(null, call) && handle.isCancelled()) {
                call.cancel();
            }
        } catch (LlmUnavailableException | LlmTimeoutException e) {
            failed(e);
            handle.current.set(extractive.stream(request, handler));
        }
        return handle;
    }

    /** The handle of a streamed call: cancels whichever call runs, the server's or the extractive one. */
    private static final class Handle implements Cancellable {
        final AtomicReference<@Nullable Cancellable> current = new AtomicReference<>();
        private volatile boolean cancelled;

        @Override
        public void cancel() {
            cancelled = true;
            Cancellable c = current.get();
            if (c != null) {
                c.cancel();
            }
        }

        @Override
        public boolean isCancelled() {
            return cancelled;
        }
    }

    /**
     * The server's limits for the model; the extractive backend's while the server cannot be reached (the pipeline
     * needs a window to budget the quoted answer's prompt).
     */
    @Override
    public ModelInfo modelInfo(String model) {
        LlmBackend server = primary;
        if (server == null || leftAlone()) {
            return extractive.modelInfo(model);
        }
        try {
            return server.modelInfo(model);
        } catch (LlmUnavailableException | LlmTimeoutException e) {
            failed(e);
            return extractive.modelInfo(model);
        }
    }

    /**
     * Checks the server has the model; a server that cannot be reached is not an error here (the answer will be
     * extractive), a server without the model is ({@link dev.ragkit.error.ModelNotFoundException}).
     */
    @Override
    public void requireModel(String model) {
        LlmBackend server = primary;
        if (server == null || leftAlone()) {
            return;
        }
        try {
            server.requireModel(model);
        } catch (LlmUnavailableException | LlmTimeoutException e) {
            failed(e);
        }
    }

    /** @return the server's status; without a server, unreachable with the reason */
    @Override
    public HealthStatus health(String model) {
        LlmBackend server = primary;
        if (server == null) {
            return new HealthStatus(false, false, Duration.ZERO, null, missingReason
                    + "; answering extractively (quotes from the documents)");
        }
        return server.health(model);
    }

    @Override
    public Optional<TokenCounter> tokenCounterFor(String model) {
        return primary == null ? Optional.empty() : primary.tokenCounterFor(model);
    }

    @Override
    public OptionalInt countTokens(String model, String text) {
        return primary == null ? OptionalInt.empty() : primary.countTokens(model, text);
    }

    /** Closes the server's backend when it is {@link AutoCloseable}. */
    @Override
    public void close() throws Exception {
        if (primary instanceof AutoCloseable closeable) {
            closeable.close();
        }
    }
}
