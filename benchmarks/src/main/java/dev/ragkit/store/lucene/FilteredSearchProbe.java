package dev.ragkit.store.lucene;

import dev.ragkit.benchmarks.LuceneMillionBenchmark;
import dev.ragkit.store.MetadataFilter;
import dev.ragkit.store.Scope;
import dev.ragkit.store.SearchRequest;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Locale;
import java.util.Set;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.KnnFloatVectorQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.search.knn.KnnCollectorManager;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.util.Bits;

/**
 * Filtered k-NN searches three ways on an index that {@link LuceneMillionBenchmark} kept ({@code --keep}, one
 * tenant): Lucene 9.12's own choice ({@code KnnFloatVectorQuery}: the graph first, the filter's vectors exactly when
 * the graph search visits more than the filter lets through), the store's ({@link FilteredKnnQuery}), and always
 * exact; per filter (all chunks, metadata 10 %, 3 %, 1 %), the mean time per query of each, the vectors Lucene's
 * graph search visited, and the recall@10 of the first two against the exact search. In this package because it
 * builds the store's own filter ({@code LuceneQueries}) and query; one JVM, the three alternating per query.
 *
 * <pre>{@code
 * java -cp benchmarks/target/benchmarks.jar dev.ragkit.store.lucene.FilteredSearchProbe <index> 100 200
 * }</pre>
 */
public final class FilteredSearchProbe {
    private static long visited;

    private FilteredSearchProbe() {
    }

    /** Lucene's query, counting what its graph searches visit. */
    private static final class Counted extends KnnFloatVectorQuery {
        Counted(float[] v, int k, Query filter) {
            super(LuceneFields.VECTOR, v, k, filter);
        }

        @Override
        protected TopDocs approximateSearch(LeafReaderContext c, Bits accept, int limit, KnnCollectorManager m)
                throws IOException {
            TopDocs t = super.approximateSearch(c, accept, limit, m);
            visited += t.totalHits.value;
            return t;
        }
    }

    /** Always exact: the ground truth under the filter. */
    static final class Exact extends KnnFloatVectorQuery {
        Exact(float[] v, int k, Query filter) {
            super(LuceneFields.VECTOR, v, k, filter);
        }

        @Override
        protected TopDocs approximateSearch(LeafReaderContext c, Bits accept, int limit, KnnCollectorManager m) {
            return FilteredKnnQuery.INCOMPLETE;
        }
    }

    /**
     * @param args the index folder, the candidates per search (100), the queries (200), and a file of query vectors
     *             ({@code LuceneMillionBenchmark --queries-file}) for an index built from real embeddings
     * @throws IOException when the index cannot be read
     */
    public static void main(String[] args) throws IOException {
        Path dir = Path.of(args[0]);
        int fetch = args.length > 1 ? Integer.parseInt(args[1]) : 100;
        int count = args.length > 2 ? Integer.parseInt(args[2]) : 200;
        float[][] queries = args.length > 3 ? LuceneMillionBenchmark.queryVectors(count, Path.of(args[3]))
                : LuceneMillionBenchmark.queryVectors(count);
        try (DirectoryReader reader = DirectoryReader.open(FSDirectory.open(dir))) {
            IndexSearcher searcher = new IndexSearcher(reader);
            System.out.printf(Locale.ROOT, "# %s: %d segments, %d documents, %d candidates, %d queries, %s %s%n", dir,
                    reader.leaves().size(), reader.maxDoc(), fetch, count, System.getProperty("java.vm.name"),
                    System.getProperty("java.version"));
            for (int below : new int[] {1000, 100, 30, 10}) {
                SearchRequest.Builder b = SearchRequest.builder(Scope.of("t0")).vector(queries[0]).k(10);
                if (below < 1000) {
                    b.metadataFilter(MetadataFilter.lessThan("bucket", below));
                }
                Query filter = LuceneQueries.chunks(b.build());
                int passing = searcher.count(filter);
                for (int pass = 0; pass < 2; pass++) {            // the first warms up
                    long lucene = 0;
                    long ours = 0;
                    long exact = 0;
                    double luceneFound = 0;
                    double oursFound = 0;
                    visited = 0;
                    for (float[] q : queries) {
                        float[] u = LuceneFields.normalized(q);
                        long s = System.nanoTime();
                        TopDocs l = searcher.search(new Counted(u, fetch, filter), 10);
                        lucene += System.nanoTime() - s;
                        s = System.nanoTime();
                        TopDocs o = searcher.search(new FilteredKnnQuery(LuceneFields.VECTOR, u, fetch, filter), 10);
                        ours += System.nanoTime() - s;
                        s = System.nanoTime();
                        TopDocs e = searcher.search(new Exact(u, fetch, filter), 10);
                        exact += System.nanoTime() - s;
                        Set<Integer> truth = new HashSet<>();
                        for (ScoreDoc d : e.scoreDocs) {
                            truth.add(d.doc);
                        }
                        luceneFound += overlap(l, truth) / (double) Math.max(1, truth.size());
                        oursFound += overlap(o, truth) / (double) Math.max(1, truth.size());
                    }
                    if (pass == 1) {
                        System.out.printf(Locale.ROOT, "%s (%d chunks pass): Lucene %.2f ms (visited %.0f, recall@10"
                                + " %.3f) | FilteredKnnQuery %.2f ms (recall@10 %.3f) | exact %.2f ms%n",
                                below == 1000 ? "all" : "bucket < " + below + " (" + below / 10.0 + " %)", passing,
                                lucene / 1e6 / count, visited / (double) count, luceneFound / count,
                                ours / 1e6 / count, oursFound / count, exact / 1e6 / count);
                    }
                }
            }
        }
    }

    private static int overlap(TopDocs docs, Set<Integer> truth) {
        int n = 0;
        for (ScoreDoc d : docs.scoreDocs) {
            n += truth.contains(d.doc) ? 1 : 0;
        }
        return n;
    }
}
