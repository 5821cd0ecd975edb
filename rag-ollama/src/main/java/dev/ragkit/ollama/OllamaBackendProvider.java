package dev.ragkit.ollama;

import dev.ragkit.generation.LlmBackend;
import dev.ragkit.generation.LlmBackendProvider;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Provider id {@code ollama}. Settings (all optional): {@code base-url} (default {@code http://localhost:11434}),
 * {@code timeout-seconds} (read and whole-call limit, default 30), {@code connect-timeout-seconds} (default 5),
 * {@code keep-alive} (e.g. {@code 5m}), {@code seed}, {@code pull-if-missing} ({@code true}/{@code false}),
 * {@code max-retries} (default 2).
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
        for (String key : config.keySet()) {
            if (!KEYS.contains(key)) {
                throw new IllegalArgumentException("unknown ollama setting '" + key + "'; known settings: "
                        + new TreeSet<>(KEYS));
            }
        }
        OllamaBackend.Builder b = OllamaBackend.builder();
        String url = config.get("base-url");
        if (url != null) {
            b.baseUrl(url);
        }
        String timeout = config.get("timeout-seconds");
        if (timeout != null) {
            Duration d = Duration.ofSeconds(positive("timeout-seconds", timeout));
            b.readTimeout(d).callTimeout(d);
        }
        String connect = config.get("connect-timeout-seconds");
        if (connect != null) {
            b.connectTimeout(Duration.ofSeconds(positive("connect-timeout-seconds", connect)));
        }
        String keepAlive = config.get("keep-alive");
        if (keepAlive != null) {
            b.keepAlive(keepAlive);
        }
        String seed = config.get("seed");
        if (seed != null) {
            try {
                b.seed(Long.parseLong(seed.strip()));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("ollama setting 'seed' must be a whole number, got '" + seed + "'");
            }
        }
        String pull = config.get("pull-if-missing");
        if (pull != null) {
            if (!pull.equalsIgnoreCase("true") && !pull.equalsIgnoreCase("false")) {
                throw new IllegalArgumentException("ollama setting 'pull-if-missing' must be true or false, got '"
                        + pull + "'");
            }
            b.pullIfMissing(Boolean.parseBoolean(pull));
        }
        String retries = config.get("max-retries");
        if (retries != null) {
            try {
                b.maxRetries(Integer.parseInt(retries.strip()));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("ollama setting 'max-retries' must be a whole number from 0 to 10,"
                        + " got '" + retries + "'");
            }
        }
        return b.build();
    }

    private static long positive(String key, String value) {
        try {
            long n = Long.parseLong(value.strip());
            if (n >= 1) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException("ollama setting '" + key + "' must be a whole number of seconds, at least "
                + "1, got '" + value + "'");
    }
}
