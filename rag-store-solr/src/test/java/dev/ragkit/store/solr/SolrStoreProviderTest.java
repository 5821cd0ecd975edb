package dev.ragkit.store.solr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ragkit.store.DocumentStore;
import dev.ragkit.store.Scope;
import dev.ragkit.store.SearchRequest;
import dev.ragkit.store.StoreProviders;
import dev.ragkit.store.StoredChunk;
import dev.ragkit.store.StoredDocument;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.solr.embedded.JettySolrRunner;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Provider id {@code solr}: found through ServiceLoader, configured from strings, against a real cluster. */
final class SolrStoreProviderTest {
    private static SolrTestCluster solr;

    @BeforeAll
    static void start() throws Exception {
        solr = SolrTestCluster.start(1, 1, 1, 3);
    }

    @AfterAll
    static void stop() throws Exception {
        if (solr != null) {
            solr.close();
        }
    }

    private static Map<String, String> settings() {
        Map<String, String> config = new HashMap<>();
        config.put("collection", solr.collection);
        config.put("dimension", "3");
        return config;
    }

    @Test
    void load_baseUrls_storesAndSearchesAndClosesItsClient() {
        Map<String, String> config = settings();
        JettySolrRunner node = solr.cluster.getJettySolrRunners().get(0);
        config.put("base-urls", node.getBaseUrl().toString());
        config.put("max-k", "50");
        try (DocumentStore store = StoreProviders.load("solr", config)) {
            StoredDocument d = StoredDocument.builder().tenant("acme").path("a.md").build();
            store.upsert(d, List.of(new StoredChunk(d.id(), 0, "hello", new float[] {1, 0, 0}, 1, 1, 1, null, null)));
            assertThat(store.search(SearchRequest.builder(Scope.of("acme")).vector(new float[] {1, 0, 0}).k(5)
                    .build())).singleElement().satisfies(h -> assertThat(h.similarity()).isEqualTo(1.0));
            assertThat(store.capabilities().maxK()).isEqualTo(50);
            assertThat(store.capabilities().keywordSearch()).isTrue();
        }
    }

    @Test
    void load_zkHosts_connectsThroughZooKeeper() {
        Map<String, String> config = settings();
        config.put("zk-hosts", solr.cluster.getZkServer().getZkAddress());
        try (DocumentStore store = StoreProviders.load("solr", config)) {
            assertThat(store.documents(Scope.unrestricted("nobody"))).isEmpty();
        }
    }

    @Test
    void load_badSettings_failNamingTheSetting() {
        Map<String, String> both = settings();
        both.put("zk-hosts", "zk:2181");
        both.put("base-urls", "http://solr:8983/solr");
        assertThatThrownBy(() -> StoreProviders.load("solr", both)).hasMessageContaining("exactly one of");
        Map<String, String> neither = settings();
        assertThatThrownBy(() -> StoreProviders.load("solr", neither)).hasMessageContaining("zk-hosts");
        Map<String, String> noCollection = settings();
        noCollection.remove("collection");
        noCollection.put("base-urls", "http://solr:8983/solr");
        assertThatThrownBy(() -> StoreProviders.load("solr", noCollection)).hasMessageContaining("'collection'");
        Map<String, String> badDimension = settings();
        badDimension.put("dimension", "lots");
        badDimension.put("base-urls", "http://solr:8983/solr");
        assertThatThrownBy(() -> StoreProviders.load("solr", badDimension)).hasMessageContaining("'dimension'");
        Map<String, String> unknown = settings();
        unknown.put("shards", "2");
        assertThatThrownBy(() -> StoreProviders.load("solr", unknown)).hasMessageContaining("unknown solr setting "
                + "'shards'");
        Map<String, String> halfCredentials = settings();
        halfCredentials.put("base-urls", "http://solr:8983/solr");
        halfCredentials.put("username", "ragkit");
        assertThatThrownBy(() -> StoreProviders.load("solr", halfCredentials)).hasMessageContaining("'password'");
    }

    @Test
    void configSet_dimensionOutOfRange_isRejected() {
        assertThatThrownBy(() -> SolrConfigSet.write(java.nio.file.Path.of("unused"), 0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("dimension");
    }
}
