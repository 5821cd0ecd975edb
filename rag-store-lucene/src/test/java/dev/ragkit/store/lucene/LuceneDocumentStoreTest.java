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
import dev.ragkit.store.tck.DocumentStoreContract;
import java.io.IOException;
import java.io.Reader;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.core.WhitespaceTokenizer;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.StringField;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.store.FSDirectory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the contract suite cannot see: the directory on disk, its identity, other modes and the provider. */
final class LuceneDocumentStoreTest {
    private static final Scope SCOPE = Scope.of("t");

    @TempDir
    Path tmp;

    private static StoredDocument doc(String path, Map<String, String> metadata) {
        return StoredDocument.builder().tenant("t").path(path).metadata(metadata).build();
    }

    private static List<StoredChunk> chunks(StoredDocument d, String text, float[]... vectors) {
        List<StoredChunk> out = new ArrayList<>();
        for (int i = 0; i < vectors.length; i++) {
            out.add(new StoredChunk(d.id(), i, text + " " + i, vectors[i], 3, 1, 1, null, null));
        }
        return out;
    }

    private static float[] vector(Random random, int dim) {
        float[] v = new float[dim];
        for (int i = 0; i < dim; i++) {
            v[i] = (float) random.nextGaussian();
        }
        return v;
    }

    private LuceneDocumentStore.Builder at(String name) {
        return LuceneDocumentStore.builder().directory(tmp.resolve(name));
    }

    @Test
    void open_indexOfAnotherEmbedder_failsNamingTheModelAndHowToReindex() {
        at("idx").embedder("model-a").dimension(4).build().close();

        assertThatThrownBy(() -> at("idx").embedder("model-b").build())
                .isInstanceOfSatisfying(StoreException.class, e -> assertThat(e.isRetriable()).isFalse())
                .hasMessageContaining("'model-a' (4 dimensions)").hasMessageContaining("'model-b'")
                .hasMessageContaining("ragkit index --rebuild");
        at("idx").embedder("model-a").build().close();
    }

    @Test
    void open_indexOfAnotherDimension_fails() {
        try (LuceneDocumentStore store = at("idx").build()) {
            StoredDocument d = doc("a.md", Map.of());
            store.upsert(d, chunks(d, "x", new float[] {1, 0, 0, 0}));
        }

        assertThatThrownBy(() -> at("idx").dimension(8).build()).isInstanceOf(StoreException.class)
                .hasMessageContaining("4 dimensions").hasMessageContaining("configured for 8");
        try (LuceneDocumentStore store = at("idx").build()) {
            assertThat(store.info().dimension()).isEqualTo(4);
        }
    }

    @Test
    void open_otherLanguage_failsSayingKeywordSearchWouldMissWords() {
        at("idx").language("de").build().close();

        assertThatThrownBy(() -> at("idx").build()).isInstanceOf(StoreException.class)
                .hasMessageContaining("'de'").hasMessageContaining("'en'");
    }

    @Test
    void open_whileAnotherWriterMakesTheFirstCommit_waitsForItInsteadOfCallingItForeign() throws Exception {
        // The moment a second writer sees while the first is in its first commit: only pending_segments_1.
        Path dir = Files.createDirectories(tmp.resolve("racing"));
        Files.writeString(dir.resolve("pending_segments_1"), "");
        Thread first = new Thread(() -> {
            try {
                Thread.sleep(300);
                Files.delete(dir.resolve("pending_segments_1"));
                at("racing").embedder("e").build().close();        // the first writer's commit lands
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        first.start();

        try (LuceneDocumentStore second = at("racing").embedder("e").lockWait(java.time.Duration.ofSeconds(10))
                .build()) {
            assertThat(second.info().embedder()).isEqualTo("e");
        }
        first.join();
        // A stale pending file alone (no writer behind it) is still refused after the short wait.
        Path stale = Files.createDirectories(tmp.resolve("stale"));
        Files.writeString(stale.resolve("pending_segments_1"), "");
        assertThatThrownBy(() -> at("stale").build()).isInstanceOf(StoreException.class)
                .hasMessageContaining("pending_segments_1");
    }

    @Test
    void open_whileAnotherWriterIsWritingTheMarker_isNotCalledForeign() throws Exception {
        // The moment a second writer may list: the first has opened the marker's temporary file, not yet written it.
        Path dir = Files.createDirectories(tmp.resolve("marking"));
        Files.writeString(dir.resolve(".ragkit-index.txt.tmp"), "");

        try (LuceneDocumentStore store = at("marking").embedder("e").build()) {
            assertThat(store.info().embedder()).isEqualTo("e");
        }
        // a file of that name that is not RagKit's marker is still somebody else's
        Path other = Files.createDirectories(tmp.resolve("other"));
        Files.writeString(other.resolve(".ragkit-index.txt.tmp"), "my notes");
        assertThatThrownBy(() -> at("other").build()).isInstanceOf(StoreException.class)
                .hasMessageContaining(".ragkit-index.txt.tmp");
    }

    @Test
    void open_directoryWithOtherFiles_refusesAndLeavesThemAlone() throws IOException {
        Path dir = Files.createDirectories(tmp.resolve("notes"));
        Files.writeString(dir.resolve("todo.txt"), "keep me");

        assertThatThrownBy(() -> at("notes").build()).isInstanceOf(StoreException.class)
                .hasMessageContaining("todo.txt").hasMessageContaining("Nothing was changed");
        assertThat(Files.readString(dir.resolve("todo.txt"))).isEqualTo("keep me");
    }

    @Test
    void open_foreignLuceneIndex_refusesToWriteIntoIt() throws IOException {
        try (FSDirectory dir = FSDirectory.open(tmp.resolve("foreign"));
             IndexWriter w = new IndexWriter(dir, new IndexWriterConfig())) {
            Document d = new Document();
            d.add(new StringField("id", "1", Field.Store.YES));
            w.addDocument(d);
            w.commit();
        }

        assertThatThrownBy(() -> at("foreign").build()).isInstanceOf(StoreException.class)
                .hasMessageContaining("not written by RagKit");
    }

    @Test
    void open_damagedIndex_failsWithTypedErrorAndFix() throws IOException {
        try (LuceneDocumentStore store = at("idx").build()) {
            StoredDocument d = doc("a.md", Map.of());
            store.upsert(d, chunks(d, "x", new float[] {1, 0, 0, 0}));
        }
        try (Stream<Path> files = Files.list(tmp.resolve("idx"))) {
            for (Path f : files.filter(p -> p.getFileName().toString().startsWith("segments_")).toList()) {
                byte[] bytes = Files.readAllBytes(f);
                for (int i = bytes.length / 2; i < bytes.length; i++) {
                    bytes[i] ^= 0x5a;
                }
                Files.write(f, bytes);
            }
        }

        assertThatThrownBy(() -> at("idx").build()).isInstanceOf(StoreException.class)
                .hasMessageContaining("damaged").hasMessageContaining("re-index");
    }

    @Test
    void readOnly_anotherStoreCommits_seesTheNewCommitOnItsNextRead() {
        try (LuceneDocumentStore writer = at("idx").build();
             LuceneDocumentStore reader = at("idx").readOnly(true).build()) {
            assertThat(reader.documents(SCOPE)).isEmpty();
            StoredDocument d = doc("a.md", Map.of());
            writer.upsert(d, chunks(d, "x", new float[] {1, 0, 0, 0}));

            assertThat(reader.documents(SCOPE)).containsExactly(d);
            assertThatThrownBy(() -> reader.upsert(d, List.of())).isInstanceOf(StoreException.class)
                    .hasMessageContaining("read-only");
        }
    }

    @Test
    void readOnly_noIndex_failsSayingToIndexFirst() {
        assertThatThrownBy(() -> at("missing").readOnly(true).build()).isInstanceOf(StoreException.class)
                .hasMessageContaining("index documents first");
    }

    @Test
    void batched_writesVisibleAtOnceButDurableOnlyAfterFlush() {
        try (LuceneDocumentStore writer = at("idx").commitMode(LuceneDocumentStore.CommitMode.BATCHED).build();
             LuceneDocumentStore reader = at("idx").readOnly(true).build()) {
            StoredDocument d = doc("a.md", Map.of());
            writer.upsert(d, chunks(d, "x", new float[] {1, 0, 0, 0}));

            assertThat(writer.documents(SCOPE)).containsExactly(d);
            assertThat(reader.documents(SCOPE)).isEmpty();
            writer.flush();
            assertThat(reader.documents(SCOPE)).containsExactly(d);
        }
    }

    @Test
    void batched_upsertsFromSeveralThreads_runTogether() throws Exception {
        // Each upsert's text passes the analyzer inside Lucene's updateDocuments; two upserts meet there only when
        // the store lets them run at the same time (with serialised writes the first waits out the timeout alone).
        CountDownLatch bothInside = new CountDownLatch(2);
        List<Boolean> met = new CopyOnWriteArrayList<>();
        Analyzer meeting = new Analyzer() {
            @Override
            protected TokenStreamComponents createComponents(String fieldName) {
                return new TokenStreamComponents(new WhitespaceTokenizer());
            }

            @Override
            protected Reader initReader(String fieldName, Reader reader) {
                String text = read(reader);
                if (text.contains("rendezvous")) {
                    bothInside.countDown();
                    try {
                        met.add(bothInside.await(20, TimeUnit.SECONDS));
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        met.add(false);
                    }
                }
                return new StringReader(text);
            }
        };
        try (LuceneDocumentStore store = at("idx").analyzer(meeting, "meeting")
                .commitMode(LuceneDocumentStore.CommitMode.BATCHED).build()) {
            StoredDocument first = doc("first.md", Map.of());
            store.upsert(first, chunks(first, "fixes the dimension", new float[] {1, 0, 0, 0}));
            ExecutorService pool = Executors.newFixedThreadPool(2);
            try {
                List<Future<?>> writes = new ArrayList<>();
                for (String name : List.of("a.md", "b.md")) {
                    StoredDocument d = doc(name, Map.of());
                    writes.add(pool.submit(() -> store.upsert(d, chunks(d, "rendezvous", new float[] {0, 1, 0, 0}))));
                }
                for (Future<?> write : writes) {
                    write.get(60, TimeUnit.SECONDS);
                }
            } finally {
                pool.shutdownNow();
            }

            assertThat(met).containsExactly(true, true);
            assertThat(store.documents(SCOPE)).extracting(StoredDocument::path)
                    .containsExactly("a.md", "b.md", "first.md");
        }
    }

    @Test
    void batched_manyThreadsWritingWhileOneFlushes_keepEveryDocument() throws Exception {
        int threads = 4;
        int perThread = 50;
        Random random = new Random(11);
        float[][] vectors = new float[threads * perThread][];
        for (int i = 0; i < vectors.length; i++) {
            vectors[i] = vector(random, 8);
        }
        Path dir = tmp.resolve("idx");
        try (LuceneDocumentStore store = at("idx").commitMode(LuceneDocumentStore.CommitMode.BATCHED).build()) {
            ExecutorService pool = Executors.newFixedThreadPool(threads + 1);
            try {
                List<Future<?>> work = new ArrayList<>();
                for (int t = 0; t < threads; t++) {
                    int thread = t;
                    work.add(pool.submit(() -> {
                        for (int i = 0; i < perThread; i++) {
                            int n = thread * perThread + i;
                            StoredDocument d = doc("d" + n + ".md", Map.of());
                            store.upsert(d, chunks(d, "text " + n, vectors[n]));
                        }
                    }));
                }
                work.add(pool.submit(() -> {
                    for (int i = 0; i < 10; i++) {
                        store.flush();
                    }
                }));
                for (Future<?> f : work) {
                    f.get(120, TimeUnit.SECONDS);
                }
            } finally {
                pool.shutdownNow();
            }
            assertThat(store.documents(SCOPE)).hasSize(threads * perThread);
        }
        try (LuceneDocumentStore reopened = LuceneDocumentStore.builder().directory(dir).readOnly(true).build()) {
            assertThat(reopened.documents(SCOPE)).hasSize(threads * perThread);
            StoredDocument d = reopened.documents(SCOPE).stream().filter(x -> x.path().equals("d123.md"))
                    .findFirst().orElseThrow();
            assertThat(reopened.chunks(SCOPE, d.id())).extracting(StoredChunk::embedding)
                    .containsExactly(vectors[123]);
            List<SearchHit> hits = reopened.search(SearchRequest.builder(SCOPE).vector(vectors[77]).k(1).build());
            assertThat(hits).extracting(h -> h.chunk().text()).containsExactly("text 77 0");
        }
    }

    private static String read(Reader reader) {
        StringBuilder out = new StringBuilder();
        char[] buffer = new char[256];
        try {
            for (int n = reader.read(buffer); n >= 0; n = reader.read(buffer)) {
                out.append(buffer, 0, n);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toString();
    }

    @Test
    void englishAnalysis_stemsAndDropsStopWords() {
        try (LuceneDocumentStore store = at("idx").build()) {
            StoredDocument d = doc("a.md", Map.of());
            store.upsert(d, chunks(d, "Installing the printers", new float[] {1, 0, 0, 0}));

            assertThat(store.search(SearchRequest.builder(SCOPE).text("installed printer").build())).hasSize(1);
            assertThat(store.search(SearchRequest.builder(SCOPE).text("the").build())).isEmpty();
        }
    }

    @Test
    void search_selectiveFilterOnLargerIndex_returnsTheExactTopK() {
        Random random = new Random(3);
        int dim = 16;
        List<StoredChunk> all = new ArrayList<>();
        try (LuceneDocumentStore store = at("idx").commitMode(LuceneDocumentStore.CommitMode.BATCHED).build()) {
            for (int d = 0; d < 300; d++) {
                StoredDocument doc = doc("d" + d + ".md", Map.of("group", Integer.toString(d % 50)));
                float[][] vectors = new float[10][];
                for (int i = 0; i < vectors.length; i++) {
                    vectors[i] = vector(random, dim);
                }
                List<StoredChunk> chunks = chunks(doc, "x", vectors);
                store.upsert(doc, chunks);
                if (d % 50 == 7) {
                    all.addAll(chunks);
                }
            }
            store.flush();
            float[] query = vector(random, dim);
            List<String> exact = all.stream()
                    .sorted(Comparator.comparingDouble((StoredChunk c) -> -DocumentStoreContract.cosine(query,
                            c.embedding())).thenComparing(StoredChunk::documentId).thenComparingInt(StoredChunk::index))
                    .limit(10).map(StoredChunk::sourceId).collect(Collectors.toList());

            List<SearchHit> hits = store.search(SearchRequest.builder(SCOPE).vector(query).k(10)
                    .metadataFilter("group = 7").build());

            assertThat(hits).extracting(SearchHit::sourceId).containsExactlyElementsOf(exact);
            store.compact();
            assertThat(store.search(SearchRequest.builder(SCOPE).vector(query).k(10).metadataFilter("group = 7")
                    .build())).isEqualTo(hits);
        }
    }

    @Test
    void upsert_moreDimensionsThanLuceneIndexes_failsNamingTheLimit() {
        try (LuceneDocumentStore store = at("idx").build()) {
            StoredDocument d = doc("a.md", Map.of());
            float[] big = new float[1025];
            big[0] = 1;

            assertThatThrownBy(() -> store.upsert(d, chunks(d, "x", big))).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("1024");
            assertThat(store.documents(SCOPE)).isEmpty();
        }
    }

    @Test
    void provider_loadedByIdWithSettings_opensTheDirectory() {
        try (DocumentStore store = StoreProviders.load("lucene", Map.of("directory", tmp.resolve("p").toString(),
                "dimension", "4", "embedder", "e", "commit", "batched", "language", "standard"))) {
            assertThat(store).isInstanceOf(LuceneDocumentStore.class);
            assertThat(((LuceneDocumentStore) store).info().embedder()).isEqualTo("e");
        }
        assertThatThrownBy(() -> StoreProviders.load("lucene", Map.of())).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("directory=");
        assertThatThrownBy(() -> StoreProviders.load("lucene", Map.of("directory", "x", "colour", "red")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("colour");
        assertThatThrownBy(() -> StoreProviders.load("lucene", Map.of("directory", "x", "commit", "sometimes")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("each-write, batched");
    }
}
