package dev.ragkit.ollama;

import dev.ragkit.generation.LlmBackend;
import dev.ragkit.generation.LlmBackendProvider;
import dev.ragkit.http.HttpSettings;
import dev.ragkit.store.ProviderSettings;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Provider id {@code ollama}. Settings (all optional): {@code base-url} (default {@code http://localhost:11434}),
 * {@code timeout-seconds} (read and whole-call limit, default 30), {@code connect-timeout-seconds} (default 5),
 * {@code keep-alive} (e.g. {@code 5m}), {@code seed}, {@code pull-if-missing} ({@code true}/{@code false}),
 * {@code max-retries} (0 to 10, default 2). Time limits are whole seconds from 1 to 86,400 (a day,
 * {@code Settings.MAX_TIMEOUT}). Unknown keys
 * and bad values are rejected with an {@link IllegalArgumentException} naming the key.
 */
public final class OllamaBackendProvider implements LlmBackendProvider {
    private static final Set<String> KEYS = Stream.concat(HttpSettings.PROVIDER_KEYS.stream(),
            Stream.of("keep-alive", "seed", "pull-if-missing")).collect(Collectors.toUnmodifiableSet());

    /** For {@link java.util.ServiceLoader}. */
    public OllamaBackendProvider() {
    }

    @Override
    public String id() {
        return "ollama";
    }

    @Override
    public LlmBackend create(Map<String, String> config) {
        Objects.requireNonNull(config, "config");
        ProviderSettings settings = new ProviderSettings("ollama", config, KEYS);
        OllamaBackend.Builder b = OllamaBackend.builder().apply(settings);
        settings.apply("keep-alive", b::keepAlive);
        settings.apply("seed", v -> b.seed(settings.whole("seed", v, Long.MIN_VALUE, Long.MAX_VALUE,
                "a whole number")));
        settings.apply("pull-if-missing", v -> b.pullIfMissing(settings.bool("pull-if-missing", v)));
        return b.build();
    }
}
