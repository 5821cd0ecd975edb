package dev.ragkit.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ragkit.internal.BearerTokens;
import dev.ragkit.internal.HostOriginCheck;
import dev.ragkit.internal.LimitedBodies;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.server.transport.HeaderAccessor;
import io.modelcontextprotocol.server.transport.ServerTransportSecurityException;
import jakarta.servlet.AsyncContext;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.WriteListener;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;
import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.IntSupplier;
import org.jspecify.annotations.Nullable;

/**
 * What stands between the network and the SDK's Streamable HTTP servlet, for every request, in this order:
 * <ol>
 *   <li>{@code Host} and {@code Origin} through {@link HostOriginCheck} with this server's names (403 otherwise: DNS rebinding);</li>
 *   <li>the bearer token when the settings require one (401 with {@code WWW-Authenticate} otherwise);</li>
 *   <li>the endpoint path (404), the body size (413), the body as a JSON-RPC message ({@link JsonRpcInput}: 400 with
 *       a JSON-RPC error), the session cap for {@code initialize} (503) and the session's being open (404);</li>
 *   <li>on the way back, any error body the SDK or Jetty writes (the SDK serialises whole Java exceptions, stack
 *       frames and all) is replaced by a plain JSON-RPC error;</li>
 *   <li>while a call is answered on a server-sent event stream, the connection is probed every
 *       {@link #PROBE_INTERVAL} with an SSE comment line; a client that went away is reported to the call
 *       ({@link ClientConnection}), which cancels its work.</li>
 * </ol>
 */
final class HttpGuard implements Filter {
    /** How often a connection waiting for a call's answer is probed. */
    static final Duration PROBE_INTERVAL = Duration.ofSeconds(1);
    private static final String SESSION_HEADER = "Mcp-Session-Id";
    /**
     * Runs after the servlet answered a request, before this guard's bookkeeping for it: a test seam (a test holds it
     * to show that a session is open as soon as the answer to its {@code initialize} can reach the client).
     */
    static volatile Runnable afterServlet = () -> { };
    private static final ObjectMapper JSON = new ObjectMapper();

    private final McpHttpSettings settings;
    private final McpJsonMapper mapper;
    private final HttpSessions sessions;
    private final ScheduledExecutorService probes;
    private final IntSupplier port;
    private volatile @Nullable HostOriginCheck check;

    HttpGuard(McpHttpSettings settings, McpJsonMapper mapper, HttpSessions sessions, ScheduledExecutorService probes,
            IntSupplier port) {
        this.settings = settings;
        this.mapper = mapper;
        this.sessions = sessions;
        this.probes = probes;
        this.port = port;
    }

    /** @return the Origin and Host check for this server's names (built once the port is known) */
    HostOriginCheck hostOriginCheck() {
        HostOriginCheck c = check;
        if (c == null) {
            c = HostOriginCheck.of(settings.host(), port.getAsInt(), settings.allowedOrigins(),
                    settings.allowedHosts());
            check = c;
        }
        return c;
    }

    /**
     * The same check for the SDK's transport, which asks again.
     *
     * @param headers the request's headers
     * @throws ServerTransportSecurityException 403 when the check refuses them
     */
    void validate(HeaderAccessor headers) throws ServerTransportSecurityException {
        if (hostOriginCheck().check(headers.getHeader("Host"), headers.getHeader("Origin")) != null) {
            throw new ServerTransportSecurityException(403, "Forbidden");
        }
    }

    @Override
    public void doFilter(ServletRequest req, ServletResponse res, FilterChain chain)
            throws IOException, ServletException {
        HttpServletRequest request = (HttpServletRequest) req;
        HttpServletResponse response = (HttpServletResponse) res;
        HostOriginCheck.Refusal refusal = hostOriginCheck().check(Collections.list(request.getHeaders("Host")),
                Collections.list(request.getHeaders("Origin")));
        if (refusal != null) {
            boolean origin = refusal.header() == HostOriginCheck.Header.ORIGIN;
            String value = refusal.value();
            refuse(response, 403, null, JsonRpcInput.TRANSPORT_ERROR, "Forbidden: " + (origin
                    ? "Origin '" + shown(value) + "' may not call this server; allow it with --allow-origin "
                    + shown(value)
                    : "Host '" + shown(value) + "' does not name this server; call it as 127.0.0.1:" + port.getAsInt()
                    + " or allow the name with --allow-host") + " (protection against DNS rebinding)");
            return;
        }
        if (settings.requiresToken()) {
            String token = BearerTokens.fromHeader(request.getHeader("Authorization"));
            if (token == null || !settings.tokenMatches(token)) {
                response.setHeader("WWW-Authenticate", "Bearer realm=\"ragkit-mcp\""
                        + (token == null ? "" : ", error=\"invalid_token\""));
                refuse(response, 401, null, JsonRpcInput.TRANSPORT_ERROR, token == null
                        ? "Unauthorized: send Authorization: Bearer <token>, the token in the server's --auth-token-file"
                        : "Unauthorized: the bearer token is not this server's");
                return;
            }
        }
        if (!RagMcpServer.ENDPOINT.equals(request.getRequestURI())) {
            refuse(response, 404, null, JsonRpcInput.TRANSPORT_ERROR, "Not Found: the MCP endpoint is "
                    + RagMcpServer.ENDPOINT);
            return;
        }
        String method = request.getMethod();
        String sessionId = request.getHeader(SESSION_HEADER);
        byte @Nullable [] body = null;
        JsonRpcInput.Read read = null;
        if ("POST".equals(method)) {
            body = LimitedBodies.read(request.getInputStream(), request.getContentLengthLong(),
                    settings.maxRequestBytes(), LimitedBodies.NO_DEADLINE);
            if (body == null) {
                refuse(response, 413, null, JsonRpcInput.TRANSPORT_ERROR, tooLarge());
                return;
            }
            if (isJson(request.getContentType())) {
                read = JsonRpcInput.read(mapper, new String(body, charset(request)));
                ObjectNode error = read.error();
                if (error != null) {
                    write(response, 400, error);
                    return;
                }
            }
        }
        GuardedResponse guarded = new GuardedResponse(response);
        Exchange exchange;
        if (read != null && read.isInitialize()) {
            if (!sessions.reserve()) {
                refuse(response, 503, read.message(), JsonRpcInput.TRANSPORT_ERROR, "Service Unavailable: "
                        + settings.maxSessions() + " sessions are open, the most this server keeps (--max-sessions); "
                        + "close one (HTTP DELETE with its Mcp-Session-Id) or wait until one has been idle for "
                        + minutes(settings.sessionIdleTimeout()));
                return;
            }
            exchange = new Exchange(null, true, null);
            guarded.beforeBody = () -> exchange.open(guarded);
        } else if (sessionId != null && !sessionId.isBlank()) {
            if (!sessions.begin(sessionId)) {
                refuse(response, 404, read == null ? null : read.message(), JsonRpcInput.SESSION_NOT_FOUND,
                        "Not Found: session " + shown(sessionId) + " is not open (closed, idle for more than "
                                + minutes(settings.sessionIdleTimeout()) + ", or never opened); initialize a new one");
                return;
            }
            ClientConnection connection = read != null && read.isRequest() ? new ClientConnection() : null;
            exchange = new Exchange(sessionId, false, connection);
            if (connection != null) {
                request.setAttribute(ClientConnection.KEY, connection);
                exchange.probe = probes.scheduleWithFixedDelay(() -> probe(guarded, connection),
                        PROBE_INTERVAL.toMillis(), PROBE_INTERVAL.toMillis(), TimeUnit.MILLISECONDS);
            }
        } else {
            exchange = new Exchange(null, false, null);
        }
        GuardedRequest wrapped = new GuardedRequest(request, body, guarded, exchange);
        try {
            chain.doFilter(wrapped, guarded);
            afterServlet.run();
        } finally {
            if (!wrapped.isAsyncStarted()) {
                guarded.flushEvents();
                exchange.end(guarded);
                if (guarded.isError()) {
                    guarded.replaceErrorBody(read == null ? null : JsonRpcInput.idOf(bodyText(body, request)));
                }
            }
        }
    }

    /** Writes an SSE comment when nothing else is being written; a failed write means the client is gone. */
    private static void probe(GuardedResponse response, ClientConnection connection) {
        if (connection.isDone()) {
            return;
        }
        EventWriter events = response.events;
        if (events != null && !events.probe()) {
            connection.disconnected();
        }
    }

    /** One request's bookkeeping: the session use it ends, the probe it stops. */
    private final class Exchange {
        final @Nullable String sessionId;
        final boolean initialize;
        final @Nullable ClientConnection connection;
        volatile @Nullable ScheduledFuture<?> probe;
        private final AtomicBoolean ended = new AtomicBoolean();
        private final AtomicBoolean opened = new AtomicBoolean();

        Exchange(@Nullable String sessionId, boolean initialize, @Nullable ClientConnection connection) {
            this.sessionId = sessionId;
            this.initialize = initialize;
            this.connection = connection;
        }

        /**
         * Opens the session an {@code initialize} answer names, before the answer's first byte can reach the client:
         * a client may use the session as soon as it reads the answer, before the servlet has returned.
         */
        void open(GuardedResponse response) {
            String id = response.getHeader(SESSION_HEADER);
            if (response.getStatus() == 200 && id != null && opened.compareAndSet(false, true)) {
                sessions.opened(id);
            }
        }

        void end(GuardedResponse response) {
            if (!ended.compareAndSet(false, true)) {
                return;
            }
            ScheduledFuture<?> p = probe;
            if (p != null) {
                p.cancel(false);
            }
            if (connection != null) {
                connection.done();
            }
            if (initialize) {
                open(response);                         // when no body was written; else it opened before
                if (opened.compareAndSet(false, true)) {
                    sessions.opened(null);              // no session: the slot reserved for it goes back
                }
            } else if (sessionId != null) {
                sessions.end(sessionId);
                boolean deleted = "DELETE".equals(response.method) && response.getStatus() == 200;
                if (deleted || response.getStatus() == 404) {
                    sessions.closed(sessionId);
                }
            }
        }
    }

    private String tooLarge() {
        return "Payload Too Large: a request body may hold at most " + settings.maxRequestBytes() + " bytes";
    }

    private static String minutes(Duration d) {
        return d.toSeconds() % 60 == 0 ? d.toMinutes() + " min" : d.toSeconds() + " s";
    }

    private static String shown(@Nullable String value) {
        if (value == null) {
            return "";
        }
        String flat = value.replaceAll("\\p{Cntrl}", "?");
        return flat.length() > 100 ? flat.substring(0, 100) + "…" : flat;
    }

    private static boolean isJson(@Nullable String contentType) {
        if (contentType == null) {
            return false;
        }
        int semicolon = contentType.indexOf(';');
        String type = (semicolon < 0 ? contentType : contentType.substring(0, semicolon)).strip();
        return type.equalsIgnoreCase("application/json");
    }

    private static Charset charset(HttpServletRequest request) {
        try {
            return request.getCharacterEncoding() == null ? StandardCharsets.UTF_8
                    : Charset.forName(request.getCharacterEncoding());
        } catch (RuntimeException e) {
            return StandardCharsets.UTF_8;
        }
    }

    private static @Nullable String bodyText(byte @Nullable [] body, HttpServletRequest request) {
        return body == null ? null : new String(body, charset(request));
    }

    /** Answers with a JSON-RPC error, the request's id when it has one. */
    private static void refuse(HttpServletResponse response, int status, @Nullable Object message, int code,
            String text) throws IOException {
        JsonNode id = null;
        if (message instanceof io.modelcontextprotocol.spec.McpSchema.JSONRPCRequest request) {
            id = JSON.valueToTree(request.id());
        }
        write(response, status, JsonRpcInput.error(id, code, text));
    }

    private static void write(HttpServletResponse response, int status, ObjectNode body) throws IOException {
        byte[] bytes = body.toString().getBytes(StandardCharsets.UTF_8);
        response.setStatus(status);
        response.setContentType("application/json");
        response.setCharacterEncoding("UTF-8");
        response.setContentLength(bytes.length);
        try {
            response.getOutputStream().write(bytes);
        } catch (IllegalStateException writerInUse) {
            response.getWriter().write(body.toString());
        }
    }

    /** The request with its body read once, whose asynchronous end is reported to its {@link Exchange}. */
    private static final class GuardedRequest extends HttpServletRequestWrapper {
        private final byte @Nullable [] body;
        private final GuardedResponse response;
        private final Exchange exchange;

        GuardedRequest(HttpServletRequest request, byte @Nullable [] body, GuardedResponse response,
                Exchange exchange) {
            super(request);
            this.body = body;
            this.response = response;
            this.exchange = exchange;
            response.method = request.getMethod();
        }

        @Override
        public ServletInputStream getInputStream() throws IOException {
            if (body == null) {
                return super.getInputStream();
            }
            ByteArrayInputStream in = new ByteArrayInputStream(body);
            return new ServletInputStream() {
                @Override
                public int read() {
                    return in.read();
                }

                @Override
                public int read(byte[] b, int off, int len) {
                    return in.read(b, off, len);
                }

                @Override
                public boolean isFinished() {
                    return in.available() == 0;
                }

                @Override
                public boolean isReady() {
                    return true;
                }

                @Override
                public void setReadListener(ReadListener listener) {
                    throw new IllegalStateException("the body was read already");
                }
            };
        }

        @Override
        public BufferedReader getReader() throws IOException {
            if (body == null) {
                return super.getReader();
            }
            return new BufferedReader(new InputStreamReader(new ByteArrayInputStream(body), charset(this)));
        }

        @Override
        public int getContentLength() {
            return body == null ? super.getContentLength() : body.length;
        }

        @Override
        public long getContentLengthLong() {
            return body == null ? super.getContentLengthLong() : body.length;
        }

        @Override
        public AsyncContext startAsync() {
            AsyncContext async = super.startAsync(this, response);
            async.addListener(new AsyncListener() {
                @Override
                public void onComplete(AsyncEvent event) {
                    exchange.end(response);
                }

                @Override
                public void onTimeout(AsyncEvent event) {
                    exchange.end(response);
                }

                @Override
                public void onError(AsyncEvent event) {
                    if (exchange.connection != null) {
                        exchange.connection.disconnected();
                    }
                    exchange.end(response);
                }

                @Override
                public void onStartAsync(AsyncEvent event) {
                    // the listener stays registered
                }
            });
            return async;
        }
    }

    /**
     * The response, with error bodies held back (and replaced, see {@link #replaceErrorBody}) and event-stream
     * writes passed on whole, one flush at a time, so that probes never split an event.
     */
    private static final class GuardedResponse extends HttpServletResponseWrapper {
        volatile @Nullable EventWriter events;
        @Nullable String method;
        private int status = 200;
        /** Runs once, before the first byte of a body that is no error is handed out. */
        volatile @Nullable Runnable beforeBody;
        private final ByteArrayOutputStream held = new ByteArrayOutputStream();
        private @Nullable PrintWriter heldWriter;

        GuardedResponse(HttpServletResponse response) {
            super(response);
        }

        boolean isError() {
            return status >= 400;
        }

        @Override
        public void setStatus(int sc) {
            status = sc;
            super.setStatus(sc);
        }

        @Override
        public int getStatus() {
            return status;
        }

        @Override
        public void sendError(int sc) {
            setStatus(sc);
        }

        @Override
        public void sendError(int sc, String msg) {
            setStatus(sc);
        }

        @Override
        public PrintWriter getWriter() throws IOException {
            if (isError()) {
                if (heldWriter == null) {
                    heldWriter = new PrintWriter(new OutputStreamWriter(held, StandardCharsets.UTF_8));
                }
                return heldWriter;
            }
            bodyStarts();
            EventWriter e = events;
            if (e == null) {
                e = new EventWriter(super.getWriter());
                events = e;
            }
            return e;
        }

        @Override
        public void flushBuffer() throws IOException {
            if (!isError()) {
                bodyStarts();
            }
            super.flushBuffer();
        }

        private void bodyStarts() {
            Runnable before = beforeBody;
            if (before != null) {
                beforeBody = null;
                before.run();
            }
        }

        @Override
        public ServletOutputStream getOutputStream() throws IOException {
            if (!isError()) {
                bodyStarts();
                return super.getOutputStream();
            }
            return new ServletOutputStream() {
                @Override
                public void write(int b) {
                    held.write(b);
                }

                @Override
                public boolean isReady() {
                    return true;
                }

                @Override
                public void setWriteListener(WriteListener listener) {
                    throw new IllegalStateException("not asynchronous");
                }
            };
        }

        void flushEvents() {
            EventWriter e = events;
            if (e != null) {
                e.flush();
            }
        }

        /** Writes a JSON-RPC error for this status instead of what the SDK or Jetty wrote. */
        void replaceErrorBody(@Nullable JsonNode id) throws IOException {
            if (heldWriter != null) {
                heldWriter.flush();
            }
            int code;
            String message;
            String sdkMessage = sdkMessage(held.toString(StandardCharsets.UTF_8));
            switch (status) {
                case 400 -> {
                    code = JsonRpcInput.INVALID_REQUEST;
                    message = sdkMessage != null && (sdkMessage.contains("Accept header")
                            || sdkMessage.contains("mcp-session-id")) ? "Bad Request: " + sdkMessage
                            : "Bad Request: the message does not match the MCP schema of its method";
                }
                case 404 -> {
                    code = JsonRpcInput.SESSION_NOT_FOUND;
                    message = "Not Found: no such session; initialize a new one";
                }
                case 405 -> {
                    code = JsonRpcInput.TRANSPORT_ERROR;
                    message = "Method Not Allowed: use POST, GET or DELETE on " + RagMcpServer.ENDPOINT;
                }
                case 413 -> {
                    code = JsonRpcInput.TRANSPORT_ERROR;
                    message = "Payload Too Large";
                }
                case 415 -> {
                    code = JsonRpcInput.INVALID_REQUEST;
                    message = "Unsupported Media Type: send Content-Type: application/json";
                }
                case 503 -> {
                    code = JsonRpcInput.TRANSPORT_ERROR;
                    message = "Service Unavailable: the server is shutting down";
                }
                default -> {
                    code = -32603;
                    message = "Internal error: the server could not handle this request; its log has the details";
                }
            }
            ObjectNode body = JsonRpcInput.error(id, code, message);
            HttpServletResponse real = (HttpServletResponse) getResponse();
            if (!real.isCommitted()) {
                real.resetBuffer();
                write(real, status, body);
            }
        }

        private static @Nullable String sdkMessage(String held) {
            try {
                JsonNode node = JSON.readTree(held);
                JsonNode m = node.path("jsonRpcError").path("message");
                String text = m.isTextual() ? m.asText() : node.path("message").asText(null);
                if (text == null) {
                    return null;
                }
                String first = text.lines().findFirst().orElse("");
                return first.length() > 200 ? first.substring(0, 200) : first;
            } catch (IOException | RuntimeException e) {
                return null;
            }
        }
    }

    /**
     * The event stream's writer: what the SDK writes between two flushes goes out together, and a probe writes only
     * between them.
     */
    private static final class EventWriter extends PrintWriter {
        private final PrintWriter target;
        private final StringBuilder pending = new StringBuilder();

        EventWriter(PrintWriter target) {
            super(target);
            this.target = target;
        }

        @Override
        public void write(int c) {
            synchronized (lock) {
                pending.append((char) c);
            }
        }

        @Override
        public void write(char[] buf, int off, int len) {
            synchronized (lock) {
                pending.append(buf, off, len);
            }
        }

        @Override
        public void write(String s, int off, int len) {
            synchronized (lock) {
                pending.append(s, off, off + len);
            }
        }

        @Override
        public void flush() {
            synchronized (lock) {
                if (pending.length() > 0) {
                    target.write(pending.toString());
                    pending.setLength(0);
                }
                target.flush();
            }
        }

        @Override
        public boolean checkError() {
            flush();
            return target.checkError();
        }

        @Override
        public void close() {
            flush();
            target.close();
        }

        /** @return whether the client still takes writes */
        boolean probe() {
            synchronized (lock) {
                if (pending.length() > 0) {
                    return true;
                }
                target.write(": keep-alive\n\n");
                target.flush();
                return !target.checkError();
            }
        }
    }
}
