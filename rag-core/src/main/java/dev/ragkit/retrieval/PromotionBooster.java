package dev.ragkit.retrieval;

import dev.ragkit.store.PromotionLevel;
import java.util.Objects;

/**
 * Adds a fixed amount to the relevance of promoted documents and caps the result at 1.0: by default critical
 * documents gain {@value #DEFAULT_CRITICAL_BOOST}, important ones {@value #DEFAULT_IMPORTANT_BOOST}, standard
 * ones nothing. So 0.70 critical, 0.75 important and 0.80 standard become 0.85, 0.85 and 0.80.
 *
 * <pre>{@code
 * Booster booster = PromotionBooster.builder().criticalBoost(0.2).importantBoost(0.05).build();
 * double boosted = booster.boost(0.7, PromotionLevel.CRITICAL);   // 0.9
 * }</pre>
 *
 * <p>Each boost is in [0, 1]. The two are independent: nothing forces the critical boost to be the larger one.
 * Instances are immutable and thread-safe.
 */
public final class PromotionBooster implements Booster {

    /** The default boost of a critical document. */
    public static final double DEFAULT_CRITICAL_BOOST = 0.15;

    /** The default boost of an important document. */
    public static final double DEFAULT_IMPORTANT_BOOST = 0.10;

    private static final PromotionBooster DEFAULTS =
            new PromotionBooster(DEFAULT_CRITICAL_BOOST, DEFAULT_IMPORTANT_BOOST);
    private static final PromotionBooster NONE = new PromotionBooster(0, 0);

    private final double criticalBoost;
    private final double importantBoost;

    private PromotionBooster(double criticalBoost, double importantBoost) {
        this.criticalBoost = criticalBoost;
        this.importantBoost = importantBoost;
    }

    /**
     * The default boosts: critical +{@value #DEFAULT_CRITICAL_BOOST}, important +{@value #DEFAULT_IMPORTANT_BOOST}.
     *
     * @return the shared default booster
     */
    public static PromotionBooster defaults() {
        return DEFAULTS;
    }

    /**
     * A booster with both boosts 0, which returns every relevance unchanged; {@link Booster#identity()}.
     *
     * @return the shared zero booster
     */
    public static PromotionBooster none() {
        return NONE;
    }

    /**
     * A booster with these boosts.
     *
     * @param criticalBoost  added to the relevance of critical documents, in [0, 1]
     * @param importantBoost added to the relevance of important documents, in [0, 1]
     * @return the booster
     * @throws IllegalArgumentException when a boost is outside [0, 1] or not a number
     */
    public static PromotionBooster of(double criticalBoost, double importantBoost) {
        return new PromotionBooster(requireBoost(criticalBoost, "criticalBoost"),
                requireBoost(importantBoost, "importantBoost"));
    }

    /**
     * A new builder.
     *
     * @return a builder holding the default boosts
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * A builder holding this booster's boosts.
     *
     * @return a builder that builds an equal booster until changed
     */
    public Builder toBuilder() {
        return new Builder().criticalBoost(criticalBoost).importantBoost(importantBoost);
    }

    /**
     * {@inheritDoc}
     *
     * @return {@code min(1, relevance + boostFor(level))}
     * @throws IllegalArgumentException when {@code relevance} is outside [0, 1] or not a number
     */
    @Override
    public double boost(double relevance, PromotionLevel level) {
        Objects.requireNonNull(level, "level");
        if (!(relevance >= 0 && relevance <= 1)) {
            throw new IllegalArgumentException("relevance must be in [0, 1], got " + relevance);
        }
        return Math.min(1.0, relevance + boostFor(level));
    }

    /**
     * The amount this booster adds for a level.
     *
     * @param level the promotion level
     * @return the critical boost, the important boost, or 0 for standard documents
     */
    public double boostFor(PromotionLevel level) {
        return switch (Objects.requireNonNull(level, "level")) {
            case CRITICAL -> criticalBoost;
            case IMPORTANT -> importantBoost;
            case STANDARD -> 0;
        };
    }

    /**
     * @return the boost of critical documents, in [0, 1]
     */
    public double criticalBoost() {
        return criticalBoost;
    }

    /**
     * @return the boost of important documents, in [0, 1]
     */
    public double importantBoost() {
        return importantBoost;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof PromotionBooster b
                && Double.compare(criticalBoost, b.criticalBoost) == 0
                && Double.compare(importantBoost, b.importantBoost) == 0;
    }

    @Override
    public int hashCode() {
        return Objects.hash(criticalBoost, importantBoost);
    }

    @Override
    public String toString() {
        return "PromotionBooster[critical=+" + criticalBoost + ", important=+" + importantBoost + "]";
    }

    private static double requireBoost(double value, String name) {
        if (!(value >= 0 && value <= 1)) {
            throw new IllegalArgumentException(name + " must be in [0, 1], got " + value
                    + "; use 0 to leave that level unboosted");
        }
        return value == 0 ? 0 : value; // folds -0.0 into 0.0 so equal boosters are equal
    }

    /** Builds a {@link PromotionBooster}. Starts from the default boosts. Not thread-safe. */
    public static final class Builder {
        private double criticalBoost = DEFAULT_CRITICAL_BOOST;
        private double importantBoost = DEFAULT_IMPORTANT_BOOST;

        private Builder() {
        }

        /**
         * @param boost added to the relevance of critical documents, in [0, 1]
         * @return this builder
         * @throws IllegalArgumentException when outside [0, 1] or not a number
         */
        public Builder criticalBoost(double boost) {
            this.criticalBoost = requireBoost(boost, "criticalBoost");
            return this;
        }

        /**
         * @param boost added to the relevance of important documents, in [0, 1]
         * @return this builder
         * @throws IllegalArgumentException when outside [0, 1] or not a number
         */
        public Builder importantBoost(double boost) {
            this.importantBoost = requireBoost(boost, "importantBoost");
            return this;
        }

        /**
         * @return the booster
         */
        public PromotionBooster build() {
            return new PromotionBooster(criticalBoost, importantBoost);
        }
    }
}
