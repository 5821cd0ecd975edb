package dev.ragkit.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ragkit.store.ProviderSettings;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import okhttp3.OkHttpClient;
import org.junit.jupiter.api.Test;

/**
 * {@link HttpSettings}: the settings every backend and embedder builder shares — the base URL and time limits over
 * the configuration's base layer, retries, a shared client — and the one way providers read them from a map.
 */
final class HttpSettingsTest {
    private static final URI CONFIGURED = URI.create("http://configured:1234");

    /** A builder with nothing but the shared settings. */
    private static final class Plain extends HttpSettings<Plain> {
        Plain() {
            super("http://localhost:1234", Duration.ofSeconds(3), Duration.ofMillis(100));
            baseLayer(CONFIGURED, Duration.ofSeconds(30));
        }

        @Override
        protected Plain self() {
            return this;
        }

        Plain config(URI url, Duration timeout) {
            return baseLayer(url, timeout);
        }
    }

    /** A builder whose constructor forgot its base layer. */
    private static final class Unlayered extends HttpSettings<Unlayered> {
        Unlayered() {
            super("http://x", Duration.ofSeconds(1), Duration.ZERO);
        }

        @Override
        protected Unlayered self() {
            return this;
        }
    }

    @Test
    void resolve_withNothingSet_takesTheBaseLayerAndTheDefaults() {
        HttpSettings.Resolved r = new Plain().resolve();

        assertThat(r.baseUrl().toString()).isEqualTo("http://configured:1234/");
        assertThat(r.client().readTimeoutMillis()).isEqualTo(30_000);
        assertThat(r.client().writeTimeoutMillis()).isEqualTo(30_000);
        assertThat(r.client().callTimeoutMillis()).isEqualTo(30_000);
        assertThat(r.client().connectTimeoutMillis()).isEqualTo(3_000);
        assertThat(r.maxRetries()).isEqualTo(2);
        assertThat(r.backoff()).isEqualTo(Duration.ofMillis(100));
        assertThat(r.ownsClient()).isTrue();
        ModelHttp.release(r.client());
    }

    @Test
    void explicitSettings_winOverTheBaseLayer_setBeforeOrAfterIt() {
        Plain before = new Plain().baseUrl("http://mine:1/v1").readTimeout(Duration.ofSeconds(7))
                .config(URI.create("http://other:2"), Duration.ofSeconds(90));
        Plain after = new Plain().config(URI.create("http://other:2"), Duration.ofSeconds(90))
                .baseUrl("http://mine:1/v1").readTimeout(Duration.ofSeconds(7));

        for (Plain p : new Plain[] {before, after}) {
            HttpSettings.Resolved r = p.resolve();
            assertThat(r.baseUrl().toString()).isEqualTo("http://mine:1/v1/");
            assertThat(r.client().readTimeoutMillis()).isEqualTo(7_000);
            assertThat(r.client().callTimeoutMillis()).as("not set here: the base layer's").isEqualTo(90_000);
            ModelHttp.release(r.client());
        }
    }

    @Test
    void timeout_setsTheReadAndTheWholeCallLimit() {
        HttpSettings.Resolved r = new Plain().timeout(Duration.ofSeconds(4)).resolve();

        assertThat(r.client().readTimeoutMillis()).isEqualTo(4_000);
        assertThat(r.client().callTimeoutMillis()).isEqualTo(4_000);
        ModelHttp.release(r.client());
    }

    @Test
    void aSharedClient_isNotOwnedAndKeepsItsPoolButTakesTheseLimits() {
        OkHttpClient shared = new OkHttpClient();
        try {
            HttpSettings.Resolved r = new Plain().httpClient(shared).connectTimeout(Duration.ofSeconds(9)).resolve();
            assertThat(r.ownsClient()).isFalse();
            assertThat(r.client().connectionPool()).isSameAs(shared.connectionPool());
            assertThat(r.client().connectTimeoutMillis()).isEqualTo(9_000);
        } finally {
            ModelHttp.release(shared);
        }
    }

    @Test
    void aSharedClient_keepsTheTimeLimitsItWasGiven_unlessTheseSettingsSetThem() {
        OkHttpClient shared = new OkHttpClient.Builder().connectTimeout(Duration.ofSeconds(3))
                .readTimeout(Duration.ofSeconds(40)).callTimeout(Duration.ofSeconds(0)).build();
        try {
            HttpSettings.Resolved kept = new Plain().httpClient(shared).resolve();
            assertThat(kept.client().connectTimeoutMillis()).isEqualTo(3_000);
            assertThat(kept.client().readTimeoutMillis()).isEqualTo(40_000);
            // no whole-call limit on the client: the configuration's
            assertThat(kept.client().callTimeoutMillis()).isEqualTo(new Plain().resolve().client().callTimeoutMillis());

            HttpSettings.Resolved set = new Plain().httpClient(shared).readTimeout(Duration.ofSeconds(7)).resolve();
            assertThat(set.client().readTimeoutMillis()).isEqualTo(7_000);
            assertThat(set.client().connectTimeoutMillis()).isEqualTo(3_000);
        } finally {
            ModelHttp.release(shared);
        }
    }

    @Test
    void badValues_areRejectedAtOnceNamingTheSetting() {
        Plain p = new Plain();

        assertThatThrownBy(() -> p.baseUrl("localhost:1234")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not an http(s) URL").hasMessageContaining("e.g. http://localhost:1234");
        assertThatThrownBy(() -> p.maxRetries(11)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("maxRetries");
        assertThatThrownBy(() -> p.timeout(Duration.ofDays(2))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("timeout");
        assertThatThrownBy(() -> p.connectTimeout(Duration.ZERO)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("connectTimeout");
        assertThatThrownBy(() -> p.retryBackoff(Duration.ofMillis(-1))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("retryBackoff");
    }

    @Test
    void resolve_withoutABaseLayer_failsNamingTheBuilder() {
        assertThatThrownBy(() -> new Unlayered().resolve()).isInstanceOf(IllegalStateException.class).hasMessageContaining("baseLayer");
    }

    @Test
    void apply_readsTheSharedKeysOfAProvidersSettings() {
        ProviderSettings settings = new ProviderSettings("toy", Map.of("base-url", "http://set:9",
                "timeout-seconds", "12", "connect-timeout-seconds", "4", "max-retries", "5"),
                HttpSettings.PROVIDER_KEYS);

        HttpSettings.Resolved r = new Plain().apply(settings).resolve();

        assertThat(r.baseUrl().toString()).isEqualTo("http://set:9/");
        assertThat(r.client().readTimeoutMillis()).isEqualTo(12_000);
        assertThat(r.client().callTimeoutMillis()).isEqualTo(12_000);
        assertThat(r.client().connectTimeoutMillis()).isEqualTo(4_000);
        assertThat(r.maxRetries()).isEqualTo(5);
        ModelHttp.release(r.client());
    }

    @Test
    void apply_aBadValue_namesTheKey() {
        ProviderSettings retries = new ProviderSettings("toy", Map.of("max-retries", "eleven"),
                HttpSettings.PROVIDER_KEYS);
        ProviderSettings url = new ProviderSettings("toy", Map.of("base-url", "nope"), HttpSettings.PROVIDER_KEYS);

        assertThatThrownBy(() -> new Plain().apply(retries)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("max-retries");
        assertThatThrownBy(() -> new Plain().apply(url)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("base-url").hasMessageContaining("e.g. http://localhost:1234");
    }
}
