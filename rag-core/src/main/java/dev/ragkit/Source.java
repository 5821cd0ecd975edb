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
 * @param relevance  its best chunk's relevance before boosting, or {@code null} when it did not match (a critical
 *                   document included for its promotion)
 * @param boosted    its best chunk's relevance after boosting, or {@code null} likewise
 * @param promotion  how the organisation marked it
 */
public record Source(String documentId, String path, String title, long charCount, @Nullable Double relevance,
        @Nullable Double boosted, PromotionLevel promotion) {

    /** Validates the arguments. */
    public Source {
        Objects.requireNonNull(documentId, "documentId");
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(title, "title");
        Objects.requireNonNull(promotion, "promotion");
    }
}
