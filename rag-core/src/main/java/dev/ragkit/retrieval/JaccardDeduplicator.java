package dev.ragkit.retrieval;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * A {@link Deduplicator} that treats two chunks as near duplicates when the Jaccard similarity of their word sets
 * is strictly above a threshold (default {@value #DEFAULT_THRESHOLD}).
 *
 * <p><b>Definition.</b> The result is exactly that of this textbook procedure:
 * <ol>
 *   <li><i>Words.</i> A chunk's words are the maximal runs of code points for which
 *       {@link Character#isLetterOrDigit(int)} holds, found in the chunk's text as stored; each run is then
 *       lower-cased with {@link String#toLowerCase(Locale) toLowerCase(Locale.ROOT)}. Everything else
 *       (punctuation, white space, symbols) only separates words. A chunk's <i>word set</i> is the set of its
 *       words.</li>
 *   <li><i>Similarity.</i> {@code J(A, B) = |A ∩ B| / |A ∪ B|}, computed as
 *       {@code (double) |A ∩ B| / |A ∪ B|}. When both sets are empty (two chunks without a single letter or
 *       digit) {@code J = 1}; when exactly one is empty {@code J = 0}.</li>
 *   <li><i>Near duplicates.</i> {@code A} and {@code B} are near duplicates when {@code J(A, B) > threshold},
 *       strictly: at the default threshold, a similarity of exactly 0.9 (e.g. 9 shared words out of 10) is
 *       <em>not</em> a duplicate. A threshold of 1 therefore keeps every candidate.</li>
 *   <li><i>Selection.</i> Candidates are visited in the given order (best first); a candidate is kept when it is
 *       not a near duplicate of any candidate kept before it, and dropped otherwise. Comparisons are only made
 *       against <em>kept</em> candidates, so a dropped candidate never causes another one to be dropped (no
 *       chaining through dropped candidates). The kept candidates are returned in their original order.</li>
 * </ol>
 *
 * <p><b>Cost.</b> Each chunk's text is read once: its words are mapped to ids from a dictionary built for the
 * call, and its word set becomes a sorted {@code int[]}. A pair is compared only when the set sizes allow a
 * similarity above the threshold ({@code J ≤ min(|A|, |B|) / max(|A|, |B|)}), and the sorted merge that counts
 * the intersection stops as soon as the threshold is out of reach. Both shortcuts are exact: they skip only
 * pairs that the definition above would not call duplicates.
 *
 * <p>Instances are immutable and thread-safe; each call allocates its own working state.
 */
final class JaccardDeduplicator implements Deduplicator {

    /** The default similarity a pair must exceed to be a near duplicate. */
    static final double DEFAULT_THRESHOLD = DEFAULT_JACCARD_THRESHOLD;

    private static final int[] NO_WORDS = new int[0];

    private final double threshold;

    /** A deduplicator with the default threshold, {@value #DEFAULT_THRESHOLD}. */
    JaccardDeduplicator() {
        this(DEFAULT_THRESHOLD);
    }

    /**
     * A deduplicator with the given threshold.
     *
     * @param threshold the Jaccard similarity a pair must strictly exceed to be a near duplicate, in (0, 1];
     *                  1 keeps every candidate
     * @throws IllegalArgumentException when {@code threshold} is not in (0, 1]
     */
    JaccardDeduplicator(double threshold) {
        if (!(threshold > 0 && threshold <= 1)) {
            throw new IllegalArgumentException("Jaccard threshold must be in (0, 1], got " + threshold
                    + "; the default is " + DEFAULT_THRESHOLD);
        }
        this.threshold = threshold;
    }

    /**
     * The threshold.
     *
     * @return the similarity a pair must strictly exceed to be a near duplicate
     */
    public double threshold() {
        return threshold;
    }

    /**
     * Drops every candidate that is a near duplicate of a candidate kept before it (see the class description).
     *
     * @param candidates chunks ordered best first; not null, no null elements
     * @return the kept candidates in their original order (an unmodifiable list)
     */
    @Override
    public List<RetrievedChunk> deduplicate(List<RetrievedChunk> candidates) {
        Objects.requireNonNull(candidates, "candidates");
        int n = candidates.size();
        if (n == 0) {
            return List.of();
        }
        RetrievedChunk[] chunks = new RetrievedChunk[n];
        int[][] sets = new int[n][];
        Map<String, Integer> dictionary = new HashMap<>();
        for (int i = 0; i < n; i++) {
            chunks[i] = Objects.requireNonNull(candidates.get(i), "candidate");
            sets[i] = wordIds(chunks[i].chunk().text(), dictionary);
        }
        if (n == 1) {
            return List.of(chunks[0]);
        }
        int[] kept = new int[n];
        int keptCount = 0;
        for (int i = 0; i < n; i++) {
            int[] candidate = sets[i];
            boolean duplicate = false;
            for (int k = 0; k < keptCount && !duplicate; k++) {
                duplicate = nearDuplicates(candidate, sets[kept[k]]);
            }
            if (!duplicate) {
                kept[keptCount++] = i;
            }
        }
        if (keptCount == n) {
            return Collections.unmodifiableList(Arrays.asList(chunks));
        }
        List<RetrievedChunk> result = new ArrayList<>(keptCount);
        for (int k = 0; k < keptCount; k++) {
            result.add(chunks[kept[k]]);
        }
        return Collections.unmodifiableList(result);
    }

    /**
     * Whether two word sets are near duplicates: {@code J(a, b) > threshold}, as defined in the class description.
     */
    private boolean nearDuplicates(int[] a, int[] b) {
        int sizeA = a.length;
        int sizeB = b.length;
        if (sizeA == 0 || sizeB == 0) {
            return sizeA == sizeB && 1.0 > threshold;
        }
        int min = Math.min(sizeA, sizeB);
        int max = Math.max(sizeA, sizeB);
        // |A ∩ B| <= min and |A ∪ B| >= max, so J <= min / max; correctly rounded division is monotonic, so
        // the computed J is also <= the computed min / max.
        if (!((double) min / max > threshold)) {
            return false;
        }
        int total = sizeA + sizeB;
        // exceeds(k) := (double) k / (total - k) > threshold grows with k; need is the least k for which it holds.
        int need = leastSufficientIntersection(total, min);
        if (need > min) {
            return false;
        }
        // Sorted merge; each element of A (of B) outside the intersection lowers the reachable intersection by one.
        int missesAllowedA = sizeA - need;
        int missesAllowedB = sizeB - need;
        int i = 0;
        int j = 0;
        int common = 0;
        while (i < sizeA && j < sizeB) {
            int x = a[i];
            int y = b[j];
            if (x == y) {
                common++;
                i++;
                j++;
            } else if (x < y) {
                if (--missesAllowedA < 0) {
                    return false;
                }
                i++;
            } else {
                if (--missesAllowedB < 0) {
                    return false;
                }
                j++;
            }
        }
        return exceeds(common, total);
    }

    /**
     * The least intersection size {@code k} in {@code [0, min + 1]} with {@link #exceeds exceeds(k, total)}, or
     * {@code min + 1} when no {@code k <= min} qualifies.
     */
    private int leastSufficientIntersection(int total, int min) {
        // Start from the real-number solution of k / (total - k) = threshold and correct it with the exact
        // predicate, so floating-point rounding in the estimate cannot change the outcome.
        int k = (int) Math.ceil(threshold * total / (1 + threshold));
        k = Math.max(0, Math.min(k, min + 1));
        while (k > 0 && exceeds(k - 1, total)) {
            k--;
        }
        while (k <= min && !exceeds(k, total)) {
            k++;
        }
        return k;
    }

    /** The definition's test for non-empty sets: {@code (double) common / |A ∪ B| > threshold}. */
    private boolean exceeds(int common, int total) {
        return (double) common / (total - common) > threshold;
    }

    /**
     * The chunk's word set as sorted, distinct ids from {@code dictionary}, which gains the words it lacks.
     */
    private static int[] wordIds(String text, Map<String, Integer> dictionary) {
        int length = text.length();
        int[] ids = null;
        int count = 0;
        int i = 0;
        while (i < length) {
            int cp = text.codePointAt(i);
            if (!Character.isLetterOrDigit(cp)) {
                i += Character.charCount(cp);
                continue;
            }
            int start = i;
            i += Character.charCount(cp);
            while (i < length) {
                cp = text.codePointAt(i);
                if (!Character.isLetterOrDigit(cp)) {
                    break;
                }
                i += Character.charCount(cp);
            }
            String word = text.substring(start, i).toLowerCase(Locale.ROOT);
            Integer id = dictionary.get(word);
            if (id == null) {
                id = dictionary.size();
                dictionary.put(word, id);
            }
            if (ids == null) {
                ids = new int[16];
            } else if (count == ids.length) {
                ids = Arrays.copyOf(ids, count * 2);
            }
            ids[count++] = id;
        }
        if (ids == null) {
            return NO_WORDS;
        }
        Arrays.sort(ids, 0, count);
        int distinct = 1;
        for (int r = 1; r < count; r++) {
            if (ids[r] != ids[distinct - 1]) {
                ids[distinct++] = ids[r];
            }
        }
        return Arrays.copyOf(ids, distinct);
    }

    @Override
    public String toString() {
        return "JaccardDeduplicator[threshold " + threshold + "]";
    }
}
