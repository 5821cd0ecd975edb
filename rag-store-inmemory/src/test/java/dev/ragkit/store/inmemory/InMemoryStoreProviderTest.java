package dev.ragkit.store.inmemory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ragkit.store.DocumentStore;
import dev.ragkit.store.Scope;
import dev.ragkit.store.StoreProviders;
import dev.ragkit.store.StoredChunk;
import dev.ragkit.store.StoredDocument;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class InMemoryStoreProviderTest {

    @Test
    void load_byId_findsTheProviderThroughServiceLoader() {
        assertThat(StoreProviders.available()).containsKey("in-memory");
        try (DocumentStore store = StoreProviders.load("in-memory", Map.of())) {
            assertThat(store).isInstanceOf(InMemoryDocumentStore.class);
            assertThat(store.capabilities().keywordSearch()).isTrue();
        }
    }

    @Test
    void load_unknownId_listsTheIdsThatExist() {
        assertThatThrownBy(() -> StoreProviders.load("in-memroy", Map.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("in-memroy").hasMessageContaining("found in-memory");
    }

    @Test
    void create_settingsAreApplied() {
        InMemoryDocumentStore store = (InMemoryDocumentStore) new InMemoryStoreProvider().create(
                Map.of("dimension", "3", "kernel", "scalar", "max-k", "7", "parallel-threshold", "5"));
        assertThat(store.dimension()).isEqualTo(3);
        assertThat(store.kernelName()).isEqualTo("scalar");
        assertThat(store.capabilities().maxK()).isEqualTo(7);
    }

    @Test
    void create_unknownOrBadSetting_isRejectedNamingIt() {
        InMemoryStoreProvider provider = new InMemoryStoreProvider();
        assertThatThrownBy(() -> provider.create(Map.of("dimensions", "3")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'dimensions'")
                .hasMessageContaining("dimension, embedder, kernel, max-k, parallel-threshold, snapshot");
        assertThatThrownBy(() -> provider.create(Map.of("dimension", "three")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("in-memory store setting 'dimension' must be a whole number, got 'three'");
        assertThatThrownBy(() -> provider.create(Map.of("parallel-threshold", "1.5")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'parallel-threshold'");
        assertThatThrownBy(() -> provider.create(Map.of("kernel", "gpu")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("auto, vector-api, scalar");
        assertThatThrownBy(() -> provider.create(Map.of("max-k", "0")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'max-k'")
                .hasMessageContaining("maxK");
    }

    @Test
    void create_embedderSetting_isRecordedInTheSnapshotAndCheckedAgainstIt(@TempDir Path dir) {
        Path file = dir.resolve("index.bin");
        InMemoryStoreProvider provider = new InMemoryStoreProvider();
        InMemoryDocumentStore store = (InMemoryDocumentStore) provider.create(
                Map.of("embedder", "ollama:nomic-embed-text", "snapshot", file.toString()));
        assertThat(store.embedder()).isEqualTo("ollama:nomic-embed-text");
        store.save(file);

        assertThat(((InMemoryDocumentStore) provider.create(Map.of("snapshot", file.toString()))).embedder())
                .isEqualTo("ollama:nomic-embed-text");
        assertThatThrownBy(() -> provider.create(Map.of("embedder", "all-minilm", "snapshot", file.toString())))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'ollama:nomic-embed-text'")
                .hasMessageContaining("'all-minilm'");
        assertThatThrownBy(() -> provider.create(Map.of("embedder", " ")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("embedder must not be blank");
    }

    @Test
    void create_withSnapshot_loadsItWhenPresentAndStartsEmptyOtherwise(@TempDir Path dir) {
        Path file = dir.resolve("index.bin");
        InMemoryStoreProvider provider = new InMemoryStoreProvider();
        DocumentStore fresh = provider.create(Map.of("snapshot", file.toString()));
        assertThat(fresh.documents(Scope.unrestricted("t"))).isEmpty();

        StoredDocument d = StoredDocument.builder().tenant("t").path("a.md").build();
        fresh.upsert(d, List.of(new StoredChunk(d.id(), 0, "a", new float[] {1, 2}, 1, 1, 1, null, null)));
        ((InMemoryDocumentStore) fresh).save(file);
        DocumentStore loaded = provider.create(Map.of("snapshot", file.toString()));
        assertThat(loaded.documents(Scope.unrestricted("t"))).containsExactly(d);
    }
}
