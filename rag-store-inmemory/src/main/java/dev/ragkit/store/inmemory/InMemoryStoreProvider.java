package dev.ragkit.store.inmemory;

import dev.ragkit.store.DocumentStore;
import dev.ragkit.store.StoreProvider;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

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
        Objects.requireNonNull(config, "config");
        for (String key : config.keySet()) {
            if (!KEYS.contains(key)) {
                throw new IllegalArgumentException("unknown in-memory store setting '" + key + "'; known settings: "
                        + String.join(", ", new TreeSet<>(KEYS)));
            }
        }
        InMemoryDocumentStore.Builder builder = InMemoryDocumentStore.builder();
        if (config.containsKey("dimension")) {
            builder.dimension(integer(config, "dimension"));
        }
        if (config.containsKey("embedder")) {
            builder.embedder(config.get("embedder"));
        }
        if (config.containsKey("parallel-threshold")) {
            builder.parallelThreshold(integer(config, "parallel-threshold"));
        }
        if (config.containsKey("max-k")) {
            builder.maxK(integer(config, "max-k"));
        }
        if (config.containsKey("kernel")) {
            String kernel = config.get("kernel").strip().toUpperCase(Locale.ROOT).replace('-', '_');
            try {
                builder.kernel(InMemoryDocumentStore.Kernel.valueOf(kernel));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("in-memory store setting kernel='" + config.get("kernel")
                        + "' is not one of: auto, vector-api, scalar", e);
            }
        }
        String snapshot = config.get("snapshot");
        if (snapshot != null && Files.exists(Path.of(snapshot))) {
            return builder.load(Path.of(snapshot));
        }
        return builder.build();
    }

    private static int integer(Map<String, String> config, String key) {
        String value = config.get(key);
        try {
            return Integer.parseInt(value.strip());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("in-memory store setting " + key + "='" + value
                    + "' is not a whole number", e);
        }
    }
}
