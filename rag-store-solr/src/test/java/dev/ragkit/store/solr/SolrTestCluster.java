package dev.ragkit.store.solr;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import org.apache.solr.client.solrj.SolrClient;
import org.apache.solr.client.solrj.request.CollectionAdminRequest;
import org.apache.solr.client.solrj.request.UpdateRequest;
import org.apache.solr.cloud.MiniSolrCloudCluster;

/**
 * A real SolrCloud cluster in this JVM (ZooKeeper and Jetty nodes from {@code solr-test-framework}), with a
 * collection created from RagKit's config set.
 */
final class SolrTestCluster implements AutoCloseable {
    final MiniSolrCloudCluster cluster;
    final String collection;
    private final Path base;

    private SolrTestCluster(MiniSolrCloudCluster cluster, String collection, Path base) {
        this.cluster = cluster;
        this.collection = collection;
        this.base = base;
    }

    /**
     * @param nodes     Solr nodes
     * @param shards    shards of the collection
     * @param replicas  replicas per shard
     * @param dimension the vector dimension
     * @return the running cluster with its collection
     */
    static SolrTestCluster start(int nodes, int shards, int replicas, int dimension) throws Exception {
        Path base = Files.createTempDirectory("ragkit-solr");
        Path conf = SolrConfigSet.write(base.resolve("conf"), dimension);
        MiniSolrCloudCluster cluster = new MiniSolrCloudCluster.Builder(nodes, base.resolve("cluster"))
                .addConfig("ragkit", conf).build();
        String collection = "ragkit_" + shards + "x" + replicas;
        CollectionAdminRequest.createCollection(collection, "ragkit", shards, replicas).process(cluster.getSolrClient());
        cluster.waitForActiveCollection(collection, shards, shards * replicas);
        return new SolrTestCluster(cluster, collection, base);
    }

    SolrClient client() {
        return cluster.getSolrClient();
    }

    /** Deletes every document and commits. */
    void clear() throws Exception {
        UpdateRequest u = new UpdateRequest();
        u.deleteByQuery("*:*");
        u.setAction(UpdateRequest.ACTION.COMMIT, true, true, true);
        u.process(client(), collection);
    }

    @Override
    public void close() throws Exception {
        try {
            cluster.shutdown();
        } catch (Exception e) {
            // Every test of the cluster has run and been judged by now. The harness's own shutdown sometimes fails
            // on a loaded machine (Jetty's graceful stop of a node that a test stopped and restarted); that says
            // nothing about the store, so it is reported here rather than failing the class.
            System.err.println("MiniSolrCloudCluster did not shut down cleanly (test harness, not the store): " + e);
        } finally {
            try (Stream<Path> files = Files.walk(base)) {
                files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }
}
