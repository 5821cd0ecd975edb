package dev.ragkit.retrieval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ragkit.store.StoredChunk;
import dev.ragkit.store.StoredDocument;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

final class JaccardDeduplicatorTest {

    private static final StoredDocument DOCUMENT = StoredDocument.builder().tenant("t").path("doc.md").build();

    private final JaccardDeduplicator dedup = new JaccardDeduplicator();

    @Test
    void constructor_noArgument_usesDefaultThreshold() {
        assertThat(dedup.threshold()).isEqualTo(0.9).isEqualTo(JaccardDeduplicator.DEFAULT_THRESHOLD);
    }

    @Test
    void constructor_thresholdOutsideZeroToOne_throws() {
        for (double bad : new double[] {0, -0.1, 1.0000001, Double.NaN, Double.POSITIVE_INFINITY}) {
            assertThatThrownBy(() -> new JaccardDeduplicator(bad))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("(0, 1]");
        }
        assertThat(new JaccardDeduplicator(1).threshold()).isEqualTo(1.0);
        assertThat(new JaccardDeduplicator(Double.MIN_VALUE).threshold()).isEqualTo(Double.MIN_VALUE);
    }

    @Test
    void deduplicate_nullList_throws() {
        assertThatThrownBy(() -> dedup.deduplicate(null)).isInstanceOf(NullPointerException.class)
                .hasMessageContaining("candidates");
    }

    @Test
    void deduplicate_emptyInput_returnsEmpty() {
        assertThat(dedup.deduplicate(List.of())).isEmpty();
    }

    @Test
    void deduplicate_singleCandidate_keepsIt() {
        RetrievedChunk only = chunk(0, "just one chunk", 0.5);
        assertThat(dedup.deduplicate(List.of(only))).containsExactly(only);
    }

    @Test
    void deduplicate_exactDuplicates_keepsFirst() {
        RetrievedChunk best = chunk(0, "Install the agent on every node.", 0.9);
        RetrievedChunk copy = chunk(1, "Install the agent on every node.", 0.8);
        assertThat(dedup.deduplicate(List.of(best, copy))).containsExactly(best);
    }

    @Test
    void deduplicate_caseDifferences_areDuplicates() {
        RetrievedChunk best = chunk(0, "Install the Agent on every Node", 0.9);
        RetrievedChunk shouty = chunk(1, "INSTALL THE AGENT ON EVERY NODE", 0.8);
        assertThat(dedup.deduplicate(List.of(best, shouty))).containsExactly(best);
    }

    @Test
    void deduplicate_punctuationAndWhitespaceDifferences_areDuplicates() {
        RetrievedChunk best = chunk(0, "Install the agent, then restart: every node!", 0.9);
        RetrievedChunk other = chunk(1, "install -- the agent\n\n* then (restart) every... node?", 0.8);
        assertThat(dedup.deduplicate(List.of(best, other))).containsExactly(best);
    }

    @Test
    void deduplicate_repeatedWordsAndOrder_ignoredBecauseSetsAreCompared() {
        RetrievedChunk best = chunk(0, "alpha beta gamma", 0.9);
        RetrievedChunk other = chunk(1, "gamma gamma beta alpha alpha", 0.8);
        assertThat(dedup.deduplicate(List.of(best, other))).containsExactly(best);
    }

    @Test
    void deduplicate_unicodeLettersAndDigits_formWords() {
        // Non-ASCII letters and digits are word characters and lower-case as expected; "größe" and "grösse" differ.
        RetrievedChunk a = chunk(0, "Größe 42 Ελλάδα café", 0.9);
        RetrievedChunk b = chunk(1, "größe 42 ελλάδα CAFÉ", 0.8);
        RetrievedChunk c = chunk(2, "grösse 42 ελλάδα café", 0.7);
        assertThat(dedup.deduplicate(List.of(a, b, c))).containsExactly(a, c);
    }

    @Test
    void deduplicate_similarityExactlyAtThreshold_isNotDuplicate() {
        // 9 shared words, union 10: J = 0.9, not above 0.9.
        String nine = words(0, 9);
        RetrievedChunk best = chunk(0, nine, 0.9);
        RetrievedChunk plusOne = chunk(1, nine + " extra", 0.8);
        assertThat(dedup.deduplicate(List.of(best, plusOne))).containsExactly(best, plusOne);
    }

    @Test
    void deduplicate_similarityJustAboveThreshold_isDuplicate() {
        // 19 shared words, union 20: J = 0.95.
        String nineteen = words(0, 19);
        RetrievedChunk best = chunk(0, nineteen, 0.9);
        RetrievedChunk plusOne = chunk(1, nineteen + " extra", 0.8);
        assertThat(dedup.deduplicate(List.of(best, plusOne))).containsExactly(best);
    }

    @Test
    void deduplicate_similarityJustBelowThreshold_isNotDuplicate() {
        // 17 shared words, union 19: J = 0.894...
        String seventeen = words(0, 17);
        RetrievedChunk best = chunk(0, seventeen + " left", 0.9);
        RetrievedChunk other = chunk(1, seventeen + " right", 0.8);
        assertThat(dedup.deduplicate(List.of(best, other))).containsExactly(best, other);
    }

    @Test
    void deduplicate_lowerThreshold_collapsesLooserMatches() {
        RetrievedChunk best = chunk(0, words(0, 9) + " left", 0.9);
        RetrievedChunk other = chunk(1, words(0, 9) + " right", 0.8);
        assertThat(new JaccardDeduplicator(0.8).deduplicate(List.of(best, other))).containsExactly(best);
        assertThat(dedup.deduplicate(List.of(best, other))).containsExactly(best, other);
    }

    @Test
    void deduplicate_thresholdOne_keepsEvenExactDuplicates() {
        RetrievedChunk a = chunk(0, "same text", 0.9);
        RetrievedChunk b = chunk(1, "same text", 0.8);
        assertThat(new JaccardDeduplicator(1).deduplicate(List.of(a, b))).containsExactly(a, b);
    }

    @Test
    void deduplicate_betterScoredFirst_keepsBetterScored() {
        RetrievedChunk lower = chunk(3, "the quick brown fox jumps", 0.4);
        RetrievedChunk higher = chunk(7, "The quick brown fox jumps.", 0.95);
        assertThat(dedup.deduplicate(List.of(higher, lower))).containsExactly(higher);
    }

    @Test
    void deduplicate_mixedList_preservesOrderOfKept() {
        RetrievedChunk a = chunk(0, "alpha beta gamma", 0.9);
        RetrievedChunk b = chunk(1, "delta epsilon zeta", 0.8);
        RetrievedChunk aCopy = chunk(2, "Alpha, beta; gamma.", 0.7);
        RetrievedChunk c = chunk(3, "eta theta iota", 0.6);
        RetrievedChunk bCopy = chunk(4, "DELTA EPSILON ZETA", 0.5);
        RetrievedChunk d = chunk(5, "kappa lambda mu", 0.4);
        assertThat(dedup.deduplicate(List.of(a, b, aCopy, c, bCopy, d))).containsExactly(a, b, c, d);
    }

    @Test
    void deduplicate_droppedCandidate_doesNotDropOthers() {
        // J(a, b) = 10/11 > 0.9, J(b, c) = 10/11 > 0.9, J(a, c) = 9/11 <= 0.9: b goes, c stays, because b is not kept.
        String base = words(0, 9);
        RetrievedChunk a = chunk(0, base + " w90", 0.9);
        RetrievedChunk b = chunk(1, base + " w90 w91", 0.8);
        RetrievedChunk c = chunk(2, base + " w91", 0.7);
        assertThat(dedup.deduplicate(List.of(a, b, c))).containsExactly(a, c);
    }

    @Test
    void deduplicate_blankTexts_areDuplicatesOfEachOther() {
        RetrievedChunk blank = chunk(0, "", 0.9);
        RetrievedChunk spaces = chunk(1, "   \n\t ", 0.8);
        RetrievedChunk symbols = chunk(2, "--- *** ---", 0.7);
        RetrievedChunk words = chunk(3, "real words here", 0.6);
        assertThat(dedup.deduplicate(List.of(blank, spaces, symbols, words))).containsExactly(blank, words);
    }

    @Test
    void deduplicate_blankAndNonBlank_areNotDuplicates() {
        RetrievedChunk text = chunk(0, "a", 0.9);
        RetrievedChunk blank = chunk(1, " ", 0.8);
        assertThat(dedup.deduplicate(List.of(text, blank))).containsExactly(text, blank);
    }

    @Test
    void deduplicate_result_isUnmodifiable() {
        List<RetrievedChunk> result = dedup.deduplicate(List.of(chunk(0, "a", 0.9), chunk(1, "b", 0.8)));
        assertThatThrownBy(() -> result.remove(0)).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void deduplicate_randomCandidateLists_matchNaiveReference() {
        Random random = new Random(20261122L);
        double[] thresholds = {0.9, 0.5, 0.75, 0.8, 0.95, 1.0, 0.3};
        int duplicatesSeen = 0;
        int keptSeen = 0;
        for (int round = 0; round < 5_000; round++) {
            double threshold = thresholds[round % thresholds.length];
            List<RetrievedChunk> candidates = randomCandidates(random);
            List<RetrievedChunk> expected = naive(candidates, threshold);
            List<RetrievedChunk> actual = new JaccardDeduplicator(threshold).deduplicate(candidates);
            assertThat(actual).as("round %d, threshold %s", round, threshold).containsExactlyElementsOf(expected);
            duplicatesSeen += candidates.size() - expected.size();
            keptSeen += expected.size();
        }
        // The data must exercise both outcomes often, or the comparison proves little.
        assertThat(duplicatesSeen).isGreaterThan(10_000);
        assertThat(keptSeen).isGreaterThan(10_000);
    }

    @Test
    void deduplicate_randomPairsAroundDefaultThreshold_matchNaiveReference() {
        // Pairs built to land at, just above and just below 0.9, where rounding would show.
        Random random = new Random(7L);
        int duplicates = 0;
        for (int round = 0; round < 5_000; round++) {
            int shared = 1 + random.nextInt(60);
            int onlyA = random.nextInt(4);
            int onlyB = random.nextInt(4);
            String common = words(0, shared);
            RetrievedChunk a = chunk(0, common + " " + words(1000, onlyA), 0.9);
            RetrievedChunk b = chunk(1, common + " " + words(2000, onlyB), 0.8);
            List<RetrievedChunk> expected = naive(List.of(a, b), 0.9);
            assertThat(dedup.deduplicate(List.of(a, b))).containsExactlyElementsOf(expected);
            duplicates += 2 - expected.size();
        }
        assertThat(duplicates).isGreaterThan(500).isLessThan(4_500);
    }

    // ---- the naive reference: the textbook definition, word sets rebuilt for every pair ----

    private static List<RetrievedChunk> naive(List<RetrievedChunk> candidates, double threshold) {
        List<RetrievedChunk> kept = new ArrayList<>();
        for (RetrievedChunk candidate : candidates) {
            boolean duplicate = false;
            for (RetrievedChunk keeper : kept) {
                Set<String> a = naiveWordSet(candidate.chunk().text());
                Set<String> b = naiveWordSet(keeper.chunk().text());
                double jaccard;
                if (a.isEmpty() && b.isEmpty()) {
                    jaccard = 1.0;
                } else {
                    Set<String> intersection = new HashSet<>(a);
                    intersection.retainAll(b);
                    Set<String> union = new HashSet<>(a);
                    union.addAll(b);
                    jaccard = (double) intersection.size() / union.size();
                }
                if (jaccard > threshold) {
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

    private static Set<String> naiveWordSet(String text) {
        Set<String> words = new HashSet<>();
        StringBuilder word = new StringBuilder();
        text.codePoints().forEach(cp -> {
            if (Character.isLetterOrDigit(cp)) {
                word.appendCodePoint(cp);
            } else if (word.length() > 0) {
                words.add(word.toString().toLowerCase(Locale.ROOT));
                word.setLength(0);
            }
        });
        if (word.length() > 0) {
            words.add(word.toString().toLowerCase(Locale.ROOT));
        }
        return words;
    }

    // ---- fixtures ----

    /** Lists of 0-25 candidates; many derive from earlier ones with few changes, over a small vocabulary. */
    private static List<RetrievedChunk> randomCandidates(Random random) {
        int size = random.nextInt(26);
        int vocabulary = 5 + random.nextInt(40);
        List<String> texts = new ArrayList<>();
        for (int i = 0; i < size; i++) {
            String text;
            if (!texts.isEmpty() && random.nextInt(3) > 0) {
                text = mutate(texts.get(random.nextInt(texts.size())), random, vocabulary);
            } else {
                text = randomText(random, vocabulary, random.nextInt(30));
            }
            texts.add(text);
        }
        List<RetrievedChunk> candidates = new ArrayList<>();
        for (int i = 0; i < size; i++) {
            candidates.add(chunk(i, texts.get(i), 1.0 - (double) i / (size + 1)));
        }
        return candidates;
    }

    private static final String[] SEPARATORS = {" ", "  ", ", ", ". ", "\n", " - ", "! ", "(", ") ", "’", "_", "…"};

    private static String randomText(Random random, int vocabulary, int words) {
        StringBuilder text = new StringBuilder();
        if (random.nextInt(8) == 0) {
            text.append(SEPARATORS[random.nextInt(SEPARATORS.length)]);
        }
        for (int w = 0; w < words; w++) {
            if (w > 0) {
                text.append(SEPARATORS[random.nextInt(SEPARATORS.length)]);
            }
            text.append(randomWord(random, vocabulary));
        }
        return text.toString();
    }

    private static String randomWord(Random random, int vocabulary) {
        int id = random.nextInt(vocabulary);
        String word = switch (id % 5) {
            case 0 -> "w" + id;
            case 1 -> "Wörd" + id;
            case 2 -> "ΣΟΦΙΑ" + id;
            case 3 -> "x" + id + "é";
            default -> "𝔘" + id;
        };
        return switch (random.nextInt(3)) {
            case 0 -> word.toUpperCase(Locale.ROOT);
            case 1 -> word.toLowerCase(Locale.ROOT);
            default -> word;
        };
    }

    /** Keeps most words, changing case and separators; replaces, drops or adds a few. */
    private static String mutate(String text, Random random, int vocabulary) {
        List<String> words = Arrays.stream(text.split("[^\\p{L}\\p{Nd}]+"))
                .filter(w -> !w.isEmpty())
                .collect(Collectors.toCollection(ArrayList::new));
        int edits = random.nextInt(4);
        for (int e = 0; e < edits; e++) {
            int op = random.nextInt(3);
            if (op == 0 && !words.isEmpty()) {
                words.remove(random.nextInt(words.size()));
            } else if (op == 1 && !words.isEmpty()) {
                words.set(random.nextInt(words.size()), randomWord(random, vocabulary));
            } else {
                words.add(random.nextInt(words.size() + 1), randomWord(random, vocabulary));
            }
        }
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < words.size(); i++) {
            if (i > 0) {
                out.append(SEPARATORS[random.nextInt(SEPARATORS.length)]);
            }
            String w = words.get(i);
            out.append(random.nextInt(5) == 0 ? w.toUpperCase(Locale.ROOT) : w);
        }
        return out.toString();
    }

    /** {@code count} distinct words {@code w<from>}, {@code w<from+1>}, … separated by spaces. */
    private static String words(int from, int count) {
        return IntStream.range(from, from + count).mapToObj(i -> "w" + i).collect(Collectors.joining(" "));
    }

    private static RetrievedChunk chunk(int index, String text, double score) {
        StoredChunk stored = new StoredChunk(DOCUMENT.id(), index, text, null, 1, 1, 1, null, null);
        return new RetrievedChunk(stored, DOCUMENT, score, score, score);
    }
}
