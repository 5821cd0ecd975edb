package dev.ragkit.http;

import dev.ragkit.internal.Settings;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.Executor;
import okhttp3.OkHttpClient;
import org.jspecify.annotations.Nullable;

/**
 * The HTTP settings every model-server backend's builder has — time limits, retries, a shared client, an executor
 * for streamed calls — with one set of checks, and the client they make. The backends' builders extend it.
 *
 * @param <B> the builder's own type, returned by every setter
 */
public abstract class HttpSettings<B extends HttpSettings<B>> {
    private Duration connectTimeout;
    private @Nullable Duration readTimeout;
    private @Nullable Duration callTimeout;
    private int maxRetries = 2;
    private Duration retryBackoff;
    private @Nullable OkHttpClient client;
    private @Nullable Executor executor;

    /**
     * @param connectTimeout the default connect limit
     * @param retryBackoff   the default first retry's wait
     */
    protected HttpSettings(Duration connectTimeout, Duration retryBackoff) {
        this.connectTimeout = connectTimeout;
        this.retryBackoff = retryBackoff;
    }

    /** @return this builder, typed */
    protected abstract B self();

    /** @param timeout the limit to open a connection @return this builder */
    public B connectTimeout(Duration timeout) {
        this.connectTimeout = Settings.timeout(timeout, "connectTimeout");
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

    /** @param client an OkHttp client to share (its time limits are replaced by this builder's) @return this */
    public B httpClient(OkHttpClient client) {
        this.client = Objects.requireNonNull(client, "client");
        return self();
    }

    /** @param executor runs streamed calls (default: the HTTP client's dispatcher threads) @return this builder */
    public B executor(Executor executor) {
        this.executor = Objects.requireNonNull(executor, "executor");
        return self();
    }

    /**
     * What a backend's constructor takes from these settings.
     *
     * @param client     the HTTP client with the time limits
     * @param ownsClient whether the backend created it (and so closes it)
     * @param maxRetries retries
     * @param backoff    the first retry's wait
     * @param executor   runs streamed calls
     */
    public record Resolved(OkHttpClient client, boolean ownsClient, int maxRetries, Duration backoff,
            Executor executor) {
    }

    /**
     * For the backends' constructors.
     *
     * @param configured the configuration's time limit, for the read and whole-call limits not set here
     * @return the client with these limits (the shared one re-limited, or a new one) and the other settings
     */
    public Resolved resolve(Duration configured) {
        Duration read = Settings.layered(readTimeout, configured);
        OkHttpClient built = (client != null ? client : new OkHttpClient()).newBuilder().connectTimeout(connectTimeout)
                .readTimeout(read).writeTimeout(read).callTimeout(Settings.layered(callTimeout, configured)).build();
        return new Resolved(built, client == null, maxRetries, retryBackoff,
                executor != null ? executor : built.dispatcher().executorService());
    }
}
