package dev.ragkit.ollama;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ragkit.error.LlmTimeoutException;
import dev.ragkit.error.LlmUnavailableException;
import dev.ragkit.error.ModelNotFoundException;
import dev.ragkit.error.RagException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.Locale;
import java.util.Objects;
import java.util.function.Consumer;
import okhttp3.Call;
import okhttp3.HttpUrl;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;
import okhttp3.ResponseBody;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The HTTP and JSON plumbing shared by the backend and the embedder: one place that sends requests, retries
 * connection failures and 429/502/503 with backoff, and turns failures into RagKit's typed exceptions (408 and
 * 504, a proxy's time limit, become {@link LlmTimeoutException} and are not retried).
 */
final class OllamaHttp {
    private static final Logger LOG = LoggerFactory.getLogger(OllamaHttp.class);
    private static final MediaType JSON = MediaType.get("application/json; charset=utf-8");
    static final ObjectMapper MAPPER = new ObjectMapper();
    /** The most retries a builder accepts. */
    static final int MAX_RETRIES = 10;

    final OkHttpClient client;
    final HttpUrl base;
    private final int maxRetries;
    private final Duration backoff;
    private final String limits;

    OllamaHttp(OkHttpClient client, HttpUrl base, int maxRetries, Duration backoff) {
        this.client = client;
        this.base = base;
        this.maxRetries = maxRetries;
        this.backoff = backoff;
        this.limits = "connect " + seconds(client.connectTimeoutMillis()) + ", read "
                + seconds(client.readTimeoutMillis()) + ", whole call " + seconds(client.callTimeoutMillis());
    }

    // ---------------------------------------------------------------------------------------------------------
    // The builders' shared checks: each rejects a bad value at once with an IllegalArgumentException

    /**
     * @param url an http(s) URL, with or without a trailing slash
     * @return the URL ending in a slash, so that API paths are resolved under any path prefix it has
     */
    static HttpUrl parseBaseUrl(String url) {
        Objects.requireNonNull(url, "url");
        HttpUrl parsed = HttpUrl.parse(url.endsWith("/") ? url : url + "/");
        if (parsed == null) {
            throw new IllegalArgumentException("not an http(s) URL: '" + url + "'; e.g. http://localhost:11434");
        }
        return parsed;
    }

    /** @return {@code retries} when it is from 0 to {@value #MAX_RETRIES} */
    static int retries(int retries) {
        if (retries < 0 || retries > MAX_RETRIES) {
            throw new IllegalArgumentException("maxRetries must be in [0, " + MAX_RETRIES + "], got " + retries);
        }
        return retries;
    }


    /** Releases a client's dispatcher threads and idle connections; harmless when repeated. */
    static void release(OkHttpClient client) {
        client.dispatcher().executorService().shutdown();
        client.connectionPool().evictAll();
    }

    /** A request to stop trying: set by a cancelled stream. */
    interface Cancelled {
        boolean isCancelled();
    }

    /** GET {@code path} and parse the JSON body. */
    JsonNode get(String path) {
        return send(new Request.Builder().url(url(path)).get().build(), null, null, call -> { }).json;
    }

    /** POST {@code body} to {@code path} and parse the JSON body; {@code model} names the model for a 404. */
    JsonNode post(String path, ObjectNode body, @Nullable String model) {
        return send(post(path, body), model, null, call -> { }).json;
    }

    Request post(String path, ObjectNode body) {
        return new Request.Builder().url(url(path)).post(RequestBody.create(body.toString(), JSON)).build();
    }

    /**
     * Opens a streaming call, retrying before any byte of the answer was read, and returns the 200 response for
     * the caller to read line by line (and close).
     *
     * @param onCall receives every call started, so that cancelling can close the current one
     */
    Response open(Request request, @Nullable String model, Cancelled cancelled, Consumer<Call> onCall) {
        return send(request, model, cancelled, onCall).response;
    }

    private static final class Sent {
        final @Nullable JsonNode json;
        final @Nullable Response response;

        Sent(@Nullable JsonNode json, @Nullable Response response) {
            this.json = json;
            this.response = response;
        }
    }

    /**
     * Sends with retries. Without {@code cancelled} the body is read and parsed as JSON; with it, the open 200
     * response is returned unread.
     */
    private Sent send(Request request, @Nullable String model, @Nullable Cancelled cancelled, Consumer<Call> onCall) {
        for (int attempt = 0; ; attempt++) {
            Call call = client.newCall(request);
            onCall.accept(call);
            RagException failure;
            boolean retriable;
            try {
                Response response = call.execute();
                if (response.isSuccessful()) {
                    if (cancelled != null) {
                        return new Sent(null, response);
                    }
                    try (response) {
                        return new Sent(parse(response, request), null);
                    }
                }
                try (response) {
                    int code = response.code();
                    failure = statusError(code, bodyText(response.body()), model);
                    retriable = code == 429 || code == 502 || code == 503;
                }
            } catch (IOException e) {
                if (cancelled != null && cancelled.isCancelled()) {
                    throw new CancelledException();
                }
                failure = ioError(e);
                retriable = e instanceof ConnectException || e instanceof NoRouteToHostException;
            }
            if (!retriable || attempt >= maxRetries || cancelled != null && cancelled.isCancelled()) {
                throw failure;
            }
            long wait = backoff.toMillis() << attempt;
            LOG.debug("{} {} failed ({}); retry {} of {} in {} ms", request.method(), request.url(), failure.getMessage(),
                    attempt + 1, maxRetries, wait);
            try {
                Thread.sleep(wait);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw failure;
            }
        }
    }

    /** Thrown inside a cancelled stream; never reaches a caller. */
    static final class CancelledException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        CancelledException() {
            super("cancelled", null, false, false);
        }
    }

    private JsonNode parse(Response response, Request request) throws IOException {
        String text = bodyText(response.body());
        try {
            return MAPPER.readTree(text);
        } catch (IOException e) {
            throw new OllamaProtocolException("Ollama at " + base + " answered " + request.url().encodedPath()
                    + " with something that is not JSON: '" + abbreviate(text) + "'; check that the base URL points"
                    + " at an Ollama server (not a proxy or another service)", "", e);
        }
    }

    /** An HTTP error status as the exception a caller can act on. */
    RagException statusError(int code, String body, @Nullable String model) {
        String error = errorText(body);
        String lower = error.toLowerCase(Locale.ROOT);
        // "model 'x' not found" (and older servers' "model \"x\" not found, try pulling it first"); a bare
        // "404 page not found" is a wrong path (base URL), not a missing model
        if (code == 404 && model != null && lower.contains("not found") && lower.contains("model")) {
            return new ModelNotFoundException("model '" + model + "' is not on the Ollama server at " + base + " ("
                    + error + "); run: ollama pull " + model);
        }
        if (code == 429 || code == 502 || code == 503) {
            return new LlmUnavailableException("Ollama at " + base + " is not ready (HTTP " + code + ": " + error
                    + "); is Ollama running and not overloaded? Try again shortly");
        }
        if (code == 408 || code == 504) {
            // a proxy (or the server) in front of Ollama gave up waiting; not retried: a retry would wait as long again
            // (OkHttp itself repeats a request once after a 408, which the server by definition did not process)
            return new LlmTimeoutException("Ollama at " + base + " answered HTTP " + code + " ("
                    + (code == 504 ? "gateway timeout" : "request timeout") + ": " + error + "): a proxy or server in"
                    + " front of Ollama stopped waiting for the answer; raise that proxy's or server's time limit"
                    + " (e.g. its read or proxy timeout), or use a smaller model");
        }
        String hint = code == 404 ? "; check that the base URL is the Ollama server itself, e.g. "
                + "http://localhost:11434 (not an OpenAI-style .../v1 path)" : "";
        return new OllamaServerException("Ollama at " + base + " answered HTTP " + code + ": " + error + hint, code,
                error, "");
    }

    /** A transport failure as the exception a caller can act on. */
    RagException ioError(IOException e) {
        if (e instanceof InterruptedIOException) {
            return new LlmTimeoutException("Ollama at " + base + " did not answer in time (limits: " + limits
                    + "); raise RAG_TIMEOUT_SECONDS or the OllamaBackend builder's timeouts, or use a smaller model",
                    e);
        }
        if (e instanceof java.net.ProtocolException || e instanceof java.io.EOFException) {
            return new OllamaProtocolException("Ollama at " + base + " broke off its answer (" + e.getMessage()
                    + "); check the Ollama server's log: it may have stopped or crashed", "", e);
        }
        if (e instanceof ConnectException || e instanceof NoRouteToHostException
                || e instanceof UnknownHostException) {
            return new LlmUnavailableException("cannot connect to Ollama at " + base + " (" + e.getMessage()
                    + "); is Ollama running at " + base + "? Start it with: ollama serve", e);
        }
        return new LlmUnavailableException("the connection to Ollama at " + base + " failed (" + e + ")", e);
    }

    /** The {@code error} field of an error body, or the body itself. */
    static String errorText(String body) {
        try {
            JsonNode node = MAPPER.readTree(body);
            if (node != null && node.hasNonNull("error")) {
                return node.get("error").asText();
            }
        } catch (IOException notJson) {
            // fall through: the raw body is the best description there is
        }
        return body.isBlank() ? "(no body)" : abbreviate(body.strip());
    }

    static String abbreviate(String text) {
        return text.length() <= 300 ? text : text.substring(0, 300) + "...";
    }

    private static String bodyText(@Nullable ResponseBody body) throws IOException {
        return body == null ? "" : body.string();
    }

    /** {@code path} ("/api/chat") under the base URL, keeping any path prefix the base has (a reverse proxy). */
    HttpUrl url(String path) {
        return base.newBuilder().addPathSegments(path.substring(1)).build();
    }

    private static String seconds(int millis) {
        return millis == 0 ? "none" : millis % 1000 == 0 ? millis / 1000 + " s" : millis + " ms";
    }
}
