package dev.ragkit.openai;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ragkit.error.LlmTimeoutException;
import dev.ragkit.error.LlmUnavailableException;
import dev.ragkit.error.ModelNotFoundException;
import dev.ragkit.error.RagException;
import dev.ragkit.http.HttpSettings;
import dev.ragkit.http.ModelHttp;
import dev.ragkit.http.ModelServerException;
import java.io.IOException;
import java.util.Locale;
import okhttp3.HttpUrl;
import okhttp3.Request;
import org.jspecify.annotations.Nullable;

/**
 * {@link ModelHttp} with the OpenAI protocol's dialect: the bearer key on every request (and never in a message),
 * error objects read for their {@code message} and {@code code}, and each status turned into the error a user can
 * act on — 401 set the key, 403 the key's permissions, 404 an unknown model, 400 {@code context_length_exceeded},
 * 429 rate limited (retried), 5xx the server (502/503 retried), 408/504 a time limit.
 */
final class OpenAiHttp extends ModelHttp {
    private final @Nullable String apiKey;

    /** An example base URL, for the message of a bad one. */
    static final String EXAMPLE_URL = "https://api.openai.com/v1 or http://localhost:8000/v1";

    OpenAiHttp(HttpSettings.Resolved settings, @Nullable String apiKey) {
        super(settings);
        this.apiKey = apiKey;
    }

    @Override
    public String provider() {
        return "OpenAI-compatible server";
    }

    @Override
    protected void decorate(Request.Builder request) {
        if (apiKey != null) {
            request.header("Authorization", "Bearer " + apiKey);
        }
    }

    @Override
    protected String server() {
        return "the OpenAI-compatible server at " + base;
    }

    @Override
    protected String timeoutFix() {
        return "raise RAG_TIMEOUT_SECONDS or the OpenAiBackend builder's timeouts, or use a smaller model";
    }

    @Override
    protected String connectFix() {
        return "is the server running at " + base + "? Set OPENAI_BASE_URL to its address, including /v1";
    }

    @Override
    public RagException protocolError(String message, String partialText, @Nullable Throwable cause) {
        return super.protocolError(scrub(message), partialText, cause);
    }

    @Override
    public RagException ioError(IOException e) {
        RagException error = super.ioError(e);
        return apiKey != null && String.valueOf(error.getMessage()).contains(apiKey)
                ? new LlmUnavailableException(scrub(error.getMessage()), null) : error;
    }

    @Override
    public RagException statusError(int code, String body, @Nullable String model, HttpUrl url) {
        String error = scrub(errorText(body));
        String errorCode = errorCode(body);
        String lower = (error + " " + errorCode).toLowerCase(Locale.ROOT);
        String at = server() + " answered HTTP " + code + ": " + error;
        if (code == 401) {
            return new ModelServerException(provider(), code, errorCode, error, server() + " answered HTTP 401 "
                    + "(authentication failed: " + error + ")", (apiKey == null ? "no API key is set: " : "")
                    + "set the API key with OPENAI_API_KEY (or OpenAiBackend.builder().apiKey(...))", "");
        }
        if (code == 403) {
            return new ModelServerException(provider(), code, errorCode, error, at, "the API key is not allowed to "
                    + "do this (check its project, organisation and model permissions)", "");
        }
        if (code == 404 && model != null && isModelMissing(lower)) {
            return new ModelMissing(model, url, error, url("/models"));
        }
        if (code == 400 && isContextTooLong(lower)) {
            return new ModelServerException(provider(), code, errorCode == null ? "context_length_exceeded"
                    : errorCode, error, at, "shorten the request, or set the model's context window", "");
        }
        if (code == 429) {
            return new LlmUnavailableException(server() + " is rate limiting (HTTP 429: " + error + "); wait and try "
                    + "again, lower the request rate, or raise the account's limits");
        }
        if (code == 502 || code == 503 || code == 500) {
            return new LlmUnavailableException(server() + " is not ready (HTTP " + code + ": " + error + "); try "
                    + "again shortly");
        }
        if (code == 408 || code == 504) {
            return new LlmTimeoutException(at + ": a proxy or the server stopped waiting for the answer; raise its "
                    + "time limit, or use a smaller model");
        }
        if (code == 404) {
            return new ModelServerException(provider(), code, errorCode, error, server() + " has no API endpoint at "
                    + url + " (HTTP 404: " + error + ")", "check that the base URL ends in the API's version path, "
                    + "e.g. http://localhost:8000/v1", "");
        }
        return new ModelServerException(provider(), code, errorCode, error, at, "check the request and the server's "
                + "log", "");
    }

    /** Whether a 404's error says the model is missing, rather than the path. */
    static boolean isModelMissing(String lowerCaseError) {
        return lowerCaseError.contains("model") || lowerCaseError.contains("does not exist");
    }

    /**
     * The server answered 404 for the request's model. The message names the model, the URL and the server's
     * words once; {@link OpenAiBackend} adds what the server's model list says.
     */
    static final class ModelMissing extends ModelNotFoundException {
        private static final long serialVersionUID = 1L;
        final String model;
        final String url;
        final String serverError;

        ModelMissing(String model, HttpUrl url, String serverError, HttpUrl models) {
            super("model '" + model + "' not found: " + url + " answered HTTP 404 (" + serverError + "); use a "
                    + "model the server lists at " + models);
            this.model = model;
            this.url = url.toString();
            this.serverError = serverError;
        }
    }

    /** Whether an error says the request was longer than the model's context window. */
    static boolean isContextTooLong(String lowerCaseError) {
        return lowerCaseError.contains("context_length_exceeded") || lowerCaseError.contains("context length")
                || lowerCaseError.contains("maximum context") || lowerCaseError.contains("context window");
    }

    /** The error object's {@code code}, or {@code null}. */
    static @Nullable String errorCode(String body) {
        try {
            JsonNode code = MAPPER.readTree(body).path("error").path("code");
            return code.isValueNode() && !code.isNull() ? code.asText() : null;
        } catch (IOException | RuntimeException notJson) {
            return null;
        }
    }

    /** The text without the API key, should a server echo it. */
    String scrub(@Nullable String text) {
        String t = String.valueOf(text);
        return apiKey == null ? t : t.replace(apiKey, "***");
    }
}
