package dev.ragkit.benchmarks;

import dev.ragkit.store.SearchHit;
import dev.ragkit.store.SearchRequest;
import dev.ragkit.store.lucene.LuceneDocumentStore;
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
 * Query latency (JMH sample time: p50, p95 per search) on an index that {@link LuceneMillionBenchmark} built and
 * kept ({@code --keep}), opened read-only: the same queries and filters, without rebuilding a million chunks per
 * fork. Recall is {@link LuceneMillionBenchmark}'s to measure (it has the exact ground truth).
 *
 * <pre>{@code
 * java -jar benchmarks/target/benchmarks.jar LuceneIndexSearchBenchmark -p dir=/tmp/lucene-1m-float \
 *     -p filter=all,metadata-10%,metadata-1% -p candidates=100 -rf json -rff benchmarks/results/x.json
 * }</pre>
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2, time = 3, timeUnit = TimeUnit.SECONDS)
@Measurement(iterations = 3, time = 3, timeUnit = TimeUnit.SECONDS)
@Fork(value = 1, jvmArgs = {"-Xms1g", "-Xmx1g"})
@State(Scope.Benchmark)
public class LuceneIndexSearchBenchmark {

    /** The index folder (built with {@code LuceneMillionBenchmark --keep}). */
    @Param({"/tmp/ragkit-lucene-million"})
    public String dir = "";

    /** How many tenants the index was built with (1 or 100). */
    @Param({"1"})
    public int tenants;

    /**
     * The filter: {@code all}, {@code metadata-10%}, {@code metadata-1%} (one tenant), {@code tenant-10%},
     * {@code tenant-0.9%} (100 tenants).
     */
    @Param({"all"})
    public String filter = "all";

    /** Neighbours collected from the graph per search. */
    @Param({"100"})
    public int candidates;

    private @Nullable LuceneDocumentStore store;
    private SearchRequest[] requests = new SearchRequest[0];
    private int cursor;

    /** Opens the index read-only and prepares 200 queries. */
    @Setup(Level.Trial)
    public void setUp() {
        store = LuceneDocumentStore.builder().directory(Path.of(dir)).readOnly(true).searchCandidates(candidates)
                .build();
        LuceneMillionBenchmark.Config config = switch (filter) {
            case "all" -> new LuceneMillionBenchmark.Config(filter, "t0", 1000);
            case "metadata-10%" -> new LuceneMillionBenchmark.Config(filter, "t0", 100);
            case "metadata-1%" -> new LuceneMillionBenchmark.Config(filter, "t0", 10);
            case "tenant-10%" -> new LuceneMillionBenchmark.Config(filter, "t0", 1000);
            case "tenant-0.9%" -> new LuceneMillionBenchmark.Config(filter, "t1", 1000);
            default -> throw new IllegalArgumentException("unknown filter " + filter);
        };
        requests = LuceneMillionBenchmark.requests(
                ClusteredVectors.standard(LuceneMillionBenchmark.DIMENSION).vectors(200, 2), config);
    }

    /** Closes the store. */
    @TearDown(Level.Trial)
    public void tearDown() {
        if (store != null) {
            store.close();
            store = null;
        }
    }

    /**
     * One top-10 search with the next query.
     *
     * @return the hits
     */
    @Benchmark
    public List<SearchHit> search() {
        int q = cursor;
        cursor = (q + 1) % requests.length;
        return Objects.requireNonNull(store).search(requests[q]);
    }
}
