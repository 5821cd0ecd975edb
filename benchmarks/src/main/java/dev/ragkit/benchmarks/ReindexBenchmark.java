package dev.ragkit.benchmarks;

import dev.ragkit.store.StoredChunk;
import dev.ragkit.store.StoredDocument;
import dev.ragkit.store.inmemory.InMemoryDocumentStore;
import dev.ragkit.store.lucene.LuceneDocumentStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
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

/**
 * Re-indexing one changed file (a document of 10 chunks, vectors given) into an index of {@code n} chunks, made
 * durable: the Lucene store replaces the document and commits ({@code EACH_WRITE}); the in-memory store replaces
 * it and writes its whole snapshot again, which is what {@code ragkit index} does with it today.
 *
 * <pre>{@code
 * java -jar benchmarks/target/benchmarks.jar ReindexBenchmark -wi 2 -i 3
 * }</pre>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2, time = 2, timeUnit = TimeUnit.SECONDS)
@Measurement(iterations = 3, time = 2, timeUnit = TimeUnit.SECONDS)
@Fork(value = 1, jvmArgs = {"-Xms4g", "-Xmx4g"})
@State(Scope.Benchmark)
public class ReindexBenchmark {

    /** What is re-indexed into. */
    public enum Impl {
        /** {@code LuceneDocumentStore}, commit per write. */
        LUCENE,
        /** {@code InMemoryDocumentStore} plus a full snapshot save. */
        IN_MEMORY_SNAPSHOT
    }

    /** How many chunks the index holds. */
    @Param({"100000"})
    public int n;

    /** Which store. */
    @Param
    public @Nullable Impl impl;

    private @Nullable Path directory;
    private @Nullable LuceneDocumentStore lucene;
    private @Nullable InMemoryDocumentStore memory;
    private LuceneStoreBenchmark.Corpus corpus = LuceneStoreBenchmark.Corpus.of(10);
    private float[][] changed = new float[0][];
    private int cursor;

    /** Fills the index. */
    @Setup(Level.Trial)
    public void setUp() throws IOException {
        corpus = LuceneStoreBenchmark.Corpus.of(n);
        changed = ClusteredVectors.standard(LuceneStoreBenchmark.DIMENSION).vectors(10 * 64, 3);
        directory = Files.createTempDirectory("ragkit-reindex-bench");
        long start = System.nanoTime();
        if (Objects.requireNonNull(impl) == Impl.LUCENE) {
            Path index = directory.resolve("index");
            try (LuceneDocumentStore bulk = LuceneDocumentStore.builder().directory(index)
                    .commitMode(LuceneDocumentStore.CommitMode.BATCHED).ramBufferMb(256).build()) {
                corpus.load(bulk);
                bulk.compact();
            }
            lucene = LuceneDocumentStore.builder().directory(index).build();
        } else {
            memory = InMemoryDocumentStore.builder().build();
            corpus.load(memory);
            memory.save(directory.resolve("index.bin"));
        }
        LuceneStoreBenchmark.report("building the index of", n, start);
        cursor = 0;
    }

    /** Closes the store and deletes its files. */
    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        if (lucene != null) {
            lucene.close();
            lucene = null;
        }
        if (memory != null) {
            memory.close();
            memory = null;
        }
        LuceneStoreBenchmark.deleteTree(directory);
    }

    /** Replaces the next document with new vectors and makes the change durable. */
    @Benchmark
    public void reindexOneFile() {
        int c = cursor++;
        StoredDocument doc = corpus.documents.get(c % corpus.documents.size());
        List<StoredChunk> chunks = LuceneStoreBenchmark.Corpus.chunksOf(doc, changed, (c % 64) * 10);
        if (lucene != null) {
            lucene.upsert(doc, chunks);
        } else {
            InMemoryDocumentStore m = Objects.requireNonNull(memory);
            m.upsert(doc, chunks);
            m.save(Objects.requireNonNull(directory).resolve("index.bin"));
        }
    }
}
