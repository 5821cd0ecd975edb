package dev.ragkit.store.inmemory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ragkit.store.Scope;
import dev.ragkit.store.StoreException;
import dev.ragkit.store.StoredChunk;
import dev.ragkit.store.StoredDocument;
import java.io.DataInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The snapshot records the embedder that made its vectors (format version 2) and still reads version 1. */
final class SnapshotEmbedderTest {
    private static final String NOMIC = "ollama:nomic-embed-text";
    private static final String MINILM = "all-minilm-l6-v2";

    /**
     * A version-1 snapshot written by RagKit before embedder ids were recorded (commit 0fc7927):
     * {@code InMemoryDocumentStore.builder().build()}, then {@link #versionOneDocument()} upserted with
     * {@link #versionOneChunks(String)}, then {@code save}.
     */
    private static final String VERSION_ONE = "UkFHS1NOQVAAAAABAAAAAwAAAAEAAAAEYWNtZQAAAAEAAAAkYWJiN2U2MWItMDM5Yi0zZDIx"
            + "LWE0MTctNDYzMzVjYjVjODcxAAAAEWd1aWRlcy9pbnN0YWxsLm1kAAAAB0luc3RhbGz/////AIAAAAAAAAAAAAAAAP////8AAAAAA"
            + "AAAAAAAAAAAAAAAAAAAAgAAABJSdW4gdGhlIGluc3RhbGxlci4AAAAEAAAAAQAAAAEAAAAHSW5zdGFsbAAAAAA/gAAAQAAAAEBAAA"
            + "AAAAAIT24gTGludXgAAAACAAAAAgAAAAP/////AAAAB7+AAAA/AAAAAAAAAAAAAABQrJx4";

    @TempDir
    Path dir;

    private static StoredDocument versionOneDocument() {
        return StoredDocument.builder().tenant("acme").path("guides/install.md").title("Install").build();
    }

    private static List<StoredChunk> versionOneChunks(String documentId) {
        return List.of(
                new StoredChunk(documentId, 0, "Run the installer.", new float[] {1, 2, 3}, 4, 1, 1, "Install", null),
                new StoredChunk(documentId, 1, "On Linux", new float[] {-1, 0.5f, 0}, 2, 2, 3, null, 7));
    }

    private Path versionOneFile() throws IOException {
        return Files.write(dir.resolve("v1.bin"), Base64.getDecoder().decode(VERSION_ONE));
    }

    private static InMemoryDocumentStore filled(InMemoryDocumentStore store) {
        StoredDocument d = versionOneDocument();
        store.upsert(d, versionOneChunks(d.id()));
        return store;
    }

    /** The file's body with its CRC-32C trailer recomputed, as a writer would have written it. */
    private static byte[] withFreshChecksum(byte[] file) {
        CRC32C crc = new CRC32C();
        crc.update(file, 0, file.length - 8);
        return ByteBuffer.allocate(file.length).put(file, 0, file.length - 8).putLong(crc.getValue()).array();
    }

    private static int formatVersion(Path file) throws IOException {
        try (DataInputStream in = new DataInputStream(Files.newInputStream(file))) {
            in.skipNBytes(8);
            return in.readInt();
        }
    }

    @Test
    void saveThenLoad_withEmbedder_recordsItAndTheLoadedStoreKnowsIt() {
        InMemoryDocumentStore original = filled(InMemoryDocumentStore.builder().embedder(NOMIC).build());
        assertThat(original.embedder()).isEqualTo(NOMIC);
        Path file = dir.resolve("index.bin");
        original.save(file);

        InMemoryDocumentStore unconfigured = InMemoryDocumentStore.load(file);
        InMemoryDocumentStore same = InMemoryDocumentStore.builder().embedder(NOMIC).load(file);

        assertThat(unconfigured.embedder()).isEqualTo(NOMIC);
        assertThat(same.embedder()).isEqualTo(NOMIC);
        Scope admin = Scope.unrestricted("acme");
        assertThat(unconfigured.documents(admin)).isEqualTo(original.documents(admin));
        assertThat(same.documents(admin)).isEqualTo(original.documents(admin));
    }

    @Test
    void saveThenLoad_emptyStoreWithEmbedder_keepsTheEmbedder() {
        Path file = dir.resolve("empty.bin");
        InMemoryDocumentStore.builder().dimension(768).embedder(NOMIC).build().save(file);

        InMemoryDocumentStore loaded = InMemoryDocumentStore.load(file);

        assertThat(loaded.embedder()).isEqualTo(NOMIC);
        assertThat(loaded.dimension()).isEqualTo(768);
    }

    @Test
    void save_writesFormatVersionTwoWithTheEmbedderRightAfterTheDimension() throws IOException {
        Path file = dir.resolve("index.bin");
        filled(InMemoryDocumentStore.builder().embedder(NOMIC).build()).save(file);
        Path unnamed = dir.resolve("unnamed.bin");
        filled(InMemoryDocumentStore.builder().build()).save(unnamed);

        try (DataInputStream in = new DataInputStream(Files.newInputStream(file))) {
            assertThat(new String(in.readNBytes(8), StandardCharsets.US_ASCII)).isEqualTo("RAGKSNAP");
            assertThat(in.readInt()).as("format").isEqualTo(2);
            assertThat(in.readInt()).as("dimension").isEqualTo(3);
            int length = in.readInt();
            assertThat(new String(in.readNBytes(length), StandardCharsets.UTF_8)).isEqualTo(NOMIC);
        }
        try (DataInputStream in = new DataInputStream(Files.newInputStream(unnamed))) {
            in.skipNBytes(16);
            assertThat(in.readInt()).as("no embedder: a null string").isEqualTo(-1);
        }
    }

    @Test
    void load_versionOneSnapshot_loadsEverythingWithAnUnknownEmbedderAndIsSavedAsVersionTwo() throws IOException {
        Path file = versionOneFile();

        InMemoryDocumentStore loaded = InMemoryDocumentStore.load(file);

        assertThat(loaded.embedder()).isNull();
        assertThat(loaded.dimension()).isEqualTo(3);
        StoredDocument expected = versionOneDocument();
        Scope admin = Scope.unrestricted("acme");
        assertThat(loaded.documents(admin)).containsExactly(expected);
        assertThat(loaded.chunks(admin, expected.id())).isEqualTo(versionOneChunks(expected.id()));
        Path again = dir.resolve("again.bin");
        loaded.save(again);
        assertThat(formatVersion(again)).isEqualTo(2);
        assertThat(InMemoryDocumentStore.load(again).documents(admin)).containsExactly(expected);
    }

    @Test
    void load_versionOneSnapshotWithConfiguredEmbedder_adoptsItAndTheNextSaveRecordsIt() throws IOException {
        InMemoryDocumentStore loaded = InMemoryDocumentStore.builder().embedder(MINILM).load(versionOneFile());

        assertThat(loaded.embedder()).isEqualTo(MINILM);
        Path again = dir.resolve("again.bin");
        loaded.save(again);
        assertThat(InMemoryDocumentStore.load(again).embedder()).isEqualTo(MINILM);
        assertThatThrownBy(() -> InMemoryDocumentStore.builder().embedder(NOMIC).load(again))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void load_snapshotOfAnotherEmbedder_failsNamingBothAndTheFix() {
        Path file = dir.resolve("index.bin");
        filled(InMemoryDocumentStore.builder().embedder(NOMIC).build()).save(file);

        assertThatThrownBy(() -> InMemoryDocumentStore.builder().embedder(MINILM).load(file))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(file.toAbsolutePath().toString())
                .hasMessageContaining("made by '" + NOMIC + "' (3 dimensions)")
                .hasMessageContaining("not by '" + MINILM + "'")
                .hasMessageContaining("Embed with '" + NOMIC + "'")
                .hasMessageContaining("re-index");
    }

    @Test
    void load_configuredEmbedderWithSurroundingSpace_matchesTheRecordedOne() {
        Path file = dir.resolve("index.bin");
        filled(InMemoryDocumentStore.builder().embedder(NOMIC).build()).save(file);

        assertThat(InMemoryDocumentStore.builder().embedder("  " + NOMIC + "\n").load(file).embedder())
                .isEqualTo(NOMIC);
    }

    @Test
    void embedder_blankOrNull_isRejectedAtOnce() {
        InMemoryDocumentStore.Builder builder = InMemoryDocumentStore.builder();
        for (String blank : List.of("", "   ", "\t\n")) {
            assertThatThrownBy(() -> builder.embedder(blank)).as("'%s'", blank)
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("embedder must not be blank");
        }
        assertThatThrownBy(() -> builder.embedder(null)).isInstanceOf(NullPointerException.class)
                .hasMessageContaining("embedder");
        assertThat(builder.build().embedder()).as("a rejected value is not kept").isNull();
    }

    @Test
    void load_blankRecordedEmbedder_isCorrupted() throws IOException {
        // a writer never records a blank id, so a blank one is damage (with a valid checksum: a foreign writer)
        Path file = dir.resolve("index.bin");
        filled(InMemoryDocumentStore.builder().embedder("x").build()).save(file);
        byte[] bytes = Files.readAllBytes(file);
        bytes[20] = ' '; // the id's single byte, after magic (8), format (4), dimension (4) and its length (4)
        Files.write(file, withFreshChecksum(bytes));

        assertThatThrownBy(() -> InMemoryDocumentStore.load(file))
                .isInstanceOf(StoreException.class).hasMessageContaining("corrupted")
                .hasMessageContaining("embedder");
    }
}
