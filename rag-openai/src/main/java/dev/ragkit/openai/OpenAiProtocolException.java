package dev.ragkit.openai;

import dev.ragkit.error.RagException;
import org.jspecify.annotations.Nullable;

/**
 * The server answered something that is not the OpenAI protocol: a body or event that is not JSON, a reply
 * without {@code choices}, or a stream that broke off before {@code data: [DONE]}. {@link #partialText()} keeps the
 * answer text that arrived before, so a caller can show it, flagged as incomplete.
 */
public class OpenAiProtocolException extends RagException {
    private static final long serialVersionUID = 1L;
    private final String partialText;

    /**
     * @param message     what was wrong, and where
     * @param partialText the answer text received before the problem (empty when none)
     * @param cause       the parse failure, or {@code null}
     */
    public OpenAiProtocolException(String message, String partialText, @Nullable Throwable cause) {
        super(message, cause);
        this.partialText = partialText;
    }

    /** @return the answer text received before the problem; empty when none */
    public String partialText() {
        return partialText;
    }
}
