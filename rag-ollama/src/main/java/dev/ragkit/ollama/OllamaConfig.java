package dev.ragkit.ollama;

import dev.ragkit.internal.Settings;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Where the Ollama server is and how long one call to it may take: the settings that {@link OllamaBackend} and
 * {@link OllamaEmbedder} read from the environment. Immutable and thread-safe.
 *
 * <p>Given to a builder's {@code config(...)}, it is a <em>base layer</em>: a value set on the builder itself
 * ({@code baseUrl(...)}, a timeout) wins, whatever the order of the calls.
 * <table>
 *   <caption>Environment variables</caption>
 *   <tr><th>Variable</th><th>Default</th><th>Accepts</th><th>Accessor</th></tr>
 *   <tr><td>{@code OLLAMA_BASE_URL}</td><td>{@code http://localhost:11434}</td>
 *       <td>an http or https URL with a host</td><td>{@link #baseUrl()}</td></tr>
 *   <tr><td>{@code RAG_TIMEOUT_SECONDS}</td><td>30</td><td>a whole number of seconds from 1 to 86400 (a day)</td>
 *       <td>{@link #timeout()}</td></tr>
 * </table>
 */
public final class OllamaConfig {
    /** Environment variable of {@link #baseUrl()}. */
    public static final String OLLAMA_BASE_URL = "OLLAMA_BASE_URL";
    /** Environment variable of {@link #timeout()}, in whole seconds. */
    public static final String RAG_TIMEOUT_SECONDS = Settings.RAG_TIMEOUT_SECONDS;

    private static final OllamaConfig DEFAULTS = new OllamaConfig(URI.create(OllamaBackend.DEFAULT_BASE_URL),
            Duration.ofSeconds(30));

    private final URI baseUrl;
    private final Duration timeout;

    private OllamaConfig(URI baseUrl, Duration timeout) {
        this.baseUrl = baseUrl;
        this.timeout = timeout;
    }

    /** @return {@code http://localhost:11434} and 30 seconds */
    public static OllamaConfig defaults() {
        return DEFAULTS;
    }

    /**
     * @return the defaults overridden by the process environment
     * @throws IllegalArgumentException naming the variable when one holds a value it does not accept
     */
    public static OllamaConfig fromEnvironment() {
        return fromEnvironment(System.getenv());
    }

    /**
     * @param env variable names to values; missing or blank variables keep the default, values are trimmed
     * @return the defaults overridden by the variables
     * @throws IllegalArgumentException naming the variable when one holds a value it does not accept
     */
    public static OllamaConfig fromEnvironment(Map<String, String> env) {
        Objects.requireNonNull(env, "env");
        Builder b = builder();
        Settings.read(env, OLLAMA_BASE_URL, "an http or https URL with a host, such as http://localhost:11434",
                b::baseUrl);
        Settings.read(env, RAG_TIMEOUT_SECONDS, Settings.TIMEOUT_SECONDS_RULE,
                v -> b.timeout(Settings.parseSeconds(v)));
        return b.build();
    }

    /** @return an empty builder: what it does not set comes from the {@link #defaults()} */
    public static Builder builder() {
        return new Builder();
    }

    /** @return the server's base URL; default {@code http://localhost:11434} */
    public URI baseUrl() {
        return baseUrl;
    }

    /** @return how long one call may take (read limit and whole-call limit); default 30 seconds */
    public Duration timeout() {
        return timeout;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof OllamaConfig c && baseUrl.equals(c.baseUrl) && timeout.equals(c.timeout);
    }

    @Override
    public int hashCode() {
        return Objects.hash(baseUrl, timeout);
    }

    @Override
    public String toString() {
        return "OllamaConfig[baseUrl=" + baseUrl + ", timeout=" + timeout + "]";
    }

    /** Builds an {@link OllamaConfig}; setters reject bad values at once. Not thread-safe. */
    public static final class Builder {
        private @Nullable URI baseUrl;
        private @Nullable Duration timeout;

        private Builder() {
        }

        /** @param url an http or https URL with a host @return this builder */
        public Builder baseUrl(String url) {
            this.baseUrl = Settings.httpUrl(url, "baseUrl");
            return this;
        }

        /** @param timeout positive, at most a day @return this builder */
        public Builder timeout(Duration timeout) {
            this.timeout = Settings.timeout(timeout, "timeout");
            return this;
        }

        /** @return the configuration */
        public OllamaConfig build() {
            return new OllamaConfig(Settings.layered(baseUrl, DEFAULTS.baseUrl),
                    Settings.layered(timeout, DEFAULTS.timeout));
        }
    }
}
