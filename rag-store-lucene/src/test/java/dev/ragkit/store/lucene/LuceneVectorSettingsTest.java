package dev.ragkit.store.lucene;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ragkit.store.DocumentStore;
import dev.ragkit.store.Scope;
import dev.ragkit.store.SearchHit;
import dev.ragkit.store.SearchRequest;
import dev.ragkit.store.StoreException;
import dev.ragkit.store.StoreProviders;
import dev.ragkit.store.StoredChunk;
import dev.ragkit.store.StoredDocument;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.apache.lucene.codecs.lucene912.Lucene912Codec;
import org.apache.lucene.codecs.perfield.PerFieldKnnVectorsFormat;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.FieldInfo;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.SegmentInfos;
import org.apache.lucene.store.FSDirectory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The vector encoding (float or scalar-quantized int8) recorded and checked on open, and the graph settings. */
final class LuceneVectorSettingsTest {
    private static final Scope SCOPE = Scope.of("t");
    private static final int DIM = 16;

    @TempDir
    Path tmp;

    private LuceneDocumentStore.Builder at(String name) {
        return LuceneDocumentStore.builder().directory(tmp.resolve(name));
    }

    /** 30 documents of 4 chunks with seeded random vectors; returns every vector by "path#index". */
    private static Map<String, float[]> fill(LuceneDocumentStore store) {
        Random random = new Random(29);
        Map<String, float[]> all = new LinkedHashMap<>();
        for (int d = 0; d < 30; d++) {
            StoredDocument doc = StoredDocument.builder().tenant("t").path("d" + d + ".md").build();
            List<StoredChunk> chunks = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                float[] v = new float[DIM];
                for (int j = 0; j < DIM; j++) {
                    v[j] = (float) random.nextGaussian();
                }
                chunks.add(new StoredChunk(doc.id(), i, "text " + d + " " + i, v, 3, 1, 1, null, null));
                all.put(doc.path() + "#" + i, v);
            }
            store.upsert(doc, chunks);
        }
        return all;
    }

    private static Set<String> exactTop(Map<String, float[]> all, float[] query, int k) {
        return new HashSet<>(all.entrySet().stream()
                .sorted((a, b) -> Double.compare(cos(b.getValue(), query), cos(a.getValue(), query)))
                .limit(k).map(Map.Entry::getKey).toList());
    }

    private static double cos(float[] a, float[] b) {
        double dot = 0;
        double na = 0;
        double nb = 0;
        for (int i = 0; i < a.length; i++) {
            dot += (double) a[i] * b[i];
            na += (double) a[i] * a[i];
            nb += (double) b[i] * b[i];
        }
        return dot / Math.sqrt(na * nb);
    }

    /** The vector format name Lucene recorded for the vector field in each segment of the last commit. */
    private static Set<String> formats(Path dir) throws IOException {
        Set<String> names = new HashSet<>();
        try (FSDirectory fs = FSDirectory.open(dir); DirectoryReader reader = DirectoryReader.open(fs)) {
            for (LeafReaderContext leaf : reader.leaves()) {
                FieldInfo info = leaf.reader().getFieldInfos().fieldInfo(LuceneFields.VECTOR);
                names.add(info.getAttribute(PerFieldKnnVectorsFormat.PER_FIELD_FORMAT_KEY));
            }
        }
        return names;
    }

    private static Map<String, String> commitData(Path dir) throws IOException {
        try (FSDirectory fs = FSDirectory.open(dir)) {
            return SegmentInfos.readLatestCommit(fs).getUserData();
        }
    }

    @Test
    void int8_isWrittenQuantized_recordedInTheIndex_andFollowedByAStoreWithoutTheSetting() throws IOException {
        Map<String, float[]> all;
        try (LuceneDocumentStore store = at("q").vectorEncoding(VectorEncoding.INT8).build()) {
            all = fill(store);
            assertThat(store.vectorEncoding()).isEqualTo(VectorEncoding.INT8);
        }
        Path dir = tmp.resolve("q");
        assertThat(commitData(dir)).containsEntry(LuceneIndex.KEY_VECTORS, "int8");
        assertThat(formats(dir)).containsExactly("Lucene99HnswScalarQuantizedVectorsFormat");

        // a store configured with no encoding follows the index: new segments are quantized too, searches re-score
        try (LuceneDocumentStore store = at("q").build()) {
            assertThat(store.vectorEncoding()).isEqualTo(VectorEncoding.INT8);
            StoredDocument extra = StoredDocument.builder().tenant("t").path("extra.md").build();
            float[] v = new float[DIM];
            v[0] = 1;
            store.upsert(extra, List.of(new StoredChunk(extra.id(), 0, "extra", v, 1, 1, 1, null, null)));
            all.put("extra.md#0", v);
            Random random = new Random(7);
            for (int q = 0; q < 10; q++) {
                float[] query = new float[DIM];
                for (int j = 0; j < DIM; j++) {
                    query[j] = (float) random.nextGaussian();
                }
                List<SearchHit> hits = store.search(SearchRequest.builder(SCOPE).vector(query).k(5).build());
                Set<String> got = new HashSet<>();
                hits.forEach(h -> got.add(h.document().path() + "#" + h.chunk().index()));
                assertThat(got).isEqualTo(exactTop(all, query, 5));
                assertThat(hits.get(0).similarity()).isCloseTo(
                        cos(all.get(hits.get(0).document().path() + "#" + hits.get(0).chunk().index()), query),
                        org.assertj.core.data.Offset.offset(1e-6));
            }
        }
        assertThat(formats(dir)).containsOnly("Lucene99HnswScalarQuantizedVectorsFormat");
        try (LuceneDocumentStore reader = at("q").readOnly(true).build()) {
            assertThat(reader.vectorEncoding()).isEqualTo(VectorEncoding.INT8);
        }
    }

    @Test
    void int8IsTheDefault_andRecorded_floatIsWrittenWhenAskedFor() throws IOException {
        try (LuceneDocumentStore store = at("d").build()) {
            fill(store);
            assertThat(store.vectorEncoding()).isEqualTo(VectorEncoding.INT8);
        }
        assertThat(commitData(tmp.resolve("d"))).containsEntry(LuceneIndex.KEY_VECTORS, "int8");
        assertThat(formats(tmp.resolve("d"))).containsExactly("Lucene99HnswScalarQuantizedVectorsFormat");
        try (LuceneDocumentStore store = at("f").vectorEncoding(VectorEncoding.FLOAT32).build()) {
            fill(store);
            assertThat(store.vectorEncoding()).isEqualTo(VectorEncoding.FLOAT32);
        }
        assertThat(commitData(tmp.resolve("f"))).containsEntry(LuceneIndex.KEY_VECTORS, "float");
        assertThat(formats(tmp.resolve("f"))).containsExactly("Lucene99HnswVectorsFormat");
    }

    @Test
    void open_withAnotherEncodingThanRecorded_failsSayingHowToFix_andChangesNothing() throws IOException {
        try (LuceneDocumentStore store = at("q").vectorEncoding(VectorEncoding.INT8).build()) {
            fill(store);
        }
        Map<String, String> before = commitData(tmp.resolve("q"));
        for (boolean readOnly : new boolean[] {false, true}) {
            assertThatThrownBy(() -> at("q").vectorEncoding(VectorEncoding.FLOAT32).readOnly(readOnly).build())
                    .isInstanceOfSatisfying(StoreException.class, e -> assertThat(e.isRetriable()).isFalse())
                    .hasMessageContaining("holds scalar-quantized int8 (int8) vectors")
                    .hasMessageContaining("configured for float (float) vectors")
                    .hasMessageContaining("Leave the setting out").hasMessageContaining("ragkit index --rebuild");
        }
        assertThat(commitData(tmp.resolve("q"))).isEqualTo(before);

        try (LuceneDocumentStore store = at("f").vectorEncoding(VectorEncoding.FLOAT32).build()) {
            fill(store);
        }
        assertThatThrownBy(() -> at("f").vectorEncoding(VectorEncoding.INT8).build())
                .isInstanceOf(StoreException.class).hasMessageContaining("holds float (float) vectors")
                .hasMessageContaining("configure float");
        try (LuceneDocumentStore store = at("f").vectorEncoding(VectorEncoding.FLOAT32).build()) {
            assertThat(store.vectorEncoding()).isEqualTo(VectorEncoding.FLOAT32);
        }
    }

    @Test
    void anIndexFromBeforeTheRecord_isFloat_refusesInt8_andIsRecordedByItsNextWriter() throws IOException {
        Path dir = tmp.resolve("old");
        try (LuceneDocumentStore store = at("old").build()) {
            fill(store);
        }
        Map<String, String> data = new LinkedHashMap<>(commitData(dir));
        data.remove(LuceneIndex.KEY_VECTORS);
        try (FSDirectory fs = FSDirectory.open(dir);
                IndexWriter w = new IndexWriter(fs, new IndexWriterConfig().setCommitOnClose(false))) {
            w.setLiveCommitData(data.entrySet());
            w.commit();
        }
        assertThat(commitData(dir)).doesNotContainKey(LuceneIndex.KEY_VECTORS);

        assertThatThrownBy(() -> at("old").vectorEncoding(VectorEncoding.INT8).build())
                .isInstanceOf(StoreException.class).hasMessageContaining("holds float (float) vectors");
        try (LuceneDocumentStore store = at("old").build()) {
            assertThat(store.vectorEncoding()).isEqualTo(VectorEncoding.FLOAT32);
            store.flush();
        }
        assertThat(commitData(dir)).containsEntry(LuceneIndex.KEY_VECTORS, "float");
    }

    @Test
    void provider_takesVectorsAndGraphSettings() throws IOException {
        Map<String, String> config = new LinkedHashMap<>();
        config.put("directory", tmp.resolve("p").toString());
        config.put("vectors", "INT8");
        config.put("max-conn", "8");
        config.put("beam-width", "50");
        config.put("merge-threads", "2");
        config.put("search-candidates", "60");
        try (DocumentStore store = StoreProviders.load("lucene", config)) {
            assertThat(((LuceneDocumentStore) store).vectorEncoding()).isEqualTo(VectorEncoding.INT8);
        }
        assertThat(commitData(tmp.resolve("p"))).containsEntry(LuceneIndex.KEY_VECTORS, "int8");
        config.put("vectors", "float");
        assertThatThrownBy(() -> StoreProviders.load("lucene", config)).isInstanceOf(StoreException.class)
                .hasMessageContaining("configured for float");
    }

    @Test
    void provider_refusesBadValues_namingTheSetting() {
        String dir = tmp.resolve("bad").toString();
        Map<String, String> bad = Map.of("vectors", "int4", "max-conn", "1", "beam-width", "0",
                "search-candidates", "20000", "merge-threads", "0");
        bad.forEach((key, value) -> assertThatThrownBy(() -> StoreProviders.load("lucene",
                Map.of("directory", dir, key, value)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(key));
        assertThatThrownBy(() -> StoreProviders.load("lucene", Map.of("directory", dir, "max-conn", "many")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'max-conn'").hasMessageContaining("'many'")
                .hasMessageContaining("whole number");
        assertThatThrownBy(() -> StoreProviders.load("lucene", Map.of("directory", dir, "max-connections", "8")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("max-conn")
                .hasMessageContaining("beam-width").hasMessageContaining("vectors");
    }

    @Test
    void builder_refusesBadGraphSettings_namingThem() {
        LuceneDocumentStore.Builder b = LuceneDocumentStore.builder();
        assertThatThrownBy(() -> b.maxConn(1)).hasMessageContaining("maxConn (setting max-conn)")
                .hasMessageContaining("between 2 and 512, got 1");
        assertThatThrownBy(() -> b.maxConn(513)).hasMessageContaining("got 513");
        assertThatThrownBy(() -> b.beamWidth(0)).hasMessageContaining("beamWidth (setting beam-width)")
                .hasMessageContaining("between 1 and 3200, got 0");
        assertThatThrownBy(() -> b.beamWidth(3201)).hasMessageContaining("got 3201");
        assertThatThrownBy(() -> b.mergeThreads(0)).hasMessageContaining("mergeThreads (setting merge-threads)")
                .hasMessageContaining("between 1 and 64, got 0");
        assertThatThrownBy(() -> b.mergeThreads(65)).hasMessageContaining("got 65");
        assertThatThrownBy(() -> b.searchCandidates(0)).hasMessageContaining("search-candidates");
        assertThatThrownBy(() -> b.searchCandidates(10_001)).hasMessageContaining("between 1 and 10000");
        assertThatThrownBy(() -> VectorEncoding.parse("float16")).hasMessageContaining("float or int8");
        b.maxConn(2).maxConn(512).beamWidth(1).beamWidth(3200).searchCandidates(10_000).mergeThreads(1)
                .mergeThreads(64);
    }

    @Test
    void graphSettings_reachTheVectorFormat() {
        assertThat(((Lucene912Codec) VectorFormats.codec(VectorEncoding.FLOAT32, 8, 50, 1, null))
                .getKnnVectorsFormatForField(LuceneFields.VECTOR).toString())
                .contains("maxConn=8").contains("beamWidth=50");
        assertThat(((Lucene912Codec) VectorFormats.codec(VectorEncoding.INT8, 24, 200, 1, null))
                .getKnnVectorsFormatForField(LuceneFields.VECTOR).toString())
                .contains("maxConn=24").contains("beamWidth=200").contains("bits=7");
    }

    @Test
    void mergeThreads_buildTheMergedGraphTogether_andFindTheSameChunks() throws Exception {
        Scope scope = Scope.of("t");
        try (LuceneDocumentStore store = LuceneDocumentStore.builder().directory(tmp.resolve("merged"))
                .commitMode(LuceneDocumentStore.CommitMode.BATCHED).mergeThreads(2).build()) {
            float[][] vectors = loadInSegments(store, 600, 5);          // six segments to merge

            store.compact();

            assertThat(Thread.getAllStackTraces().keySet()).extracting(Thread::getName)
                    .anyMatch(name -> name.startsWith("ragkit-lucene-merge-"));
            for (int q : new int[] {0, 123, 599}) {
                List<SearchHit> hits = store.search(SearchRequest.builder(scope).vector(vectors[q]).k(1).build());
                assertThat(hits).extracting(h -> h.chunk().text()).containsExactly("chunk " + q);
            }
            assertThat(store.documents(scope)).hasSize(vectors.length);
        }
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.getName().startsWith("ragkit-lucene-merge-")) {
                t.join(10_000);
                assertThat(t.isAlive()).as("merge thread after close").isFalse();
            }
        }
    }

    /**
     * Writes {@code n} one-chunk documents ({@code d<i>.md}, text {@code chunk <i>}) with seeded random 16-dimension
     * vectors to tenant {@code t}, committing after every 100 so that they make several segments.
     *
     * @return the vectors, by document number
     */
    static float[][] loadInSegments(LuceneDocumentStore store, int n, long seed) {
        Random random = new Random(seed);
        float[][] vectors = new float[n][];
        for (int i = 0; i < n; i++) {
            vectors[i] = new float[16];
            for (int d = 0; d < 16; d++) {
                vectors[i][d] = (float) random.nextGaussian();
            }
            StoredDocument doc = StoredDocument.builder().tenant("t").path("d" + i + ".md").build();
            store.upsert(doc, List.of(new StoredChunk(doc.id(), 0, "chunk " + i, vectors[i], 2, 1, 1, null, null)));
            if (i % 100 == 99) {
                store.flush();
            }
        }
        return vectors;
    }
}
