package dev.ragkit.http;

import dev.ragkit.internal.Settings;
import dev.ragkit.store.ProviderSettings;
import java.net.URI;
import java.time.Duration;
import java.util.Objects;
import java.util.Set;
import okhttp3.HttpUrl;
import okhttp3.OkHttpClient;
import org.jspecify.annotations.Nullable;

/**
 * The HTTP settings every model-server client's builder has — the base URL, time limits, retries, a shared client —
 * with one set of checks, and the client they make. The backends' builders ({@link ModelServerBackend.Builder}) and
 * the embedders' builders extend it, so each setting is spelled, checked and layered over the configuration the
 * same way everywhere.
 *
 * <p>Layering: a value set here wins over the configuration's ({@link #resolve}), whether it was set before or after
 * the configuration was given.
 *
 * @param <B> the builder's own type, returned by every setter
 */
public abstract class HttpSettings<B extends HttpSettings<B>> {
    private final String baseUrlExample;
    private @Nullable HttpUrl baseUrl;
    private Duration connectTimeout;
    private boolean connectTimeoutSet;
    private @Nullable Duration readTimeout;
    private @Nullable Duration callTimeout;
    private int maxRetries = 2;
    private Duration retryBackoff;
    private @Nullable OkHttpClient client;
    private @Nullable String configuredBaseUrl;
    private @Nullable Duration configuredTimeout;

    /**
     * @param baseUrlExample an example base URL for the message of a bad one, e.g. {@code http://localhost:11434}
     * @param connectTimeout the default connect limit
     * @param retryBackoff   the default first retry's wait
     */
    protected HttpSettings(String baseUrlExample, Duration connectTimeout, Duration retryBackoff) {
        this.baseUrlExample = Objects.requireNonNull(baseUrlExample, "baseUrlExample");
        this.connectTimeout = Objects.requireNonNull(connectTimeout, "connectTimeout");
        this.retryBackoff = Objects.requireNonNull(retryBackoff, "retryBackoff");
    }

    /** @return this builder, typed */
    protected abstract B self();

    /**
     * Sets the base layer, the configuration's values, under this builder's own: a builder's {@code config(...)}
     * calls it, and its constructor with the defaults.
     *
     * @param baseUrl the configuration's base URL, under {@link #baseUrl(String)}
     * @param timeout the configuration's time limit, under the read and whole-call limits
     * @return this builder
     */
    protected final B baseLayer(URI baseUrl, Duration timeout) {
        this.configuredBaseUrl = Objects.requireNonNull(baseUrl, "baseUrl").toString();
        this.configuredTimeout = Objects.requireNonNull(timeout, "timeout");
        return self();
    }

    /**
     * @param url the server's base URL, http or https, with any path prefix the API has (e.g. {@code /v1}); wins
     *            over the configuration's
     * @return this builder
     * @throws IllegalArgumentException when it is not an http(s) URL (the message gives an example)
     */
    public B baseUrl(String url) {
        this.baseUrl = ModelHttp.parseBaseUrl(url, baseUrlExample);
        return self();
    }

    /** @param timeout the limit to open a connection @return this builder */
    public B connectTimeout(Duration timeout) {
        this.connectTimeout = Settings.timeout(timeout, "connectTimeout");
        this.connectTimeoutSet = true;
        return self();
    }

    /** @param timeout the longest wait for the next bytes (default: the configuration's time limit) @return this */
    public B readTimeout(Duration timeout) {
        this.readTimeout = Settings.timeout(timeout, "readTimeout");
        return self();
    }

    /**
     * @param timeout the limit for a whole call, streamed answers included (default: the configuration's time limit,
     *                {@code RAG_TIMEOUT_SECONDS})
     * @return this builder
     */
    public B callTimeout(Duration timeout) {
        this.callTimeout = Settings.timeout(timeout, "callTimeout");
        return self();
    }

    /**
     * Both the read and the whole-call limit, as the configuration's one time limit ({@code RAG_TIMEOUT_SECONDS})
     * sets them.
     *
     * @param timeout the limit, up to a day
     * @return this builder
     */
    public B timeout(Duration timeout) {
        Duration checked = Settings.timeout(timeout, "timeout");
        this.readTimeout = checked;
        this.callTimeout = checked;
        return self();
    }

    /** @param retries retries of connection failures and HTTP 429/502/503, 0 to 10 (default 2) @return this */
    public B maxRetries(int retries) {
        this.maxRetries = ModelHttp.retries(retries);
        return self();
    }

    /** @param backoff the first retry's wait, doubled for each next one @return this builder */
    public B retryBackoff(Duration backoff) {
        Objects.requireNonNull(backoff, "backoff");
        if (backoff.isNegative()) {
            throw new IllegalArgumentException("retryBackoff must not be negative, got " + backoff);
        }
        this.retryBackoff = backoff;
        return self();
    }

    /**
     * @param client an OkHttp client to share; it stays the caller's to close. Its own time limits are kept, except
     *               those this builder sets ({@link #connectTimeout}, {@link #readTimeout}, {@link #callTimeout},
     *               {@link #timeout}); a limit the client leaves at 0 (none) takes the configuration's
     * @return this builder
     */
    public B httpClient(OkHttpClient client) {
        this.client = Objects.requireNonNull(client, "client");
        return self();
    }

    /**
     * The settings-map keys {@link #apply(ProviderSettings)} reads: {@code base-url}, {@code timeout-seconds} (the
     * read and whole-call limit), {@code connect-timeout-seconds} and {@code max-retries}.
     */
    public static final Set<String> PROVIDER_KEYS = Set.of("base-url", "timeout-seconds", "connect-timeout-seconds",
            "max-retries");

    /**
     * Applies a provider's settings map ({@code ServiceLoader} providers) the one way every provider reads the HTTP
     * settings: the {@link #PROVIDER_KEYS} that are present, each checked with a message naming the key.
     *
     * @param settings the provider's settings
     * @return this builder
     */
    public B apply(ProviderSettings settings) {
        settings.apply("base-url", this::baseUrl);
        settings.apply("timeout-seconds", v -> timeout(Duration.ofSeconds(settings.seconds("timeout-seconds", v))));
        settings.apply("connect-timeout-seconds",
                v -> connectTimeout(Duration.ofSeconds(settings.seconds("connect-timeout-seconds", v))));
        settings.apply("max-retries", v -> maxRetries((int) settings.whole("max-retries", v, 0, ModelHttp.MAX_RETRIES,
                "a whole number from 0 to " + ModelHttp.MAX_RETRIES)));
        return self();
    }

    /**
     * What a client's constructor takes from these settings.
     *
     * @param client     the HTTP client with the time limits
     * @param ownsClient whether the client was created here (and so is closed with the backend or embedder)
     * @param baseUrl    the server's base URL, ending in a slash
     * @param maxRetries retries
     * @param backoff    the first retry's wait
     */
    public record Resolved(OkHttpClient client, boolean ownsClient, HttpUrl baseUrl, int maxRetries,
            Duration backoff) {
    }

    /**
     * For the constructors of the backends and embedders: these settings over the configuration's
     * ({@link #baseLayer}).
     *
     * @return the client with these limits (the shared one re-limited, or a new one) and the other settings
     */
    public Resolved resolve() {
        if (configuredBaseUrl == null || configuredTimeout == null) {
            throw new IllegalStateException(getClass().getName() + " set no base layer: its constructor calls "
                    + "baseLayer(...) with the configuration's defaults");
        }
        Duration configured = configuredTimeout;
        OkHttpClient built;
        if (client == null) {
            Duration read = Settings.layered(readTimeout, configured);
            built = new OkHttpClient.Builder().connectTimeout(connectTimeout).readTimeout(read).writeTimeout(read)
                    .callTimeout(Settings.layered(callTimeout, configured)).build();
        } else {
            // the caller's client: its own limits stand unless set here (a limit of 0, none, takes the configuration's)
            Duration read = readTimeout != null ? readTimeout : own(client.readTimeoutMillis(), configured);
            built = client.newBuilder()
                    .connectTimeout(connectTimeoutSet ? connectTimeout : own(client.connectTimeoutMillis(),
                            connectTimeout))
                    .readTimeout(read)
                    .writeTimeout(readTimeout != null ? readTimeout : own(client.writeTimeoutMillis(), configured))
                    .callTimeout(callTimeout != null ? callTimeout : own(client.callTimeoutMillis(), configured))
                    .build();
        }
        HttpUrl base = baseUrl != null ? baseUrl : ModelHttp.parseBaseUrl(configuredBaseUrl, baseUrlExample);
        return new Resolved(built, client == null, base, maxRetries, retryBackoff);
    }

    private static Duration own(int millis, Duration otherwise) {
        return millis > 0 ? Duration.ofMillis(millis) : otherwise;
    }
}
