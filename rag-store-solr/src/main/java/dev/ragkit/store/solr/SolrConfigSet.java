package dev.ragkit.store.solr;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * RagKit's Solr config set ({@code solrconfig.xml} and {@code schema.xml}), shipped in this jar, with the vector
 * dimension filled in. Upload the folder to ZooKeeper and create the collection from it:
 * <pre>{@code
 * SolrConfigSet.write(Path.of("ragkit-conf"), 384);
 * // bin/solr zk upconfig -n ragkit -d ragkit-conf -z zk1:2181
 * // curl 'http://solr:8983/solr/admin/collections?action=CREATE&name=ragkit&collection.configName=ragkit&numShards=2&replicationFactor=2'
 * }</pre>
 */
public final class SolrConfigSet {
    private static final String BASE = "/dev/ragkit/store/solr/configset/";

    private SolrConfigSet() {
    }

    /**
     * Writes the config set into {@code dir} (created if missing).
     *
     * @param dir       the target folder
     * @param dimension the embedding dimension, from 1 to 4096
     * @return {@code dir}
     * @throws IllegalArgumentException on a dimension out of range
     * @throws UncheckedIOException     when the files cannot be written
     */
    public static Path write(Path dir, int dimension) {
        if (dimension < 1 || dimension > 4096) {
            throw new IllegalArgumentException("dimension must be in [1, 4096] (Solr's DenseVectorField limit for "
                    + "the default codec), got " + dimension);
        }
        try {
            Files.createDirectories(dir);
            Files.writeString(dir.resolve("solrconfig.xml"), resource("solrconfig.xml"), StandardCharsets.UTF_8);
            Files.writeString(dir.resolve("schema.xml"),
                    resource("schema.xml").replace("@DIMENSION@", Integer.toString(dimension)), StandardCharsets.UTF_8);
            return dir;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the Solr config set to " + dir + ": " + e.getMessage(), e);
        }
    }

    private static String resource(String name) throws IOException {
        try (InputStream in = SolrConfigSet.class.getResourceAsStream(BASE + name)) {
            if (in == null) {
                throw new IOException(BASE + name + " is missing from the rag-store-solr jar");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
