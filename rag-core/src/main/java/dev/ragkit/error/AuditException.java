package dev.ragkit.error;

import org.jspecify.annotations.Nullable;

/**
 * An audit record could not be written and the pipeline is configured to fail requests whose audit fails
 * ({@code AuditFailurePolicy.FAIL_REQUEST}).
 */
public class AuditException extends RagException {
    private static final long serialVersionUID = 1L;

    /**
     * @param message what went wrong and how to fix it
     */
    public AuditException(String message) {
        super(message);
    }

    /**
     * @param message what went wrong and how to fix it
     * @param cause   the underlying failure, or {@code null}
     */
    public AuditException(String message, @Nullable Throwable cause) {
        super(message, cause);
    }
}
