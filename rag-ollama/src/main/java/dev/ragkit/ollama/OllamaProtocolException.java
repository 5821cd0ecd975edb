package dev.ragkit.ollama;

import dev.ragkit.error.RagException;
import org.jspecify.annotations.Nullable;

/**
 * Ollama answered something that is not its API: a body or stream line that is not JSON, a reply without the
 * expected fields, or a stream that ended before its final message. Usually a proxy in the way, a wrong base URL,
 * or a server version RagKit does not know. Not retriable as is.
 */
public class OllamaProtocolException extends RagException {
    private static final long serialVersionUID = 1L;

    private final String partialText;

    /**
     * @param message     what was wrong, and where
     * @param partialText the answer text received before the problem (empty when none)
     * @param cause       the parse failure, or {@code null}
     */
    public OllamaProtocolException(String message, String partialText, @Nullable Throwable cause) {
        super(message, cause);
        this.partialText = partialText;
    }

    /** @return the answer text received before the problem; empty when none */
    public String partialText() {
        return partialText;
    }
}
