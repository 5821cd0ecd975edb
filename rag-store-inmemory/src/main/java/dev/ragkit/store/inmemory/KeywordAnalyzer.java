package dev.ragkit.store.inmemory;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Splits text into keyword-index terms: maximal runs of letters and digits, lower-cased. Stateless and
 * thread-safe. The same analysis applies to chunk text and query text.
 */
final class KeywordAnalyzer {
    private KeywordAnalyzer() {
    }

    /** The terms of {@code text} in order, with repeats. */
    static List<String> terms(String text) {
        List<String> terms = new ArrayList<>();
        int length = text.length();
        int i = 0;
        while (i < length) {
            int cp = text.codePointAt(i);
            if (!Character.isLetterOrDigit(cp)) {
                i += Character.charCount(cp);
                continue;
            }
            int start = i;
            while (i < length) {
                cp = text.codePointAt(i);
                if (!Character.isLetterOrDigit(cp)) {
                    break;
                }
                i += Character.charCount(cp);
            }
            terms.add(text.substring(start, i).toLowerCase(Locale.ROOT));
        }
        return terms;
    }

    /** Each distinct term of {@code text} with its number of occurrences, in order of first occurrence. */
    static Map<String, Integer> termFrequencies(List<String> terms) {
        Map<String, Integer> counts = new LinkedHashMap<>();
        for (String term : terms) {
            counts.merge(term, 1, Integer::sum);
        }
        return counts;
    }
}
