package dev.ragkit.http;

import dev.ragkit.error.RagException;
import java.util.Locale;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A model server answered with an error: an HTTP error status with its error text, or an error inside a streamed
 * answer (the status of a stream stays 200 once it started). The message names the server, carries the server's
 * own words and says what to do; the parts are also kept one by one. Not retriable as is: the request, the key or
 * the server's set-up must change first (the statuses worth retrying — 429, 502, 503 — are
 * {@link dev.ragkit.error.LlmUnavailableException}s instead, and a server's time limit an
 * {@link dev.ragkit.error.LlmTimeoutException}).
 *
 * <p>Every model-server backend (Ollama, OpenAI-compatible) throws this one type; {@link #provider()} says which.
 */
public class ModelServerException extends RagException {
    private static final long serialVersionUID = 1L;

    private final String provider;
    private final int status;
    private final @Nullable String code;
    private final String serverError;
    private final String fix;
    private final String partialText;

    /**
     * An error status answered before any of the answer arrived.
     *
     * @param provider    the server in words, e.g. {@code Ollama}; the message names it
     * @param status      the HTTP status
     * @param serverError the server's own error text
     * @param what        what happened, e.g. {@code Ollama at http://localhost:11434/ answered HTTP 500: …}
     * @param fix         what to do, e.g. {@code check the server's log}
     */
    public ModelServerException(String provider, int status, String serverError, String what, String fix) {
        this(provider, status, null, serverError, what, fix, "");
    }

    /**
     * @param provider    the server in words, e.g. {@code Ollama}; the message names it
     * @param status      the HTTP status (200 for an error inside a stream)
     * @param code        the server's error code (the OpenAI protocol's {@code error.code}, e.g.
     *                    {@code invalid_api_key}), or {@code null}
     * @param serverError the server's own error text
     * @param what        what happened
     * @param fix         what to do
     * @param partialText the answer text streamed before the error; empty when none
     */
    public ModelServerException(String provider, int status, @Nullable String code, String serverError, String what,
            String fix, String partialText) {
        super(message(provider, what, fix));
        this.provider = provider;
        this.status = status;
        this.code = code;
        this.serverError = Objects.requireNonNull(serverError, "serverError");
        this.fix = fix;
        this.partialText = Objects.requireNonNull(partialText, "partialText");
    }

    /** The message: what happened and what to do, naming the provider once (prefixed when {@code what} does not). */
    static String message(String provider, String what, String fix) {
        Objects.requireNonNull(provider, "provider");
        Objects.requireNonNull(what, "what");
        Objects.requireNonNull(fix, "fix");
        return named(provider, what) + (fix.isBlank() ? "" : "; " + fix);
    }

    /** {@code text}, prefixed with {@code provider} when it does not name it already. */
    static String named(String provider, String text) {
        return text.toLowerCase(Locale.ROOT).contains(provider.toLowerCase(Locale.ROOT)) ? text
                : provider + ": " + text;
    }

    /** @return the server in words, e.g. {@code Ollama} or {@code OpenAI-compatible server} */
    public String provider() {
        return provider;
    }

    /** @return the HTTP status (200 for an error inside a stream) */
    public int status() {
        return status;
    }

    /** @return the server's error code, e.g. {@code context_length_exceeded}; {@code null} when it gave none */
    public @Nullable String code() {
        return code;
    }

    /** @return the server's own error text */
    public String serverError() {
        return serverError;
    }

    /** @return what to do about it (also the end of the message); empty when there is nothing to suggest */
    public String fix() {
        return fix;
    }

    /** @return the answer text streamed before the error; empty when none */
    public String partialText() {
        return partialText;
    }
}
