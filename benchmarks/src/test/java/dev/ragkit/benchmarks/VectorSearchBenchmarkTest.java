package dev.ragkit.benchmarks;

import static dev.ragkit.benchmarks.VectorSearchBenchmark.DIMENSION;
import static dev.ragkit.benchmarks.VectorSearchBenchmark.K;
import static dev.ragkit.benchmarks.VectorSearchBenchmark.QUERIES;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.store.embedding.EmbeddingMatch;
import dev.langchain4j.store.embedding.EmbeddingSearchRequest;
import dev.ragkit.benchmarks.VectorSearchBenchmark.FloorTarget;
import dev.ragkit.benchmarks.VectorSearchBenchmark.Impl;
import dev.ragkit.benchmarks.VectorSearchBenchmark.LangChain4jTarget;
import dev.ragkit.benchmarks.VectorSearchBenchmark.RagKitTarget;
import dev.ragkit.store.Scope;
import dev.ragkit.store.SearchHit;
import dev.ragkit.store.SearchRequest;
import dev.ragkit.store.inmemory.InMemoryDocumentStore;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Checks that {@link VectorSearchBenchmark} measures what it claims: sane fixtures, and implementations that
 * are loaded with the same vectors and find the same top 10, so they do equal work.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
final class VectorSearchBenchmarkTest {

    private static final int N = 2_000;
    /**
     * Scores closer than this (in exact cosine) may come out in either order once computed in float; well
     * above float rounding of a 384-term dot product (about 1e-7) and well below the typical gap between
     * neighbouring top-10 scores here (about 1e-3).
     */
    private static final double TIE = 1e-5;

    private float[] corpus = new float[0];
    private float[][] queries = new float[0][];
    private double[][] exactScores = new double[0][];
    private int[][] exactTop = new int[0][];
    private final List<VectorSearchBenchmark.Target> opened = new ArrayList<>();

    @BeforeAll
    void computeReference() {
        corpus = VectorFixtures.corpus(N, DIMENSION);
        queries = VectorFixtures.queries(QUERIES, DIMENSION);
        exactScores = new double[QUERIES][];
        exactTop = new int[QUERIES][];
        for (int q = 0; q < QUERIES; q++) {
            double[] scores = new double[N];
            for (int i = 0; i < N; i++) {
                scores[i] = exactCosine(queries[q], corpus, i);
            }
            exactScores[q] = scores;
            exactTop[q] = IntStream.range(0, N).boxed()
                    .sorted(Comparator.comparingDouble((Integer i) -> -scores[i]).thenComparingInt(i -> i))
                    .limit(K).mapToInt(Integer::intValue).toArray();
        }
    }

    @AfterAll
    void closeTargets() {
        opened.forEach(VectorSearchBenchmark.Target::close);
    }

    @Test
    void fixtures_sameSeed_sameUnitVectors() {
        assertThat(corpus).hasSize(N * DIMENSION);
        assertThat(VectorFixtures.corpus(N, DIMENSION)).isEqualTo(corpus);
        for (int i = 0; i < N; i++) {
            assertThat(norm(corpus, i * DIMENSION)).as("norm of vector %d", i).isCloseTo(1.0, within(1e-5));
        }
        assertThat(queries).hasNumberOfRows(QUERIES);
        for (float[] query : queries) {
            assertThat(query).hasSize(DIMENSION);
            assertThat(norm(query, 0)).isCloseTo(1.0, within(1e-5));
        }
    }

    @Test
    void fixtures_queries_distinctAndNotInCorpus() {
        assertThat(Arrays.stream(queries).map(Arrays::toString).distinct()).hasSize(QUERIES);
        // Independent random directions: no query is (nearly) a corpus vector, so no search is trivial.
        for (int q = 0; q < QUERIES; q++) {
            assertThat(exactScores[q][exactTop[q][0]]).as("best cosine of query %d", q).isBetween(0.05, 0.5);
        }
        // A larger n appends vectors and keeps the first ones, so the 10,000 corpus is part of the 50,000 one.
        float[] larger = VectorFixtures.corpus(N * 2, DIMENSION);
        assertThat(Arrays.copyOf(larger, corpus.length)).isEqualTo(corpus);
    }

    @Test
    void jmhGenerator_ran_benchmarkListed() throws IOException {
        try (InputStream in = getClass().getResourceAsStream("/META-INF/BenchmarkList")) {
            assertThat(in).as("META-INF/BenchmarkList: the JMH annotation processor did not run").isNotNull();
            String list = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            assertThat(list).contains(VectorSearchBenchmark.class.getName());
        }
        assertThat(classExists(VectorSearchBenchmark.class.getPackageName()
                + ".jmh_generated.VectorSearchBenchmark_search_jmhTest")).isTrue();
    }

    @Test
    void floor_readsWholeCorpus() {
        FloorTarget floor = open(Impl.BANDWIDTH_FLOOR);

        assertThat(floor.data()).hasSize(N * DIMENSION).isSameAs(corpus);
        double exact = 0;
        for (float v : corpus) {
            exact += v;
        }
        assertThat((double) FloorTarget.sum(corpus)).isCloseTo(exact, within(1e-2));
        // The tail loop counts too.
        assertThat(FloorTarget.sum(new float[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11})).isEqualTo(66f);
    }

    @Test
    void langChain4j_everyQuery_exactTop10() {
        LangChain4jTarget target = open(Impl.LANGCHAIN4J);

        assertThat(target.store().size()).isEqualTo(N);
        for (int q = 0; q < QUERIES; q++) {
            assertExactTop("LANGCHAIN4J", q, target.topIds(q));
        }
        // Scores are LangChain4j's relevance, (cosine + 1) / 2.
        List<EmbeddingMatch<TextSegment>> matches = target.store().search(EmbeddingSearchRequest.builder()
                .queryEmbedding(dev.langchain4j.data.embedding.Embedding.from(queries[0])).maxResults(K).build())
                .matches();
        assertThat(matches.get(0).score()).isCloseTo((exactScores[0][exactTop[0][0]] + 1) / 2, within(1e-6));
        assertThat(matches.get(0).embedded().text()).isEqualTo(matches.get(0).embeddingId());
    }

    @Test
    void ragKit_everyQuery_exactTop10() {
        RagKitTarget target = open(Impl.RAGKIT);

        for (int q = 0; q < QUERIES; q++) {
            assertExactTop("RAGKIT", q, target.topIds(q));
        }
        // Similarity is the raw cosine, clamped to [0, 1]; the hits carry no vectors.
        List<SearchHit> hits = target.store().search(
                SearchRequest.builder(Scope.of(VectorSearchBenchmark.TENANT)).vector(queries[0]).k(K).build());
        assertThat(hits).hasSize(K);
        assertThat(hits.get(0).similarity()).isCloseTo(exactScores[0][exactTop[0][0]], within(1e-5));
        assertThat(hits.get(0).chunk().embedding()).isNull();
        assertThat(target.store().documents(Scope.of(VectorSearchBenchmark.TENANT)))
                .hasSize(N / VectorSearchBenchmark.CHUNKS_PER_DOCUMENT);
    }

    @Test
    void ragKitAndLangChain4j_everyQuery_sameTop10Ids() {
        RagKitTarget ragKit = open(Impl.RAGKIT);
        LangChain4jTarget langChain4j = open(Impl.LANGCHAIN4J);

        int comparedExactly = 0;
        for (int q = 0; q < QUERIES; q++) {
            int[] ours = ragKit.topIds(q);
            int[] theirs = langChain4j.topIds(q);
            if (hasNearTie(q)) {
                // Either order of near-equal scores is right; both must still be the exact top 10.
                assertExactTop("RAGKIT", q, ours);
                assertExactTop("LANGCHAIN4J", q, theirs);
            } else {
                assertThat(ours).as("top-10 ids of query %d, RagKit vs LangChain4j", q).containsExactly(theirs);
                comparedExactly++;
            }
        }
        assertThat(comparedExactly).as("queries without near-ties, compared id for id").isGreaterThan(QUERIES / 2);
    }

    @Test
    void benchmarkState_setUp_searchesWithoutError() {
        for (Impl impl : Impl.values()) {
            VectorSearchBenchmark state = new VectorSearchBenchmark();
            state.n = N;
            state.impl = impl;
            state.kernel = InMemoryDocumentStore.Kernel.AUTO;
            state.setUp();
            try {
                if (impl != Impl.BANDWIDTH_FLOOR) {
                    for (int q = 0; q < QUERIES; q++) {
                        assertExactTop(impl.name(), q, state.topIds(q));
                    }
                }
            } finally {
                state.tearDown();
            }
        }
    }

    /** Asserts that {@code actual} is the exact top 10 of query {@code q}, allowing near-ties to swap. */
    private void assertExactTop(String impl, int q, int[] actual) {
        assertThat(actual).as("%s hits of query %d", impl, q).hasSize(K).doesNotHaveDuplicates();
        double[] scores = exactScores[q];
        for (int rank = 0; rank < K; rank++) {
            assertThat(scores[actual[rank]])
                    .as("%s, query %d, rank %d: exact cosine of vector %d vs expected vector %d",
                            impl, q, rank, actual[rank], exactTop[q][rank])
                    .isCloseTo(scores[exactTop[q][rank]], within(TIE));
        }
    }

    /** Whether two of the best 11 exact scores of query {@code q} are within {@link #TIE}. */
    private boolean hasNearTie(int q) {
        double[] best = Arrays.stream(exactScores[q]).map(s -> -s).sorted().limit(K + 1).toArray();
        for (int i = 1; i < best.length; i++) {
            if (best[i] - best[i - 1] < TIE) {
                return true;
            }
        }
        return false;
    }

    @SuppressWarnings("unchecked")
    private <T extends VectorSearchBenchmark.Target> T open(Impl impl) {
        T target = (T) VectorSearchBenchmark.createTarget(impl, InMemoryDocumentStore.Kernel.AUTO, N, corpus,
                queries);
        opened.add(target);
        return target;
    }

    private static double exactCosine(float[] query, float[] corpus, int row) {
        int offset = row * DIMENSION;
        double dot = 0;
        double a = 0;
        double b = 0;
        for (int i = 0; i < DIMENSION; i++) {
            double x = query[i];
            double y = corpus[offset + i];
            dot += x * y;
            a += x * x;
            b += y * y;
        }
        return dot / Math.sqrt(a * b);
    }

    private static double norm(float[] data, int offset) {
        double squares = 0;
        for (int i = 0; i < DIMENSION; i++) {
            squares += (double) data[offset + i] * data[offset + i];
        }
        return Math.sqrt(squares);
    }

    private static boolean classExists(String name) {
        try {
            Class.forName(name, false, VectorSearchBenchmarkTest.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException e) {
            return false;
        }
    }
}
