package dev.ragkit.retrieval;

import java.util.List;

/**
 * Scores the best candidates again, after fusion, boosting, deduplication and the per-document cap and before the
 * final top-k cut — the place for a cross-encoder (any LangChain4j {@code ScoringModel}, through rag-langchain4j's
 * {@code LangChain4jReranker}) or a cheap signal such as {@link #termOverlap(double)}. Candidates are re-ordered by
 * the new score; each chunk keeps its raw similarity (what thresholds mean) and fused score beside the reranked
 * score ({@link RetrievedChunk#reranked()}). The default is {@link #none()}: measured on the benchmark sets, see
 * the retrieval guide. Implementations are thread-safe.
 */
@FunctionalInterface
public interface Reranker {

    /**
     * @param query      the question retrieval used
     * @param candidates the candidates, best first by boosted score
     * @return a score per candidate in the same order, in [0, 1], higher better
     */
    double[] scores(String query, List<RetrievedChunk> candidates);

    /** @return the reranker that keeps the order (the default) */
    static Reranker none() {
        return NoReranker.INSTANCE;
    }

    /** The do-nothing reranker, known by identity so the retriever skips the stage. */
    final class NoReranker implements Reranker {
        static final NoReranker INSTANCE = new NoReranker();

        private NoReranker() {
        }

        @Override
        public double[] scores(String query, List<RetrievedChunk> candidates) {
            double[] s = new double[candidates.size()];
            for (int i = 0; i < s.length; i++) {
                s[i] = candidates.get(i).boosted();
            }
            return s;
        }
    }

    /**
     * @param weight how much the share of the question's key terms found in a chunk counts against its boosted
     *               score, in [0, 1]
     * @return a reranker on that cheap signal (no model)
     * @throws IllegalArgumentException when the weight is outside [0, 1]
     */
    static Reranker termOverlap(double weight) {
        return new TermOverlapReranker(weight);
    }
}
