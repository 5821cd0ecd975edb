package dev.ragkit.internal;

import java.util.concurrent.ExecutionException;

/** What a task run on another thread threw, handed back to the thread that waited for it. */
public final class Futures {
    private Futures() {
    }

    /**
     * Use as {@code catch (ExecutionException e) { throw Futures.unwrap(e); }}.
     *
     * @param failure what {@code Future.get()} threw
     * @return the task's own exception when it is unchecked (so the caller sees what the task threw, not a wrapper);
     *         a checked one wrapped in an {@link IllegalStateException}
     * @throws Error the task's error, rethrown as it is
     */
    public static RuntimeException unwrap(ExecutionException failure) {
        Throwable cause = failure.getCause();
        if (cause instanceof RuntimeException) {
            return (RuntimeException) cause;
        }
        if (cause instanceof Error) {
            throw (Error) cause;
        }
        return new IllegalStateException(String.valueOf(cause), cause != null ? cause : failure);
    }
}
