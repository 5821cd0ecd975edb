package dev.ragkit.retrieval;

import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * How well the documents support a question: the relevance of the best passage found, the bar it had to clear, and —
 * when nothing cleared it — the question's words the best passage lacks. It says why a question was handed to a
 * person instead of being answered.
 *
 * @param bestRelevance the highest relevance among the passages found, or {@code NaN} when the store found nothing
 * @param threshold     the relevance a passage needed ({@link RetrievalOptions#minRelevance()})
 * @param missingTerms  when no passage cleared the bar, the question's words the best passage does not contain,
 *                      most telling first; otherwise empty
 */
public record Support(double bestRelevance, double threshold, List<String> missingTerms) {

    /** The store found no passage at all. */
    public static final Support NOTHING_FOUND = new Support(Double.NaN, 0, List.of());

    /** Validates and copies the arguments. */
    public Support {
        missingTerms = List.copyOf(Objects.requireNonNull(missingTerms, "missingTerms"));
        if (!Double.isNaN(bestRelevance) && !(bestRelevance >= 0 && bestRelevance <= 1)) {
            throw new IllegalArgumentException("bestRelevance must be in [0, 1] or NaN, got " + bestRelevance);
        }
        if (!(threshold >= 0 && threshold <= 1)) {
            throw new IllegalArgumentException("threshold must be in [0, 1], got " + threshold);
        }
    }

    /** @return whether the best passage cleared the bar */
    public boolean supported() {
        return bestRelevance >= threshold;
    }

    /**
     * @return why the documents do not support the question, in a sentence: nothing found, or the best passage's
     *         relevance against the bar and the words it lacks
     */
    public String explanation() {
        if (Double.isNaN(bestRelevance)) {
            return "No relevant documents found";
        }
        String why = String.format(Locale.ROOT, "The best passage found has relevance %.2f, below the %.2f required",
                bestRelevance, threshold);
        return missingTerms.isEmpty() ? why
                : why + "; it does not mention " + String.join(", ", missingTerms.stream().map(t -> "'" + t + "'")
                        .toList());
    }
}
