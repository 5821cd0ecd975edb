package dev.ragkit.store;

import org.jspecify.annotations.Nullable;

/**
 * A store could not do what was asked for a reason other than bad arguments: it is unreachable, full,
 * closed, or its data on disk is damaged. Bad arguments throw {@link IllegalArgumentException} instead.
 *
 * <p>{@link #isRetriable()} tells whether the same call may succeed later (a server that is down) or not (a
 * corrupted snapshot). A failed write leaves the stored data as it was.
 */
public class StoreException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final boolean retriable;

    /**
     * @param message   what went wrong and how to fix it
     * @param retriable whether the same call may succeed later
     */
    public StoreException(String message, boolean retriable) {
        this(message, null, retriable);
    }

    /**
     * @param message   what went wrong and how to fix it
     * @param cause     the underlying failure, or {@code null}
     * @param retriable whether the same call may succeed later
     */
    public StoreException(String message, @Nullable Throwable cause, boolean retriable) {
        super(message, cause);
        this.retriable = retriable;
    }

    /**
     * @return whether the same call may succeed later
     */
    public boolean isRetriable() {
        return retriable;
    }
}
