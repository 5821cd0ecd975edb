package dev.ragkit.eval;

import dev.ragkit.embedding.Embedder;
import dev.ragkit.embedding.SimilarityScale;
import dev.ragkit.retrieval.RelevanceModel;
import dev.ragkit.retrieval.Reranker;
import dev.ragkit.retrieval.RetrievalOptions;
import dev.ragkit.retrieval.RetrievedChunk;
import dev.ragkit.retrieval.ScoreFusion;
import dev.ragkit.store.DocumentStore;
import dev.ragkit.store.Scope;
import dev.ragkit.store.SearchHit;
import dev.ragkit.store.SearchRequest;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.ToDoubleFunction;

/**
 * Ranks corpus documents for a query text: the only thing {@link RetrievalEvaluator} needs from a retrieval
 * pipeline, so any mode (a raw store search, the full retriever, an external system) can be evaluated.
 *
 * <p>The factories rank over a {@link DocumentStore} indexed by {@link RetrievalEvaluator#index}: the corpus
 * id is the stored document's {@code path}; chunk hits roll up to their document, scored by its best chunk;
 * ties are broken by corpus id ascending. They ask the store for {@code min(3k, maxK)} chunks so that
 * documents with several chunks still fill k places.
 */
@FunctionalInterface
public interface Ranker {

    /**
     * Ranks documents for a query.
     *
     * @param queryText the query
     * @param k         how many documents are wanted, at least 1
     * @return corpus ids, best first, at most {@code k} (more are ignored by the evaluator), no duplicates
     */
    List<String> rank(String queryText, int k);

    /**
     * Vector search: documents by the best cosine similarity of their chunks to the query embedding.
     *
     * @param store    the store
     * @param embedder embeds the query (the same model the corpus was indexed with)
     * @param scope    who searches
     * @return the ranker
     */
    static Ranker vector(DocumentStore store, Embedder embedder, Scope scope) {
        Objects.requireNonNull(store, "store");
        Objects.requireNonNull(embedder, "embedder");
        Objects.requireNonNull(scope, "scope");
        return (queryText, k) -> {
            List<SearchHit> hits = store.search(SearchRequest.builder(scope)
                    .vector(embedder.embedQueries(List.of(queryText))[0]).k(fetch(store, k)).build());
            return Rankers.rollUp(hits, SearchHit::similarity, k);
        };
    }

    /**
     * Keyword search: documents by the best BM25 score of their chunks; chunks scoring 0 are dropped.
     *
     * @param store a store with {@linkplain dev.ragkit.store.StoreCapabilities#keywordSearch() keyword search}
     * @param scope who searches
     * @return the ranker
     * @throws IllegalArgumentException when the store has no keyword index
     */
    static Ranker keyword(DocumentStore store, Scope scope) {
        Objects.requireNonNull(store, "store");
        Objects.requireNonNull(scope, "scope");
        Rankers.requireKeyword(store);
        return (queryText, k) -> {
            if (queryText.isBlank()) {
                return List.of();
            }
            List<SearchHit> hits = store.search(SearchRequest.builder(scope).text(queryText).k(fetch(store, k)).build());
            List<SearchHit> matching = new ArrayList<>();
            for (SearchHit hit : hits) {
                if (hit.keywordScore() > 0) {
                    matching.add(hit);
                }
            }
            return Rankers.rollUp(matching, SearchHit::keywordScore, k);
        };
    }

    /**
     * Hybrid search with relative-score fusion: one hybrid request returns the union of the vector and keyword
     * candidates, fused by {@link ScoreFusion} ({@code RELATIVE_SCORE}, weight 0.5), as
     * {@link dev.ragkit.retrieval.RelevanceModel#fused()} does. Documents are ranked by their best fused chunk.
     *
     * @param store    a store with keyword search
     * @param embedder embeds the query
     * @param scope    who searches
     * @return the ranker
     * @throws IllegalArgumentException when the store has no keyword index
     */
    static Ranker hybrid(DocumentStore store, Embedder embedder, Scope scope) {
        return hybrid(store, embedder, scope, Reranker.none());
    }

    /**
     * Hybrid search whose best {@value #RERANK_DEPTH} chunks are scored again by {@code reranker} (as the retriever
     * does before its top-k cut); documents by their best chunk's reranked score, then the rest by fused score.
     * With {@link Reranker#none()} it is {@link #hybrid(DocumentStore, Embedder, Scope)}.
     *
     * @param store    a store with keyword search
     * @param embedder embeds the query
     * @param scope    who searches
     * @param reranker scores the best chunks again
     * @return the ranker
     * @throws IllegalArgumentException when the store has no keyword index
     */
    static Ranker hybrid(DocumentStore store, Embedder embedder, Scope scope, Reranker reranker) {
        Objects.requireNonNull(store, "store");
        Objects.requireNonNull(embedder, "embedder");
        Objects.requireNonNull(scope, "scope");
        Objects.requireNonNull(reranker, "reranker");
        Rankers.requireKeyword(store);
        boolean reranking = reranker != Reranker.none();
        return (queryText, k) -> {
            SearchRequest.Builder request = SearchRequest.builder(scope)
                    .vector(embedder.embedQueries(List.of(queryText))[0])
                    .k(reranking ? Math.max(fetch(store, k), RERANK_DEPTH) : fetch(store, k));
            if (!queryText.isBlank()) {
                request.text(queryText);
            }
            List<SearchHit> hits = store.search(request.build());
            double[] relevance = ScoreFusion.fuse(hits, RetrievalOptions.Fusion.RELATIVE_SCORE, 0.5);
            Map<SearchHit, Double> score = new HashMap<>();
            for (int i = 0; i < hits.size(); i++) {
                score.put(hits.get(i), relevance[i]);
            }
            if (reranking) {
                List<Integer> order = new ArrayList<>();
                for (int i = 0; i < hits.size(); i++) {
                    order.add(i);
                }
                order.sort((x, y) -> Double.compare(relevance[y], relevance[x]));
                List<Integer> best = order.subList(0, Math.min(RERANK_DEPTH, order.size()));
                List<RetrievedChunk> head = new ArrayList<>();
                for (int i : best) {
                    SearchHit h = hits.get(i);
                    head.add(new RetrievedChunk(h.chunk(), h.document(), Double.NaN, relevance[i], relevance[i]));
                }
                double[] reranked = reranker.scores(queryText, head);
                for (int j = 0; j < head.size(); j++) {
                    score.put(hits.get(best.get(j)), 1 + reranked[j]);      // reranked chunks before the rest
                }
            }
            return Rankers.rollUp(hits, score::get, k);
        };
    }

    /**
     * Hybrid search ranked by a {@link RelevanceModel} (the calibrated one on the embedder's {@link SimilarityScale},
     * whose relevance the {@code Retriever}'s threshold compares), documents by their best chunk: how well that
     * relevance ranks, beside {@link #hybrid}, whose order the retriever keeps. Asks the
     * store for at least as many hits as the retriever does (50), since the model weighs words by their rarity
     * among the hits.
     *
     * @param store    a store with keyword search
     * @param embedder embeds the query
     * @param scope    who searches
     * @param model    scores the hits
     * @return the ranker
     * @throws IllegalArgumentException when the store has no keyword index
     */
    static Ranker relevance(DocumentStore store, Embedder embedder, Scope scope, RelevanceModel model) {
        Objects.requireNonNull(store, "store");
        Objects.requireNonNull(embedder, "embedder");
        Objects.requireNonNull(scope, "scope");
        Objects.requireNonNull(model, "model");
        Rankers.requireKeyword(store);
        RetrievalOptions options = RetrievalOptions.chunkQa();
        return (queryText, k) -> {
            SearchRequest.Builder request = SearchRequest.builder(scope)
                    .vector(embedder.embedQueries(List.of(queryText))[0])
                    .k((int) Math.min(Math.max(fetch(store, k), MIN_RELEVANCE_HITS), store.capabilities().maxK()));
            if (!queryText.isBlank()) {
                request.text(queryText);
            }
            List<SearchHit> hits = store.search(request.build());
            double[] relevance = model.relevance(queryText, hits, options);
            Map<SearchHit, Double> score = new HashMap<>();
            for (int i = 0; i < hits.size(); i++) {
                score.put(hits.get(i), relevance[i]);
            }
            return Rankers.rollUp(hits, score::get, k);
        };
    }

    /** The fewest hits {@link #relevance} asks for, as many as the retriever weighs. */
    int MIN_RELEVANCE_HITS = 50;

    /** How many fused chunks {@link #hybrid(DocumentStore, Embedder, Scope, Reranker)} reranks. */
    int RERANK_DEPTH = 40;

    private static int fetch(DocumentStore store, int k) {
        if (k < 1) {
            throw new IllegalArgumentException("k must be at least 1, got " + k);
        }
        return (int) Math.min((long) k * 3, store.capabilities().maxK());
    }
}

/** Helpers of the {@link Ranker} factories. */
final class Rankers {
    private Rankers() {
    }

    static void requireKeyword(DocumentStore store) {
        if (!store.capabilities().keywordSearch()) {
            throw new IllegalArgumentException("keyword and hybrid ranking need a store with keyword search;"
                    + " this store has none");
        }
    }

    /** Documents (by path) scored by their best chunk, best first, ties by path; at most k. */
    static List<String> rollUp(List<SearchHit> hits, ToDoubleFunction<SearchHit> score, int k) {
        Map<String, Double> best = new HashMap<>();
        for (SearchHit hit : hits) {
            double s = score.applyAsDouble(hit);
            if (!Double.isNaN(s)) {
                best.merge(hit.document().path(), s, Math::max);
            }
        }
        List<Map.Entry<String, Double>> entries = new ArrayList<>(best.entrySet());
        entries.sort(Map.Entry.<String, Double>comparingByValue(Comparator.reverseOrder())
                .thenComparing(Map.Entry.comparingByKey()));
        List<String> out = new ArrayList<>(Math.min(k, entries.size()));
        for (int i = 0; i < Math.min(k, entries.size()); i++) {
            out.add(entries.get(i).getKey());
        }
        return out;
    }
}
