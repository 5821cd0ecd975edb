package dev.ragkit.retrieval;

import java.util.List;

/**
 * Collapses near-duplicate chunks to the best-scored one. Implementations are thread-safe and deterministic.
 */
public interface Deduplicator {

    /**
     * @param candidates chunks ordered best first (by {@link RetrievedChunk#boosted()}, ties broken by source id)
     * @return the candidates that are not near duplicates of a better one, in the same order
     */
    List<RetrievedChunk> deduplicate(List<RetrievedChunk> candidates);
}
