package dev.ragkit.openai;

import dev.ragkit.error.RagException;
import org.jspecify.annotations.Nullable;

/**
 * An OpenAI-compatible server reported an error: an HTTP error status with its error object
 * ({@code {"error": {"message", "type", "code"}}}), or an error inside a streamed answer. The message says what to
 * do (set the API key, shorten the context, …); {@link #partialText()} keeps what was streamed before the error.
 */
public class OpenAiServerException extends RagException {
    private static final long serialVersionUID = 1L;
    private final int status;
    private final @Nullable String code;
    private final String serverError;
    private final String partialText;

    /**
     * @param message     what happened and what to do
     * @param status      the HTTP status (200 for an error inside a stream)
     * @param code        the error object's {@code code} (e.g. {@code invalid_api_key}), or {@code null}
     * @param serverError the server's own message
     * @param partialText text streamed before the error; empty when none
     */
    public OpenAiServerException(String message, int status, @Nullable String code, String serverError,
            String partialText) {
        super(message);
        this.status = status;
        this.code = code;
        this.serverError = serverError;
        this.partialText = partialText;
    }

    /** @return the HTTP status (200 for an error inside a stream) */
    public int status() {
        return status;
    }

    /** @return the error object's {@code code}, e.g. {@code context_length_exceeded}; {@code null} when none */
    public @Nullable String code() {
        return code;
    }

    /** @return the server's own message */
    public String serverError() {
        return serverError;
    }

    /** @return the text streamed before the error; empty when none */
    public String partialText() {
        return partialText;
    }
}
