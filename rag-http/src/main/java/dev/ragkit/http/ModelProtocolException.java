package dev.ragkit.http;

import dev.ragkit.error.RagException;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A model server answered something that is not its protocol: a body or stream line that is not JSON, a reply
 * without the expected fields, JSON over the reader's limits, or a stream that stopped before its last message. Usually
 * a proxy in the way, a wrong base URL, a server version RagKit does not know, or a connection that broke. The message
 * names the server and says what arrived; {@link #partialText()} keeps the answer text received before, so a caller
 * can show it, flagged as incomplete. Not retriable as is.
 *
 * <p>Every model-server backend (Ollama, OpenAI-compatible) throws this one type; {@link #provider()} says which.
 */
public class ModelProtocolException extends RagException {
    private static final long serialVersionUID = 1L;

    private final String provider;
    private final String partialText;

    /**
     * @param provider    the server in words, e.g. {@code Ollama}; the message names it (prefixed when
     *                    {@code message} does not)
     * @param message     what was wrong, and where
     * @param partialText the answer text received before the problem; empty when none
     * @param cause       the parse or transport failure, or {@code null}
     */
    public ModelProtocolException(String provider, String message, String partialText, @Nullable Throwable cause) {
        super(ModelServerException.named(Objects.requireNonNull(provider, "provider"), message), cause);
        this.provider = provider;
        this.partialText = Objects.requireNonNull(partialText, "partialText");
    }

    /** @return the server in words, e.g. {@code Ollama} or {@code OpenAI-compatible server} */
    public String provider() {
        return provider;
    }

    /** @return the answer text received before the problem; empty when none */
    public String partialText() {
        return partialText;
    }
}
