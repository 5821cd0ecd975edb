package dev.ragkit.benchmarks;

import dev.ragkit.retrieval.Deduplicator;
import dev.ragkit.retrieval.RetrievedChunk;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;

/**
 * The textbook near-duplicate filter, the baseline of {@link DedupBenchmark}: for every candidate, for every
 * candidate kept so far, build both word sets as {@link HashSet}s and compute their Jaccard similarity as
 * {@code |A ∩ B| / |A ∪ B|}; drop the candidate when it is strictly above the threshold.
 *
 * <p>It follows the same definition as {@link dev.ragkit.retrieval.Deduplicator#jaccard()} (words are maximal runs of
 * {@link Character#isLetterOrDigit(int)} code points lower-cased with {@code Locale.ROOT}; two empty sets have
 * similarity 1; only kept candidates are compared against), with none of its precomputation or pruning.
 */
public final class NaiveDeduplicator implements Deduplicator {

    private final double threshold;

    /**
     * @param threshold the similarity a pair must strictly exceed to be a near duplicate
     */
    public NaiveDeduplicator(double threshold) {
        this.threshold = threshold;
    }

    @Override
    public List<RetrievedChunk> deduplicate(List<RetrievedChunk> candidates) {
        Objects.requireNonNull(candidates, "candidates");
        List<RetrievedChunk> kept = new ArrayList<>();
        for (RetrievedChunk candidate : candidates) {
            boolean duplicate = false;
            for (RetrievedChunk keeper : kept) {
                Set<String> a = wordSet(candidate.chunk().text());
                Set<String> b = wordSet(keeper.chunk().text());
                if (jaccard(a, b) > threshold) {
                    duplicate = true;
                    break;
                }
            }
            if (!duplicate) {
                kept.add(candidate);
            }
        }
        return kept;
    }

    static double jaccard(Set<String> a, Set<String> b) {
        if (a.isEmpty() && b.isEmpty()) {
            return 1.0;
        }
        Set<String> intersection = new HashSet<>(a);
        intersection.retainAll(b);
        Set<String> union = new HashSet<>(a);
        union.addAll(b);
        return (double) intersection.size() / union.size();
    }

    static Set<String> wordSet(String text) {
        Set<String> words = new HashSet<>();
        StringBuilder word = new StringBuilder();
        int i = 0;
        while (i < text.length()) {
            int cp = text.codePointAt(i);
            if (Character.isLetterOrDigit(cp)) {
                word.appendCodePoint(cp);
            } else if (word.length() > 0) {
                words.add(word.toString().toLowerCase(Locale.ROOT));
                word.setLength(0);
            }
            i += Character.charCount(cp);
        }
        if (word.length() > 0) {
            words.add(word.toString().toLowerCase(Locale.ROOT));
        }
        return words;
    }
}
