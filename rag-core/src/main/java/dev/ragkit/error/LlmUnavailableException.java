package dev.ragkit.error;

import org.jspecify.annotations.Nullable;

/**
 * The language-model backend cannot be reached (connection refused, the server answered 503, or it is
 * starting up). Retriable: check that the server runs at the configured address, then try again.
 */
public class LlmUnavailableException extends RagException {
    private static final long serialVersionUID = 1L;

    /**
     * @param message what went wrong and how to fix it
     */
    public LlmUnavailableException(String message) {
        super(message);
    }

    /**
     * @param message what went wrong and how to fix it
     * @param cause   the underlying failure, or {@code null}
     */
    public LlmUnavailableException(String message, @Nullable Throwable cause) {
        super(message, cause);
    }

    /** @return {@code true}: the same call may succeed later */
    @Override
    public boolean isRetriable() {
        return true;
    }
}
