package dev.ragkit;

import dev.ragkit.store.PromotionLevel;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A document whose text was in the prompt (critical or relevant).
 *
 * @param documentId the document's id
 * @param path       its path
 * @param title      its title
 * @param charCount  its length in characters
 * @param similarity its best chunk's raw cosine similarity to the question (what thresholds compare), or
 *                   {@code null} when no chunk was matched by vector (critical documents included for their
 *                   promotion, keyword-only matches)
 * @param relevance  its best chunk's fused relevance (vector and keyword scores combined) before boosting, or
 *                   {@code null} when it did not match
 * @param boosted    its best chunk's fused relevance after the promotion boost (what ranking uses), or
 *                   {@code null} likewise
 * @param promotion  how the organisation marked it
 */
public record Source(String documentId, String path, String title, long charCount, @Nullable Double similarity,
        @Nullable Double relevance, @Nullable Double boosted, PromotionLevel promotion) {

    /** Validates the arguments. */
    public Source {
        Objects.requireNonNull(documentId, "documentId");
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(title, "title");
        Objects.requireNonNull(promotion, "promotion");
    }
}
