package dev.ragkit.benchmarks;

import dev.ragkit.store.Scope;
import dev.ragkit.store.StoredChunk;
import dev.ragkit.store.StoredDocument;
import dev.ragkit.store.lucene.IndexCheck;
import dev.ragkit.store.lucene.LuceneDocumentStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.lucene.index.CodecReader;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.store.FSDirectory;
import org.jspecify.annotations.Nullable;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What verifying a Lucene index costs (issue 28), on an index of {@code n} chunks of about 600 characters with
 * 384-dimensional vectors, written as {@code ragkit index} writes (batched, not compacted), with the files in the
 * page cache:
 * <ul>
 *   <li>{@code open}: what {@code ragkit ask} and {@code health} pay today: open the index read-only and count its
 *       documents;</li>
 *   <li>{@code openVerifyingChecksums}: the same plus every file's checksum ({@code CodecReader.checkIntegrity()},
 *       i.e. {@code CodecUtil.checksumEntireFile} over every file of every segment): what verifying on open would
 *       cost;</li>
 *   <li>{@code deepCheck}: {@code ragkit health --deep} ({@code LuceneDocumentStore.Builder.check()}: Lucene's
 *       {@code CheckIndex}, checksums and every structure).</li>
 * </ul>
 *
 * <pre>{@code
 * java -jar benchmarks/target/benchmarks.jar IndexCheckBenchmark -p n=3000,30000 -wi 2 -i 5
 * }</pre>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2, time = 2, timeUnit = TimeUnit.SECONDS)
@Measurement(iterations = 5, time = 2, timeUnit = TimeUnit.SECONDS)
@Fork(value = 1, jvmArgs = {"-Xms2g", "-Xmx2g"})
@org.openjdk.jmh.annotations.State(org.openjdk.jmh.annotations.Scope.Benchmark)
public class IndexCheckBenchmark {
    private static final String TEXT = "The VPN client connects to gateway two with the modern profile; when the"
            + " connection drops, the client retries three times and then asks for a new token. Badge readers on"
            + " the third floor release print jobs, and expense reports above the limit need a second approver."
            + " Travel bookings go through the portal, and the holiday calendar lists the office closures. ";

    /** How many chunks the index holds. */
    @Param({"3000"})
    public int n;

    private @Nullable Path directory;

    /** Writes the index. */
    @Setup(Level.Trial)
    public void setUp() throws IOException {
        directory = Files.createTempDirectory("ragkit-check-bench").resolve("index");
        float[][] vectors = ClusteredVectors.standard(LuceneStoreBenchmark.DIMENSION).vectors(n, 7);
        long start = System.nanoTime();
        try (LuceneDocumentStore store = LuceneDocumentStore.builder().directory(directory).embedder("bench")
                .commitMode(LuceneDocumentStore.CommitMode.BATCHED).build()) {
            for (int d = 0; d * 10 < n; d++) {
                StoredDocument doc = StoredDocument.builder().tenant("default").path("docs/doc" + d + ".md").build();
                List<StoredChunk> chunks = new ArrayList<>();
                for (int i = 0; i < 10 && d * 10 + i < n; i++) {
                    chunks.add(new StoredChunk(doc.id(), i, "chunk " + i + " of doc " + d + ". " + TEXT + TEXT,
                            vectors[d * 10 + i], 128, i + 1, i + 1, null, null));
                }
                store.upsert(doc, chunks);
            }
        }
        long bytes;
        try (Stream<Path> files = Files.list(directory)) {
            bytes = files.mapToLong(f -> f.toFile().length()).sum();
        }
        LuceneStoreBenchmark.report("building the index of", n, start);
        System.out.printf("index: %d chunks, %.1f MB on disk%n", n, bytes / 1e6);
    }

    /** Deletes the index. */
    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        LuceneStoreBenchmark.deleteTree(directory == null ? null : directory.getParent());
    }

    /** @return documents counted after opening read-only, as {@code ask} and {@code health} open */
    @Benchmark
    public int open() {
        try (LuceneDocumentStore store = LuceneDocumentStore.builder().directory(Objects.requireNonNull(directory))
                .readOnly(true).build()) {
            return store.documents(Scope.unrestricted("default")).size();
        }
    }

    /** @return the same, after verifying every file's checksum */
    @Benchmark
    public int openVerifyingChecksums() throws IOException {
        try (FSDirectory dir = FSDirectory.open(Objects.requireNonNull(directory));
                DirectoryReader reader = DirectoryReader.open(dir)) {
            for (LeafReaderContext leaf : reader.leaves()) {
                ((CodecReader) leaf.reader()).checkIntegrity();
            }
        }
        return open();
    }

    /** @return the deep check's result */
    @Benchmark
    public IndexCheck deepCheck() {
        IndexCheck check = LuceneDocumentStore.builder().directory(Objects.requireNonNull(directory)).check();
        if (!check.clean()) {
            throw new IllegalStateException("the benchmark index is damaged: " + check);
        }
        return check;
    }
}
