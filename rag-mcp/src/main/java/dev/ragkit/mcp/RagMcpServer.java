package dev.ragkit.mcp;

import dev.ragkit.internal.BindFailures;
import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.HttpServletStreamableServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema;
import jakarta.servlet.DispatcherType;
import java.io.InputStream;
import java.io.OutputStream;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.eclipse.jetty.ee10.servlet.FilterHolder;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.jspecify.annotations.Nullable;

/**
 * A running MCP server over {@link RagMcpTools}: on stdio (one client, the process that started this one) or on
 * Streamable HTTP at {@code http://host:port/mcp} (Jetty).
 *
 * <pre>{@code
 * try (RagMcpServer server = RagMcpServer.http(tools, McpHttpSettings.loopback("127.0.0.1", 8808))) {
 *     server.awaitClose();
 * }
 * }</pre>
 *
 * <p>On stdio, a line that is not a JSON-RPC message gets a JSON-RPC error and the server reads on; when the input
 * ends, the calls already received are answered and {@link #awaitClose()} returns. On HTTP, {@link McpHttpSettings}
 * says who may call (Host and Origin checks against DNS rebinding, a bearer token beyond loopback) and how much is
 * kept open (sessions, idle expiry, body size); error bodies are JSON-RPC errors without Java internals, and a call
 * whose client went away is cancelled. See {@code docs/mcp.md}.
 */
public final class RagMcpServer implements AutoCloseable {
    /** The path of the Streamable HTTP endpoint. */
    public static final String ENDPOINT = "/mcp";
    private static final String NAME = "ragkit";
    private static final String VERSION = "0.1.0";
    private static final Duration REQUEST_TIMEOUT = Duration.ofMinutes(5);
    private static final String INSTRUCTIONS = "RagKit answers questions from the organisation's own documents with "
            + "citations, or routes them to a human owner. Use rag_query for answers, rag_search to find passages, "
            + "rag_documents to see what is indexed.";

    private final McpSyncServer server;
    private final @Nullable Server jetty;
    private final @Nullable ScheduledExecutorService probes;
    private final @Nullable HttpSessions sessions;
    private final CountDownLatch closed = new CountDownLatch(1);

    private RagMcpServer(McpSyncServer server, @Nullable Server jetty, @Nullable ScheduledExecutorService probes,
            @Nullable HttpSessions sessions) {
        this.server = server;
        this.jetty = jetty;
        this.probes = probes;
        this.sessions = sessions;
    }

    /**
     * Serves on the given streams (the process's stdin and stdout for a client that started it).
     *
     * @param tools the tools
     * @param in    where requests arrive, one JSON-RPC message per line
     * @param out   where responses go (nothing else may write there)
     * @return the running server; {@link #awaitClose()} returns once {@code in} has ended and every call received was
     *         answered
     */
    public static RagMcpServer stdio(RagMcpTools tools, InputStream in, OutputStream out) {
        Objects.requireNonNull(tools, "tools");
        Objects.requireNonNull(in, "in");
        Objects.requireNonNull(out, "out");
        StdioTransport transport = new StdioTransport(tools.jsonMapper(), in, out);
        RagMcpServer running = new RagMcpServer(build(McpServer.sync(transport), tools), null, null, null);
        transport.finished().whenComplete((ignored, error) -> running.closed.countDown());
        return running;
    }

    /**
     * Serves Streamable HTTP at {@code http://host:port/mcp} on a loopback address with the default limits.
     *
     * @param tools the tools
     * @param host  a loopback address, e.g. {@code 127.0.0.1}
     * @param port  the port, 0 for any free one ({@link #port()} tells which)
     * @return the running server
     * @throws IllegalStateException when the address is not a loopback one (use
     *                               {@link #http(RagMcpTools, McpHttpSettings)} with a token) or cannot be bound
     */
    public static RagMcpServer http(RagMcpTools tools, String host, int port) {
        return http(tools, McpHttpSettings.loopback(host, port));
    }

    /**
     * Serves Streamable HTTP at {@code http://host:port/mcp}.
     *
     * @param tools    the tools
     * @param settings the address, who may call, and the limits
     * @return the running server
     * @throws IllegalStateException when the address cannot be bound (in use, no permission), naming it
     */
    public static RagMcpServer http(RagMcpTools tools, McpHttpSettings settings) {
        Objects.requireNonNull(tools, "tools");
        Objects.requireNonNull(settings, "settings");
        ScheduledExecutorService probes = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "ragkit-mcp-http-probe");
            t.setDaemon(true);
            return t;
        });
        HttpSessions sessions = new HttpSessions(settings.maxSessions(), settings.sessionIdleTimeout(),
                System::nanoTime);
        Server jetty = new Server();
        HttpConfiguration http = new HttpConfiguration();
        http.setSendServerVersion(false);
        http.setSendXPoweredBy(false);
        ServerConnector connector = new ServerConnector(jetty, new HttpConnectionFactory(http));
        connector.setHost(settings.host());
        connector.setPort(settings.port());
        jetty.addConnector(connector);
        jetty.setErrorHandler(new JsonErrorPages.ForServer());
        HttpGuard guard = new HttpGuard(settings, tools.jsonMapper(), sessions, probes, connector::getLocalPort);
        HttpServletStreamableServerTransportProvider transport = HttpServletStreamableServerTransportProvider
                .builder().jsonMapper(tools.jsonMapper()).mcpEndpoint(ENDPOINT)
                .keepAliveInterval(Duration.ofSeconds(30))
                .httpHeaderValidator(guard::validate)
                .maxRequestSize(settings.maxRequestBytes())
                .sessionSweepInterval(settings.sessionIdleTimeout())
                .contextExtractor(request -> {
                    Object connection = request.getAttribute(ClientConnection.KEY);
                    return connection == null ? McpTransportContext.EMPTY
                            : McpTransportContext.create(Map.of(ClientConnection.KEY, connection));
                })
                .build();
        McpSyncServer server = build(McpServer.sync(transport), tools);
        ServletContextHandler context = new ServletContextHandler();
        context.setContextPath("/");
        context.setErrorHandler(new JsonErrorPages.ForContext());
        context.addFilter(new FilterHolder(guard), "/*", EnumSet.of(DispatcherType.REQUEST));
        ServletHolder servlet = new ServletHolder(transport);
        servlet.setAsyncSupported(true);
        context.addServlet(servlet, "/*");
        jetty.setHandler(context);
        try {
            jetty.start();
        } catch (Exception e) {
            server.close();
            probes.shutdownNow();
            try {
                jetty.stop();
            } catch (Exception ignored) {
                // already failing
            }
            throw new IllegalStateException(bindFailure(settings.host(), settings.port(), e), e);
        }
        return new RagMcpServer(server, jetty, probes, sessions);
    }

    /**
     * Why an address could not be served, in one fact and its fix ({@link BindFailures}).
     *
     * @param host  the address
     * @param port  the port
     * @param error what starting the server threw
     * @return the message
     */
    static String bindFailure(String host, int port, Throwable error) {
        return BindFailures.message("MCP", host, port, error);
    }

    private static McpSyncServer build(McpServer.SyncSpecification<?> spec, RagMcpTools tools) {
        return spec.serverInfo(NAME, VERSION).instructions(INSTRUCTIONS).jsonMapper(tools.jsonMapper())
                .requestTimeout(REQUEST_TIMEOUT)
                // the tools check their arguments against their schemas themselves, so that refusals are audited
                .validateToolInputs(false)
                .capabilities(McpSchema.ServerCapabilities.builder().tools(false).build())
                .tools(tools.specifications()).build();
    }

    /** @return the HTTP port, or -1 on stdio */
    public int port() {
        return jetty == null ? -1 : ((ServerConnector) jetty.getConnectors()[0]).getLocalPort();
    }

    /** @return how many HTTP sessions are open (idle ones past their timeout not counted), or 0 on stdio */
    public int openSessions() {
        return sessions == null ? 0 : sessions.size();
    }

    /**
     * Blocks until {@link #close()} runs (from another thread or a shutdown hook) or, on stdio, until the input has
     * ended and every call received was answered.
     *
     * @throws InterruptedException when interrupted
     */
    public void awaitClose() throws InterruptedException {
        closed.await();
    }

    /** Stops serving; harmless when repeated. */
    @Override
    public void close() {
        try {
            server.closeGracefully();
        } finally {
            if (jetty != null) {
                try {
                    jetty.stop();
                } catch (Exception e) {
                    // stopping anyway
                }
            }
            if (probes != null) {
                probes.shutdownNow();
            }
            closed.countDown();
        }
    }
}
