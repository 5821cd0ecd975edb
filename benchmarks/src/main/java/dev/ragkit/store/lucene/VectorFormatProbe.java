package dev.ragkit.store.lucene;

import dev.ragkit.benchmarks.LuceneMillionBenchmark;
import dev.ragkit.store.MetadataFilter;
import dev.ragkit.store.Scope;
import dev.ragkit.store.SearchHit;
import dev.ragkit.store.SearchRequest;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.apache.lucene.document.Document;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.store.FSDirectory;

/**
 * Float against int8 vectors on the same chunks, interleaved: two indexes that {@link LuceneMillionBenchmark} kept
 * ({@code --keep}, one tenant, the same {@code --vectors-file}, one with {@code --vectors float}, one with
 * {@code --vectors int8}) are searched through the store, read-only, as {@link LuceneMillionBenchmark} searches
 * (int8 candidates re-scored with the float vectors, the top 10 read from the stored fields), query by query, the
 * two indexes alternating which goes first, so both see the same machine at the same moments. Per filter (all
 * chunks, metadata 10 %) and candidate count: p50, p95 and mean time, and recall@10 against the exact top 10 of the
 * float index (chunks named by document id and chunk index, the same in both). The first of two passes warms up and
 * is not reported.
 *
 * <pre>{@code
 * java -cp benchmarks/target/benchmarks.jar dev.ragkit.store.lucene.VectorFormatProbe <float index> <int8 index>
 *     <queries file> 200 100,200
 * }</pre>
 */
public final class VectorFormatProbe {
    private VectorFormatProbe() {
    }

    /**
     * @param args the float index, the int8 index, the file of query vectors, the queries (200) and the candidate
     *             counts (100,200)
     * @throws IOException when an index cannot be read
     */
    public static void main(String[] args) throws IOException {
        Path[] dirs = {Path.of(args[0]), Path.of(args[1])};
        int count = args.length > 3 ? Integer.parseInt(args[3]) : 200;
        int[] candidates = Arrays.stream((args.length > 4 ? args[4] : "100,200").split(","))
                .mapToInt(Integer::parseInt).toArray();
        float[][] queries = LuceneMillionBenchmark.queryVectors(count, Path.of(args[2]));
        String[] names = {"float", "int8"};
        try (DirectoryReader a = DirectoryReader.open(FSDirectory.open(dirs[0]));
                DirectoryReader b = DirectoryReader.open(FSDirectory.open(dirs[1]))) {
            for (int x = 0; x < 2; x++) {
                String recorded = (x == 0 ? a : b).getIndexCommit().getUserData().get(LuceneIndex.KEY_VECTORS);
                if (!names[x].equals(recorded)) {
                    throw new IllegalArgumentException(dirs[x] + " holds " + recorded + " vectors; give the float"
                            + " index first and the int8 index second");
                }
            }
            IndexSearcher[] searchers = {new IndexSearcher(a), new IndexSearcher(b)};
            System.out.printf(Locale.ROOT, "# %s (%d segments) against %s (%d segments), %d queries, %s %s%n",
                    dirs[0], a.leaves().size(), dirs[1], b.leaves().size(), count,
                    System.getProperty("java.vm.name"), System.getProperty("java.version"));
            for (int below : new int[] {1000, 100}) {
                List<SearchRequest> requests = new ArrayList<>();
                List<Set<String>> truth = new ArrayList<>();
                for (float[] q : queries) {
                    SearchRequest.Builder rb = SearchRequest.builder(Scope.of("t0")).vector(q).k(10);
                    if (below < 1000) {
                        rb.metadataFilter(MetadataFilter.lessThan("bucket", below));
                    }
                    SearchRequest request = rb.build();
                    requests.add(request);
                    Set<String> keys = new HashSet<>();
                    for (ScoreDoc d : searchers[0].search(new FilteredSearchProbe.Exact(LuceneFields.normalized(q), 10,
                            LuceneQueries.chunks(request)), 10).scoreDocs) {
                        Document doc = searchers[0].storedFields().document(d.doc);
                        keys.add(doc.get(LuceneFields.DOC_ID) + ":" + doc.get(LuceneFields.INDEX));
                    }
                    truth.add(keys);
                }
                for (int fetch : candidates) {
                    long[][] times = new long[2][count];
                    double[] found = new double[2];
                    try (LuceneDocumentStore floats = store(dirs[0], fetch);
                            LuceneDocumentStore int8 = store(dirs[1], fetch)) {
                        LuceneDocumentStore[] stores = {floats, int8};
                        for (int pass = 0; pass < 2; pass++) {
                            found[0] = 0;
                            found[1] = 0;
                            for (int i = 0; i < count; i++) {
                                for (int turn = 0; turn < 2; turn++) {
                                    int x = (i + turn) % 2;               // who goes first alternates per query
                                    long s = System.nanoTime();
                                    List<SearchHit> hits = stores[x].search(requests.get(i));
                                    times[x][i] = System.nanoTime() - s;
                                    Set<String> got = new HashSet<>();
                                    for (SearchHit h : hits) {
                                        got.add(h.chunk().documentId() + ":" + h.chunk().index());
                                    }
                                    got.retainAll(truth.get(i));
                                    found[x] += got.size() / (double) Math.max(1, truth.get(i).size());
                                }
                            }
                        }
                    }
                    for (int x = 0; x < 2; x++) {
                        long[] t = times[x].clone();
                        Arrays.sort(t);
                        System.out.printf(Locale.ROOT, "%s, %d candidates, %s: p50 %.2f ms, p95 %.2f ms, mean %.2f ms,"
                                        + " recall@10 %.3f%n", below == 1000 ? "all" : "metadata 10 %", fetch,
                                names[x], t[count / 2] / 1e6, t[(int) (count * 0.95)] / 1e6,
                                Arrays.stream(t).average().orElse(0) / 1e6, found[x] / count);
                    }
                }
            }
        }
    }

    private static LuceneDocumentStore store(Path dir, int candidates) {
        return LuceneDocumentStore.builder().directory(dir).readOnly(true).searchCandidates(candidates).build();
    }
}
