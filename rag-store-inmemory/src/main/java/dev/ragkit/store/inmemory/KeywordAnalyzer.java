package dev.ragkit.store.inmemory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.en.EnglishAnalyzer;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;


/**
 * Splits text into keyword-index terms with Lucene's English analysis (the analyzer the Lucene store uses by
 * default): Unicode word tokens, possessives removed, lower case, English stop words dropped, Porter stems, so
 * "rotates" finds "rotation". Thread-safe (Lucene's analyzers reuse per-thread token streams). The same analysis
 * applies to chunk text and query text.
 */
final class KeywordAnalyzer {
    private KeywordAnalyzer() {
    }

    /** English analysis: standard tokens, possessives removed, lower case, English stop words, Porter stems. */
    private static final EnglishAnalyzer ENGLISH = new EnglishAnalyzer();

    /** The terms of {@code text} in order, with repeats (stop words left out, words stemmed). */
    static List<String> terms(String text) {
        List<String> terms = new ArrayList<>();
        try (TokenStream stream = ENGLISH.tokenStream("text", text)) {
            CharTermAttribute term = stream.addAttribute(CharTermAttribute.class);
            stream.reset();
            while (stream.incrementToken()) {
                terms.add(term.toString());
            }
            stream.end();
        } catch (IOException e) {
            throw new UncheckedIOException("analysing text in memory cannot fail", e);
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
