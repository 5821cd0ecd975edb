package dev.ragkit.benchmarks;

import dev.ragkit.retrieval.Deduplicator;
import dev.ragkit.retrieval.RetrievedChunk;
import dev.ragkit.store.StoredChunk;
import dev.ragkit.store.StoredDocument;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Near-duplicate removal over one list of {@link #candidates} retrieved chunks: RagKit's
 * {@link Deduplicator#jaccard()} (word sets computed once per chunk as sorted id arrays, size pruning, early exit)
 * against {@link NaiveDeduplicator}, the textbook loop that rebuilds both word sets as {@code HashSet}s for every
 * pair it compares. Both use the default threshold 0.9 and return the same list
 * ({@code DedupBenchmarkTest} checks it on this data).
 *
 * <p>The candidates ({@link #candidates(int)}) are seeded, so every run sees the same text: chunks of 300–500
 * words of prose-like text (sentences with capitals and punctuation) drawn from a 4,000-word synthetic vocabulary
 * with a Zipf-like skew, so that unrelated chunks share their common words as real ones do. About one chunk in
 * five is an edited copy of an earlier one (1–8 % of its words replaced, some case and punctuation changed), so
 * some pairs land above 0.9 and some just below. The list is ordered best first, as the retriever hands it over.
 * Building the list happens once per trial and is not measured.
 *
 * <p>Build, then run from the repository root:
 * <pre>{@code
 * mvn -B -q -pl benchmarks -am package -DskipTests
 * java -jar benchmarks/target/benchmarks.jar DedupBenchmark -prof gc
 *
 * # shorter, as recorded in the README
 * java -jar benchmarks/target/benchmarks.jar DedupBenchmark -prof gc -wi 3 -w 1 -i 5 -r 1
 * }</pre>
 * The naive implementation at 1,000 candidates takes seconds per call, so its iterations run longer than the
 * requested time. Target: RagKit at least 40× faster than the naive loop at 200 candidates.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1, timeUnit = TimeUnit.SECONDS)
@Measurement(iterations = 5, time = 1, timeUnit = TimeUnit.SECONDS)
@Fork(value = 1, jvmArgs = {"-Xms1g", "-Xmx1g"})
@State(Scope.Thread)
public class DedupBenchmark {

    /** The implementations compared. */
    public enum Impl {
        /** RagKit's {@link Deduplicator#jaccard()}. */
        RAGKIT,
        /** {@link NaiveDeduplicator}: word sets rebuilt inside the pair loop. */
        NAIVE;

        /**
         * A deduplicator of this kind with the default threshold.
         *
         * @return a new deduplicator
         */
        public Deduplicator create() {
            return switch (this) {
                case RAGKIT -> Deduplicator.jaccard();
                case NAIVE -> new NaiveDeduplicator(Deduplicator.DEFAULT_JACCARD_THRESHOLD);
            };
        }
    }

    /** Size of the synthetic vocabulary. */
    static final int VOCABULARY = 4_000;
    /** Fewest words in a chunk. */
    static final int MIN_WORDS = 300;
    /** Most words in a chunk. */
    static final int MAX_WORDS = 500;

    /** How many candidates are deduplicated per call. */
    @Param({"15", "200", "1000"})
    public int candidates;

    /** Which implementation deduplicates; every constant by default. */
    @Param
    public @Nullable Impl impl;

    private @Nullable Deduplicator deduplicator;
    private List<RetrievedChunk> list = List.of();

    /** Builds the candidate list and the implementation under test. */
    @Setup(Level.Trial)
    public void setUp() {
        deduplicator = Objects.requireNonNull(impl, "impl").create();
        list = candidates(candidates);
        int kept = deduplicator.deduplicate(list).size();
        System.out.printf(Locale.ROOT, "%n# DedupBenchmark: impl=%s candidates=%d, kept %d%n", impl, candidates, kept);
    }

    /**
     * One deduplication of the whole list.
     *
     * @return the kept chunks, so the call is not eliminated
     */
    @Benchmark
    public List<RetrievedChunk> deduplicate() {
        return Objects.requireNonNull(deduplicator, "call setUp() first").deduplicate(list);
    }

    /**
     * The benchmark's candidate list: {@code n} seeded chunks, best first, about a fifth of them edited copies of
     * earlier ones.
     *
     * @param n how many candidates
     * @return the same list for the same {@code n}
     */
    static List<RetrievedChunk> candidates(int n) {
        Random random = new Random(0x5EED_0000L + n);
        String[] vocabulary = vocabulary(new Random(42));
        List<List<String>> words = new ArrayList<>(n);
        List<String> texts = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            List<String> chunkWords;
            if (i > 0 && random.nextInt(5) == 0) {
                chunkWords = new ArrayList<>(words.get(random.nextInt(i)));
                int edits = Math.max(1, chunkWords.size() * (1 + random.nextInt(8)) / 100);
                for (int e = 0; e < edits; e++) {
                    chunkWords.set(random.nextInt(chunkWords.size()), zipfWord(random, vocabulary));
                }
            } else {
                int length = MIN_WORDS + random.nextInt(MAX_WORDS - MIN_WORDS + 1);
                chunkWords = new ArrayList<>(length);
                for (int w = 0; w < length; w++) {
                    chunkWords.add(zipfWord(random, vocabulary));
                }
            }
            words.add(chunkWords);
            texts.add(prose(chunkWords, random));
        }
        List<RetrievedChunk> result = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            StoredDocument document = StoredDocument.builder()
                    .tenant("bench")
                    .path(String.format(Locale.ROOT, "doc-%04d.md", i / 3))
                    .build();
            String text = texts.get(i);
            StoredChunk chunk = new StoredChunk(document.id(), i % 3, text, null, text.length() / 4, 1, 1, null,
                    null);
            double score = 0.95 - 0.5 * i / n;
            result.add(new RetrievedChunk(chunk, document, score, score, score));
        }
        return List.copyOf(result);
    }

    /** Pronounceable synthetic words of 2–12 letters, all distinct. */
    private static String[] vocabulary(Random random) {
        String[] onsets = {"b", "c", "d", "f", "g", "h", "k", "l", "m", "n", "p", "r", "s", "t", "v", "w", "st",
                "tr", "pl", "ch", "sh", "gr"};
        String[] vowels = {"a", "e", "i", "o", "u", "ou", "ea", "io"};
        java.util.LinkedHashSet<String> words = new java.util.LinkedHashSet<>();
        while (words.size() < VOCABULARY) {
            int syllables = 1 + random.nextInt(4);
            StringBuilder word = new StringBuilder();
            for (int s = 0; s < syllables; s++) {
                word.append(onsets[random.nextInt(onsets.length)]).append(vowels[random.nextInt(vowels.length)]);
            }
            if (random.nextInt(3) == 0) {
                word.append("nrst".charAt(random.nextInt(4)));
            }
            words.add(word.toString());
        }
        return words.toArray(new String[0]);
    }

    /** A word whose rank is skewed towards the front of the vocabulary (roughly Zipf, exponent 1). */
    private static String zipfWord(Random random, String[] vocabulary) {
        // rank = V^u - 1 for uniform u: P(rank <= r) = log(r + 1) / log(V).
        int rank = (int) Math.pow(vocabulary.length, random.nextDouble()) - 1;
        return vocabulary[Math.min(rank, vocabulary.length - 1)];
    }

    /** The words as sentences: capitalised starts, commas, full stops, the odd parenthesis and line break. */
    private static String prose(List<String> words, Random random) {
        StringBuilder text = new StringBuilder(words.size() * 8);
        boolean sentenceStart = true;
        for (int i = 0; i < words.size(); i++) {
            String word = words.get(i);
            if (i > 0) {
                text.append(random.nextInt(40) == 0 ? "\n" : " ");
            }
            if (sentenceStart) {
                text.append(Character.toUpperCase(word.charAt(0))).append(word, 1, word.length());
                sentenceStart = false;
            } else if (random.nextInt(60) == 0) {
                text.append('(').append(word).append(')');
            } else {
                text.append(word);
            }
            int r = random.nextInt(100);
            if (r < 7) {
                text.append('.');
                sentenceStart = true;
            } else if (r < 12) {
                text.append(',');
            }
        }
        return text.append('.').toString();
    }
}
