package dev.ragkit.benchmarks;

import dev.ragkit.store.DocumentStore;
import dev.ragkit.store.MetadataFilter;
import dev.ragkit.store.SearchHit;
import dev.ragkit.store.SearchRequest;
import dev.ragkit.store.StoredChunk;
import dev.ragkit.store.StoredDocument;
import dev.ragkit.store.inmemory.InMemoryDocumentStore;
import dev.ragkit.store.lucene.LuceneDocumentStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
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

/**
 * Top-10 vector search over {@code n} chunks of 384 dimensions: the Lucene store (HNSW) against the exact
 * in-memory store, on seeded clustered vectors ({@link ClusteredVectors}), 10 chunks per document.
 *
 * <p>The set-up also measures, once per trial, and prints as {@code #} lines: indexing throughput (chunks per second,
 * vectors given, no embedding; Lucene in {@code BATCHED} mode with one commit at the end), the time of
 * {@code compact()} (Lucene is searched compacted, one segment), and for Lucene the recall@10 of its results
 * against the exact store's over all {@value #QUERIES} queries.
 *
 * <p>{@link #filterFraction} below 1 adds a metadata filter that leaves that share of the chunks
 * ({@code bucket < x}, buckets 0–999 spread over the documents): it shows where Lucene switches from the graph to
 * exact search.
 *
 * <pre>{@code
 * mvn -B -q -pl benchmarks -am package -DskipTests
 * java -jar benchmarks/target/benchmarks.jar LuceneStoreBenchmark -wi 2 -i 3
 * java -jar benchmarks/target/benchmarks.jar LuceneStoreBenchmark -p n=50000 -p filterFraction=0.001,0.01,0.05,0.2
 * }</pre>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2, time = 2, timeUnit = TimeUnit.SECONDS)
@Measurement(iterations = 3, time = 2, timeUnit = TimeUnit.SECONDS)
@Fork(value = 1, jvmArgs = {"-Xms6g", "-Xmx6g"})
@State(Scope.Benchmark)
public class LuceneStoreBenchmark {

    /** The stores compared. */
    public enum Impl {
        /** {@code LuceneDocumentStore}: HNSW graph, compacted to one segment. */
        LUCENE,
        /** {@code InMemoryDocumentStore}: exact scan, the reference for recall. */
        IN_MEMORY_EXACT
    }

    static final int DIMENSION = 384;
    static final int K = 10;
    static final int CHUNKS_PER_DOCUMENT = 10;
    static final int QUERIES = 64;
    static final String TENANT = "bench";

    /** How many chunks are searched. */
    @Param({"50000", "200000"})
    public int n;

    /** Which store searches. */
    @Param
    public @Nullable Impl impl;

    /** Neighbours the Lucene store collects from the graph per search ({@code searchCandidates}). */
    @Param({"100"})
    public int candidates;

    /** The share of chunks a metadata filter leaves; 1 searches without a filter. */
    @Param({"1"})
    public double filterFraction;

    private @Nullable DocumentStore store;
    private @Nullable Path directory;
    private SearchRequest[] requests = new SearchRequest[0];
    private int cursor;

    /** Builds the corpus and the store, and prints throughput and recall. */
    @Setup(Level.Trial)
    public void setUp() throws IOException {
        Impl which = Objects.requireNonNull(impl, "impl");
        Corpus corpus = Corpus.of(n);
        requests = requests(corpus.queries, filterFraction);
        long start = System.nanoTime();
        if (which == Impl.LUCENE) {
            directory = Files.createTempDirectory("ragkit-lucene-bench");
            LuceneDocumentStore lucene = LuceneDocumentStore.builder().directory(directory).dimension(DIMENSION)
                    .commitMode(LuceneDocumentStore.CommitMode.BATCHED).ramBufferMb(256).searchCandidates(candidates)
                    .build();
            corpus.load(lucene);
            lucene.flush();
            report("indexing", n, start);
            long compacting = System.nanoTime();
            lucene.compact();
            System.out.printf(Locale.ROOT, "# compact(): %.1f s%n", (System.nanoTime() - compacting) / 1e9);
            store = lucene;
            try (InMemoryDocumentStore exact = InMemoryDocumentStore.builder().build()) {
                corpus.load(exact);
                System.out.printf(Locale.ROOT, "# recall@10 against the exact store, %d queries, filterFraction %s:"
                        + " %.4f%n", QUERIES, filterFraction, recall(lucene, exact, requests));
            }
        } else {
            InMemoryDocumentStore memory = InMemoryDocumentStore.builder().build();
            corpus.load(memory);
            report("indexing", n, start);
            store = memory;
        }
        cursor = 0;
    }

    static void report(String what, int chunks, long startNanos) {
        double seconds = (System.nanoTime() - startNanos) / 1e9;
        System.out.printf(Locale.ROOT, "%n# %s %d chunks: %.1f s, %.0f chunks/s%n", what, chunks, seconds,
                chunks / seconds);
    }

    static SearchRequest[] requests(float[][] queries, double filterFraction) {
        SearchRequest[] out = new SearchRequest[queries.length];
        for (int q = 0; q < queries.length; q++) {
            SearchRequest.Builder b = SearchRequest.builder(dev.ragkit.store.Scope.of(TENANT)).vector(queries[q]).k(K);
            if (filterFraction < 1) {
                b.metadataFilter(MetadataFilter.lessThan("bucket", Math.max(1, Math.round(filterFraction * 1000))));
            }
            out[q] = b.build();
        }
        return out;
    }

    static double recall(DocumentStore approximate, DocumentStore exact, SearchRequest[] requests) {
        long found = 0;
        long wanted = 0;
        for (SearchRequest r : requests) {
            Set<String> truth = new HashSet<>();
            exact.search(r).forEach(h -> truth.add(h.sourceId()));
            for (SearchHit h : approximate.search(r)) {
                if (truth.contains(h.sourceId())) {
                    found++;
                }
            }
            wanted += truth.size();
        }
        return wanted == 0 ? 1 : (double) found / wanted;
    }

    /** Closes the store and deletes its directory. */
    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        if (store != null) {
            store.close();
            store = null;
        }
        deleteTree(directory);
        directory = null;
    }

    static void deleteTree(@Nullable Path dir) throws IOException {
        if (dir == null || !Files.exists(dir)) {
            return;
        }
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

    /**
     * One top-10 search with the next query of the pool.
     *
     * @return the hits
     */
    @Benchmark
    public List<SearchHit> search() {
        int q = cursor;
        cursor = (q + 1) % requests.length;
        return Objects.requireNonNull(store).search(requests[q]);
    }

    /** Documents of 10 chunks with clustered vectors, each with a {@code bucket} from 0 to 999, and queries. */
    static final class Corpus {
        final List<StoredDocument> documents = new ArrayList<>();
        final List<List<StoredChunk>> chunks = new ArrayList<>();
        final float[][] queries;

        private Corpus(float[][] vectors, float[][] queries) {
            this.queries = queries;
            for (int d = 0; d * CHUNKS_PER_DOCUMENT < vectors.length; d++) {
                StoredDocument doc = StoredDocument.builder().tenant(TENANT).path("docs/doc" + d + ".md")
                        .metadata(Map.of("bucket", Integer.toString(d % 1000))).build();
                documents.add(doc);
                chunks.add(chunksOf(doc, vectors, d * CHUNKS_PER_DOCUMENT));
            }
        }

        static Corpus of(int n) {
            ClusteredVectors shape = ClusteredVectors.standard(DIMENSION);
            return new Corpus(shape.vectors(n, 1), shape.vectors(QUERIES, 2));
        }

        static List<StoredChunk> chunksOf(StoredDocument doc, float[][] vectors, int from) {
            List<StoredChunk> out = new ArrayList<>(CHUNKS_PER_DOCUMENT);
            for (int i = 0; i < CHUNKS_PER_DOCUMENT; i++) {
                out.add(new StoredChunk(doc.id(), i, "chunk " + i + " of " + doc.path(), vectors[from + i], 8,
                        i + 1, i + 1, null, null));
            }
            return out;
        }

        void load(DocumentStore store) {
            for (int d = 0; d < documents.size(); d++) {
                store.upsert(documents.get(d), chunks.get(d));
            }
        }
    }

    static UncheckedIOException unchecked(IOException e) {
        return new UncheckedIOException(e);
    }
}
