package dev.ragkit.error;

import org.jspecify.annotations.Nullable;

/**
 * The backend does not have the requested model. Not retriable as is: the message says how to get the
 * model (for Ollama, {@code ollama pull <model>}).
 */
public class ModelNotFoundException extends RagException {
    private static final long serialVersionUID = 1L;

    /**
     * @param message what went wrong and how to fix it
     */
    public ModelNotFoundException(String message) {
        super(message);
    }

    /**
     * @param message what went wrong and how to fix it
     * @param cause   the underlying failure, or {@code null}
     */
    public ModelNotFoundException(String message, @Nullable Throwable cause) {
        super(message, cause);
    }
}
