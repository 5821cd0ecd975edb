package dev.ragkit.retrieval;

import java.util.List;

/**
 * Collapses near-duplicate chunks to the best-scored one. Implementations are thread-safe and deterministic.
 */
public interface Deduplicator {

    /** The default threshold of {@link #jaccard()}: word sets at least this similar are duplicates. */
    double DEFAULT_JACCARD_THRESHOLD = 0.9;


    /**
     * @param candidates chunks ordered best first (by {@link RetrievedChunk#boosted()}, ties broken by source id)
     * @return the candidates that are not near duplicates of a better one, in the same order
     */
    List<RetrievedChunk> deduplicate(List<RetrievedChunk> candidates);

    /**
     * @return the default: two chunks whose word sets have a Jaccard similarity of at least
     *         {@value #DEFAULT_JACCARD_THRESHOLD} are duplicates, and the better-ranked one is kept
     */
    static Deduplicator jaccard() {
        return new JaccardDeduplicator();
    }

    /**
     * @param threshold the Jaccard similarity of word sets at which two chunks are duplicates, in (0, 1]
     * @return the Jaccard deduplicator with that threshold
     * @throws IllegalArgumentException when the threshold is outside (0, 1]
     */
    static Deduplicator jaccard(double threshold) {
        return new JaccardDeduplicator(threshold);
    }
}
