package dev.ragkit.benchmarks;

import com.knuddels.jtokkit.Encodings;
import com.knuddels.jtokkit.api.Encoding;
import com.knuddels.jtokkit.api.EncodingType;
import dev.ragkit.tokens.TokenCounter;
import dev.ragkit.tokens.TokenCounters;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Counting the tokens of one paragraph (a pool of 256 seeded, varied paragraphs of roughly 40–400 tokens,
 * cycled): RagKit's {@code TokenCounters.jtokkit()} uncached, the same behind {@code TokenCounters.cached} (every
 * paragraph already cached, so this measures a hit), and raw jtokkit {@code countTokensOrdinary} on the same
 * {@code cl100k_base} encoding. Target: the uncached counter within 5 % of raw jtokkit.
 *
 * <pre>{@code
 * mvn -B -q -pl benchmarks -am package -DskipTests
 * java -jar benchmarks/target/benchmarks.jar TokenCountBenchmark -prof gc
 * }</pre>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 4, time = 1)
@Measurement(iterations = 8, time = 1)
@Fork(value = 1, jvmArgs = {"-Xms1g", "-Xmx1g"})
@State(Scope.Thread)
public class TokenCountBenchmark {

    /** The implementations compared. */
    public enum Impl {
        /** {@code TokenCounters.jtokkit()}. */
        RAGKIT,
        /** {@code TokenCounters.cached(TokenCounters.jtokkit(), 10_000)}, warm. */
        RAGKIT_CACHED,
        /** jtokkit's own {@code Encoding.countTokensOrdinary}. */
        JTOKKIT
    }

    static final int PARAGRAPHS = 256;

    /** Which implementation counts. */
    @Param
    public @Nullable Impl impl;

    private List<String> paragraphs = List.of();
    private @Nullable TokenCounter counter;
    private @Nullable Encoding encoding;
    private int cursor;

    /** Builds the paragraphs and the counter; warms the cache for {@link Impl#RAGKIT_CACHED}. */
    @Setup
    public void setUp() {
        paragraphs = paragraphs(PARAGRAPHS);
        encoding = Encodings.newLazyEncodingRegistry().getEncoding(EncodingType.CL100K_BASE);
        switch (Objects.requireNonNull(impl, "impl")) {
            case RAGKIT:
                counter = TokenCounters.jtokkit();
                break;
            case RAGKIT_CACHED:
                counter = TokenCounters.cached(TokenCounters.jtokkit(), 10_000);
                paragraphs.forEach(counter::count);
                break;
            default:
                counter = null;
        }
    }

    /**
     * Counts the next paragraph.
     *
     * @return its token count
     */
    @Benchmark
    public int count() {
        String text = paragraphs.get(cursor++ & (PARAGRAPHS - 1));
        TokenCounter c = counter;
        return c != null ? c.count(text) : Objects.requireNonNull(encoding).countTokensOrdinary(text);
    }

    /** Seeded paragraphs mixing prose, identifiers, numbers, punctuation, code and some non-Latin text. */
    static List<String> paragraphs(int count) {
        Random random = new Random(42);
        String[] words = {"the", "retriever", "embeds", "question", "store", "scope", "tenant", "chunk", "token",
            "budget", "boost", "critical", "documents", "organisation", "near-duplicate", "Jaccard", "0.9", "2026",
            "HashMap<String, List<Integer>>", "x += y * 2;", "über", "naïve", "東京", "données", "https://example.org",
            "(see §4.2)", "e.g.", "—", "snake_case_name", "CamelCaseName"};
        List<String> list = new ArrayList<>(count);
        for (int p = 0; p < count; p++) {
            StringBuilder s = new StringBuilder();
            int n = 30 + random.nextInt(270);
            for (int i = 0; i < n; i++) {
                s.append(words[random.nextInt(words.length)]);
                s.append(random.nextInt(12) == 0 ? ".\n" : " ");
            }
            list.add(s.toString());
        }
        return List.copyOf(list);
    }
}
