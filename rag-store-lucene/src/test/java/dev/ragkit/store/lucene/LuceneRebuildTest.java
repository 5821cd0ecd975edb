package dev.ragkit.store.lucene;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ragkit.store.Scope;
import dev.ragkit.store.StoreException;
import dev.ragkit.store.StoredChunk;
import dev.ragkit.store.StoredDocument;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.StringField;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.store.FSDirectory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What an index folder may hold and what RagKit deletes in it: the marker, Lucene's own deletions kept away from user
 * files named like Lucene's, and rebuilds that are built beside the index and swapped in whole.
 */
final class LuceneRebuildTest {
    private static final Scope SCOPE = Scope.unrestricted("t");
    /** User files that Lucene takes for its own by their names, and one it does not. */
    private static final Map<String, String> USER_FILES = userFiles();

    @TempDir
    Path tmp;

    private static Map<String, String> userFiles() {
        Map<String, String> files = new LinkedHashMap<>();
        files.put("_config.yml", "title: my site\n");
        files.put("_notes.md", "# my notes\n");
        files.put("_draft.docx", "not really a docx");
        files.put("segments-plan.txt", "plan for the segments\n");
        files.put("notes.txt", "plain notes\n");
        return files;
    }

    private LuceneDocumentStore.Builder at(Path dir) {
        return LuceneDocumentStore.builder().directory(dir).embedder("e");
    }

    private static void put(LuceneDocumentStore store, String path, int dimension) {
        StoredDocument d = StoredDocument.builder().tenant("t").path(path).title(path).build();
        float[] v = new float[dimension];
        v[path.length() % dimension] = 1;
        store.upsert(d, List.of(new StoredChunk(d.id(), 0, "text of " + path, v, 3, 1, 1, null, null)));
    }

    private static List<String> paths(Path dir) {
        try (LuceneDocumentStore reader = LuceneDocumentStore.builder().directory(dir).readOnly(true).build()) {
            return reader.documents(SCOPE).stream().map(StoredDocument::path).toList();
        }
    }

    private Path index(String name, String... paths) {
        Path dir = tmp.resolve(name);
        try (LuceneDocumentStore store = at(dir).build()) {
            for (String p : paths) {
                put(store, p, 4);
            }
        }
        return dir;
    }

    private static void writeUserFiles(Path dir, Map<String, String> files) throws IOException {
        Files.createDirectories(dir);
        for (Map.Entry<String, String> f : files.entrySet()) {
            Files.writeString(dir.resolve(f.getKey()), f.getValue(), StandardCharsets.UTF_8);
        }
    }

    private static void assertUserFilesIntact(Path dir, Map<String, String> files) throws IOException {
        for (Map.Entry<String, String> f : files.entrySet()) {
            assertThat(dir.resolve(f.getKey())).as(f.getKey()).exists();
            assertThat(Files.readString(dir.resolve(f.getKey()), StandardCharsets.UTF_8)).isEqualTo(f.getValue());
        }
    }

    // ------------------------------------------------------------------------------------------------ the marker

    @Test
    void build_newIndex_writesTheMarker() throws IOException {
        Path dir = index("idx", "a.md");

        assertThat(Files.readString(dir.resolve(IndexFolder.MARKER))).startsWith(IndexFolder.MARKER_LINE);
    }

    @Test
    void build_indexFromBeforeTheMarker_isAdoptedByAWriterButNotByAReader() throws IOException {
        Path dir = index("idx", "a.md");
        Files.delete(dir.resolve(IndexFolder.MARKER));

        assertThat(paths(dir)).containsExactly("a.md");
        assertThat(dir.resolve(IndexFolder.MARKER)).doesNotExist();
        at(dir).build().close();
        assertThat(IndexFolder.isMarked(dir)).isTrue();
    }

    @Test
    void build_writerOnIndexHoldingUserFilesNamedLikeLucenes_refusesNamingThemAndDeletesNothing() throws IOException {
        Path dir = index("idx", "a.md");
        Map<String, String> files = new LinkedHashMap<>(USER_FILES);
        files.remove("segments-plan.txt");
        writeUserFiles(dir, files);

        assertThatThrownBy(() -> at(dir).build()).isInstanceOf(StoreException.class)
                .hasMessageContaining("_config.yml").hasMessageContaining("_notes.md")
                .hasMessageContaining("Move them out of").hasMessageNotContaining("--rebuild");

        assertUserFilesIntact(dir, files);
        assertThat(paths(dir)).containsExactly("a.md");      // readers do not mind them
    }

    @Test
    void build_folderHoldingASegmentsNamedUserFile_readerAndWriterRefuseNamingIt() throws IOException {
        Path dir = index("idx", "a.md");
        writeUserFiles(dir, Map.of("segments-plan.txt", "plan"));

        for (boolean readOnly : List.of(true, false)) {
            assertThatThrownBy(() -> at(dir).readOnly(readOnly).build()).as("read-only " + readOnly)
                    .isInstanceOf(StoreException.class).hasMessageContaining("segments-plan.txt")
                    .hasMessageContaining("Move them out of");
        }
        assertUserFilesIntact(dir, Map.of("segments-plan.txt", "plan"));
    }

    @Test
    void build_folderOfUserFiles_refusesWithoutSuggestingARebuild() throws IOException {
        Path dir = tmp.resolve("site");
        writeUserFiles(dir, Map.of("notes.txt", "n", "index.html", "<p>"));

        for (boolean readOnly : List.of(true, false)) {
            assertThatThrownBy(() -> at(dir).readOnly(readOnly).build()).isInstanceOf(StoreException.class)
                    .hasMessageContaining("is not an index").hasMessageContaining("notes.txt")
                    .hasMessageNotContaining("rebuild");
        }
    }

    @Test
    void build_damagedIndexWithoutMarker_suggestsMovingItAwayNotARebuild() throws IOException {
        Path dir = index("idx", "a.md");
        Files.delete(dir.resolve(IndexFolder.MARKER));
        corruptCommits(dir);

        assertThatThrownBy(() -> at(dir).readOnly(true).build()).isInstanceOf(StoreException.class)
                .hasMessageContaining("damaged").hasMessageContaining("move the folder away")
                .hasMessageNotContaining("--rebuild");
    }

    // ------------------------------------------------------------------------------------------------ rebuild

    @Test
    void rebuild_replace_swapsInTheNewIndexWhileReadersSeeTheOldOneUntilThen() throws IOException {
        Path dir = index("idx", "old-1.md", "old-2.md");
        writeUserFiles(dir, Map.of("notes.txt", "mine"));

        try (LuceneRebuild rebuild = at(dir).commitMode(LuceneDocumentStore.CommitMode.BATCHED).rebuild();
             LuceneDocumentStore reader = LuceneDocumentStore.builder().directory(dir).readOnly(true).build()) {
            assertThat(rebuild.stagingDirectory()).isEqualTo(tmp.resolve(".idx.rebuild"));
            put(rebuild.store(), "new.md", 4);
            rebuild.store().flush();
            assertThat(reader.documents(SCOPE)).extracting(StoredDocument::path)
                    .containsExactly("old-1.md", "old-2.md");

            rebuild.replace();

            assertThat(reader.documents(SCOPE)).extracting(StoredDocument::path).containsExactly("new.md");
        }
        assertThat(paths(dir)).containsExactly("new.md");
        assertThat(tmp.resolve(".idx.rebuild")).doesNotExist();
        assertUserFilesIntact(dir, Map.of("notes.txt", "mine"));
        assertThat(IndexFolder.isMarked(dir)).isTrue();
        try (LuceneDocumentStore again = at(dir).build()) {       // writable again, same identity
            assertThat(again.info().embedder()).isEqualTo("e");
        }
    }

    @Test
    void rebuild_closedWithoutReplace_leavesTheOldIndexWholeAndRemovesTheStaging() throws IOException {
        Path dir = index("idx", "old.md");
        List<String> before = fileNames(dir);

        try (LuceneRebuild rebuild = at(dir).rebuild()) {
            put(rebuild.store(), "new.md", 4);
        }

        assertThat(paths(dir)).containsExactly("old.md");
        assertThat(fileNames(dir)).isEqualTo(before);
        assertThat(tmp.resolve(".idx.rebuild")).doesNotExist();
    }

    @Test
    void rebuild_anotherEmbedderAndDimension_recordsTheNewIdentity() {
        Path dir = index("idx", "old.md");

        try (LuceneRebuild rebuild = LuceneDocumentStore.builder().directory(dir).embedder("other").rebuild()) {
            put(rebuild.store(), "new.md", 8);
            rebuild.replace();
        }

        try (LuceneDocumentStore store = LuceneDocumentStore.builder().directory(dir).readOnly(true).build()) {
            assertThat(store.info().embedder()).isEqualTo("other");
            assertThat(store.info().dimension()).isEqualTo(8);
            assertThat(store.documents(SCOPE)).extracting(StoredDocument::path).containsExactly("new.md");
        }
    }

    @Test
    void rebuild_folderOfUserFilesWithoutMarker_refusesAndDeletesNothing() throws IOException {
        Path dir = tmp.resolve("site");
        writeUserFiles(dir, USER_FILES);

        assertThatThrownBy(() -> at(dir).rebuild()).isInstanceOf(StoreException.class)
                .hasMessageContaining("Nothing was changed").hasMessageNotContaining("--rebuild");

        assertUserFilesIntact(dir, USER_FILES);
        assertThat(fileNames(dir)).containsExactlyInAnyOrderElementsOf(USER_FILES.keySet());
        assertThat(tmp.resolve(".site.rebuild")).doesNotExist();
    }

    @Test
    void rebuild_folderOfUserFilesNamedLikeLucenesOnly_refusesAndDeletesNothing() throws IOException {
        Path dir = tmp.resolve("jekyll");
        Map<String, String> files = Map.of("_config.yml", "title: x\n", "_notes.md", "n");
        writeUserFiles(dir, files);

        assertThatThrownBy(() -> at(dir).rebuild()).isInstanceOf(StoreException.class)
                .hasMessageContaining("is not an index").hasMessageContaining("_config.yml")
                .hasMessageNotContaining("--rebuild").hasMessageNotContaining("Move them out");
        assertThatThrownBy(() -> at(dir).build()).isInstanceOf(StoreException.class)
                .hasMessageContaining("is not an index").hasMessageNotContaining("Move them out");

        assertUserFilesIntact(dir, files);
    }

    @Test
    void rebuild_indexBesideUserFilesNamedLikeLucenes_refusesUntilTheyAreMovedAndKeepsThem() throws IOException {
        Path dir = index("idx", "old.md");
        writeUserFiles(dir, USER_FILES);

        assertThatThrownBy(() -> at(dir).rebuild()).isInstanceOf(StoreException.class)
                .hasMessageContaining("_config.yml").hasMessageContaining("segments-plan.txt");

        assertUserFilesIntact(dir, USER_FILES);
        for (String name : List.of("_config.yml", "_notes.md", "_draft.docx", "segments-plan.txt")) {
            Files.delete(dir.resolve(name));
        }
        try (LuceneRebuild rebuild = at(dir).rebuild()) {
            put(rebuild.store(), "new.md", 4);
            rebuild.replace();
        }
        assertThat(paths(dir)).containsExactly("new.md");
        assertUserFilesIntact(dir, Map.of("notes.txt", USER_FILES.get("notes.txt")));
    }

    @Test
    void rebuild_foreignLuceneIndex_refuses() throws IOException {
        Path dir = tmp.resolve("foreign");
        try (FSDirectory d = FSDirectory.open(dir); IndexWriter w = new IndexWriter(d, new IndexWriterConfig())) {
            Document doc = new Document();
            doc.add(new StringField("id", "1", Field.Store.YES));
            w.addDocument(doc);
            w.commit();
        }
        List<String> before = fileNames(dir);

        assertThatThrownBy(() -> at(dir).rebuild()).isInstanceOf(StoreException.class)
                .hasMessageContaining("not written by RagKit").hasMessageNotContaining("--rebuild");
        assertThat(fileNames(dir)).isEqualTo(before);
    }

    @Test
    void rebuild_indexFromBeforeTheMarker_isAdoptedAndReplaced() throws IOException {
        Path dir = index("idx", "old.md");
        Files.delete(dir.resolve(IndexFolder.MARKER));

        try (LuceneRebuild rebuild = at(dir).rebuild()) {
            put(rebuild.store(), "new.md", 4);
            rebuild.replace();
        }

        assertThat(paths(dir)).containsExactly("new.md");
        assertThat(IndexFolder.isMarked(dir)).isTrue();
    }

    @Test
    void rebuild_damagedIndexWithMarker_isReplaced() throws IOException {
        Path dir = index("idx", "old.md");
        corruptCommits(dir);
        assertThatThrownBy(() -> paths(dir)).isInstanceOf(StoreException.class).hasMessageContaining("damaged")
                .hasMessageContaining("--rebuild");

        try (LuceneRebuild rebuild = at(dir).rebuild()) {
            put(rebuild.store(), "new.md", 4);
            rebuild.replace();
        }

        assertThat(paths(dir)).containsExactly("new.md");
    }

    @Test
    void rebuild_absentFolder_createsTheIndex() {
        Path dir = tmp.resolve("new/idx");

        try (LuceneRebuild rebuild = at(dir).rebuild()) {
            put(rebuild.store(), "new.md", 4);
            rebuild.replace();
        }

        assertThat(paths(dir)).containsExactly("new.md");
        assertThat(IndexFolder.isMarked(dir)).isTrue();
    }

    @Test
    void rebuild_whileAnotherWriterHoldsTheIndex_failsNamingTheLockAndChangesNothing() {
        Path dir = index("idx", "old.md");

        try (LuceneDocumentStore writer = at(dir).build()) {
            assertThatThrownBy(() -> at(dir).rebuild()).isInstanceOf(StoreException.class)
                    .hasMessageContaining("write.lock");
            assertThatThrownBy(() -> at(dir).build()).isInstanceOf(StoreException.class)
                    .hasMessageContaining("write.lock");
            assertThat(writer.documents(SCOPE)).hasSize(1);
        }
        assertThat(paths(dir)).containsExactly("old.md");
    }

    @Test
    void rebuild_stagingLeftByAKilledRebuild_isClearedAndANonRagKitStagingFolderIsRefused() throws IOException {
        Path dir = index("idx", "old.md");
        Path staging = tmp.resolve(".idx.rebuild");
        try (LuceneDocumentStore left = at(staging).build()) {      // what a killed rebuild leaves: a marked index
            put(left, "half.md", 4);
        }

        try (LuceneRebuild rebuild = at(dir).rebuild()) {
            assertThat(rebuild.store().documents(SCOPE)).isEmpty();
            rebuild.replace();
        }
        assertThat(staging).doesNotExist();

        writeUserFiles(staging, Map.of("mine.txt", "mine"));
        assertThatThrownBy(() -> at(dir).rebuild()).isInstanceOf(StoreException.class)
                .hasMessageContaining(staging.toString()).hasMessageContaining("Move it away");
        assertUserFilesIntact(staging, Map.of("mine.txt", "mine"));
    }

    @Test
    void build_writerAfterAKilledRebuild_removesTheMarkedStagingOnly() throws IOException {
        Path dir = index("idx", "old.md");
        Path staging = tmp.resolve(".idx.rebuild");
        at(staging).build().close();

        at(dir).build().close();

        assertThat(staging).doesNotExist();
    }

    @Test
    void build_writerAfterARebuildKilledBeforeItsMarker_removesTheEmptyStagingButNotAForeignOne() throws IOException {
        // the randomized crash test killed a rebuild between making the staging folder and marking it
        Path dir = index("idx", "old.md");
        Path staging = Files.createDirectories(tmp.resolve(".idx.rebuild"));
        Files.createFile(staging.resolve(LuceneIndex.LOCK_FILE));

        at(dir).build().close();

        assertThat(staging).doesNotExist();
        Files.createDirectories(staging);
        Files.writeString(staging.resolve("notes.txt"), "someone's notes");
        at(dir).build().close();
        assertThat(staging.resolve("notes.txt")).hasContent("someone's notes");
    }

    private static List<String> fileNames(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    private static void corruptCommits(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : files.filter(p -> p.getFileName().toString().startsWith("segments_")).toList()) {
                byte[] bytes = Files.readAllBytes(f);
                for (int i = bytes.length / 2; i < bytes.length; i++) {
                    bytes[i] ^= 0x5a;
                }
                Files.write(f, bytes);
            }
        }
    }
}
