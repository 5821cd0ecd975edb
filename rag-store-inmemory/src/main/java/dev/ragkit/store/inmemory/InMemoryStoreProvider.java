package dev.ragkit.store.inmemory;

import dev.ragkit.store.DocumentStore;
import dev.ragkit.store.ProviderSettings;
import dev.ragkit.store.StoreProvider;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;

/**
 * Provider id {@code in-memory}. Settings (all optional):
 * <ul>
 *   <li>{@code dimension}: the vector dimension; otherwise fixed by the first stored chunk;</li>
 *   <li>{@code embedder}: the embedding model's id, recorded in and checked against the snapshot;</li>
 *   <li>{@code snapshot}: a snapshot file to load when it exists;</li>
 *   <li>{@code kernel}: {@code auto} (default), {@code vector-api} or {@code scalar};</li>
 *   <li>{@code parallel-threshold}: chunks per tenant from which searches scan in parallel;</li>
 *   <li>{@code max-k}: the largest {@code k} a search may ask for.</li>
 * </ul>
 */
public final class InMemoryStoreProvider implements StoreProvider {
    /** The provider id. */
    public static final String ID = "in-memory";
    private static final Set<String> KEYS = Set.of("dimension", "embedder", "snapshot", "kernel", "parallel-threshold",
            "max-k");

    /** For {@link java.util.ServiceLoader}. */
    public InMemoryStoreProvider() {
    }

    @Override
    public String id() {
        return ID;
    }

    @Override
    public DocumentStore create(Map<String, String> config) {
        ProviderSettings settings = new ProviderSettings("in-memory store", config, KEYS);
        InMemoryDocumentStore.Builder builder = InMemoryDocumentStore.builder();
        settings.apply("dimension", v -> builder.dimension(settings.integer("dimension", v)));
        settings.apply("embedder", builder::embedder);
        settings.apply("parallel-threshold", v -> builder.parallelThreshold(settings.integer("parallel-threshold", v)));
        settings.apply("max-k", v -> builder.maxK(settings.integer("max-k", v)));
        settings.apply("kernel", v -> builder.kernel(settings.option("kernel", v, InMemoryDocumentStore.Kernel.class)));
        String snapshot = config.get("snapshot");
        if (snapshot != null && Files.exists(Path.of(snapshot))) {
            return builder.load(Path.of(snapshot));
        }
        return builder.build();
    }
}
