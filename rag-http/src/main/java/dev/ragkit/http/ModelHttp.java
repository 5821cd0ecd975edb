package dev.ragkit.http;

import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ragkit.error.LlmTimeoutException;
import dev.ragkit.error.LlmUnavailableException;
import dev.ragkit.error.RagException;
import java.io.EOFException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.ProtocolException;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.Locale;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
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
 * The HTTP and JSON plumbing that RagKit's model-server backends share (Ollama's API, the OpenAI chat completions
 * protocol): one place that sends requests, retries connection failures and HTTP 429/502/503 with exponential
 * backoff — never once a streamed answer has started — and turns transport failures into RagKit's typed
 * exceptions (a time limit → {@link LlmTimeoutException}, a refused connection → {@link LlmUnavailableException}).
 * Each backend subclasses it with its server's error dialect: how an HTTP error status reads, what a broken reply
 * is, and the fixes to suggest.
 *
 * <p>For RagKit's own backends; not an API for applications (it may change in any release). Thread-safe.
 */
public abstract class ModelHttp {
    private static final Logger LOG = LoggerFactory.getLogger(ModelHttp.class);
    private static final MediaType JSON = MediaType.get("application/json; charset=utf-8");
    /** Jackson's read-constraint messages: "String value length (24000000) exceeds the maximum allowed (20000000". */
    private static final Pattern CONSTRAINT = Pattern.compile("^([A-Za-z ]+?) \\(\\d+\\) exceeds the maximum "
            + "allowed \\((\\d+)");
    /** The JSON mapper every backend uses for request and reply bodies. */
    public static final ObjectMapper MAPPER = new ObjectMapper();
    /** The most retries a builder accepts. */
    public static final int MAX_RETRIES = 10;

    /** The HTTP client. */
    public final OkHttpClient client;
    /** The server's base URL, ending in a slash. */
    public final HttpUrl base;
    private final int maxRetries;
    private final Duration backoff;
    /** The client's time limits, in words, for error messages. */
    protected final String limits;

    /**
     * @param client     the HTTP client, with its time limits
     * @param base       the base URL (see {@link #parseBaseUrl})
     * @param maxRetries retries after a retriable failure, 0 to {@value #MAX_RETRIES}
     * @param backoff    the wait before the first retry, doubled for each next one
     */
    protected ModelHttp(OkHttpClient client, HttpUrl base, int maxRetries, Duration backoff) {
        this.client = Objects.requireNonNull(client, "client");
        this.base = Objects.requireNonNull(base, "base");
        this.maxRetries = retries(maxRetries);
        this.backoff = Objects.requireNonNull(backoff, "backoff");
        this.limits = "connect " + seconds(client.connectTimeoutMillis()) + ", read "
                + seconds(client.readTimeoutMillis()) + ", whole call " + seconds(client.callTimeoutMillis());
    }

    /**
     * @param settings the resolved settings of a backend's or embedder's builder
     */
    protected ModelHttp(HttpSettings.Resolved settings) {
        this(settings.client(), settings.baseUrl(), settings.maxRetries(), settings.backoff());
    }

    // ---------------------------------------------------------------------------------------------------------
    // The server's dialect

    /** @return the server in words, the same for every address, e.g. {@code Ollama}: the exceptions' provider */
    public abstract String provider();

    /** @return the server for messages, e.g. {@code Ollama at http://localhost:11434/} */
    protected abstract String server();

    /**
     * An HTTP error status as the exception a caller can act on.
     *
     * @param code  the status
     * @param body  the response body (may be empty)
     * @param model the model the request named, or {@code null}
     * @param url   the URL that answered, for a message that names it
     * @return the exception to throw
     */
    public abstract RagException statusError(int code, String body, @Nullable String model, HttpUrl url);

    /**
     * A reply that is not the server's API (not JSON, fields missing, a stream cut off): a
     * {@link ModelProtocolException} naming {@link #provider()}.
     *
     * @param message     what was wrong
     * @param partialText the answer text received before, empty when none
     * @param cause       the parse failure, or {@code null}
     * @return the exception to throw
     */
    public RagException protocolError(String message, String partialText, @Nullable Throwable cause) {
        return new ModelProtocolException(provider(), message, partialText, cause);
    }

    /**
     * An error the server reported inside a streamed answer, after the 200 status: a {@link ModelServerException}
     * with status 200 and the text streamed before it.
     *
     * @param serverError the server's own error text
     * @param code        the server's error code, or {@code null}
     * @param partialText the answer text streamed before the error
     * @return the exception to report
     */
    public ModelServerException streamedError(String serverError, @Nullable String code, String partialText) {
        return new ModelServerException(provider(), 200, code, serverError, server() + " reported an error in the "
                + "middle of the answer: " + serverError + " (" + partialText.length() + " characters were streamed "
                + "before it)", "try again, and check the server's log if it happens again", partialText);
    }

    /** @return what to do when the server did not answer in time, e.g. which setting to raise */
    protected abstract String timeoutFix();

    /** @return what to do when no connection could be made, e.g. how to start the server */
    protected abstract String connectFix();

    /**
     * Adds what every request carries, such as an {@code Authorization} header; nothing by default.
     *
     * @param request the request being built
     */
    protected void decorate(Request.Builder request) {
        // nothing by default
    }

    // ---------------------------------------------------------------------------------------------------------
    // The builders' shared checks: each rejects a bad value at once with an IllegalArgumentException

    /**
     * @param url     an http(s) URL, with or without a trailing slash
     * @param example an example for the error message, e.g. {@code http://localhost:11434}
     * @return the URL ending in a slash, so that API paths are resolved under any path prefix it has
     */
    public static HttpUrl parseBaseUrl(String url, String example) {
        Objects.requireNonNull(url, "url");
        HttpUrl parsed = HttpUrl.parse(url.endsWith("/") ? url : url + "/");
        if (parsed == null) {
            throw new IllegalArgumentException("not an http(s) URL: '" + url + "'; e.g. " + example);
        }
        return parsed;
    }

    /**
     * @param retries retries after a retriable failure
     * @return {@code retries} when it is from 0 to {@value #MAX_RETRIES}
     */
    public static int retries(int retries) {
        if (retries < 0 || retries > MAX_RETRIES) {
            throw new IllegalArgumentException("maxRetries must be in [0, " + MAX_RETRIES + "], got " + retries);
        }
        return retries;
    }

    /**
     * Releases a client's dispatcher threads and idle connections; harmless when repeated.
     *
     * @param client the client
     */
    public static void release(OkHttpClient client) {
        client.dispatcher().executorService().shutdown();
        client.connectionPool().evictAll();
    }

    /** A request to stop trying: set by a cancelled stream. */
    public interface Cancelled {
        /** @return whether the caller cancelled */
        boolean isCancelled();
    }

    /**
     * GET {@code path} and parse the JSON body.
     *
     * @param path the API path, e.g. {@code /api/tags}
     * @return the body
     */
    public JsonNode get(String path) {
        return send(request(path).get().build(), null, null, call -> { }).json;
    }

    /**
     * POST {@code body} to {@code path} and parse the JSON body.
     *
     * @param path  the API path
     * @param body  the JSON body
     * @param model the model the request names, for the error of an unknown model; or {@code null}
     * @return the reply
     */
    public JsonNode post(String path, ObjectNode body, @Nullable String model) {
        return send(post(path, body), model, null, call -> { }).json;
    }

    /**
     * @param path the API path
     * @param body the JSON body
     * @return a POST request, decorated
     */
    public Request post(String path, ObjectNode body) {
        return request(path).post(RequestBody.create(body.toString(), JSON)).build();
    }

    private Request.Builder request(String path) {
        Request.Builder builder = new Request.Builder().url(url(path));
        decorate(builder);
        return builder;
    }

    /**
     * Opens a streaming call, retrying before any byte of the answer was read, and returns the 200 response for
     * the caller to read line by line (and close).
     *
     * @param request   the request
     * @param model     the model it names, or {@code null}
     * @param cancelled asked between attempts
     * @param onCall    receives every call started, so that cancelling can close the current one
     * @return the open response
     */
    public Response open(Request request, @Nullable String model, Cancelled cancelled, Consumer<Call> onCall) {
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
                    failure = statusError(code, bodyText(response.body()), model, request.url());
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
    public static final class CancelledException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        /** Creates it, without a stack trace. */
        public CancelledException() {
            super("cancelled", null, false, false);
        }
    }

    private JsonNode parse(Response response, Request request) throws IOException {
        String text = bodyText(response.body());
        try {
            JsonNode node = readJson(text, request.url().encodedPath(), "");
            if (node == null || node.isMissingNode()) {
                throw new IOException("empty body");
            }
            return node;
        } catch (IOException e) {
            throw protocolError(server() + " answered " + request.url().encodedPath() + " with something that is "
                    + "not JSON: '" + abbreviate(text) + "'; check that the base URL points at the server's API (not "
                    + "a proxy's page or another service)", "", e);
        }
    }

    /**
     * Parses a reply, or one line of a streamed reply, as JSON.
     *
     * @param text        the text
     * @param where       what the server answered, for the message of a reply over a limit, e.g. its API path
     * @param partialText the answer text received before, empty when none
     * @return the parsed JSON
     * @throws IOException  when the text is not JSON
     * @throws RagException ({@link #protocolError}) when the text is JSON that breaks a limit of the JSON reader,
     *                      such as a text value longer than {@link #maxTextChars()} characters: that is not a
     *                      question of the format, and the message says which limit it broke
     */
    public JsonNode readJson(String text, String where, String partialText) throws IOException {
        try {
            return MAPPER.readTree(text);
        } catch (StreamConstraintsException e) {
            throw protocolError(server() + " answered " + where + " with " + overLimit(e) + "; ask for a shorter "
                    + "answer (the limit is fixed: it keeps a runaway reply from filling the memory)", partialText, e);
        }
    }

    /** @return the longest text value a reply may hold, in characters (Jackson's default read constraint) */
    public static int maxTextChars() {
        return MAPPER.getFactory().streamReadConstraints().getMaxStringLength();
    }

    /**
     * What a read constraint stopped, in words, naming the limit (not the size read so far, which is where the
     * reader stopped counting) and without the library's class names.
     */
    private static String overLimit(StreamConstraintsException e) {
        Matcher m = CONSTRAINT.matcher(String.valueOf(e.getMessage()));
        if (!m.find()) {
            return "JSON larger or deeper than RagKit reads";
        }
        long limit = Long.parseLong(m.group(2));
        String what = m.group(1).toLowerCase(Locale.ROOT);
        if (what.startsWith("string value length")) {
            return String.format(Locale.ROOT, "a text of more than %,d characters, the limit for one text value in a "
                    + "reply", limit);
        }
        return String.format(Locale.ROOT, "JSON over a limit of the reader (%s: at most %,d)", what, limit);
    }

    /**
     * A streamed answer that stopped before its last message: the server closed the connection, cut a chunk, or
     * ended the body early. Says so in the user's terms, without the transport's internals.
     *
     * @param partialText the answer text received before, empty when none
     * @param tokens      the tokens received before
     * @param cause       the transport's report, or {@code null} when the body simply ended
     * @return the exception to report
     */
    public RagException streamCut(String partialText, int tokens, @Nullable Throwable cause) {
        return protocolError(server() + " closed the stream before it finished (" + tokens
                + (tokens == 1 ? " token" : " tokens") + " received); the answer is incomplete: try again, and check "
                + "the server's log if it happens again", partialText, cause);
    }

    /**
     * A transport failure as the exception a caller can act on.
     *
     * @param e the failure
     * @return the exception to throw
     */
    public RagException ioError(IOException e) {
        if (e instanceof InterruptedIOException) {
            return new LlmTimeoutException(server() + " did not answer in time (limits: " + limits + "); "
                    + timeoutFix(), e);
        }
        if (e instanceof ProtocolException || e instanceof EOFException) {
            return protocolError(server() + " closed the connection before its answer was complete; try again, and "
                    + "check the server's log if it happens again", "", e);
        }
        if (e instanceof ConnectException || e instanceof NoRouteToHostException
                || e instanceof UnknownHostException) {
            return new LlmUnavailableException("cannot connect to " + server() + " (" + e.getMessage() + "); "
                    + connectFix(), e);
        }
        return new LlmUnavailableException("the connection to " + server() + " failed ("
                + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage()) + "); try again, and "
                + "check the server's log if it happens again", e);
    }

    /**
     * The error text of an error body: its {@code error} field when that is text (Ollama), the {@code message} of
     * its {@code error} object (OpenAI), or the body itself.
     *
     * @param body the body
     * @return the text
     */
    public static String errorText(String body) {
        try {
            JsonNode node = MAPPER.readTree(body);
            if (node != null && node.hasNonNull("error")) {
                JsonNode error = node.get("error");
                if (error.isObject() && error.hasNonNull("message")) {
                    return error.get("message").asText();
                }
                return error.isValueNode() ? error.asText() : error.toString();
            }
        } catch (IOException notJson) {
            // fall through: the raw body is the best description there is
        }
        return body.isBlank() ? "(no body)" : abbreviate(body.strip());
    }

    /**
     * @param text any text
     * @return the text, cut to 300 characters with {@code ...}
     */
    public static String abbreviate(String text) {
        return text.length() <= 300 ? text : text.substring(0, 300) + "...";
    }

    private static String bodyText(@Nullable ResponseBody body) throws IOException {
        return body == null ? "" : body.string();
    }

    /**
     * @param path an API path, e.g. {@code /api/chat}
     * @return the path under the base URL, keeping any path prefix the base has (a reverse proxy, {@code /v1})
     */
    public HttpUrl url(String path) {
        return base.newBuilder().addPathSegments(path.substring(1)).build();
    }

    private static String seconds(int millis) {
        return millis == 0 ? "none" : millis % 1000 == 0 ? millis / 1000 + " s" : millis + " ms";
    }
}
