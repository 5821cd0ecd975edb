package dev.ragkit.spring;

import dev.ragkit.RagPipeline;
import dev.ragkit.audit.AuditFailurePolicy;
import dev.ragkit.audit.AuditSink;
import dev.ragkit.audit.AuditTrail;
import dev.ragkit.embedding.Embedder;
import dev.ragkit.retrieval.Retriever;
import dev.ragkit.server.RagServer;
import dev.ragkit.server.ServerSettings;
import dev.ragkit.store.DocumentStore;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * The routes of {@code ragkit serve} in a Spring Boot application ({@code ragkit.server.enabled=true}, needs
 * {@code dev.ragkit:rag-server}): RagKit's embeddable {@link RagServer} on its own address and port
 * ({@code ragkit.server.address}, {@code ragkit.server.port}), over the application's {@link RagPipeline}, its
 * {@link DocumentStore} and {@link Embedder} beans, auditing to its {@link AuditSink}. It starts when the
 * application context starts and stops when it closes. See {@code docs/spring-boot.md}.
 */
public final class RagKitServer implements SmartLifecycle {
    private static final Logger LOG = LoggerFactory.getLogger(RagKitServer.class);

    private final RagPipeline pipeline;
    private final DocumentStore store;
    private final Embedder embedder;
    private final AuditSink audit;
    private final ServerSettings settings;
    private volatile @Nullable RagServer server;

    /**
     * @param pipeline answers {@code /v1/ask} and {@code /v1/chat/completions}
     * @param store    the pipeline's store: searched, listed and shown
     * @param embedder the pipeline's embedder, for {@code /v1/search}
     * @param audit    where searches, document views and refused requests are recorded (answers are recorded by
     *                 the pipeline)
     * @param settings the address, the scope and the limits
     */
    public RagKitServer(RagPipeline pipeline, DocumentStore store, Embedder embedder, AuditSink audit,
            ServerSettings settings) {
        this.pipeline = Objects.requireNonNull(pipeline, "pipeline");
        this.store = Objects.requireNonNull(store, "store");
        this.embedder = Objects.requireNonNull(embedder, "embedder");
        this.audit = Objects.requireNonNull(audit, "audit");
        this.settings = Objects.requireNonNull(settings, "settings");
    }

    /**
     * Starts serving.
     *
     * @throws IllegalStateException when the address cannot be bound, saying why and how to fix it
     */
    @Override
    public synchronized void start() {
        if (server != null) {
            return;
        }
        // a search lists the best passages also below the bar that decides whether a question is answered, as
        // ragkit serve does: the caller judges what it reads
        Retriever retriever = Retriever.builder().store(store).embedder(embedder).options(pipeline.config()
                .retrievalOptions().toBuilder().minRelevance(0).neighbourChunks(0).build()).build();
        RagServer started;
        try {
            started = RagServer.builder().pipeline(pipeline).retriever(retriever).store(store)
                    .audit(new AuditTrail(audit, AuditFailurePolicy.LOG_AND_CONTINUE)).settings(settings).start();
        } catch (IllegalStateException e) {
            throw new IllegalStateException("ragkit.server: " + e.getMessage()
                    + " (set ragkit.server.address and ragkit.server.port)", e);
        }
        server = started;
        LOG.info("RagKit server listening on {} ({}); API description at {}openapi.json", started.url(),
                settings.requiresToken() ? "bearer tokens" : "loopback only", started.url());
    }

    /** Stops serving; harmless when repeated. */
    @Override
    public synchronized void stop() {
        RagServer running = server;
        server = null;
        if (running != null) {
            running.close();
        }
    }

    @Override
    public boolean isRunning() {
        return server != null;
    }

    /**
     * @return the port it listens on (the free one picked for {@code ragkit.server.port=0})
     * @throws IllegalStateException when it is not running
     */
    public int port() {
        return running().port();
    }

    /**
     * @return the URL of its web page, e.g. {@code http://127.0.0.1:8081/}
     * @throws IllegalStateException when it is not running
     */
    public String url() {
        return running().url();
    }

    private RagServer running() {
        RagServer running = server;
        if (running == null) {
            throw new IllegalStateException("the RagKit server is not running (ragkit.server.enabled=true starts it "
                    + "with the application)");
        }
        return running;
    }
}
