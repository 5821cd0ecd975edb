package dev.ragkit.store.solr;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The solr provider reads its settings map through {@code ProviderSettings}: errors name the key. No cluster is
 * needed, as the settings are checked before a client is made.
 */
final class SolrStoreProviderSettingsTest {

    @Test
    void create_unknownKey_isRefusedListingTheKnownOnes() {
        assertThatThrownBy(() -> new SolrStoreProvider().create(Map.of("collection", "c", "dimension", "3",
                "shards", "2"))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unknown solr setting 'shards'")
                .hasMessageContaining("base-urls").hasMessageContaining("zk-hosts");
    }

    @Test
    void create_badNumber_isRefusedNamingTheKey() {
        SolrStoreProvider provider = new SolrStoreProvider();
        String url = "http://127.0.0.1:1/solr";

        assertThatThrownBy(() -> provider.create(Map.of("collection", "c", "dimension", "lots", "base-urls", url)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("solr setting 'dimension' must be a whole number from 1 to 4096, got 'lots'");
        assertThatThrownBy(() -> provider.create(Map.of("collection", "c", "dimension", "3", "base-urls", url,
                "timeout-seconds", "0"))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'timeout-seconds'").hasMessageContaining("(a day)");
        assertThatThrownBy(() -> provider.create(Map.of("collection", "c", "dimension", "3", "base-urls", url,
                "max-k", "many"))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'max-k'").hasMessageContaining("from 1 to 10000");
    }
}
