package dev.ragkit.openai;

import dev.ragkit.internal.Settings;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Where the OpenAI-compatible server is, the API key, how long a call may take, and the context window of models
 * the backend has no table entry for: the settings {@link OpenAiBackend} reads from the environment. Immutable and
 * thread-safe; its {@link #toString()} never shows the key.
 *
 * <p>Given to the builder's {@code config(...)}, it is a <em>base layer</em>: a value set on the builder itself
 * wins, whatever the order of the calls.
 * <table>
 *   <caption>Environment variables</caption>
 *   <tr><th>Variable</th><th>Default</th><th>Accepts</th></tr>
 *   <tr><td>{@code OPENAI_BASE_URL}</td><td>{@code https://api.openai.com/v1}</td><td>an http(s) URL; for a local
 *       server e.g. {@code http://localhost:8000/v1} (vLLM), {@code http://localhost:11434/v1} (Ollama)</td></tr>
 *   <tr><td>{@code OPENAI_API_KEY} (or the variable named to {@link #fromEnvironment(Map, String)})</td>
 *       <td>none (no {@code Authorization} header)</td><td>the key</td></tr>
 *   <tr><td>{@code RAG_TIMEOUT_SECONDS}</td><td>60</td><td>whole seconds from 1 to 86400</td></tr>
 *   <tr><td>{@code RAG_CONTEXT_WINDOW}</td><td>none</td><td>the context window, in tokens, of a model the backend
 *       does not know (from 512 to 10,000,000)</td></tr>
 * </table>
 */
public final class OpenAiConfig {
    /** Environment variable of {@link #baseUrl()}. */
    public static final String OPENAI_BASE_URL = "OPENAI_BASE_URL";
    /** The default environment variable of {@link #apiKey()}. */
    public static final String OPENAI_API_KEY = "OPENAI_API_KEY";
    /** Environment variable of {@link #timeout()}. */
    public static final String RAG_TIMEOUT_SECONDS = Settings.RAG_TIMEOUT_SECONDS;
    /** Environment variable of {@link #contextWindow()}. */
    public static final String RAG_CONTEXT_WINDOW = "RAG_CONTEXT_WINDOW";
    /** OpenAI's own API. */
    public static final String DEFAULT_BASE_URL = "https://api.openai.com/v1";
    static final int MIN_WINDOW = 512;
    static final int MAX_WINDOW = 10_000_000;

    private static final OpenAiConfig DEFAULTS = new OpenAiConfig(URI.create(DEFAULT_BASE_URL), null,
            Duration.ofSeconds(60), null);

    private final URI baseUrl;
    private final @Nullable String apiKey;
    private final Duration timeout;
    private final @Nullable Integer contextWindow;

    private OpenAiConfig(URI baseUrl, @Nullable String apiKey, Duration timeout, @Nullable Integer contextWindow) {
        this.baseUrl = baseUrl;
        this.apiKey = apiKey;
        this.timeout = timeout;
        this.contextWindow = contextWindow;
    }

    /** @return OpenAI's API, no key, 60 seconds, no context window */
    public static OpenAiConfig defaults() {
        return DEFAULTS;
    }

    /**
     * @param env variable names to values; missing or blank variables keep the default
     * @return the defaults overridden by the variables, the key from {@code OPENAI_API_KEY}
     * @throws IllegalArgumentException naming the variable when one holds a value it does not accept
     */
    public static OpenAiConfig fromEnvironment(Map<String, String> env) {
        return fromEnvironment(env, OPENAI_API_KEY);
    }

    /**
     * @param env            variable names to values
     * @param apiKeyVariable the variable that holds the key, e.g. {@code VLLM_API_KEY}
     * @return the defaults overridden by the variables
     * @throws IllegalArgumentException naming the variable when one holds a value it does not accept
     */
    public static OpenAiConfig fromEnvironment(Map<String, String> env, String apiKeyVariable) {
        Objects.requireNonNull(env, "env");
        Objects.requireNonNull(apiKeyVariable, "apiKeyVariable");
        Builder b = builder();
        Settings.read(env, OPENAI_BASE_URL, "an http or https URL with a host, such as https://api.openai.com/v1",
                b::baseUrl);
        String key = env.get(apiKeyVariable);
        if (key != null && !key.isBlank()) {
            b.apiKey(key.strip());
        }
        Settings.read(env, RAG_TIMEOUT_SECONDS, Settings.TIMEOUT_SECONDS_RULE, v -> b.timeout(Settings.parseSeconds(v)));
        Settings.read(env, RAG_CONTEXT_WINDOW, "a whole number of tokens from " + MIN_WINDOW + " to " + MAX_WINDOW,
                v -> {
                    try {
                        b.contextWindow(Integer.parseInt(v.strip()));
                    } catch (NumberFormatException e) {
                        throw new IllegalArgumentException("not a whole number: '" + v + "'", e);
                    }
                });
        return b.build();
    }

    /** @return an empty builder: what it does not set comes from the {@link #defaults()} */
    public static Builder builder() {
        return new Builder();
    }

    /** @return the server's base URL, including the {@code /v1} path; default {@value #DEFAULT_BASE_URL} */
    public URI baseUrl() {
        return baseUrl;
    }

    /** @return the API key, or {@code null} for a server without one */
    public @Nullable String apiKey() {
        return apiKey;
    }

    /** @return how long one call may take (read and whole-call limit); default 60 seconds */
    public Duration timeout() {
        return timeout;
    }

    /** @return the context window for models the backend does not know, or {@code null} */
    public @Nullable Integer contextWindow() {
        return contextWindow;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof OpenAiConfig c && baseUrl.equals(c.baseUrl) && Objects.equals(apiKey, c.apiKey)
                && timeout.equals(c.timeout) && Objects.equals(contextWindow, c.contextWindow);
    }

    @Override
    public int hashCode() {
        return Objects.hash(baseUrl, apiKey, timeout, contextWindow);
    }

    /** @return the settings, the key shown only as set or not */
    @Override
    public String toString() {
        return "OpenAiConfig[baseUrl=" + baseUrl + ", apiKey=" + (apiKey == null ? "none" : "***") + ", timeout="
                + timeout + ", contextWindow=" + contextWindow + "]";
    }

    /** Builds an {@link OpenAiConfig}; setters reject bad values at once. Not thread-safe. */
    public static final class Builder {
        private @Nullable URI baseUrl;
        private @Nullable String apiKey;
        private @Nullable Duration timeout;
        private @Nullable Integer contextWindow;

        private Builder() {
        }

        /** @param url an http or https URL with a host, including {@code /v1} @return this builder */
        public Builder baseUrl(String url) {
            this.baseUrl = Settings.httpUrl(url, "baseUrl");
            return this;
        }

        /** @param key the API key (not blank) @return this builder */
        public Builder apiKey(String key) {
            this.apiKey = OpenAiBackend.Builder.requireKey(key);
            return this;
        }

        /** @param timeout positive, at most a day @return this builder */
        public Builder timeout(Duration timeout) {
            this.timeout = Settings.timeout(timeout, "timeout");
            return this;
        }

        /** @param tokens the context window of unknown models, 512 to 10,000,000 @return this builder */
        public Builder contextWindow(int tokens) {
            this.contextWindow = OpenAiBackend.Builder.requireWindow(tokens);
            return this;
        }

        /** @return the configuration */
        public OpenAiConfig build() {
            return new OpenAiConfig(Settings.layered(baseUrl, DEFAULTS.baseUrl), apiKey,
                    Settings.layered(timeout, DEFAULTS.timeout), contextWindow);
        }
    }
}
