package dev.ragkit.cli;

import dev.ragkit.RagConfig;
import dev.ragkit.RagPipeline;
import dev.ragkit.audit.AuditFailurePolicy;
import dev.ragkit.audit.AuditTrail;
import dev.ragkit.embedding.Embedder;
import dev.ragkit.internal.Futures;
import dev.ragkit.retrieval.RetrievalOptions;
import dev.ragkit.retrieval.Retriever;
import dev.ragkit.store.DocumentStore;
import dev.ragkit.tokens.TokenCounters;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.FutureTask;

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
        this.explicitModel = model;
        // The model server is looked for (and the token counter's tables loaded) on a second thread while this one
        // opens the index and loads the embedder: the two halves of a cold start take about as long as each other.
        FutureTask<Backends.Choice> choosing = new FutureTask<>(() -> {
            Backends.Choice chosen = Backends.choose(backend, context, context.explicitModel(model),
                    config.chatModel());
            TokenCounters.jtokkit().count("");
            return chosen;
        });
        Thread chooser = new Thread(choosing, "ragkit-backend");
        chooser.setDaemon(true);
        chooser.start();
        CliIndex opened = null;
        try {
            opened = CliIndex.forReading(context, location, context.chosenEmbedder(embedder));
            this.embedder = context.embedder(opened.embedder);
            this.choice = await(choosing);
            this.audit = AuditFile.open(location.auditFile());
        } catch (RuntimeException | Error e) {
            closeAfterFailure(choosing, opened, e);
            throw e;
        }
        this.index = opened;
        this.store = opened.store;
        this.executor = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "ragkit-answer");
            t.setDaemon(true);
            return t;
        });
    }

    /** @return the backend chosen on the other thread; its failure is rethrown as it was thrown */
    private static Backends.Choice await(FutureTask<Backends.Choice> choosing) {
        try {
            return choosing.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while choosing the model server", e);
        } catch (ExecutionException e) {
            throw Futures.unwrap(e);
        }
    }

    /** Closes what was opened before {@code failure}: the index, and the backend once its choice is made. */
    private static void closeAfterFailure(FutureTask<Backends.Choice> choosing, CliIndex opened, Throwable failure) {
        try {
            if (opened != null) {
                opened.close();
            }
            Backends.Choice chosen = choosing.get();
            if (chosen.backend instanceof AutoCloseable) {
                ((AutoCloseable) chosen.backend).close();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            if (e.getCause() != failure) {
                failure.addSuppressed(e);
            }
        }
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
