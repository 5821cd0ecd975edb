package dev.ragkit.server;

import dev.ragkit.RagPipeline;
import dev.ragkit.audit.AuditTrail;
import dev.ragkit.internal.BindFailures;
import dev.ragkit.internal.HostOriginCheck;
import dev.ragkit.retrieval.Retriever;
import dev.ragkit.store.DocumentStore;
import jakarta.servlet.DispatcherType;
import java.util.EnumSet;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import org.eclipse.jetty.ee10.servlet.FilterHolder;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.jspecify.annotations.Nullable;

/**
 * {@code ragkit serve}: an HTTP server (Jetty 12) over one {@link RagPipeline}, its {@link Retriever} and its
 * {@link DocumentStore}, serving
 * <ul>
 *   <li>{@code POST /v1/ask} (JSON, or server-sent events with {@code "stream": true}), {@code POST /v1/search},
 *       {@code GET /v1/documents}, {@code GET /v1/documents/{id}/view}, {@code GET /v1/health};</li>
 *   <li>{@code POST /v1/chat/completions} and {@code GET /v1/models} in the OpenAI shape;</li>
 *   <li>{@code GET /openapi.json} and the web page at {@code /}.</li>
 * </ul>
 * <pre>{@code
 * try (RagServer server = RagServer.builder().pipeline(pipeline).retriever(retriever).store(store)
 *         .settings(ServerSettings.builder().address("127.0.0.1", 8080).scope("default", List.of()).build())
 *         .start()) {
 *     server.awaitClose();
 * }
 * }</pre>
 * The scope of every request is fixed by {@link ServerSettings} (a token's grant, or the one scope); a request can
 * only narrow its tags. Every request is audited: answers by the pipeline's audit sink, the other routes and every
 * refused request through {@link Builder#audit}. Thread-safe; {@link #close()} stops it. See {@code docs/serve.md}.
 */
public final class RagServer implements AutoCloseable {
    private final Server jetty;
    private final ServerSettings settings;
    private final CountDownLatch closed = new CountDownLatch(1);

    private RagServer(Server jetty, ServerSettings settings) {
        this.jetty = jetty;
        this.settings = settings;
    }

    /** @return a builder */
    public static Builder builder() {
        return new Builder();
    }

    /** @return the port it listens on */
    public int port() {
        return ((ServerConnector) jetty.getConnectors()[0]).getLocalPort();
    }

    /** @return the URL of the web page, e.g. {@code http://127.0.0.1:8080/} */
    public String url() {
        String host = settings.host().contains(":") ? "[" + settings.host() + "]" : settings.host();
        return "http://" + host + ":" + port() + "/";
    }

    /**
     * Blocks until {@link #close()} runs.
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
            jetty.stop();
        } catch (Exception e) {
            // stopping anyway
        } finally {
            closed.countDown();
        }
    }

    /** Configures and starts a {@link RagServer}. Not thread-safe. */
    public static final class Builder {
        private @Nullable RagPipeline pipeline;
        private @Nullable Retriever retriever;
        private @Nullable DocumentStore store;
        private AuditTrail audit = AuditTrail.none();
        private @Nullable ServerSettings settings;

        private Builder() {
        }

        /** @param pipeline answers {@code /v1/ask} and {@code /v1/chat/completions} @return this builder */
        public Builder pipeline(RagPipeline pipeline) {
            this.pipeline = Objects.requireNonNull(pipeline, "pipeline");
            return this;
        }

        /** @param retriever answers {@code /v1/search}; give it no audit sink (the server audits) @return this builder */
        public Builder retriever(Retriever retriever) {
            this.retriever = Objects.requireNonNull(retriever, "retriever");
            return this;
        }

        /** @param store lists and shows the documents (the pipeline's store) @return this builder */
        public Builder store(DocumentStore store) {
            this.store = Objects.requireNonNull(store, "store");
            return this;
        }

        /**
         * @param audit where searches, document listings and views, and refused requests are recorded (answers are
         *              recorded by the pipeline's own audit sink)
         * @return this builder
         */
        public Builder audit(AuditTrail audit) {
            this.audit = Objects.requireNonNull(audit, "audit");
            return this;
        }

        /** @param settings the address, the scope and the limits @return this builder */
        public Builder settings(ServerSettings settings) {
            this.settings = Objects.requireNonNull(settings, "settings");
            return this;
        }

        /**
         * @return the running server
         * @throws IllegalStateException naming what is missing, or why the address cannot be bound
         */
        public RagServer start() {
            StringBuilder missing = new StringBuilder();
            if (pipeline == null) {
                missing.append(" pipeline(...)");
            }
            if (retriever == null) {
                missing.append(" retriever(...)");
            }
            if (store == null) {
                missing.append(" store(...)");
            }
            if (settings == null) {
                missing.append(" settings(...)");
            }
            if (missing.length() > 0) {
                throw new IllegalStateException("RagServer.builder() is missing:" + missing);
            }
            ServerSettings s = settings;
            QueuedThreadPool threads = new QueuedThreadPool(Math.max(32, s.maxConcurrentRequests() * 2 + 16));
            threads.setName("ragkit-serve");
            Server jetty = new Server(threads);
            HttpConfiguration http = new HttpConfiguration();
            http.setSendServerVersion(false);
            http.setSendXPoweredBy(false);
            http.setRequestHeaderSize(16 * 1024);
            ServerConnector connector = new ServerConnector(jetty, new HttpConnectionFactory(http));
            connector.setHost(s.host());
            connector.setPort(s.port());
            connector.setIdleTimeout(s.idleTimeout().toMillis());
            jetty.addConnector(connector);
            jetty.setErrorHandler(new JsonErrors.ForServer());
            Api api = new Api(pipeline, retriever, store, audit, s);
            RequestGuard guard = new RequestGuard(s, audit, () -> HostOriginCheck.of(s.host(),
                    connector.getLocalPort(), s.allowedOrigins(), s.allowedHosts()).withSameOrigin());
            ServletContextHandler context = new ServletContextHandler();
            context.setContextPath("/");
            context.setErrorHandler(new JsonErrors.ForContext());
            context.addFilter(new FilterHolder(guard), "/*", EnumSet.of(DispatcherType.REQUEST));
            context.addServlet(new ServletHolder(api), "/*");
            jetty.setHandler(context);
            try {
                jetty.start();
            } catch (Exception e) {
                try {
                    jetty.stop();
                } catch (Exception ignored) {
                    // already failing
                }
                throw new IllegalStateException(BindFailures.message("HTTP", s.host(), s.port(), e), e);
            }
            return new RagServer(jetty, s);
        }
    }
}
