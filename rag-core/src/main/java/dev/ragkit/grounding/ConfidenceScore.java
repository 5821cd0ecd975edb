package dev.ragkit.grounding;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The hybrid confidence of an answer, with its parts.
 *
 * @param overall     the score, 0–100: {@code retrieval·30 + coverage·40 + selfRating/100·30}, with the weights
 *                    of missing parts spread over the others, truncated to an integer
 * @param retrieval   the mean match score of the context blocks used, in [0, 1]
 * @param coverage    the share of the answer's key terms found in the context, in [0, 1]
 * @param selfRating  the model's own rating of how well the context supports the answer, 0–100, or {@code null}
 *                    when unavailable (not asked, failed, or the reply was not a number)
 * @param explanation how the score was computed, e.g. which weights were renormalised and why
 */
public record ConfidenceScore(int overall, double retrieval, double coverage, @Nullable Integer selfRating,
        String explanation) {

    /** Validates the arguments. */
    public ConfidenceScore {
        if (overall < 0 || overall > 100) {
            throw new IllegalArgumentException("overall must be in [0, 100], got " + overall);
        }
        if (!(retrieval >= 0 && retrieval <= 1) || !(coverage >= 0 && coverage <= 1)) {
            throw new IllegalArgumentException("retrieval and coverage must be in [0, 1], got " + retrieval
                    + " and " + coverage);
        }
        if (selfRating != null && (selfRating < 0 || selfRating > 100)) {
            throw new IllegalArgumentException("selfRating must be in [0, 100], got " + selfRating);
        }
        Objects.requireNonNull(explanation, "explanation");
    }

    /**
     * @param reason why the score is zero
     * @return a zero score, e.g. when nothing was retrieved
     */
    public static ConfidenceScore zero(String reason) {
        return new ConfidenceScore(0, 0, 0, null, reason);
    }

    /** @return whether the model's self-rating contributed */
    public boolean selfRatingAvailable() {
        return selfRating != null;
    }
}
