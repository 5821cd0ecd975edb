package dev.ragkit.ollama;

import dev.ragkit.generation.LlmBackend;
import dev.ragkit.generation.LlmBackendProvider;
import dev.ragkit.http.ModelHttp;
import dev.ragkit.http.ProviderSettings;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Provider id {@code ollama}. Settings (all optional): {@code base-url} (default {@code http://localhost:11434}),
 * {@code timeout-seconds} (read and whole-call limit, default 30), {@code connect-timeout-seconds} (default 5),
 * {@code keep-alive} (e.g. {@code 5m}), {@code seed}, {@code pull-if-missing} ({@code true}/{@code false}),
 * {@code max-retries} (0 to 10, default 2). Time limits are whole seconds from 1 to 86,400 (a day,
 * {@code Settings.MAX_TIMEOUT}). Unknown keys
 * and bad values are rejected with an {@link IllegalArgumentException} naming the key.
 */
public final class OllamaBackendProvider implements LlmBackendProvider {
    private static final Set<String> KEYS = Set.of("base-url", "timeout-seconds", "connect-timeout-seconds",
            "keep-alive", "seed", "pull-if-missing", "max-retries");

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
        OllamaBackend.Builder b = OllamaBackend.builder();
        settings.apply("base-url", b::baseUrl);
        settings.apply("timeout-seconds", v -> {
            Duration d = Duration.ofSeconds(settings.seconds("timeout-seconds", v));
            b.readTimeout(d).callTimeout(d);
        });
        settings.apply("connect-timeout-seconds",
                v -> b.connectTimeout(Duration.ofSeconds(settings.seconds("connect-timeout-seconds", v))));
        settings.apply("keep-alive", b::keepAlive);
        settings.apply("seed", v -> b.seed(settings.whole("seed", v, Long.MIN_VALUE, Long.MAX_VALUE,
                "a whole number")));
        settings.apply("pull-if-missing", v -> b.pullIfMissing(settings.bool("pull-if-missing", v)));
        settings.apply("max-retries", v -> b.maxRetries((int) settings.whole("max-retries", v, 0,
                ModelHttp.MAX_RETRIES, "a whole number from 0 to " + ModelHttp.MAX_RETRIES)));
        return b.build();
    }
}
