package dev.ragkit.cli;

import dev.ragkit.RagConfig;
import dev.ragkit.RagPipeline;
import dev.ragkit.audit.AuditFailurePolicy;
import dev.ragkit.audit.AuditTrail;
import dev.ragkit.embedding.Embedder;
import dev.ragkit.retrieval.RetrievalOptions;
import dev.ragkit.retrieval.Retriever;
import dev.ragkit.store.DocumentStore;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * What {@code ask} and {@code mcp} answer with: the index, the chosen backend and model, the audit file beside the
 * index, and pipelines built from them the same way for both commands. Closes the backend, the executor and the
 * audit file.
 */
final class CliPipeline implements AutoCloseable {
    final DocumentStore store;
    private final CliIndex index;
    final Backends.Choice choice;
    final AuditFile audit;
    private final RagConfig config;
    private final String explicitModel;
    private final ExecutorService executor;
    private final Embedder embedder;

    /**
     * @param model    the model named by {@code --model}, or {@code null}
     * @param embedder the embedder named by {@code --embedder}, or {@code null} (the index's, else the default)
     */
    CliPipeline(CliContext context, CliIndex.Location location, Backends.Mode backend, String model,
            String embedder) {
        this.config = context.config();
        this.index = CliIndex.forReading(context, location, context.chosenEmbedder(embedder));
        this.store = index.store;
        this.embedder = context.embedder(index.embedder);
        this.explicitModel = model;
        this.choice = Backends.choose(backend, context, context.explicitModel(model), config.chatModel());
        this.audit = AuditFile.open(location.auditFile());
        this.executor = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "ragkit-answer");
            t.setDaemon(true);
            return t;
        });
    }

    /** @return the configuration's options, or the knowledge-base profile's */
    RetrievalOptions options(boolean knowledgeBase) {
        return knowledgeBase ? RetrievalOptions.knowledgeBase() : config.retrievalOptions();
    }

    /** @return a pipeline with these retrieval options over the index, the backend and the audit file */
    RagPipeline pipeline(RetrievalOptions options) {
        RagPipeline.Builder builder = builder(config, store, embedder, choice, options).auditSink(audit.sink())
                .executor(executor);
        if (!choice.extractive && explicitModel != null) {
            builder.allowedModels(List.of(explicitModel));
        }
        return builder.build();
    }

    /**
     * The settings every command answers with ({@code ask}, {@code mcp}, {@code eval}): the configuration, the
     * store, the embedder, the chosen backend and model, the retrieval options; no self-rating for extractive answers.
     */
    static RagPipeline.Builder builder(RagConfig config, DocumentStore store, Embedder embedder,
            Backends.Choice choice, RetrievalOptions options) {
        RagPipeline.Builder builder = RagPipeline.builder().config(config).store(store).embedder(embedder)
                .backend(choice.backend).retrievalOptions(options).model(choice.model);
        if (choice.extractive) {
            builder.selfRating(false);
        }
        return builder;
    }

    /**
     * @return a retriever for searches over the index, ranking by calibrated relevance without its bar (searches
     *         list what is closest and show its relevance), without an audit sink: its caller (the MCP tools) writes
     *         each call's record to {@link #auditTrail()} itself, so that it knows whether the record was written
     */
    Retriever retriever() {
        // A search lists the best passages with their relevance, also below the bar that decides whether a question is
        // answered: a short keyword search ("key rotation") rarely reaches it, and the caller judges what it reads.
        return Retriever.builder().store(store).embedder(embedder)
                .options(config.retrievalOptions().toBuilder().minRelevance(0).neighbourChunks(0).build()).build();
    }

    /** @return the audit trail of the file, logging and going on when a record cannot be written */
    AuditTrail auditTrail() {
        return new AuditTrail(audit.sink(), AuditFailurePolicy.LOG_AND_CONTINUE);
    }

    @Override
    public void close() throws Exception {
        executor.shutdownNow();
        try {
            audit.close();
            index.close();
        } finally {
            if (choice.backend instanceof AutoCloseable) {
                ((AutoCloseable) choice.backend).close();
            }
        }
    }
}
