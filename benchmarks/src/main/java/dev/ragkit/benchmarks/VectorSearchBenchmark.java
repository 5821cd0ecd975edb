package dev.ragkit.benchmarks;

import dev.langchain4j.data.embedding.Embedding;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.store.embedding.EmbeddingMatch;
import dev.langchain4j.store.embedding.EmbeddingSearchRequest;
import dev.langchain4j.store.embedding.EmbeddingSearchResult;
import dev.langchain4j.store.embedding.inmemory.InMemoryEmbeddingStore;
import dev.ragkit.store.SearchHit;
import dev.ragkit.store.SearchRequest;
import dev.ragkit.store.StoredChunk;
import dev.ragkit.store.StoredDocument;
import dev.ragkit.store.inmemory.InMemoryDocumentStore;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
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
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Exact top-10 vector search over {@code n} chunks of 384 dimensions: RagKit's {@link InMemoryDocumentStore}
 * against LangChain4j's {@code InMemoryEmbeddingStore}, next to the memory-bandwidth floor of reading the same
 * floats once.
 *
 * <p>All implementations hold the same seeded random unit vectors ({@link VectorFixtures}) and answer the same
 * pool of {@value #QUERIES} unit queries, one query per invocation, in turn. Setting up (generating and loading
 * the vectors) happens once per trial and is not measured.
 * <ul>
 *   <li>{@link Impl#RAGKIT}: {@code InMemoryDocumentStore} with the {@link #kernel} (default
 *       {@code AUTO}), filled with {@code n / 10} documents of 10 chunks each in one tenant without access
 *       tags, searched with prebuilt {@code SearchRequest}s ({@code k = 10}); the hit list goes to a
 *       {@link Blackhole}.</li>
 *   <li>{@link Impl#LANGCHAIN4J}: {@code InMemoryEmbeddingStore<TextSegment>} filled with {@code addAll},
 *       searched with prebuilt {@code EmbeddingSearchRequest}s ({@code maxResults 10}, {@code minScore 0}).</li>
 *   <li>{@link Impl#BANDWIDTH_FLOOR}: sums one contiguous {@code float[]} of {@code n * 384} floats with
 *       independent accumulators. Any exact search must read at least this much memory, so when the data is
 *       larger than the last-level cache this is the time below which no exact scan can go on the machine.
 *       When it fits in the cache, the scalar loop rather than memory limits the floor, and a SIMD scan may
 *       match or beat it.</li>
 * </ul>
 *
 * <p><b>The Vector API.</b> RagKit uses its SIMD kernel only when the JVM was started with the incubating
 * {@code jdk.incubator.vector} module, and a scalar loop otherwise; the module is never required. Run the
 * benchmark both ways. {@link Impl#LANGCHAIN4J} and {@link Impl#BANDWIDTH_FLOOR} do not use the module, so
 * their rows are the control: they should agree between the two runs, within noise. The {@link #kernel}
 * parameter forces a kernel for RagKit only ({@code -p kernel=SCALAR}); the other implementations ignore it.
 *
 * <p>Build, then run from the repository root (the heap comes from {@code @Fork(jvmArgs)};
 * {@code -jvmArgsAppend} on the command line adds to it):
 * <pre>{@code
 * mvn -B -q -pl benchmarks -am package -DskipTests
 *
 * # scalar kernel (no incubator module)
 * java -jar benchmarks/target/benchmarks.jar VectorSearchBenchmark -prof gc
 *
 * # Vector API kernel
 * java -jar benchmarks/target/benchmarks.jar VectorSearchBenchmark -prof gc \
 *      -jvmArgsAppend "--add-modules jdk.incubator.vector"
 *
 * # one configuration, e.g. while working on the store
 * java -jar benchmarks/target/benchmarks.jar VectorSearchBenchmark -p impl=RAGKIT -p n=50000 -prof gc
 * }</pre>
 * {@code -prof gc} reports {@code gc.alloc.rate.norm}, the bytes allocated per search: RagKit's target is under
 * 2048 B whatever {@code n}. The benchmark method itself allocates nothing: requests are built in the set-up
 * and the query cursor is a primitive.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 5, time = 2, timeUnit = TimeUnit.SECONDS)
@Measurement(iterations = 10, time = 2, timeUnit = TimeUnit.SECONDS)
@Fork(value = 1, jvmArgs = {"-Xms4g", "-Xmx4g"})
@State(Scope.Thread)
public class VectorSearchBenchmark {

    /** The implementations compared. */
    public enum Impl {
        /** RagKit's {@code InMemoryDocumentStore}. */
        RAGKIT,
        /** LangChain4j's {@code InMemoryEmbeddingStore}, the peer. */
        LANGCHAIN4J,
        /** Reading the same floats once and nothing else: the memory-bandwidth floor. */
        BANDWIDTH_FLOOR
    }

    /** Floats per vector. */
    static final int DIMENSION = 384;
    /** Results per search. */
    static final int K = 10;
    /** Chunks per RagKit document. */
    static final int CHUNKS_PER_DOCUMENT = 10;
    /** Distinct queries, cycled; a power of two so the cursor wraps with a mask. */
    static final int QUERIES = 64;
    /** The one tenant of the RagKit store. */
    static final String TENANT = "bench";

    /** How many vectors (chunks) are searched; a multiple of {@value #CHUNKS_PER_DOCUMENT}. */
    @Param({"10000", "50000"})
    public int n;

    /** Which implementation searches; every constant by default. */
    @Param
    public @Nullable Impl impl;

    /** RagKit's dot-product kernel; ignored by the other implementations. */
    @Param({"AUTO"})
    public InMemoryDocumentStore.@Nullable Kernel kernel;

    private @Nullable Target target;
    private int cursor;

    /** Generates the vectors and loads them into the implementation under test. */
    @Setup(Level.Trial)
    public void setUp() {
        Impl which = Objects.requireNonNull(impl, "impl");
        InMemoryDocumentStore.Kernel kernelChoice = Objects.requireNonNull(kernel, "kernel");
        float[] corpus = VectorFixtures.corpus(n, DIMENSION);
        float[][] queries = VectorFixtures.queries(QUERIES, DIMENSION);
        target = createTarget(which, kernelChoice, n, corpus, queries);
        cursor = 0;
        // Shows up in the JMH output, so a result file says which kernel was in effect.
        System.out.printf(Locale.ROOT, "%n# %s: impl=%s n=%d kernel=%s, jdk.incubator.vector %s%s%n",
                "VectorSearchBenchmark", which, n, kernelChoice,
                ModuleLayer.boot().findModule("jdk.incubator.vector").isPresent() ? "present" : "absent",
                target.describe());
    }

    /** Releases the implementation under test. */
    @TearDown(Level.Trial)
    public void tearDown() {
        if (target != null) {
            target.close();
            target = null;
        }
    }

    /**
     * One top-10 search with the next query of the pool.
     *
     * @param blackhole receives the result so the search is not eliminated
     */
    @Benchmark
    public void search(Blackhole blackhole) {
        int query = cursor;
        cursor = (query + 1) & (QUERIES - 1);
        target().search(query, blackhole);
    }

    /**
     * The vector indexes the implementation under test returns for one query of the pool, best first; for
     * tests, which check that the implementations do equal work.
     *
     * @param query the query's index in the pool
     * @return the vector indexes of the hits
     */
    int[] topIds(int query) {
        return target().topIds(query);
    }

    private Target target() {
        Target t = target;
        if (t == null) {
            throw new IllegalStateException("call setUp() first");
        }
        return t;
    }

    static Target createTarget(Impl impl, InMemoryDocumentStore.Kernel kernel, int n, float[] corpus,
            float[][] queries) {
        if (n % CHUNKS_PER_DOCUMENT != 0) {
            throw new IllegalArgumentException("n must be a multiple of " + CHUNKS_PER_DOCUMENT + ", got " + n);
        }
        if (corpus.length != n * DIMENSION) {
            throw new IllegalArgumentException("corpus holds " + corpus.length + " floats, expected " + n * DIMENSION);
        }
        return switch (impl) {
            case RAGKIT -> new RagKitTarget(kernel, n, corpus, queries);
            case LANGCHAIN4J -> new LangChain4jTarget(n, corpus, queries);
            case BANDWIDTH_FLOOR -> new FloorTarget(corpus);
        };
    }

    /** One implementation, loaded with the corpus and holding its prebuilt queries. */
    abstract static class Target implements AutoCloseable {

        /** Runs query {@code query} of the pool and hands the result to {@code blackhole}. */
        abstract void search(int query, Blackhole blackhole);

        /** The vector indexes found for query {@code query} of the pool, best first. */
        abstract int[] topIds(int query);

        /** Anything worth printing about the set-up, starting with a separator, or empty. */
        String describe() {
            return "";
        }

        @Override
        public void close() {
        }
    }

    /** RagKit: the vector index travels in the chunk text. */
    static final class RagKitTarget extends Target {
        private final InMemoryDocumentStore store;
        private final SearchRequest[] requests;

        RagKitTarget(InMemoryDocumentStore.Kernel kernel, int n, float[] corpus, float[][] queries) {
            store = InMemoryDocumentStore.builder().dimension(DIMENSION).kernel(kernel).build();
            int documents = n / CHUNKS_PER_DOCUMENT;
            for (int d = 0; d < documents; d++) {
                StoredDocument document = StoredDocument.builder()
                        .tenant(TENANT)
                        .path(String.format(Locale.ROOT, "doc-%06d.md", d))
                        .build();
                List<StoredChunk> chunks = new ArrayList<>(CHUNKS_PER_DOCUMENT);
                for (int c = 0; c < CHUNKS_PER_DOCUMENT; c++) {
                    int vector = d * CHUNKS_PER_DOCUMENT + c;
                    chunks.add(new StoredChunk(document.id(), c, Integer.toString(vector),
                            VectorFixtures.row(corpus, DIMENSION, vector), 1, c + 1, c + 1, null, null));
                }
                store.upsert(document, chunks);
            }
            dev.ragkit.store.Scope scope = dev.ragkit.store.Scope.of(TENANT);
            requests = new SearchRequest[queries.length];
            for (int q = 0; q < queries.length; q++) {
                requests[q] = SearchRequest.builder(scope).vector(queries[q]).k(K).build();
            }
        }

        @Override
        void search(int query, Blackhole blackhole) {
            blackhole.consume(store.search(requests[query]));
        }

        @Override
        int[] topIds(int query) {
            List<SearchHit> hits = store.search(requests[query]);
            int[] ids = new int[hits.size()];
            for (int i = 0; i < ids.length; i++) {
                ids[i] = Integer.parseInt(hits.get(i).chunk().text());
            }
            return ids;
        }

        @Override
        String describe() {
            return ", RagKit kernel in use: " + store.kernelName();
        }

        /** The store, for tests. */
        InMemoryDocumentStore store() {
            return store;
        }

        @Override
        public void close() {
            store.close();
        }
    }

    /** LangChain4j: the vector index is the embedding id and the segment text. */
    static final class LangChain4jTarget extends Target {
        private final InMemoryEmbeddingStore<TextSegment> store = new InMemoryEmbeddingStore<>();
        private final EmbeddingSearchRequest[] requests;

        LangChain4jTarget(int n, float[] corpus, float[][] queries) {
            List<String> ids = new ArrayList<>(n);
            List<Embedding> embeddings = new ArrayList<>(n);
            List<TextSegment> segments = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                String id = Integer.toString(i);
                ids.add(id);
                embeddings.add(Embedding.from(VectorFixtures.row(corpus, DIMENSION, i)));
                segments.add(TextSegment.from(id));
            }
            store.addAll(ids, embeddings, segments);
            requests = new EmbeddingSearchRequest[queries.length];
            for (int q = 0; q < queries.length; q++) {
                requests[q] = EmbeddingSearchRequest.builder()
                        .queryEmbedding(Embedding.from(queries[q].clone()))
                        .maxResults(K)
                        .minScore(0.0)
                        .build();
            }
        }

        @Override
        void search(int query, Blackhole blackhole) {
            blackhole.consume(store.search(requests[query]));
        }

        @Override
        int[] topIds(int query) {
            EmbeddingSearchResult<TextSegment> result = store.search(requests[query]);
            List<EmbeddingMatch<TextSegment>> matches = result.matches();
            int[] ids = new int[matches.size()];
            for (int i = 0; i < ids.length; i++) {
                ids[i] = Integer.parseInt(matches.get(i).embeddingId());
            }
            return ids;
        }

        /** The store, for tests. */
        InMemoryEmbeddingStore<TextSegment> store() {
            return store;
        }
    }

    /** Reads every float of the corpus once; finds nothing. */
    static final class FloorTarget extends Target {
        private final float[] data;

        FloorTarget(float[] corpus) {
            data = corpus;
        }

        @Override
        void search(int query, Blackhole blackhole) {
            blackhole.consume(sum(data));
        }

        @Override
        int[] topIds(int query) {
            throw new UnsupportedOperationException("the bandwidth floor finds nothing; it only reads");
        }

        /** The floats read, for tests. */
        float[] data() {
            return data;
        }

        /**
         * Sums {@code a} with eight independent accumulators, so the loop is limited by loads rather than by
         * the latency of one chain of dependent additions.
         *
         * @param a the floats
         * @return their sum (in a different rounding order than a sequential sum)
         */
        static float sum(float[] a) {
            float s0 = 0;
            float s1 = 0;
            float s2 = 0;
            float s3 = 0;
            float s4 = 0;
            float s5 = 0;
            float s6 = 0;
            float s7 = 0;
            int i = 0;
            for (int end = a.length - 7; i < end; i += 8) {
                s0 += a[i];
                s1 += a[i + 1];
                s2 += a[i + 2];
                s3 += a[i + 3];
                s4 += a[i + 4];
                s5 += a[i + 5];
                s6 += a[i + 6];
                s7 += a[i + 7];
            }
            for (; i < a.length; i++) {
                s0 += a[i];
            }
            return ((s0 + s1) + (s2 + s3)) + ((s4 + s5) + (s6 + s7));
        }
    }
}
