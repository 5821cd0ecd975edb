package dev.ragkit.ollama;

import dev.ragkit.error.RagException;

/**
 * Ollama reported an error: an HTTP error status with its {@code error} text, or an {@code {"error": …}} line
 * inside a streamed answer (the HTTP status of a stream stays 200 once it started). The message carries the
 * server's own text; {@link #partialText()} keeps what was streamed before the error.
 */
public class OllamaServerException extends RagException {
    private static final long serialVersionUID = 1L;

    private final int status;
    private final String serverError;
    private final String partialText;

    /**
     * @param message     what happened and what to do
     * @param status      the HTTP status (200 for an error line inside a stream)
     * @param serverError the server's {@code error} text
     * @param partialText text streamed before the error; empty when none
     */
    public OllamaServerException(String message, int status, String serverError, String partialText) {
        super(message);
        this.status = status;
        this.serverError = serverError;
        this.partialText = partialText;
    }

    /** @return the HTTP status (200 for an error line inside a stream) */
    public int status() {
        return status;
    }

    /** @return the server's own error text */
    public String serverError() {
        return serverError;
    }

    /** @return the text streamed before the error; empty when none */
    public String partialText() {
        return partialText;
    }
}
