package dev.ragkit.store.solr;

import dev.ragkit.store.DocumentStore;
import dev.ragkit.store.tck.DocumentStoreContract;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * The whole store contract against a real two-node SolrCloud cluster, its collection split into two shards.
 */
final class SolrDocumentStoreContractTest extends DocumentStoreContract {
    private static SolrTestCluster solr;

    @BeforeAll
    static void startCluster() throws Exception {
        solr = SolrTestCluster.start(2, 2, 1, 8);
    }

    @AfterAll
    static void stopCluster() throws Exception {
        if (solr != null) {
            solr.close();
        }
    }

    @Override
    protected DocumentStore createStore() {
        try {
            solr.clear();
        } catch (Exception e) {
            throw new IllegalStateException("could not clear the test collection", e);
        }
        return SolrDocumentStore.builder().client(solr.client()).collection(solr.collection).dimension(dimension())
                .build();
    }
}
