package dev.ragkit.error;

import org.jspecify.annotations.Nullable;

/**
 * The root of RagKit's unchecked exceptions. Subtypes are grouped by what the caller does next; each message
 * says how to fix the problem. Store plugins throw {@code dev.ragkit.store.StoreException}, which cannot
 * extend this class (the store SPI depends on nothing of RagKit's core).
 */
public class RagException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /**
     * @param message what went wrong and how to fix it
     */
    public RagException(String message) {
        super(message);
    }

    /**
     * @param message what went wrong and how to fix it
     * @param cause   the underlying failure, or {@code null}
     */
    public RagException(String message, @Nullable Throwable cause) {
        super(message, cause);
    }

    /**
     * Whether the same call may succeed if retried later (a server that is down or slow), as opposed to a
     * request that must change first (an unknown model, a prompt that cannot fit).
     *
     * @return {@code false} unless a subtype says otherwise
     */
    public boolean isRetriable() {
        return false;
    }
}
