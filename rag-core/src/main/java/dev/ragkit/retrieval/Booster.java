package dev.ragkit.retrieval;

import dev.ragkit.store.PromotionLevel;

/**
 * Raises the relevance of documents the organisation promoted. Implementations are thread-safe and return a
 * value in [0, 1] that is never below the input.
 */
public interface Booster {

    /**
     * @param relevance the relevance before boosting, in [0, 1]
     * @param level     the document's promotion level
     * @return the boosted relevance, in [relevance, 1]
     */
    double boost(double relevance, PromotionLevel level);
}
