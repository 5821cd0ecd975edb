package dev.ragkit.internal;

import java.util.HashSet;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The key terms of a text, as the RAG service specification 3.0 defines them for answer coverage: lower-case runs
 * of letters and digits ({@code [a-z0-9]+} after lower-casing), at least three characters long, without the
 * specification's English stop words ({@link #STOP_WORDS}, its list exactly). Used by the confidence scorer and the
 * extractive backend. Stateless and thread-safe.
 */
public final class KeyTerms {

    /**
     * The specification's stop words, exactly as it lists them (its short words included, although words under three
     * characters never count anyway).
     */
    public static final Set<String> STOP_WORDS = Set.of(
            "the", "a", "an", "is", "are", "was", "were", "be", "been", "being",
            "have", "has", "had", "do", "does", "did", "will", "would", "could",
            "should", "may", "might", "must", "shall", "can", "need", "dare",
            "to", "of", "in", "for", "on", "with", "at", "by", "from", "as",
            "into", "through", "during", "before", "after", "above", "below",
            "between", "under", "again", "further", "then", "once", "here",
            "there", "when", "where", "why", "how", "all", "each", "few", "more",
            "most", "other", "some", "such", "no", "nor", "not", "only", "own",
            "same", "so", "than", "too", "very", "just", "and", "but", "if", "or",
            "because", "until", "while", "this", "that", "these", "those", "i",
            "me", "my", "myself", "we", "our", "ours", "you", "your", "yours",
            "he", "him", "his", "she", "her", "hers", "it", "its", "they", "them");

    /** The shortest key term. */
    public static final int MIN_LENGTH = 3;

    private static final Pattern WORD = Pattern.compile("[a-z0-9]+");

    private KeyTerms() {
    }

    /**
     * @param text any text
     * @return its key terms (a new, modifiable set)
     */
    public static Set<String> of(String text) {
        Set<String> terms = new HashSet<>();
        addTo(text, terms);
        return terms;
    }

    /**
     * Adds the key terms of {@code text} to {@code into}.
     *
     * @param text any text
     * @param into the set to add to
     */
    public static void addTo(String text, Set<String> into) {
        Matcher word = WORD.matcher(Objects.requireNonNull(text, "text").toLowerCase(Locale.ROOT));
        while (word.find()) {
            String w = word.group();
            if (w.length() >= MIN_LENGTH && !STOP_WORDS.contains(w)) {
                into.add(w);
            }
        }
    }
}
