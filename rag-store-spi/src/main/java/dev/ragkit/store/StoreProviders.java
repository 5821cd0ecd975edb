package dev.ragkit.store;

import java.lang.System.Logger.Level;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.ServiceLoader;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * Finds {@link StoreProvider}s on the class path and creates stores by provider id.
 *
 * <p>Thread-safe; every call scans the class path anew, so call it once at start-up. A store passed
 * directly to a builder always wins over discovery.
 */
public final class StoreProviders {
    private static final System.Logger LOG = System.getLogger(StoreProviders.class.getName());

    private StoreProviders() {
    }

    /**
     * The providers visible to this class's class loader, by id.
     *
     * @return the providers, sorted by id
     * @throws StoreException when two providers share an id
     */
    public static Map<String, StoreProvider> available() {
        return available(StoreProviders.class.getClassLoader());
    }

    /**
     * The providers visible to {@code loader}, by id.
     *
     * @param loader the class loader to search, or {@code null} for the system class loader
     * @return the providers, sorted by id
     * @throws StoreException when two providers share an id
     */
    public static Map<String, StoreProvider> available(@Nullable ClassLoader loader) {
        return byId(ServiceLoader.load(StoreProvider.class, loader));
    }

    /**
     * Creates a store with the provider of this id.
     *
     * @param id     the provider id, e.g. {@code in-memory}
     * @param config the provider's settings
     * @return a new store
     * @throws IllegalArgumentException when no provider has this id; the message lists the ids found
     * @throws StoreException           when two providers share an id, or the store cannot be opened
     */
    public static DocumentStore load(String id, Map<String, String> config) {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(config, "config");
        Map<String, StoreProvider> providers = available();
        StoreProvider provider = providers.get(id);
        if (provider == null) {
            throw new IllegalArgumentException("no store provider with id '" + id + "'; found "
                    + (providers.isEmpty() ? "none (add a store module such as rag-store-inmemory to the class path)"
                    : String.join(", ", providers.keySet())));
        }
        return provider.create(config);
    }

    static Map<String, StoreProvider> byId(Iterable<StoreProvider> found) {
        TreeMap<String, StoreProvider> byId = new TreeMap<>();
        for (StoreProvider provider : found) {
            String id = provider.id();
            StoreProvider previous = byId.putIfAbsent(id, provider);
            if (previous != null) {
                throw new StoreException("two store providers share the id '" + id + "': "
                        + previous.getClass().getName() + " and " + provider.getClass().getName()
                        + "; remove one of them from the class path", false);
            }
            LOG.log(Level.INFO, "found store provider ''{0}'' ({1})", id, provider.getClass().getName());
        }
        return Collections.unmodifiableMap(byId);
    }

}
