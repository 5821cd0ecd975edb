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

    /**
     * A booster that changes nothing: every level keeps its relevance. Use it to turn boosting off.
     *
     * @return a booster whose {@link #boost} returns the relevance unchanged (it still rejects a relevance
     *         outside [0, 1])
     */
    static Booster identity() {
        return PromotionBooster.none();
    }

    /**
     * The default promotion boost: critical +{@value PromotionBooster#DEFAULT_CRITICAL_BOOST}, important
     * +{@value PromotionBooster#DEFAULT_IMPORTANT_BOOST}, standard unchanged, capped at 1.0.
     *
     * @return {@link PromotionBooster#defaults()}
     */
    static Booster promotion() {
        return PromotionBooster.defaults();
    }
}
