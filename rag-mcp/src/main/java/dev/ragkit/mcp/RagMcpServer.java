package dev.ragkit.mcp;

import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.HttpServletStreamableServerTransportProvider;
import io.modelcontextprotocol.server.transport.StdioServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.jspecify.annotations.Nullable;

/**
 * A running MCP server over {@link RagMcpTools}: on stdio (one client, the process that started this one) or on
 * Streamable HTTP at {@code http://host:port/mcp} (Jetty), bound to the loopback address unless told otherwise.
 *
 * <pre>{@code
 * try (RagMcpServer server = RagMcpServer.http(tools, "127.0.0.1", 8808)) {
 *     server.awaitClose();
 * }
 * }</pre>
 */
public final class RagMcpServer implements AutoCloseable {
    /** The path of the Streamable HTTP endpoint. */
    public static final String ENDPOINT = "/mcp";
    private static final String NAME = "ragkit";
    private static final String VERSION = "0.1.0";
    private static final String INSTRUCTIONS = "RagKit answers questions from the organisation's own documents with "
            + "citations, or routes them to a human owner. Use rag_query for answers, rag_search to find passages, "
            + "rag_documents to see what is indexed.";

    private final McpSyncServer server;
    private final @Nullable Server jetty;
    private final CountDownLatch closed = new CountDownLatch(1);

    private RagMcpServer(McpSyncServer server, @Nullable Server jetty) {
        this.server = server;
        this.jetty = jetty;
    }

    /**
     * Serves on the given streams (the process's stdin and stdout for a client that started it).
     *
     * @param tools the tools
     * @param in    where requests arrive
     * @param out   where responses go (nothing else may write there)
     * @return the running server
     */
    public static RagMcpServer stdio(RagMcpTools tools, InputStream in, OutputStream out) {
        Objects.requireNonNull(tools, "tools");
        StdioServerTransportProvider transport = new StdioServerTransportProvider(tools.jsonMapper(), in, out);
        McpSyncServer server = McpServer.sync(transport).serverInfo(NAME, VERSION).instructions(INSTRUCTIONS)
                .jsonMapper(tools.jsonMapper()).requestTimeout(Duration.ofMinutes(5))
                .capabilities(McpSchema.ServerCapabilities.builder().tools(false).build())
                .tools(tools.specifications()).build();
        return new RagMcpServer(server, null);
    }

    /**
     * Serves Streamable HTTP at {@code http://host:port/mcp}.
     *
     * @param tools the tools
     * @param host  the address to bind, e.g. {@code 127.0.0.1} (other hosts reach it only if this says so)
     * @param port  the port, 0 for any free one ({@link #port()} tells which)
     * @return the running server
     * @throws IllegalStateException when the port cannot be bound (in use, no permission), naming it
     */
    public static RagMcpServer http(RagMcpTools tools, String host, int port) {
        Objects.requireNonNull(tools, "tools");
        Objects.requireNonNull(host, "host");
        HttpServletStreamableServerTransportProvider transport = HttpServletStreamableServerTransportProvider
                .builder().jsonMapper(tools.jsonMapper()).mcpEndpoint(ENDPOINT).keepAliveInterval(Duration.ofSeconds(30))
                .build();
        McpSyncServer server = McpServer.sync(transport).serverInfo(NAME, VERSION).instructions(INSTRUCTIONS)
                .jsonMapper(tools.jsonMapper()).requestTimeout(Duration.ofMinutes(5))
                .capabilities(McpSchema.ServerCapabilities.builder().tools(false).build())
                .tools(tools.specifications()).build();
        Server jetty = new Server(new InetSocketAddress(host, port));
        ServletContextHandler context = new ServletContextHandler();
        context.setContextPath("/");
        context.addServlet(new ServletHolder(transport), ENDPOINT + "/*");
        context.addServlet(new ServletHolder(transport), ENDPOINT);
        jetty.setHandler(context);
        try {
            jetty.start();
        } catch (Exception e) {
            server.close();
            try {
                jetty.stop();
            } catch (Exception ignored) {
                // already failing
            }
            throw new IllegalStateException("cannot serve MCP on " + host + ":" + port + " (" + e.getMessage()
                    + "); choose another port with --http host:port", e);
        }
        return new RagMcpServer(server, jetty);
    }

    /** @return the HTTP port, or -1 on stdio */
    public int port() {
        return jetty == null ? -1 : ((ServerConnector) jetty.getConnectors()[0]).getLocalPort();
    }

    /**
     * Blocks until {@link #close()} runs (from another thread or a shutdown hook).
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
            closed.countDown();
        }
    }
}
