package dev.ragkit.ollama;

import dev.ragkit.embedding.Embedder;
import dev.ragkit.embedding.EmbedderProvider;
import dev.ragkit.http.HttpSettings;
import dev.ragkit.store.ProviderSettings;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Every Ollama embedding model as {@code ollama:<model>} (for example {@code ollama:nomic-embed-text}), for
 * {@link dev.ragkit.embedding.Embedders}. Settings (all optional): {@code base-url} (default
 * {@code http://localhost:11434}), {@code timeout-seconds} (per request, 1 to 86,400), {@code connect-timeout-seconds} (default 5), {@code batch-size} (texts per
 * request, 1 to 2,048, default 32), {@code dimension} (checked against every reply; default learned from the first),
 * {@code truncate} ({@code true}/{@code false}: whether Ollama may cut texts over the model's context, default
 * {@code false}, so an over-long text fails instead), {@code max-retries} (0 to 10). Unknown keys and bad values are
 * rejected with an {@link IllegalArgumentException} naming the key.
 */
public final class OllamaEmbedderProvider implements EmbedderProvider {
    /** The family prefix. */
    public static final String PREFIX = "ollama:";

    private static final Set<String> KEYS = Stream.concat(HttpSettings.PROVIDER_KEYS.stream(),
            Stream.of("batch-size", "dimension", "truncate")).collect(Collectors.toUnmodifiableSet());

    /** For {@link java.util.ServiceLoader}. */
    public OllamaEmbedderProvider() {
    }

    @Override
    public List<String> names() {
        return List.of(PREFIX);
    }

    @Override
    public String describe(String name) {
        return "any embedding model an Ollama server has pulled, e.g. ollama:nomic-embed-text";
    }

    @Override
    public Embedder create(String name, Map<String, String> config) {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(config, "config");
        if (!name.startsWith(PREFIX) || name.length() == PREFIX.length() || name.substring(PREFIX.length()).isBlank()) {
            throw new IllegalArgumentException("an Ollama embedder is named ollama:<model>, e.g. "
                    + "ollama:nomic-embed-text; got '" + name + "'");
        }
        ProviderSettings settings = new ProviderSettings("ollama embedder", config, KEYS);
        OllamaEmbedder.Builder b = OllamaEmbedder.builder().model(name.substring(PREFIX.length())).apply(settings);
        settings.apply("batch-size", v -> b.batchSize((int) settings.whole("batch-size", v, 1, 2048,
                "a whole number from 1 to 2048")));
        settings.apply("dimension", v -> b.dimension((int) settings.whole("dimension", v, 1, 65_536,
                "a whole number from 1 to 65536")));
        settings.apply("truncate", v -> b.truncate(settings.bool("truncate", v)));
        return b.build();
    }
}
