package dev.ragkit.store.lucene;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ragkit.store.DocumentStore;
import dev.ragkit.store.StoreProviders;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The lucene provider reads its settings map through {@code ProviderSettings}: errors name the key. */
final class LuceneStoreProviderSettingsTest {

    @Test
    void create_unknownKey_isRefusedListingTheKnownOnes(@TempDir Path dir) {
        assertThatThrownBy(() -> new LuceneStoreProvider().create(Map.of("directory", dir.toString(),
                "dimensions", "3"))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unknown lucene store setting 'dimensions'")
                .hasMessageContaining("directory").hasMessageContaining("search-candidates");
    }

    @Test
    void create_badNumberBooleanOrMode_isRefusedNamingTheKey(@TempDir Path dir) {
        LuceneStoreProvider provider = new LuceneStoreProvider();
        String d = dir.resolve("index").toString();

        assertThatThrownBy(() -> provider.create(Map.of("directory", d, "dimension", "three")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("lucene store setting 'dimension' must be a whole number, got 'three'");
        assertThatThrownBy(() -> provider.create(Map.of("directory", d, "max-k", "0")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'max-k'");
        assertThatThrownBy(() -> provider.create(Map.of("directory", d, "read-only", "yes")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'read-only'")
                .hasMessageContaining("true or false");
        assertThatThrownBy(() -> provider.create(Map.of("directory", d, "commit", "sometimes")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'commit'")
                .hasMessageContaining("each-write, batched");
        assertThat(Files.exists(dir.resolve("index"))).as("nothing opened on a refused setting").isFalse();
    }

    @Test
    void create_goodSettings_areApplied(@TempDir Path dir) {
        try (DocumentStore store = StoreProviders.load("lucene", Map.of("directory", dir.toString(),
                "dimension", "3", "max-k", "7", "commit", "batched", "read-only", "FALSE"))) {
            assertThat(store.capabilities().maxK()).isEqualTo(7);
        }
    }
}
