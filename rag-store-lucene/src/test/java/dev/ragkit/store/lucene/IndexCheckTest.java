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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.lucene.index.SegmentCommitInfo;
import org.apache.lucene.index.SegmentInfos;
import org.apache.lucene.store.FSDirectory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The deep check of issue 28 on real indexes with a flipped byte: what normal reads never notice, Lucene's
 * {@code CheckIndex} finds, and the check names the damaged segment and the documents living in it, changes nothing,
 * and drops the segment only when asked; and what a reader says about a folder that a rebuild is writing, or that is
 * not an index at all.
 */
final class IndexCheckTest {
    private static final Scope SCOPE = Scope.unrestricted("t");
    private static final int DIMENSION = 64;

    @TempDir
    Path tmp;

    private static LuceneDocumentStore.Builder at(Path dir) {
        return LuceneDocumentStore.builder().directory(dir).embedder("e");
    }

    private static void put(LuceneDocumentStore store, String path) {
        StoredDocument d = StoredDocument.builder().tenant("t").path(path).title(path)
                .metadata(Map.of("ragkit.root", "/home/me/" + path.substring(0, path.indexOf('/')))).build();
        List<StoredChunk> chunks = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            float[] v = new float[DIMENSION];
            for (int j = 0; j < DIMENSION; j++) {
                v[j] = (float) Math.sin(path.hashCode() + 31 * i + j);
            }
            chunks.add(new StoredChunk(d.id(), i, "chunk " + i + " of " + path + " about the badge policy, the "
                    + "parking rules and the travel expenses, with enough words to fill a block", v, 20, i + 1,
                    i + 1, null, null));
        }
        store.upsert(d, chunks);
    }

    /** Two documents compacted into one segment of separate files, then a third in a segment of its own. */
    private Path twoSegments() {
        Path dir = tmp.resolve("index");
        try (LuceneDocumentStore store = at(dir).build()) {
            put(store, "docs/vpn.md");
            put(store, "docs/mail.md");
            store.compact();
            put(store, "notes/printing.md");
        }
        return dir;
    }

    /** @return the name of the segment holding more than one file per extension, i.e. the compacted one */
    private static String compacted(Path dir) throws IOException {
        try (FSDirectory d = FSDirectory.open(dir)) {
            for (SegmentCommitInfo info : SegmentInfos.readLatestCommit(d)) {
                if (!info.info.getUseCompoundFile()) {
                    return info.info.name;
                }
            }
        }
        throw new AssertionError("no segment outside a compound file in " + dir);
    }

    /** @return the segment's file with this extension, e.g. {@code _2_Lucene99HnswVectorsFormat_0.vec} */
    private static Path fileOf(Path dir, String segment, String extension) throws IOException {
        try (Stream<Path> list = Files.list(dir)) {
            return list.filter(f -> f.getFileName().toString().startsWith(segment + "_")
                    || f.getFileName().toString().startsWith(segment + "."))
                    .filter(f -> f.getFileName().toString().endsWith("." + extension)).findFirst()
                    .orElseThrow(() -> new AssertionError("no ." + extension + " file of " + segment + " in " + dir));
        }
    }

    /** Inverts every bit of the byte in the middle of the file (far from its header and its checksum footer). */
    static void flipMiddleByte(Path file) throws IOException {
        byte[] bytes = Files.readAllBytes(file);
        assertThat(bytes.length).as(file.toString()).isGreaterThan(200);
        bytes[bytes.length / 2] ^= (byte) 0xFF;
        Files.write(file, bytes);
    }

    /** @return every file of the folder with its bytes, but the lock and holder files */
    private static Map<String, String> files(Path dir) throws IOException {
        Map<String, String> all = new TreeMap<>();
        try (Stream<Path> list = Files.list(dir)) {
            for (Path f : list.toList()) {
                String name = f.getFileName().toString();
                if (!name.equals(LuceneIndex.LOCK_FILE) && !name.equals(LuceneIndex.HOLDER_FILE)) {
                    all.put(name, new String(Files.readAllBytes(f), StandardCharsets.ISO_8859_1));
                }
            }
        }
        return all;
    }

    private static List<String> paths(Path dir) {
        try (LuceneDocumentStore reader = at(dir).readOnly(true).build()) {
            return reader.documents(SCOPE).stream().map(StoredDocument::path).toList();
        }
    }

    // ----------------------------------------------------------------------------------------------- the check

    @Test
    void check_cleanIndex_reportsCleanWithItsSegmentsAndDocuments() {
        Path dir = twoSegments();

        IndexCheck check = at(dir).check();

        assertThat(check.clean()).isTrue();
        assertThat(check.segments()).isEqualTo(2);
        assertThat(check.documents()).isEqualTo(3);
        assertThat(check.damaged()).isEmpty();
        assertThat(check.dropped()).isFalse();
        assertThat(dir.resolve(LuceneIndex.HOLDER_FILE)).doesNotExist();
    }

    @ParameterizedTest
    @ValueSource(strings = {"vec", "fdt", "tim"})
    void check_flippedByteInASegmentFile_namesTheSegmentAndItsDocumentsAndChangesNothing(String extension)
            throws IOException {
        Path dir = twoSegments();
        String segment = compacted(dir);
        Path file = fileOf(dir, segment, extension);
        flipMiddleByte(file);
        Map<String, String> before = files(dir);
        assertThat(paths(dir)).as("normal reads do not notice").hasSize(3);

        IndexCheck check = at(dir).check();

        assertThat(check.clean()).isFalse();
        assertThat(check.unreadable()).isNull();
        assertThat(check.damaged()).hasSize(1);
        IndexCheck.DamagedSegment damaged = check.damaged().get(0);
        assertThat(damaged.name()).isEqualTo(segment);
        assertThat(damaged.files()).contains(file.getFileName().toString());
        assertThat(damaged.problem()).isNotBlank();
        assertThat(check.documentsKnown()).isTrue();
        assertThat(check.affected()).extracting(IndexCheck.AffectedDocument::path)
                .contains("docs/vpn.md", "docs/mail.md").doesNotContain("notes/printing.md");
        assertThat(check.affected()).filteredOn(d -> d.path().equals("docs/vpn.md")).first()
                .satisfies(d -> assertThat(d.tenant()).isEqualTo("t"));
        assertThat(files(dir)).as("the check changes nothing").isEqualTo(before);
        assertThat(check.dropped()).isFalse();
    }

    @Test
    void check_flippedByteInACompoundFile_namesOnlyThatSegmentsDocuments() throws IOException {
        Path dir = twoSegments();
        String compacted = compacted(dir);
        Path cfs;
        try (Stream<Path> list = Files.list(dir)) {
            cfs = list.filter(f -> f.getFileName().toString().endsWith(".cfs")).findFirst().orElseThrow();
        }
        flipMiddleByte(cfs);

        IndexCheck check = at(dir).check();

        assertThat(check.damaged()).extracting(IndexCheck.DamagedSegment::name).doesNotContain(compacted)
                .hasSize(1);
        IndexCheck.DamagedSegment damaged = check.damaged().get(0);
        if (damaged.documents() != null) {               // unless the flip hit what Lucene needs to open it
            assertThat(damaged.documents()).extracting(IndexCheck.AffectedDocument::path)
                    .contains("notes/printing.md").doesNotContain("docs/vpn.md", "docs/mail.md");
        }
    }

    @Test
    void check_unreadableCommit_saysTheWholeIndexMustBeRebuilt() throws IOException {
        Path dir = twoSegments();
        Path commit;
        try (Stream<Path> list = Files.list(dir)) {
            commit = list.filter(f -> f.getFileName().toString().startsWith("segments_")).findFirst().orElseThrow();
        }
        flipSmall(commit);

        IndexCheck check = at(dir).check();

        assertThat(check.clean()).isFalse();
        assertThat(check.unreadable()).contains(commit.getFileName().toString());
        assertThat(check.documentsKnown()).isFalse();
    }

    @Test
    void check_whileAWriterHoldsTheIndex_failsNamingTheWriterAndWaitsWhenAsked() {
        Path dir = twoSegments();
        try (LuceneDocumentStore writer = at(dir).build()) {
            assertThatThrownBy(() -> at(dir).check()).isInstanceOf(StoreException.class)
                    .hasMessageContaining("another writer holds the index")
                    .satisfies(e -> assertThat(((StoreException) e).isRetriable()).isTrue());
        }
        assertThat(at(dir).check().clean()).isTrue();
    }

    // ---------------------------------------------------------------------------------------------- the repair

    @Test
    void dropDamagedSegments_removesOnlyTheDamagedSegmentsDocuments_whichCanBeIndexedAgain() throws IOException {
        Path dir = twoSegments();
        flipMiddleByte(fileOf(dir, compacted(dir), "vec"));

        IndexCheck dropped = at(dir).dropDamagedSegments();

        assertThat(dropped.dropped()).isTrue();
        assertThat(dropped.affected()).extracting(IndexCheck.AffectedDocument::path)
                .containsExactlyInAnyOrder("docs/vpn.md", "docs/mail.md");
        assertThat(paths(dir)).containsExactly("notes/printing.md");
        assertThat(at(dir).check().clean()).isTrue();
        try (LuceneDocumentStore store = at(dir).build()) {
            put(store, "docs/vpn.md");
            put(store, "docs/mail.md");
        }
        assertThat(paths(dir)).containsExactly("docs/mail.md", "docs/vpn.md", "notes/printing.md");
        assertThat(at(dir).check().clean()).isTrue();
    }

    @Test
    void dropDamagedSegments_unreadableCommit_dropsNothing() throws IOException {
        Path dir = twoSegments();
        Path commit;
        try (Stream<Path> list = Files.list(dir)) {
            commit = list.filter(f -> f.getFileName().toString().startsWith("segments_")).findFirst().orElseThrow();
        }
        flipSmall(commit);
        Map<String, String> before = files(dir);

        IndexCheck check = at(dir).dropDamagedSegments();

        assertThat(check.dropped()).isFalse();
        assertThat(files(dir)).isEqualTo(before);
    }

    /** Inverts the middle byte of a small file (a commit's {@code segments_N}). */
    private static void flipSmall(Path small) throws IOException {
        byte[] bytes = Files.readAllBytes(small);
        bytes[bytes.length / 2] ^= (byte) 0xFF;
        Files.write(small, bytes);
    }

    // ----------------------------------------------------------------------------- readers during a rebuild

    /** The state a rebuild of a new folder leaves while it swaps: segment files, no commit yet, staging beside. */
    private Path midSwap(String holder) throws IOException {
        Path dir = twoSegments();
        try (Stream<Path> list = Files.list(dir)) {
            for (Path f : list.filter(f -> f.getFileName().toString().startsWith("segments_")).toList()) {
                Files.delete(f);
            }
        }
        try (LuceneDocumentStore staging = at(IndexFolder.staging(dir)).build()) {
            put(staging, "docs/new.md");
        }
        Files.writeString(dir.resolve(LuceneIndex.HOLDER_FILE), holder, StandardCharsets.UTF_8);
        return dir;
    }

    private static String holderOf(long pid) throws IOException {
        return "process " + pid + " on " + java.net.InetAddress.getLocalHost().getHostName() + " since "
                + java.time.Instant.now() + "\n";
    }

    @Test
    void open_whileAnotherProcessRebuilds_saysBeingRebuiltAndRetryNotDamaged() throws IOException {
        Path dir = midSwap(holderOf(ProcessHandle.current().pid()));

        for (boolean readOnly : List.of(true, false)) {
            assertThatThrownBy(() -> at(dir).readOnly(readOnly).build()).as("read-only " + readOnly)
                    .isInstanceOf(StoreException.class).hasMessageContaining("is being rebuilt")
                    .hasMessageContaining("Try again").hasMessageNotContaining("damaged")
                    .satisfies(e -> assertThat(((StoreException) e).isRetriable()).isTrue());
        }
        assertThatThrownBy(() -> at(dir).check()).hasMessageContaining("is being rebuilt");
    }

    @Test
    void open_beforeTheRebuildOfANewFolderCommits_saysBeingRebuiltNotNoIndexYet() throws IOException {
        Path dir = tmp.resolve("fresh");
        Files.createDirectories(dir);
        IndexFolder.mark(dir, "created");
        Files.writeString(dir.resolve(LuceneIndex.HOLDER_FILE), holderOf(ProcessHandle.current().pid()));
        try (LuceneDocumentStore staging = at(IndexFolder.staging(dir)).build()) {
            put(staging, "docs/new.md");
        }

        assertThatThrownBy(() -> at(dir).readOnly(true).build()).isInstanceOf(StoreException.class)
                .hasMessageContaining("is being rebuilt").hasMessageNotContaining("no index");
    }

    @Test
    void open_afterARebuildWasKilledMidSwap_saysItStoppedAndToRunItAgain() throws Exception {
        Process gone = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-version").redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        gone.waitFor();
        Path dir = midSwap(holderOf(gone.pid()));

        assertThatThrownBy(() -> at(dir).readOnly(true).build()).isInstanceOf(StoreException.class)
                .hasMessageContaining("stopped before it swapped").hasMessageContaining("--rebuild")
                .hasMessageNotContaining("is being rebuilt");
    }

    @Test
    void build_writerAfterARebuildOfANewFolderWasKilledBeforeItsSwap_createsTheIndexAndClearsTheStaging()
            throws Exception {
        Process gone = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-version").redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        gone.waitFor();
        Path dir = tmp.resolve("fresh");
        Files.createDirectories(dir);
        IndexFolder.mark(dir, "created");
        Files.writeString(dir.resolve(LuceneIndex.HOLDER_FILE), holderOf(gone.pid()));
        try (LuceneDocumentStore staging = at(IndexFolder.staging(dir)).build()) {
            put(staging, "docs/new.md");
        }

        try (LuceneDocumentStore writer = at(dir).build()) {
            put(writer, "docs/vpn.md");
        }

        assertThat(paths(dir)).containsExactly("docs/vpn.md");
        assertThat(IndexFolder.staging(dir)).doesNotExist();
    }

    // ---------------------------------------------------------------------------------------- not an index

    @ParameterizedTest
    @ValueSource(strings = {"segments_1", "_0.cfs", "pending_segments_2", "notes.txt", "write.lock"})
    void open_folderOfUserFilesNamedAnyway_isNotAnIndexNeverDamagedNorToRebuild(String name) throws IOException {
        Path dir = tmp.resolve("mine");
        Files.createDirectories(dir);
        Files.writeString(dir.resolve(name), "my own notes, nothing of Lucene's\n");

        for (boolean readOnly : List.of(true, false)) {
            assertThatThrownBy(() -> at(dir).readOnly(readOnly).build()).as("read-only " + readOnly)
                    .isInstanceOf(StoreException.class)
                    .hasMessageContaining("is not an index (not a RagKit index").hasMessageContaining(name)
                    .hasMessageContaining("ragkit index <folder of documents> --index <new folder>")
                    .hasMessageNotContaining("damaged").hasMessageNotContaining("--rebuild");
        }
        assertThat(Files.readString(dir.resolve(name))).isEqualTo("my own notes, nothing of Lucene's\n");
        assertThat(dir.resolve(IndexFolder.MARKER)).doesNotExist();
    }
}
