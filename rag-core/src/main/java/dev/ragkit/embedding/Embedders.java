package dev.ragkit.embedding;

import dev.ragkit.error.RagException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.ServiceLoader;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * Embedders by name, from the {@link EmbedderProvider}s on the class path.
 *
 * <pre>{@code
 * Embedder bge = Embedders.load("bge-small-en-v1.5");           // rag-langchain4j + the model's artifact
 * Embedder nomic = Embedders.load("ollama:nomic-embed-text",    // rag-ollama
 *         Map.of("base-url", "http://localhost:11434"));
 * }</pre>
 */
public final class Embedders {

    /**
     * The embedder the CLI uses when none is named: all-MiniLM-L6-v2, quantized. On Cranfield and SciFact it
     * retrieves as well as the full model (hybrid nDCG@10 within 0.001) and indexes about twice as fast
     * (docs/embedders.md).
     */
    public static final String DEFAULT = "all-minilm-l6-v2-q";

    private Embedders() {
    }

    /**
     * Creates the embedder of this name with its provider's default settings.
     *
     * @param name e.g. {@code bge-small-en-v1.5} or {@code ollama:nomic-embed-text}
     * @return a new embedder
     * @throws IllegalArgumentException when no provider serves the name; the message lists the names found
     * @throws IllegalStateException    when the model's artifact is missing; the message names it
     */
    public static Embedder load(String name) {
        return load(name, Map.of());
    }

    /**
     * Creates the embedder of this name.
     *
     * @param name   e.g. {@code bge-small-en-v1.5} or {@code ollama:nomic-embed-text}
     * @param config the provider's settings
     * @return a new embedder
     * @throws IllegalArgumentException when no provider serves the name (the message lists the names found) or a
     *                                  setting is bad
     * @throws IllegalStateException    when the model's artifact is missing; the message names it
     */
    public static Embedder load(String name, Map<String, String> config) {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(config, "config");
        String wanted = name.strip();
        Map<String, EmbedderProvider> providers = available();
        EmbedderProvider provider = providerOf(providers, wanted);
        if (provider == null) {
            throw new IllegalArgumentException("no embedder named '" + name + "'; "
                    + (providers.isEmpty() ? "none is on the class path (add rag-langchain4j for the in-process "
                    + "models, or rag-ollama for ollama:<model>)" : "known: " + String.join(", ",
                    providers.keySet().stream().map(n -> n.endsWith(":") ? n + "<model>" : n).toList())
                    + (wanted.contains(":") ? "" : " (an Ollama model is named ollama:<model>)")));
        }
        return provider.create(wanted, config);
    }

    /**
     * @return every name served, sorted, with its provider ({@code ollama:} standing for its family)
     * @throws RagException when two providers serve the same name
     */
    public static Map<String, EmbedderProvider> available() {
        return byName(ServiceLoader.load(EmbedderProvider.class, Embedders.class.getClassLoader()));
    }

    static @Nullable EmbedderProvider providerOf(Map<String, EmbedderProvider> providers, String name) {
        EmbedderProvider exact = name.endsWith(":") ? null : providers.get(name);
        if (exact != null) {
            return exact;
        }
        for (Map.Entry<String, EmbedderProvider> e : providers.entrySet()) {
            String family = e.getKey();
            if (family.endsWith(":") && name.length() > family.length() && name.startsWith(family)) {
                return e.getValue();
            }
        }
        return null;
    }

    static Map<String, EmbedderProvider> byName(Iterable<EmbedderProvider> found) {
        TreeMap<String, EmbedderProvider> byName = new TreeMap<>();
        for (EmbedderProvider provider : found) {
            List<String> names = new ArrayList<>(provider.names());
            for (String name : names) {
                EmbedderProvider previous = byName.putIfAbsent(name, provider);
                if (previous != null) {
                    throw new RagException("two embedder providers serve '" + name + "': "
                            + previous.getClass().getName() + " and " + provider.getClass().getName()
                            + "; remove one of them from the class path");
                }
            }
        }
        return Collections.unmodifiableMap(byName);
    }
}
