package dev.ragkit.retrieval;

import dev.ragkit.embedding.SimilarityScale;
import dev.ragkit.store.SearchHit;
import java.util.List;

/**
 * Turns a store's hits for a question into relevances: for each hit, an estimate of the probability that it holds
 * what the question asks, in [0, 1], that means the same whichever embedder made the vectors. Retrieval ranks by it
 * and compares it with {@link RetrievalOptions#minRelevance()}; a question whose best hit is below that bar is not
 * answered from the documents but handed to a person. Implementations are thread-safe.
 */
public interface RelevanceModel {

    /**
     * @param query   the question, as retrieval searched for it
     * @param hits    the store's hits for it (vector similarity and, when the store has a keyword index, BM25 score)
     * @param options the request's retrieval options
     * @return one relevance in [0, 1] per hit, in the same order
     */
    double[] relevance(String query, List<SearchHit> hits, RetrievalOptions options);

    /**
     * The default model: a logistic estimate over three signals — the cosine similarity put on the embedder's
     * {@link SimilarityScale}, how much of the question's weight the hit's best sentence covers, and its BM25 score
     * relative to the best hit's — fitted on public question-answering sets (see {@link CalibratedRelevance}).
     *
     * @param scale the embedder's similarity scale
     * @return the model
     */
    static RelevanceModel calibrated(SimilarityScale scale) {
        return new CalibratedRelevance(scale);
    }

    /**
     * The scores as the store gave them, fused by {@link ScoreFusion} as {@link RetrievalOptions#fusion()} and
     * {@link RetrievalOptions#vectorWeight()} say: the raw cosine similarity for vector-only hits, a fusion of it and
     * the BM25 score for hybrid hits. Not comparable across embedders (a raw cosine of 0.3 is a near-match for one
     * model and unrelated text for another); for tests and for thresholds fitted to one embedder by hand.
     *
     * @return the model
     */
    static RelevanceModel fused() {
        return (query, hits, options) -> ScoreFusion.fuse(hits, options.fusion(), options.vectorWeight());
    }
}
