package dev.ragkit.store.solr;

import dev.ragkit.store.DocumentStore;
import dev.ragkit.store.ProviderSettings;
import dev.ragkit.store.StoreProvider;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.solr.client.solrj.impl.CloudHttp2SolrClient;
import org.apache.solr.client.solrj.impl.Http2SolrClient;

/**
 * Provider id {@code solr}. Settings: {@code collection} and {@code dimension} (required); the cluster as either
 * {@code zk-hosts} ({@code host:2181,host2:2181}, with an optional {@code zk-chroot} such as {@code /solr}) or
 * {@code base-urls} ({@code http://solr1:8983/solr,http://solr2:8983/solr}); optional {@code username} and
 * {@code password} (basic authentication), {@code timeout-seconds} (per request, default 30) and {@code max-k}
 * (default 1000). The store closes the client it creates.
 */
public final class SolrStoreProvider implements StoreProvider {
    private static final Set<String> KEYS = Set.of("collection", "dimension", "zk-hosts", "zk-chroot", "base-urls",
            "username", "password", "timeout-seconds", "max-k");

    /** For {@link java.util.ServiceLoader}. */
    public SolrStoreProvider() {
    }

    @Override
    public String id() {
        return "solr";
    }

    @Override
    public DocumentStore create(Map<String, String> config) {
        ProviderSettings settings = new ProviderSettings("solr", config, KEYS);
        String collection = required(config, "collection");
        int dimension = (int) settings.whole("dimension", required(config, "dimension"), 1, 4096,
                "a whole number from 1 to 4096");
        String zk = config.get("zk-hosts");
        String urls = config.get("base-urls");
        if ((zk == null) == (urls == null)) {
            throw new IllegalArgumentException("set exactly one of the solr settings 'zk-hosts' (e.g. zk1:2181,zk2:2181)"
                    + " or 'base-urls' (e.g. http://solr1:8983/solr)");
        }
        String user = config.get("username");
        String password = config.get("password");
        if ((user == null) != (password == null)) {
            throw new IllegalArgumentException("set both solr settings 'username' and 'password', or neither");
        }
        int timeout = config.containsKey("timeout-seconds")
                ? (int) settings.seconds("timeout-seconds", config.get("timeout-seconds")) : 30;
        Http2SolrClient.Builder http = new Http2SolrClient.Builder()
                .withRequestTimeout(timeout, TimeUnit.SECONDS).withConnectionTimeout(Math.min(timeout, 10),
                        TimeUnit.SECONDS);
        if (user != null) {
            http.withBasicAuthCredentials(user, password);
        }
        CloudHttp2SolrClient.Builder cloud = zk != null
                ? new CloudHttp2SolrClient.Builder(list(zk, "zk-hosts"), Optional.ofNullable(config.get("zk-chroot")))
                : new CloudHttp2SolrClient.Builder(list(urls, "base-urls"));
        SolrDocumentStore.Builder store = SolrDocumentStore.builder().collection(collection).dimension(dimension);
        settings.apply("max-k", v -> store.maxK((int) settings.whole("max-k", v, 1, 10_000,
                "a whole number from 1 to 10000")));
        return store.ownedClient(cloud.withInternalClientBuilder(http).build()).build();
    }

    private static String required(Map<String, String> config, String key) {
        String value = config.get(key);
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException("the solr setting '" + key + "' is required");
        }
        return value.strip();
    }

    private static List<String> list(String value, String key) {
        List<String> out = new ArrayList<>();
        for (String part : value.split(",")) {
            if (!part.isBlank()) {
                out.add(part.strip());
            }
        }
        if (out.isEmpty()) {
            throw new IllegalArgumentException("the solr setting '" + key + "' lists nothing");
        }
        return out;
    }
}
