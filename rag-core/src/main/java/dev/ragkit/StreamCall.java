package dev.ragkit;

import dev.ragkit.generation.Cancellable;
import dev.ragkit.generation.ChatResult;
import dev.ragkit.generation.LlmBackend;
import dev.ragkit.generation.StreamHandler;
import dev.ragkit.prompt.ContextBlock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.Executor;
import org.jspecify.annotations.Nullable;

/**
 * One streamed request: the same flow as {@link RagPipeline#ask}, with the model's tokens passed on as they
 * arrive. Exactly one terminal callback reaches the listener, and its calls never overlap (one lock); a cancel
 * closes the model call and ends the request with a {@link CancellationException}, without citations or a rating
 * call.
 */
final class StreamCall implements Cancellable {
    private final RequestFlow flow;
    private final LlmBackend backend;
    private final Executor executor;
    private final Exchange x;
    private final RagStreamListener out;
    private final Object lock = new Object();
    private boolean done;
    private volatile boolean cancelled;
    private volatile @Nullable Cancellable backendCall;
    /** The plan, once made: a failure after it is audited with its prompt. */
    private volatile @Nullable Plan plan;

    StreamCall(RequestFlow flow, LlmBackend backend, Executor executor, Exchange x, RagStreamListener out) {
        this.flow = flow;
        this.backend = backend;
        this.executor = executor;
        this.x = x;
        this.out = out;
    }

    /** Plans the request and starts the model call; runs on the pipeline's executor. */
    void start() {
        try {
            if (cancelled) {
                return;
            }
            Plan plan = flow.plan(x);
            this.plan = plan;
            if (cancelled) {
                return;
            }
            if (plan.isFixed()) {
                RagResponse fixed = plan.requireFixed();
                deliver(() -> out.onSources(List.of(), List.of()));
                deliver(() -> out.onToken(fixed.answer()));
                complete(plan, fixed);
                return;
            }
            List<ContextBlock> used = plan.requirePrompt().blocks();
            deliver(() -> out.onSources(Sources.of(used), Sources.linked(used)));
            long started = System.nanoTime();
            RagListener.Stage generating = x.events.stageStarted("generate");
            Cancellable c = backend.stream(plan.requireChat(), new StreamHandler() {
                @Override
                public void onToken(String token) {
                    deliver(() -> out.onToken(token));
                }

                @Override
                public void onComplete(ChatResult result) {
                    x.recordTime("generate", Duration.ofNanos(System.nanoTime() - started));
                    generating.stopped(null);
                    try {
                        executor.execute(() -> finish(plan, result));
                    } catch (RuntimeException e) {
                        fail(e);
                    }
                }

                @Override
                public void onError(Throwable error) {
                    generating.stopped(error);
                    fail(error);
                }
            });
            backendCall = c;
            if (cancelled) {
                c.cancel();
            }
        } catch (RuntimeException | Error e) {
            fail(e);
            rethrowIfError(e);
        }
    }

    private void finish(Plan plan, ChatResult result) {
        if (isFinished()) {
            return;            // cancelled meanwhile: no citations, no rating call
        }
        try {
            complete(plan, flow.respond(x, plan, result));
        } catch (RuntimeException | Error e) {
            fail(e);
            rethrowIfError(e);
        }
    }

    private boolean isFinished() {
        synchronized (lock) {
            return done || cancelled;
        }
    }

    private void deliver(Runnable event) {
        synchronized (lock) {
            if (!done) {
                event.run();
            }
        }
    }

    private void complete(Plan plan, RagResponse response) {
        synchronized (lock) {
            if (done) {
                return;
            }
            RagResponse audited;
            try {
                audited = flow.finish(x, plan, response);
            } catch (RuntimeException e) {
                done = true;                    // the listener heard of it; the audit was already tried once
                out.onError(e);
                return;
            }
            done = true;
            out.onComplete(audited);
        }
    }

    /** Ends the request with {@code error}, unless it already ended. */
    void fail(Throwable error) {
        synchronized (lock) {
            if (done) {
                return;
            }
            done = true;
            flow.fail(x, plan, error);
            out.onError(error);
        }
    }

    @Override
    public void cancel() {
        cancelled = true;
        Cancellable c = backendCall;
        if (c != null) {
            c.cancel();
        }
        fail(new CancellationException("request " + x.request.requestId() + " was cancelled"));
    }

    @Override
    public boolean isCancelled() {
        return cancelled;
    }

    private static void rethrowIfError(Throwable t) {
        if (t instanceof Error) {
            throw (Error) t;
        }
    }
}
