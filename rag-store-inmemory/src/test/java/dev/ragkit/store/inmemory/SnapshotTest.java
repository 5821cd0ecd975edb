package dev.ragkit.store.inmemory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ragkit.store.PromotionLevel;
import dev.ragkit.store.Scope;
import dev.ragkit.store.SearchRequest;
import dev.ragkit.store.StoreException;
import dev.ragkit.store.StoredChunk;
import dev.ragkit.store.StoredDocument;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class SnapshotTest {
    @TempDir
    Path dir;

    private static InMemoryDocumentStore sample() {
        InMemoryDocumentStore store = InMemoryDocumentStore.builder().build();
        StoredDocument full = StoredDocument.builder().tenant("acme").path("guides/install.md").title("Install")
                .docType("guide").promotionLevel(PromotionLevel.CRITICAL).date(LocalDate.of(2026, 3, 1))
                .accessTags("eng", "ops").ownerTag("platform-team").links(List.of("guides/linux.md", "faq.md"))
                .metadata(Map.of("summary", "How to install — ünïcode ✓")).charCount(1234).build();
        store.upsert(full, List.of(
                new StoredChunk(full.id(), 0, "# Install\nRun it.", new float[] {1, 2, 3}, 7, 1, 2, "Install", null),
                new StoredChunk(full.id(), 1, "On Linux ...", new float[] {-1, 0.5f, 1e-7f}, 3, 3, 9,
                        "Install > Linux", 4)));
        StoredDocument bare = StoredDocument.builder().tenant("globex").path("empty.md").build();
        store.upsert(bare, List.of());
        StoredDocument other = StoredDocument.builder().tenant("globex").path("a.md").build();
        store.upsert(other, List.of(new StoredChunk(other.id(), 0, "alpha", new float[] {0, 0, 1}, 1, 1, 1, null,
                null)));
        return store;
    }

    @Test
    void saveThenLoad_roundTripsEveryFieldOfEveryTenant() throws IOException {
        InMemoryDocumentStore original = sample();
        Path file = dir.resolve("index.bin");
        original.save(file);
        InMemoryDocumentStore loaded = InMemoryDocumentStore.load(file);

        assertThat(loaded.dimension()).isEqualTo(3);
        for (String tenant : List.of("acme", "globex")) {
            Scope admin = Scope.unrestricted(tenant);
            assertThat(loaded.documents(admin)).isEqualTo(original.documents(admin));
            for (StoredDocument d : original.documents(admin)) {
                assertThat(loaded.chunks(admin, d.id())).isEqualTo(original.chunks(admin, d.id()));
            }
        }
        SearchRequest keyword = SearchRequest.builder(Scope.unrestricted("acme")).text("linux").vector(new float[] {1, 1, 1})
                .build();
        assertThat(loaded.search(keyword)).isEqualTo(original.search(keyword));
        assertThat(Files.list(dir).map(p -> p.getFileName().toString())).containsExactly("index.bin");
    }

    @Test
    void tenants_afterLoad_listsEveryTenantOfTheSnapshot() {
        InMemoryDocumentStore store = InMemoryDocumentStore.builder().build();
        for (String tenant : List.of("zeta", "acme")) {
            StoredDocument d = StoredDocument.builder().tenant(tenant).path("a.md").build();
            store.upsert(d, List.of(new StoredChunk(d.id(), 0, "x", new float[] {1, 0}, 1, 1, 1, null, null)));
        }
        assertThat(store.tenants()).containsExactly("acme", "zeta");
        Path file = dir.resolve("tenants.bin");
        store.save(file);
        assertThat(InMemoryDocumentStore.load(file).tenants()).containsExactly("acme", "zeta");
        assertThat(InMemoryDocumentStore.builder().build().tenants()).isEmpty();
    }

    @Test
    void saveThenLoad_emptyStoreWithADimension_isAnIndexToo() {
        // a first `ragkit index` of a folder with nothing to index writes such a file: the next run must read it
        Path file = dir.resolve("empty.bin");
        InMemoryDocumentStore.builder().dimension(384).build().save(file);

        InMemoryDocumentStore loaded = InMemoryDocumentStore.load(file);

        assertThat(loaded.tenants()).isEmpty();
        StoredDocument d = StoredDocument.builder().tenant("acme").path("a.md").build();
        assertThatThrownBy(() -> loaded.upsert(d, List.of(new StoredChunk(d.id(), 0, "x", new float[] {1, 0}, 1, 1,
                1, null, null)))).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("384");
    }

    @Test
    void save_overExistingSnapshot_replacesIt() {
        Path file = dir.resolve("index.bin");
        sample().save(file);
        InMemoryDocumentStore small = InMemoryDocumentStore.builder().build();
        StoredDocument d = StoredDocument.builder().tenant("acme").path("only.md").build();
        small.upsert(d, List.of(new StoredChunk(d.id(), 0, "x", new float[] {1, 0}, 1, 1, 1, null, null)));
        small.save(file);
        assertThat(InMemoryDocumentStore.load(file).documents(Scope.unrestricted("acme")))
                .extracting(StoredDocument::path).containsExactly("only.md");
    }

    @Test
    void save_besideATemporaryLookingFileThatIsNotASnapshots_keepsIt() throws IOException {
        Path mine = dir.resolve(".index.bin.mine.tmp");
        Files.writeString(mine, "the user's file, not a snapshot");
        Path leftover = dir.resolve(".index.bin.123.tmp");
        Files.write(leftover, new byte[0]);                   // what a save killed before its first write leaves

        sample().save(dir.resolve("index.bin"));

        assertThat(Files.readString(mine)).isEqualTo("the user's file, not a snapshot");
        assertThat(leftover).doesNotExist();
    }

    @Test
    void load_truncatedFile_isRejectedAndLoadsNothing() throws IOException {
        Path file = dir.resolve("index.bin");
        sample().save(file);
        long size = Files.size(file);
        for (long cut : new long[] {0, 4, 8, 20, size / 2, size - 8, size - 1}) {
            Path truncated = dir.resolve("cut-" + cut + ".bin");
            Files.copy(file, truncated);
            try (RandomAccessFile raf = new RandomAccessFile(truncated.toFile(), "rw")) {
                raf.setLength(cut);
            }
            assertThatThrownBy(() -> InMemoryDocumentStore.load(truncated))
                    .as("cut at %d of %d bytes", cut, size)
                    .isInstanceOf(StoreException.class)
                    .hasMessageContaining(truncated.toString())
                    .hasMessageMatching("(?s).*(truncated|corrupted).*");
        }
    }

    @Test
    void load_anyFlippedByte_isRejectedAsCorrupted() throws IOException {
        Path file = dir.resolve("index.bin");
        sample().save(file);
        byte[] good = Files.readAllBytes(file);
        // every byte position: header, lengths, text, floats and the checksum itself
        for (int i = 0; i < good.length; i++) {
            byte[] bad = good.clone();
            bad[i] ^= 0x10;
            Path damaged = dir.resolve("damaged.bin");
            Files.write(damaged, bad);
            int position = i;
            assertThatThrownBy(() -> InMemoryDocumentStore.load(damaged))
                    .as("byte %d flipped", position)
                    .isInstanceOf(StoreException.class)
                    .hasMessageMatching("(?s).*(corrupted|truncated|format version).*");
        }
    }

    @Test
    void load_notASnapshot_saysSo() throws IOException {
        Path file = dir.resolve("notes.txt");
        Files.writeString(file, "these are not the bytes you are looking for");
        assertThatThrownBy(() -> InMemoryDocumentStore.load(file))
                .isInstanceOf(StoreException.class).hasMessageContaining("not a RagKit store snapshot");
    }

    @Test
    void load_newerFormatVersion_namesTheVersions() throws IOException {
        Path file = dir.resolve("index.bin");
        sample().save(file);
        byte[] bytes = Files.readAllBytes(file);
        bytes[11] = 9; // format int follows the 8-byte magic
        Files.write(file, bytes);
        assertThatThrownBy(() -> InMemoryDocumentStore.load(file))
                .isInstanceOf(StoreException.class).hasMessageContaining("format version 9")
                .hasMessageContaining("reads versions 1 to 2");
    }

    @Test
    void load_missingFile_saysHowToCreateOne() {
        assertThatThrownBy(() -> InMemoryDocumentStore.load(dir.resolve("nope.bin")))
                .isInstanceOf(StoreException.class).hasMessageContaining("no snapshot at");
    }

    @Test
    void load_configuredDimensionDiffers_isRejected() {
        Path file = dir.resolve("index.bin");
        sample().save(file);
        assertThatThrownBy(() -> InMemoryDocumentStore.builder().dimension(384).load(file))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("dimension");
    }

    @Test
    void save_intoMissingFolderOrOntoAFolder_failsAndLeavesNothingBehind() throws IOException {
        InMemoryDocumentStore store = sample();
        assertThatThrownBy(() -> store.save(dir.resolve("missing/index.bin")))
                .isInstanceOf(StoreException.class).hasMessageContaining("does not exist");
        Path folder = Files.createDirectory(dir.resolve("index.bin"));
        assertThatThrownBy(() -> store.save(folder)).isInstanceOf(StoreException.class);
        try (Stream<Path> files = Files.list(dir)) {
            assertThat(files).containsExactly(folder);
        }
    }

    @Test
    void save_processKilledMidWrite_previousSnapshotStaysIntactAndNextSaveCleansUp() throws Exception {
        Path file = dir.resolve("index.bin");
        InMemoryDocumentStore previous = sample();
        previous.save(file);
        byte[] before = Files.readAllBytes(file);

        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process child = new ProcessBuilder(java, "-Xmx1g", "-cp", System.getProperty("java.class.path"),
                SnapshotWriterProcess.class.getName(), file.toString(), "6000")
                .redirectErrorStream(true).redirectOutput(dir.resolve("child.log").toFile()).start();
        Path partial = null;
        try {
            // Kill the writer once its temporary file holds a few MB of the ~64 MB it will write.
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
            while (partial == null && System.nanoTime() < deadline && child.isAlive()) {
                try (Stream<Path> files = Files.list(dir)) {
                    for (Path p : (Iterable<Path>) files::iterator) {
                        String name = p.getFileName().toString();
                        if (name.startsWith(".index.bin.") && name.endsWith(".tmp") && Files.size(p) > 4 << 20) {
                            partial = p;
                        }
                    }
                }
                if (partial == null) {
                    Thread.sleep(2);
                }
            }
            child.destroyForcibly(); // SIGKILL: no shutdown hooks, no finally blocks
            assertThat(child.waitFor(30, TimeUnit.SECONDS)).isTrue();
        } finally {
            child.destroyForcibly();
        }
        assertThat(partial).as("the child never got far into its write; see %s", dir.resolve("child.log"))
                .isNotNull();
        assertThat(Files.size(partial)).isLessThan(60L << 20); // really cut short

        assertThat(Files.readAllBytes(file)).isEqualTo(before);
        InMemoryDocumentStore reloaded = InMemoryDocumentStore.load(file);
        assertThat(reloaded.documents(Scope.unrestricted("acme")))
                .isEqualTo(previous.documents(Scope.unrestricted("acme")));
        Path copy = Files.copy(partial, dir.resolve("partial-copy.bin"));
        assertThatThrownBy(() -> InMemoryDocumentStore.load(copy)).isInstanceOf(StoreException.class);
        Files.delete(copy);

        previous.save(file);
        try (Stream<Path> files = Files.list(dir)) {
            assertThat(files.map(p -> p.getFileName().toString())).containsExactlyInAnyOrder("index.bin", "child.log");
        }
    }

}
