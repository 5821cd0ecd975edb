package dev.ragkit.store.lucene;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ragkit.store.MetadataFilter;
import dev.ragkit.store.PromotionLevel;
import dev.ragkit.store.Scope;
import dev.ragkit.store.SearchHit;
import dev.ragkit.store.SearchRequest;
import dev.ragkit.store.StoredChunk;
import dev.ragkit.store.StoredDocument;
import dev.ragkit.store.tck.DocumentStoreContract;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.MatchAllDocsQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.search.TotalHits;
import org.apache.lucene.search.knn.TopKnnCollectorManager;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.util.FixedBitSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A selective filter makes a segment be searched exactly at once, instead of after a graph search that gives up. */
final class FilteredKnnQueryTest {
    private static final int DIM = 16;

    @TempDir
    Path tmp;

    @Test
    void exactIsCheaper_belowTheSquareRootOfWhatTheGraphWouldVisit() {
        // 100 neighbours: sqrt(8 × 2.5 × 100 × maxDoc) vectors passing the filter
        assertThat(FilteredKnnQuery.exactIsCheaper(1_950, 100, 200_000)).isTrue();      // 1 %: measured 2.64 -> 0.73 ms
        assertThat(FilteredKnnQuery.exactIsCheaper(19_120, 100, 200_000)).isTrue();     // 10 %: 8.97 -> 7.06 ms
        assertThat(FilteredKnnQuery.exactIsCheaper(20_001, 100, 200_000)).isFalse();
        assertThat(FilteredKnnQuery.exactIsCheaper(200_000, 100, 200_000)).isFalse();   // unfiltered: 4.5 vs 56 ms
        assertThat(FilteredKnnQuery.exactIsCheaper(10_000, 100, 1_000_000)).isTrue();   // 1 % of a million
        assertThat(FilteredKnnQuery.exactIsCheaper(100_000, 100, 1_000_000)).isFalse(); // 10 % of a million
        assertThat(FilteredKnnQuery.exactIsCheaper(1_999, 100, 1_999)).isTrue();        // a small segment, whole
        assertThat(FilteredKnnQuery.exactIsCheaper(2_001, 100, 2_001)).isFalse();
    }

    @Test
    void approximateSearch_selectiveFilter_leavesTheGraphAlone_noFilter_searchesIt() throws IOException {
        Path dir = tmp.resolve("idx");
        try (LuceneDocumentStore store = batched()) {
            fill(store, 300, new Random(7));
        }
        try (DirectoryReader reader = DirectoryReader.open(FSDirectory.open(dir))) {
            IndexSearcher searcher = new IndexSearcher(reader);
            LeafReaderContext leaf = reader.leaves().get(0);
            int maxDoc = leaf.reader().maxDoc();
            FixedBitSet some = new FixedBitSet(maxDoc);
            for (int d = 0; d < maxDoc; d += 10) {
                some.set(d);
            }
            FilteredKnnQuery query = new FilteredKnnQuery(LuceneFields.VECTOR, LuceneFields.normalized(
                    vector(new Random(1))), 20, new MatchAllDocsQuery());

            TopDocs filtered = query.approximateSearch(leaf, some, some.cardinality() + 1,
                    new TopKnnCollectorManager(20, searcher));
            TopDocs unfiltered = query.approximateSearch(leaf, null, Integer.MAX_VALUE,
                    new TopKnnCollectorManager(20, searcher));

            assertThat(filtered.scoreDocs).isEmpty();                       // Lucene then searches exactly
            assertThat(filtered.totalHits.relation).isEqualTo(TotalHits.Relation.GREATER_THAN_OR_EQUAL_TO);
            assertThat(unfiltered.scoreDocs).hasSize(20);                  // the graph, as before
            assertThat(unfiltered.totalHits.relation).isEqualTo(TotalHits.Relation.EQUAL_TO);
        }
    }

    @Test
    void search_selectiveMetadataFilter_findsTheExactNearestChunks() {
        Random random = new Random(42);
        try (LuceneDocumentStore store = batched()) {
            List<StoredChunk> all = fill(store, 3_000, random);
            for (int q = 0; q < 10; q++) {
                float[] query = vector(random);
                List<SearchHit> hits = store.search(SearchRequest.builder(Scope.of("t")).vector(query).k(10)
                        .metadataFilter(MetadataFilter.lessThan("bucket", 3)).build());

                List<String> expected = nearest(all.stream().filter(c -> bucket(c) < 3).toList(), query).stream()
                        .map(StoredChunk::sourceId).toList();
                assertThat(hits).extracting(SearchHit::sourceId).containsExactlyElementsOf(expected);
            }
        }
    }

    @Test
    void vectorFilter_isDropped_onlyWhenItPassesEveryVectorOfTheIndex() throws IOException {
        Path dir = tmp.resolve("idx");
        try (LuceneDocumentStore store = batched()) {
            fill(store, 50, new Random(3));
        }
        float[] v = vector(new Random(4));
        SearchRequest plain = SearchRequest.builder(Scope.of("t")).vector(v).k(5).build();
        SearchRequest unrestricted = SearchRequest.builder(Scope.unrestricted("t")).vector(v).k(5).build();
        SearchRequest metadata = SearchRequest.builder(Scope.of("t")).vector(v).k(5)
                .metadataFilter(MetadataFilter.lessThan("bucket", 3)).build();
        SearchRequest typed = SearchRequest.builder(Scope.of("t")).vector(v).k(5).docTypes("md").build();
        SearchRequest promoted = SearchRequest.builder(Scope.of("t")).vector(v).k(5)
                .minPromotion(PromotionLevel.IMPORTANT).build();
        SearchRequest otherTenant = SearchRequest.builder(Scope.of("u")).vector(v).k(5).build();
        try (DirectoryReader reader = DirectoryReader.open(FSDirectory.open(dir))) {
            // small enough to be searched exactly (100 documents, 100 neighbours): the filter stays, and with it
            // the exact search FilteredKnnQuery chooses
            assertThat(LuceneQueries.vectorFilter(plain, reader, LuceneQueries.chunks(plain), 100)).isNotNull();
            // one tenant, nothing tagged, too large for exact search (1 neighbour: more than 20 documents): the
            // scope's clauses pass every chunk, and only chunks have vectors
            assertThat(LuceneQueries.vectorFilter(plain, reader, LuceneQueries.chunks(plain), 1)).isNull();
            assertThat(LuceneQueries.vectorFilter(unrestricted, reader, LuceneQueries.chunks(unrestricted), 1))
                    .isNull();
            for (SearchRequest narrowing : List.of(metadata, typed, promoted, otherTenant)) {
                Query chunks = LuceneQueries.chunks(narrowing);
                assertThat(LuceneQueries.vectorFilter(narrowing, reader, chunks, 1)).isSameAs(chunks);
            }
        }
        try (LuceneDocumentStore store = LuceneDocumentStore.builder().directory(dir).build()) {
            StoredDocument tagged = StoredDocument.builder().tenant("t").path("secret.md").accessTags("hr").build();
            store.upsert(tagged, List.of(new StoredChunk(tagged.id(), 0, "secret", vector(new Random(5)), 1, 1, 1,
                    null, null)));
        }
        try (DirectoryReader reader = DirectoryReader.open(FSDirectory.open(dir))) {
            // a tagged document: a scope that sees only untagged ones needs its filter, an unrestricted one does not
            assertThat(LuceneQueries.vectorFilter(plain, reader, LuceneQueries.chunks(plain), 1)).isNotNull();
            assertThat(LuceneQueries.vectorFilter(unrestricted, reader, LuceneQueries.chunks(unrestricted), 1))
                    .isNull();
        }
        try (LuceneDocumentStore store = LuceneDocumentStore.builder().directory(dir).build()) {
            StoredDocument other = StoredDocument.builder().tenant("u").path("other.md").build();
            store.upsert(other, List.of(new StoredChunk(other.id(), 0, "other", vector(new Random(6)), 1, 1, 1,
                    null, null)));
        }
        try (DirectoryReader reader = DirectoryReader.open(FSDirectory.open(dir))) {
            // a second tenant: every search keeps its tenant clause
            assertThat(LuceneQueries.vectorFilter(unrestricted, reader, LuceneQueries.chunks(unrestricted), 1))
                    .isNotNull();
        }
    }

    @Test
    void search_afterReplacements_withoutTheFilter_neverReturnsAReplacedChunk() {
        Random random = new Random(11);
        try (LuceneDocumentStore store = batched()) {
            // 1,200 documents: too many for an exact search, so the graph is searched without the scope's filter
            List<StoredChunk> all = fill(store, 1_200, random);
            // replace every other document: the index then has deletions, and the graph still holds the old vectors
            for (int i = 0; i < 1_200; i += 2) {
                all.set(i, put(store, i, "replaced " + i, random));
            }
            store.flush();
            for (int q = 0; q < 10; q++) {
                float[] query = vector(random);
                List<SearchHit> hits = store.search(SearchRequest.builder(Scope.of("t")).vector(query).k(10).build());
                List<String> expected = nearest(all, query).stream().map(c -> c.sourceId() + " " + c.text()).toList();
                assertThat(hits).extracting(h -> h.sourceId() + " " + h.chunk().text())
                        .containsExactlyElementsOf(expected);
            }
        }
    }

    private LuceneDocumentStore batched() {
        return LuceneDocumentStore.builder().directory(tmp.resolve("idx")).commitMode(LuceneDocumentStore.CommitMode.BATCHED)
                .build();
    }

    /** The ten chunks nearest the query by cosine, nearest first: the exact answer. */
    private static List<StoredChunk> nearest(List<StoredChunk> chunks, float[] query) {
        return chunks.stream().sorted(Comparator.comparingDouble(
                (StoredChunk c) -> -DocumentStoreContract.cosine(query, c.embedding()))).limit(10).toList();
    }

    /** Documents of one chunk each, in 100 buckets by their number (metadata {@code bucket}). */
    private static List<StoredChunk> fill(LuceneDocumentStore store, int n, Random random) {
        List<StoredChunk> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(put(store, i, "chunk " + i, random));
        }
        return out;
    }

    /** Document {@code d<i>.md} (bucket {@code i % 100}) as one chunk with this text and a random vector. */
    private static StoredChunk put(LuceneDocumentStore store, int i, String text, Random random) {
        StoredDocument doc = StoredDocument.builder().tenant("t").path("d" + i + ".md")
                .metadata(Map.of("bucket", Integer.toString(i % 100))).build();
        StoredChunk chunk = new StoredChunk(doc.id(), 0, text, vector(random), 2, 1, 1, null, null);
        store.upsert(doc, List.of(chunk));
        return chunk;
    }

    private static int bucket(StoredChunk c) {
        return Integer.parseInt(c.text().substring("chunk ".length())) % 100;
    }

    private static float[] vector(Random random) {
        float[] v = new float[DIM];
        for (int i = 0; i < DIM; i++) {
            v[i] = (float) random.nextGaussian();
        }
        return v;
    }
}
