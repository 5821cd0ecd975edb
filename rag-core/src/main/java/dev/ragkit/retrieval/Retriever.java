package dev.ragkit.retrieval;

import dev.ragkit.audit.AuditFailurePolicy;
import dev.ragkit.audit.AuditSink;
import dev.ragkit.audit.QueryRedaction;
import dev.ragkit.embedding.CachingEmbedder;
import dev.ragkit.embedding.Embedder;
import dev.ragkit.internal.SetOnce;
import dev.ragkit.store.DocumentStore;
import dev.ragkit.store.Scope;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Finds the context for a question inside the caller's scope. Thread-safe.
 *
 * <p>The default pipeline ({@link #builder()}): embed the query (cached) → search the store over-fetching
 * {@link RetrievalOptions#candidates()} chunks, hybrid when the store has a keyword index → fuse scores
 * ({@link ScoreFusion}) → drop candidates whose calibrated relevance ({@link RelevanceModel}) is below the minimum →
 * boost promoted documents
 * ({@link Booster}) → drop near duplicates ({@link Deduplicator}) → at most N chunks per document → top k
 * (chunks, or documents scored by their best chunk) → prepend the scope's critical documents → follow links
 * ({@link LinkResolver}).
 *
 * <pre>{@code
 * Retriever retriever = Retriever.builder().store(store).embedder(embedder)
 *         .options(RetrievalOptions.knowledgeBase()).build();
 * RetrievedContext context = retriever.retrieve("How do I rotate the API key?", Scope.of("acme", "eng"));
 * }</pre>
 */
public interface Retriever {

    /**
     * Retrieves with the configured options.
     *
     * @param query the question, not blank
     * @param scope who asks
     * @return the context; {@link RetrievedContext#isEmpty()} when nothing qualified
     * @throws IllegalArgumentException when the query is blank
     */
    RetrievedContext retrieve(String query, Scope scope);

    /**
     * Retrieves with the configured options changed by {@code overrides}, field by field.
     *
     * @param query     the question, not blank
     * @param scope     who asks
     * @param overrides per-request changes
     * @return the context
     */
    RetrievedContext retrieve(String query, Scope scope, RetrievalOptions.Overrides overrides);

    /**
     * @return a builder for the default pipeline
     */
    static Builder builder() {
        return new Builder();
    }

    /** Configures the default {@link Retriever}. Not thread-safe. */
    final class Builder {
        @Nullable DocumentStore store;
        @Nullable Embedder embedder;
        RetrievalOptions options = RetrievalOptions.chunkQa();
        Booster booster = Booster.promotion();
        Deduplicator deduplicator = new JaccardDeduplicator();
        Reranker reranker = Reranker.none();
        LinkResolver linkResolver = new BreadthFirstLinkResolver();
        @Nullable RelevanceModel relevanceModel;
        long queryCacheSize = 1_000;
        @Nullable AuditSink auditSink;
        AuditFailurePolicy auditFailurePolicy = AuditFailurePolicy.LOG_AND_CONTINUE;
        QueryRedaction queryRedaction = QueryRedaction.HASH;
        Clock clock = Clock.systemUTC();
        private final SetOnce stages = new SetOnce("");
        private boolean queryCacheSizeSet;
        private boolean auditSettingsSet;

        Builder() {
        }

        /** @param store where to search (required) @return this builder */
        public Builder store(DocumentStore store) {
            stages.set("store");
            this.store = Objects.requireNonNull(store, "store");
            return this;
        }

        /** @param embedder embeds the query; use the documents' model (required) @return this builder */
        public Builder embedder(Embedder embedder) {
            stages.set("embedder");
            this.embedder = Objects.requireNonNull(embedder, "embedder");
            return this;
        }

        /** @param options the configured options; default {@link RetrievalOptions#chunkQa()} @return this builder */
        public Builder options(RetrievalOptions options) {
            this.options = Objects.requireNonNull(options, "options");
            return this;
        }

        /**
         * @param model how hits become relevances; default {@link RelevanceModel#calibrated} on the embedder's
         *              {@link dev.ragkit.embedding.SimilarityScale} (measured on first use when the embedder states none)
         * @return this builder
         */
        public Builder relevanceModel(RelevanceModel model) {
            stages.set("relevanceModel");
            this.relevanceModel = Objects.requireNonNull(model, "relevanceModel");
            return this;
        }

        /** @param booster default {@link Booster#promotion()}; {@link Booster#identity()} turns boosts off @return this builder */
        public Builder booster(Booster booster) {
            stages.set("booster");
            this.booster = Objects.requireNonNull(booster, "booster");
            return this;
        }

        /** @param deduplicator default {@link Deduplicator#jaccard()} at 0.9 @return this builder */
        public Builder deduplicator(Deduplicator deduplicator) {
            stages.set("deduplicator");
            this.deduplicator = Objects.requireNonNull(deduplicator, "deduplicator");
            return this;
        }

        /**
         * @param reranker scores the best candidates again before the top-k cut (default {@link Reranker#none()})
         * @return this builder
         */
        public Builder reranker(Reranker reranker) {
            stages.set("reranker");
            this.reranker = Objects.requireNonNull(reranker, "reranker");
            return this;
        }

        /** @param linkResolver default {@link BreadthFirstLinkResolver} @return this builder */
        public Builder linkResolver(LinkResolver linkResolver) {
            stages.set("linkResolver");
            this.linkResolver = Objects.requireNonNull(linkResolver, "linkResolver");
            return this;
        }

        /** @param entries query embeddings kept, at least 0 (0 caches nothing); default 1,000 @return this builder */
        public Builder queryCacheSize(long entries) {
            if (entries < 0) {
                throw new IllegalArgumentException("queryCacheSize must not be negative, got " + entries);
            }
            this.queryCacheSize = entries;
            this.queryCacheSizeSet = true;
            return this;
        }

        /**
         * Writes one audit record ({@link dev.ragkit.audit.AuditOperation#RETRIEVE}) per {@code retrieve} call:
         * tenant, the query's hash, the SourceIds found, counts (critical, relevant, linked, total matches), the
         * outcome and the latency. Off by default: a {@code RagPipeline} audits its own requests, so give a sink
         * here for retrieval used on its own (search pages, the LangChain4j content retriever).
         *
         * @param sink where the records go
         * @return this builder
         */
        public Builder auditSink(AuditSink sink) {
            stages.set("auditSink");
            this.auditSink = Objects.requireNonNull(sink, "sink");
            return this;
        }

        /** @param policy what a failing audit sink does (default LOG_AND_CONTINUE) @return this builder */
        public Builder auditFailurePolicy(AuditFailurePolicy policy) {
            this.auditFailurePolicy = Objects.requireNonNull(policy, "policy");
            this.auditSettingsSet = true;
            return this;
        }

        /** @param redaction how much of the query the audit keeps (default HASH) @return this builder */
        public Builder queryRedaction(QueryRedaction redaction) {
            this.queryRedaction = Objects.requireNonNull(redaction, "redaction");
            this.auditSettingsSet = true;
            return this;
        }

        /** @param clock timestamps audit records (default UTC system clock) @return this builder */
        public Builder clock(Clock clock) {
            stages.set("clock");
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        /**
         * @return the retriever
         * @throws IllegalStateException when the store or the embedder is missing, or a setting would be ignored: a
         *                               query cache size for an embedder that caches already, audit settings
         *                               without an audit sink (every problem is named)
         */
        public Retriever build() {
            List<String> problems = new ArrayList<>();
            if (store == null || embedder == null) {
                problems.add("a Retriever needs store(..) and embedder(..)");
            }
            if (queryCacheSizeSet && embedder instanceof CachingEmbedder) {
                problems.add("queryCacheSize(..) was set, but the embedder caches already (" + embedder.name()
                        + "); size its cache where it is built (CachingEmbedder.builder().maximumSize(..)) or pass "
                        + "the plain embedder");
            }
            if (auditSettingsSet && auditSink == null) {
                problems.add("auditFailurePolicy(..) or queryRedaction(..) was set without auditSink(..): without a "
                        + "sink nothing is audited; add auditSink(..) or drop them");
            }
            if (!problems.isEmpty()) {
                throw new IllegalStateException(String.join("; ", problems));
            }
            return new DefaultRetriever(this);
        }
    }
}
