package dev.ragkit.ollama;

import dev.ragkit.internal.Settings;
import dev.ragkit.generation.LlmBackend;
import dev.ragkit.generation.LlmBackendProvider;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;

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
    /** The longest time limit, {@code Settings.MAX_TIMEOUT} (a day), in seconds. */
    private static final long MAX_SECONDS = Settings.MAX_TIMEOUT.toSeconds();

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
        for (String key : config.keySet()) {
            if (key == null || !KEYS.contains(key)) {
                throw new IllegalArgumentException("unknown ollama setting '" + key + "'; known settings: "
                        + new TreeSet<>(KEYS));
            }
        }
        OllamaBackend.Builder b = OllamaBackend.builder();
        apply(config, "base-url", b::baseUrl);
        apply(config, "timeout-seconds", v -> {
            Duration d = Duration.ofSeconds(seconds("timeout-seconds", v));
            b.readTimeout(d).callTimeout(d);
        });
        apply(config, "connect-timeout-seconds",
                v -> b.connectTimeout(Duration.ofSeconds(seconds("connect-timeout-seconds", v))));
        apply(config, "keep-alive", b::keepAlive);
        apply(config, "seed", v -> {
            try {
                b.seed(Long.parseLong(v.strip()));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("ollama setting 'seed' must be a whole number, got '" + v + "'");
            }
        });
        apply(config, "pull-if-missing", v -> {
            if (!v.equalsIgnoreCase("true") && !v.equalsIgnoreCase("false")) {
                throw new IllegalArgumentException("ollama setting 'pull-if-missing' must be true or false, got '"
                        + v + "'");
            }
            b.pullIfMissing(Boolean.parseBoolean(v));
        });
        apply(config, "max-retries", v -> {
            int retries;
            try {
                retries = Integer.parseInt(v.strip());
            } catch (NumberFormatException e) {
                retries = -1;
            }
            if (retries < 0 || retries > OllamaHttp.MAX_RETRIES) {
                throw new IllegalArgumentException("ollama setting 'max-retries' must be a whole number from 0 to "
                        + OllamaHttp.MAX_RETRIES + ", got '" + v + "'");
            }
            b.maxRetries(retries);
        });
        return b.build();
    }

    /**
     * Hands a present setting to {@code setter}; a value the builder rejects is reported under the setting's key,
     * so that the message names what to change in the configuration.
     */
    private static void apply(Map<String, String> config, String key, Consumer<String> setter) {
        String value = config.get(key);
        if (value == null) {
            return;
        }
        try {
            setter.accept(value);
        } catch (IllegalArgumentException e) {
            String message = String.valueOf(e.getMessage());
            throw message.contains("'" + key + "'") ? e
                    : new IllegalArgumentException("ollama setting '" + key + "' has a bad value '" + value + "': "
                            + message, e);
        }
    }

    private static long seconds(String key, String value) {
        try {
            long n = Long.parseLong(value.strip());
            if (n >= 1 && n <= MAX_SECONDS) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException("ollama setting '" + key + "' must be a whole number of seconds from 1 to "
                + MAX_SECONDS + " (a day), got '" + value + "'");
    }
}
