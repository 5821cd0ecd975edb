package dev.ragkit.generation;

import dev.ragkit.error.RagException;
import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.ServiceLoader;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Finds {@link LlmBackendProvider}s on the class path. */
public final class LlmBackends {
    private static final Logger LOG = LoggerFactory.getLogger(LlmBackends.class);

    private LlmBackends() {
    }

    /**
     * @return the providers visible to this class's class loader, by id (sorted)
     * @throws RagException when two providers share an id
     */
    public static Map<String, LlmBackendProvider> available() {
        return available(LlmBackends.class.getClassLoader());
    }

    /**
     * @param loader the class loader to search, or {@code null} for the system class loader
     * @return the providers visible to it, by id (sorted)
     * @throws RagException when two providers share an id
     */
    public static Map<String, LlmBackendProvider> available(@Nullable ClassLoader loader) {
        return byId(ServiceLoader.load(LlmBackendProvider.class, loader));
    }

    /**
     * Creates a backend with the provider of this id.
     *
     * @param id     the provider id, e.g. {@code ollama}
     * @param config the provider's settings
     * @return a new backend
     * @throws IllegalArgumentException when no provider has this id; the message lists the ids found
     */
    public static LlmBackend load(String id, Map<String, String> config) {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(config, "config");
        Map<String, LlmBackendProvider> providers = available();
        LlmBackendProvider provider = providers.get(id);
        if (provider == null) {
            throw new IllegalArgumentException("no LLM backend provider with id '" + id + "'; found "
                    + (providers.isEmpty() ? "none (add a backend module such as rag-ollama to the class path)"
                    : String.join(", ", providers.keySet())));
        }
        return provider.create(config);
    }

    static Map<String, LlmBackendProvider> byId(Iterable<LlmBackendProvider> found) {
        TreeMap<String, LlmBackendProvider> byId = new TreeMap<>();
        for (LlmBackendProvider provider : found) {
            LlmBackendProvider previous = byId.putIfAbsent(provider.id(), provider);
            if (previous != null) {
                throw new RagException("two LLM backend providers share the id '" + provider.id() + "': "
                        + previous.getClass().getName() + " and " + provider.getClass().getName()
                        + "; remove one of them from the class path");
            }
            LOG.info("found LLM backend provider '{}' ({})", provider.id(), provider.getClass().getName());
        }
        return Collections.unmodifiableMap(byId);
    }
}
