package dev.ragkit.retrieval;

import dev.ragkit.audit.AuditOperation;
import dev.ragkit.audit.AuditOutcome;
import dev.ragkit.audit.AuditRecord;
import dev.ragkit.audit.AuditTrail;
import dev.ragkit.audit.QueryRedaction;
import dev.ragkit.embedding.CachingEmbedder;
import dev.ragkit.embedding.Embedder;
import dev.ragkit.embedding.SimilarityScale;
import dev.ragkit.internal.SentenceEnds;
import dev.ragkit.internal.Timings;
import dev.ragkit.store.DocumentStore;
import dev.ragkit.store.MetadataFilter;
import dev.ragkit.store.PromotionLevel;
import dev.ragkit.store.Scope;
import dev.ragkit.store.SearchHit;
import dev.ragkit.store.SearchRequest;
import dev.ragkit.store.StoredChunk;
import dev.ragkit.store.StoredDocument;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/** The default {@link Retriever}; see its javadoc for the pipeline. Stateless apart from the query cache. */
final class DefaultRetriever implements Retriever {
    /** How many candidates per top-k slot the reranker sees (at least {@link #RERANK_MIN}). */
    static final int RERANK_DEPTH = 4;
    static final int RERANK_MIN = 20;
    /**
     * The fewest hits asked of the store, whatever the candidate count: the relevance model weighs the question's
     * words by their rarity among the hits and compares keyword scores with the best one, so it needs a pool of the
     * size it was fitted on.
     */
    static final int EVIDENCE_POOL = 50;
    /** The most missing words a reason names. */
    static final int MAX_MISSING_TERMS = 5;
    /** Best first: boosted relevance descending, then source id, so equal scores order deterministically. */
    static final Comparator<RetrievedChunk> BEST_FIRST = Comparator.comparingDouble(RetrievedChunk::boosted)
            .reversed().thenComparing(RetrievedChunk::sourceId);

    private final DocumentStore store;
    private final Embedder embedder;
    private final RetrievalOptions options;
    private final Booster booster;
    private final Deduplicator deduplicator;
    private final Reranker reranker;
    private final LinkResolver linkResolver;
    private final @Nullable RelevanceModel configuredRelevance;
    private volatile @Nullable RelevanceModel relevance;
    private final @Nullable AuditTrail audit;
    private final QueryRedaction queryRedaction;
    private final Clock clock;

    DefaultRetriever(Retriever.Builder b) {
        this.store = Objects.requireNonNull(b.store);
        Embedder e = Objects.requireNonNull(b.embedder);
        this.embedder = b.queryCacheSize == 0 || e instanceof CachingEmbedder ? e
                : CachingEmbedder.builder().delegate(e).maximumSize(b.queryCacheSize).build();
        this.options = b.options;
        this.booster = b.booster;
        this.deduplicator = b.deduplicator;
        this.reranker = b.reranker;
        this.linkResolver = b.linkResolver;
        this.configuredRelevance = b.relevanceModel;
        this.audit = b.auditSink == null ? null : new AuditTrail(b.auditSink, b.auditFailurePolicy);
        this.queryRedaction = b.queryRedaction;
        this.clock = b.clock;
    }

    @Override
    public RetrievedContext retrieve(String query, Scope scope) {
        return audited(query, scope, options);
    }

    @Override
    public RetrievedContext retrieve(String query, Scope scope, RetrievalOptions.Overrides overrides) {
        return audited(query, scope, options.with(overrides));
    }

    /** Retrieves, and writes the audit record of the call when a sink is configured. */
    private RetrievedContext audited(String query, Scope scope, RetrievalOptions o) {
        Objects.requireNonNull(query, "query");
        Objects.requireNonNull(scope, "scope");
        if (query.isBlank()) {
            throw new IllegalArgumentException("the query is blank; ask a question");
        }
        AuditTrail trail = audit;
        if (trail == null) {
            return run(query, scope, o);
        }
        Instant at = clock.instant();
        long start = System.nanoTime();
        String id = UUID.randomUUID().toString();
        try {
            RetrievedContext context = run(query, scope, o);
            trail.write(record(id, at, start, query, scope, context, null), null);
            return context;
        } catch (RuntimeException | Error e) {
            trail.write(record(id, at, start, query, scope, null, e.getClass().getName()), e);
            throw e;
        }
    }

    private AuditRecord record(String id, Instant at, long start, String query, Scope scope,
            @Nullable RetrievedContext context, @Nullable String errorType) {
        List<String> ids = new ArrayList<>();
        int tokens = 0;
        Map<String, Long> counts = new LinkedHashMap<>();
        AuditOutcome outcome = AuditOutcome.ERROR;
        if (context != null) {
            for (RetrievedChunk c : context.relevant()) {
                ids.add(c.sourceId());
                tokens += c.chunk().tokenCount();
            }
            counts.put("critical", (long) context.critical().size());
            counts.put("relevant", (long) context.relevant().size());
            counts.put("linked", (long) context.linked().size());
            counts.put("totalMatches", (long) context.totalMatches());
            outcome = context.isEmpty() ? AuditOutcome.EMPTY_CONTEXT : AuditOutcome.RETRIEVED;
        }
        return AuditRecord.builder(AuditOperation.RETRIEVE).timestamp(at).requestId(id).tenant(scope.tenant())
                .query(query, queryRedaction).sourceIds(ids).contextTokens(tokens).model(embedder.name())
                .latencyMillis(Duration.ofNanos(System.nanoTime() - start).toMillis()).outcome(outcome, errorType)
                .counts(counts).build();
    }

    /**
     * DESIGN §2's retrieval chain, one named step each: embed → search → critical documents → relevance threshold and
     * boost → rank, deduplicate and cap per document → rerank → top-k (with neighbours, or rolled up to documents) →
     * critical documents whole → links. Each step's time is recorded under its name.
     */
    private RetrievedContext run(String query, Scope scope, RetrievalOptions o) {
        Run r = new Run(query, scope, o);
        float[] vector = r.time("embed", () -> embedder.embedQueries(List.of(query))[0]);
        List<SearchHit> hits = r.time("search", () -> search(r, vector));
        List<StoredDocument> criticalDocs = o.includeCritical() ? criticalDocuments(r) : List.of();
        Passed passed = r.time("relevance", () -> threshold(r, hits, criticalDocs));
        List<RetrievedChunk> kept = r.time("rank", () -> rank(r, passed.candidates()));
        List<RetrievedChunk> ranked = reranker == Reranker.none() || kept.isEmpty() ? kept
                : r.time("rerank", () -> rerank(query, kept, Math.max(o.topK() * RERANK_DEPTH, RERANK_MIN)));
        Selected selected = o.granularity() == RetrievalOptions.Granularity.DOCUMENT
                ? r.time("rollup", () -> topDocuments(r, ranked))
                : r.time(o.neighbourChunks() > 0 ? "neighbours" : "top-k", () -> topChunks(r, ranked));
        List<RetrievedDocument> critical = o.includeCritical()
                ? r.time("critical", () -> wholeCritical(r, criticalDocs, passed.bestOfCritical())) : List.of();
        List<LinkedDocument> linked = o.linkDepth() > 0 && o.maxLinkedDocuments() > 0
                ? r.time("links", () -> links(r, selected.chunks(), criticalDocs)) : List.of();
        return new RetrievedContext(critical, selected.chunks(), selected.documents(), linked, passed.totalMatches(),
                passed.support(), r.timings.asMap());
    }

    /** One call's question, scope, options and the time of each step. */
    private record Run(String query, Scope scope, RetrievalOptions options, Timings timings) {
        Run(String query, Scope scope, RetrievalOptions options) {
            this(query, scope, options, new Timings());
        }

        <T> T time(String step, Supplier<T> work) {
            return timings.time(step, work);
        }
    }

    /** What passed the relevance bar: ranked candidates, each critical document's best chunk, and the support. */
    private record Passed(List<RetrievedChunk> candidates, Map<String, RetrievedChunk> bestOfCritical,
            int totalMatches, Support support) {
    }

    /** The chunks that answer, and the documents the model reads around them. */
    private record Selected(List<RetrievedChunk> chunks, List<RetrievedDocument> documents) {
    }

    /** Vector (and, hybrid, keyword) search for at least the evidence pool the relevance model needs. */
    private List<SearchHit> search(Run r, float[] vector) {
        RetrievalOptions o = r.options();
        SearchRequest.Builder request = SearchRequest.builder(r.scope()).vector(vector)
                .k(Math.max(o.candidates(), Math.min(EVIDENCE_POOL, store.capabilities().maxK())))
                .docTypes(o.docTypes()).minPromotion(o.minPromotion());
        if (o.metadataFilter() != null) {
            request.metadataFilter(o.metadataFilter());
        }
        if (o.hybrid() && store.capabilities().keywordSearch()) {
            request.text(r.query());
        }
        return store.search(request.build());
    }

    /** The critical documents in scope that pass the metadata filter; they come first and whole. */
    private List<StoredDocument> criticalDocuments(Run r) {
        MetadataFilter filter = r.options().metadataFilter();
        List<StoredDocument> docs = store.findByPromotion(r.scope(), PromotionLevel.CRITICAL, r.options().docTypes());
        return filter == null ? docs : docs.stream().filter(d -> filter.test(d.metadata())).toList();
    }

    /**
     * The hits whose calibrated relevance reaches the bar, boosted; a critical document's chunks leave the ranking
     * (its best one is kept for its score). The calibrated relevance decides what passes; the order among what passes
     * stays the fused score's, whose ranking the BEIR tables measure (ranking by relevance too gave nDCG@10 +0.007 on
     * Cranfield, -0.007 on SciFact).
     */
    private Passed threshold(Run r, List<SearchHit> hits, List<StoredDocument> criticalDocs) {
        RetrievalOptions o = r.options();
        Set<String> criticalIds = ids(criticalDocs);
        double[] relevance = relevanceModel().relevance(r.query(), hits, o);
        double[] rank = ScoreFusion.fuse(hits, o.fusion(), o.vectorWeight());
        List<RetrievedChunk> candidates = new ArrayList<>();
        Map<String, RetrievedChunk> bestOfCritical = new HashMap<>();
        int top = -1;
        for (int i = 0; i < hits.size(); i++) {
            SearchHit hit = hits.get(i);
            if (top < 0 || relevance[i] > relevance[top]) {
                top = i;
            }
            if (!(relevance[i] >= o.minRelevance())) {
                continue;
            }
            RetrievedChunk chunk = new RetrievedChunk(hit.chunk(), hit.document(), hit.similarity(), relevance[i],
                    booster.boost(rank[i], hit.document().promotionLevel()));
            if (criticalIds.contains(hit.document().id())) {
                bestOfCritical.merge(hit.document().id(), chunk, (a, b) -> BEST_FIRST.compare(a, b) <= 0 ? a : b);
            } else {
                candidates.add(chunk);
            }
        }
        int totalMatches = candidates.size() + bestOfCritical.size();
        Support support = top < 0 ? Support.NOTHING_FOUND : new Support(relevance[top], o.minRelevance(),
                totalMatches > 0 ? List.of() : missingTerms(r.query(), hits, top));
        return new Passed(candidates, bestOfCritical, totalMatches, support);
    }

    /** Best first, cut to the candidate count, near-duplicates dropped, at most so many chunks per document. */
    private List<RetrievedChunk> rank(Run r, List<RetrievedChunk> candidates) {
        List<RetrievedChunk> sorted = new ArrayList<>(candidates);
        sorted.sort(BEST_FIRST);
        List<RetrievedChunk> cut = sorted.subList(0, Math.min(r.options().candidates(), sorted.size()));
        return perDocumentCap(deduplicator.deduplicate(cut), r.options().maxChunksPerDocument());
    }

    /** CHUNK granularity: the top k chunks, with their neighbours around them when asked. */
    private Selected topChunks(Run r, List<RetrievedChunk> kept) {
        List<RetrievedChunk> top = kept.subList(0, Math.min(r.options().topK(), kept.size()));
        int n = r.options().neighbourChunks();
        return new Selected(top, n > 0 && !top.isEmpty() ? windows(r.scope(), top, n) : List.of());
    }

    /** DOCUMENT granularity: the chunks of the top k documents, each document whole, scored by its best chunk. */
    private Selected topDocuments(Run r, List<RetrievedChunk> kept) {
        Map<String, List<RetrievedChunk>> byDocument = new LinkedHashMap<>();
        for (RetrievedChunk c : kept) {
            if (byDocument.size() < r.options().topK() || byDocument.containsKey(c.document().id())) {
                byDocument.computeIfAbsent(c.document().id(), id -> new ArrayList<>()).add(c);
            }
        }
        List<RetrievedChunk> relevant = new ArrayList<>();
        List<RetrievedDocument> documents = new ArrayList<>();
        for (List<RetrievedChunk> chunks : byDocument.values()) {
            RetrievedChunk best = chunks.get(0);
            relevant.addAll(chunks);
            documents.add(whole(r.scope(), best.document(), best.relevance(), best.boosted()));
        }
        return new Selected(relevant, documents);
    }

    /** Each critical document whole, scored by its best passing chunk (NaN when none passed). */
    private List<RetrievedDocument> wholeCritical(Run r, List<StoredDocument> criticalDocs,
            Map<String, RetrievedChunk> bestOfCritical) {
        List<RetrievedDocument> critical = new ArrayList<>();
        for (StoredDocument d : criticalDocs) {
            RetrievedChunk matched = bestOfCritical.get(d.id());
            critical.add(whole(r.scope(), d, matched == null ? Double.NaN : matched.relevance(),
                    matched == null ? Double.NaN : matched.boosted()));
        }
        return critical;
    }

    /**
     * The documents the relevant ones link to, breadth first, each with its chunks; neither a relevant nor a critical
     * one again.
     */
    private List<LinkedDocument> links(Run r, List<RetrievedChunk> relevant, List<StoredDocument> criticalDocs) {
        Set<String> exclude = ids(criticalDocs);
        List<StoredDocument> seeds = new ArrayList<>();
        for (RetrievedChunk c : relevant) {
            if (exclude.add(c.document().id())) {
                seeds.add(c.document());
            }
        }
        List<LinkedDocument> linked = new ArrayList<>();
        for (LinkedDocument l : linkResolver.resolve(store, r.scope(), seeds, exclude, r.options().linkDepth(),
                r.options().maxLinkedDocuments())) {
            linked.add(l.withChunks(store.chunksWithoutEmbeddings(r.scope(), l.document().id())));
        }
        return linked;
    }

    private static Set<String> ids(List<StoredDocument> documents) {
        Set<String> ids = new HashSet<>();
        documents.forEach(d -> ids.add(d.id()));
        return ids;
    }

    /** The question's words the best hit lacks (at most five), to say why nothing passed. */
    private static List<String> missingTerms(String query, List<SearchHit> hits, int best) {
        List<String> missing = RelevanceSignals.missingTerms(query, hits, best);
        return missing.subList(0, Math.min(MAX_MISSING_TERMS, missing.size()));
    }

    /** The configured model, else the calibrated one on the embedder's scale (measured once, on first use). */
    private RelevanceModel relevanceModel() {
        if (configuredRelevance != null) {
            return configuredRelevance;
        }
        RelevanceModel m = relevance;
        if (m == null) {
            synchronized (this) {
                m = relevance;
                if (m == null) {
                    m = RelevanceModel.calibrated(SimilarityScale.of(embedder));
                    relevance = m;
                }
            }
        }
        return m;
    }

    /** The best {@code depth} candidates re-ordered by the reranker's scores; the rest follow as they were. */
    private List<RetrievedChunk> rerank(String query, List<RetrievedChunk> kept, int depth) {
        List<RetrievedChunk> head = kept.subList(0, Math.min(depth, kept.size()));
        double[] scores = reranker.scores(query, head);
        if (scores.length != head.size()) {
            throw new IllegalStateException("the reranker " + reranker + " returned " + scores.length
                    + " scores for " + head.size() + " candidates");
        }
        List<RetrievedChunk> out = new ArrayList<>(kept.size());
        for (int i = 0; i < head.size(); i++) {
            RetrievedChunk c = head.get(i);
            double s = scores[i];
            if (!(s >= 0 && s <= 1)) {
                throw new IllegalStateException("the reranker " + reranker + " scored " + c.sourceId() + " " + s
                        + "; scores must be in [0, 1]");
            }
            out.add(new RetrievedChunk(c.chunk(), c.document(), c.similarity(), c.relevance(), c.boosted(), s));
        }
        out.sort(Comparator.comparingDouble(RetrievedChunk::reranked).reversed()
                .thenComparing(RetrievedChunk::sourceId));
        out.addAll(kept.subList(head.size(), kept.size()));
        return out;
    }

    /**
     * Each document with relevant chunks, cut down to those chunks and the {@code n} before and after each: what the
     * model reads around the matches. Best document first, scored by its best chunk.
     */
    private List<RetrievedDocument> windows(Scope scope, List<RetrievedChunk> relevant, int n) {
        Map<String, List<RetrievedChunk>> byDocument = new LinkedHashMap<>();
        for (RetrievedChunk c : relevant) {
            byDocument.computeIfAbsent(c.document().id(), id -> new ArrayList<>()).add(c);
        }
        List<RetrievedDocument> windows = new ArrayList<>(byDocument.size());
        for (List<RetrievedChunk> hits : byDocument.values()) {
            RetrievedChunk best = hits.get(0);
            List<StoredChunk> all = store.chunksWithoutEmbeddings(scope, best.document().id());
            boolean[] in = new boolean[all.size()];
            for (int i = 0; i < all.size(); i++) {
                for (RetrievedChunk hit : hits) {
                    if (Math.abs(all.get(i).index() - hit.chunk().index()) <= n) {
                        in[i] = true;
                        break;
                    }
                }
            }
            boolean[] whole = in.clone();          // a window ends where a sentence does: one chunk more each way
            for (int i = 0; i < all.size(); i++) {
                if (in[i] && i + 1 < all.size() && !in[i + 1] && cutMidSentence(all.get(i), all.get(i + 1))) {
                    whole[i + 1] = true;
                }
                if (in[i] && i > 0 && !in[i - 1] && cutMidSentence(all.get(i - 1), all.get(i))) {
                    whole[i - 1] = true;
                }
            }
            List<StoredChunk> around = new ArrayList<>();
            for (int i = 0; i < all.size(); i++) {
                if (whole[i]) {
                    around.add(all.get(i));
                }
            }
            windows.add(RetrievedDocument.of(best.document(), around, best.relevance(), best.boosted()));
        }
        return windows;
    }

    /**
     * Whether the chunker cut a sentence between two consecutive chunks: they share the line it cut (a paragraph
     * longer than a chunk) and the first does not end like a sentence. A window that ended there would hand the model,
     * and an extractive answer, half a sentence ("… as Deanna, and Skylar Astin as Roy; … Stefanie").
     */
    static boolean cutMidSentence(StoredChunk first, StoredChunk next) {
        if (next.index() != first.index() + 1 || next.startLine() != first.endLine()) {
            return false;
        }
        return !first.text().isBlank() && !SentenceEnds.endsSentence(first.text());
    }

    /** Keeps at most {@code max} chunks of each document, in order. */
    private static List<RetrievedChunk> perDocumentCap(List<RetrievedChunk> chunks, int max) {
        Map<String, Integer> counts = new HashMap<>();
        List<RetrievedChunk> kept = new ArrayList<>(chunks.size());
        for (RetrievedChunk c : chunks) {
            if (counts.merge(c.document().id(), 1, Integer::sum) <= max) {
                kept.add(c);
            }
        }
        return kept;
    }

    private RetrievedDocument whole(Scope scope, StoredDocument document, double relevance, double boosted) {
        return RetrievedDocument.of(document, store.chunksWithoutEmbeddings(scope, document.id()), relevance,
                boosted);
    }
}
