package dev.ragkit.error;

import org.jspecify.annotations.Nullable;

/**
 * The language-model backend did not answer within the configured time limit. Retriable; the message names
 * the limit, which can be raised (for Ollama, {@code RAG_TIMEOUT_SECONDS}).
 */
public class LlmTimeoutException extends RagException {
    private static final long serialVersionUID = 1L;

    /**
     * @param message what went wrong and how to fix it
     */
    public LlmTimeoutException(String message) {
        super(message);
    }

    /**
     * @param message what went wrong and how to fix it
     * @param cause   the underlying failure, or {@code null}
     */
    public LlmTimeoutException(String message, @Nullable Throwable cause) {
        super(message, cause);
    }

    /** @return {@code true}: the same call may succeed later */
    @Override
    public boolean isRetriable() {
        return true;
    }
}
