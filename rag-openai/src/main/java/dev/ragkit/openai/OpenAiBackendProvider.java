package dev.ragkit.openai;

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
 * Provider id {@code openai}. Settings (all optional): {@code base-url} (default {@code https://api.openai.com/v1};
 * for a local server e.g. {@code http://localhost:8000/v1}), {@code api-key-env} (the environment variable holding
 * the key, default {@code OPENAI_API_KEY}; the key itself is never a setting, so it stays out of configuration
 * files), {@code timeout-seconds} (default 60), {@code connect-timeout-seconds} (default 10),
 * {@code context-window} (for models the backend does not know), {@code seed}, {@code max-retries} (0 to 10,
 * default 2), {@code include-usage} ({@code true}/{@code false}, default true). Unknown keys and bad values are
 * rejected with an {@link IllegalArgumentException} naming the key.
 */
public final class OpenAiBackendProvider implements LlmBackendProvider {
    private static final Set<String> KEYS = Stream.concat(HttpSettings.PROVIDER_KEYS.stream(),
            Stream.of("api-key-env", "context-window", "seed", "include-usage")).collect(Collectors.toUnmodifiableSet());
    private final Map<String, String> environment;

    /** For {@link java.util.ServiceLoader}: reads the key from the process environment. */
    public OpenAiBackendProvider() {
        this(System.getenv());
    }

    OpenAiBackendProvider(Map<String, String> environment) {
        this.environment = environment;
    }

    @Override
    public String id() {
        return "openai";
    }

    @Override
    public LlmBackend create(Map<String, String> config) {
        Objects.requireNonNull(config, "config");
        ProviderSettings settings = new ProviderSettings("openai", config, KEYS);
        String keyVariable = config.getOrDefault("api-key-env", OpenAiConfig.OPENAI_API_KEY);
        OpenAiBackend.Builder b = OpenAiBackend.builder();
        settings.apply("api-key-env", v -> b.config(OpenAiConfig.fromEnvironment(environment, v.strip())));
        if (!config.containsKey("api-key-env")) {
            b.config(OpenAiConfig.fromEnvironment(environment, keyVariable));
        }
        b.apply(settings);
        settings.apply("context-window", v -> b.contextWindow((int) settings.whole("context-window", v,
                OpenAiConfig.MIN_WINDOW, OpenAiConfig.MAX_WINDOW, "a whole number of tokens from "
                        + OpenAiConfig.MIN_WINDOW + " to " + OpenAiConfig.MAX_WINDOW)));
        settings.apply("seed", v -> b.seed(settings.whole("seed", v, Long.MIN_VALUE, Long.MAX_VALUE,
                "a whole number")));
        settings.apply("include-usage", v -> b.includeUsage(settings.bool("include-usage", v)));
        return b.build();
    }
}
