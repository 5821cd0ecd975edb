package dev.ragkit.store;

import java.util.Locale;
import java.util.Objects;

/**
 * How strongly an organisation marked a document as important.
 *
 * <p>Levels are ordered: {@code STANDARD < IMPORTANT < CRITICAL}. Retrieval boosts important and
 * critical documents, and always includes critical ones.
 */
public enum PromotionLevel {
    /** An ordinary document; the default. */
    STANDARD,
    /** A document the organisation wants ranked higher. */
    IMPORTANT,
    /** A document that is always part of the context of every request in its scope. */
    CRITICAL;

    /**
     * Whether this level is at least {@code other}.
     *
     * @param other the level to compare with
     * @return {@code true} when {@code this.ordinal() >= other.ordinal()}
     */
    public boolean isAtLeast(PromotionLevel other) {
        return compareTo(Objects.requireNonNull(other, "other")) >= 0;
    }

    /**
     * Parses a level written as in document front matter: {@code standard}, {@code important} or
     * {@code critical}, in any letter case, with surrounding white space ignored.
     *
     * @param text the level's name
     * @return the level
     * @throws IllegalArgumentException when {@code text} names no level; the message lists the valid names
     */
    public static PromotionLevel parse(String text) {
        Objects.requireNonNull(text, "text");
        String name = text.strip().toUpperCase(Locale.ROOT);
        for (PromotionLevel level : values()) {
            if (level.name().equals(name)) {
                return level;
            }
        }
        throw new IllegalArgumentException(
                "unknown promotion level '" + text + "'; use one of: standard, important, critical");
    }
}
