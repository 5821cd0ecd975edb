package dev.ragkit.ollama;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ragkit.error.LlmTimeoutException;
import dev.ragkit.error.LlmUnavailableException;
import dev.ragkit.error.ModelNotFoundException;
import dev.ragkit.internal.Settings;
import dev.ragkit.generation.ChatMessage;
import dev.ragkit.generation.ChatRequest;
import dev.ragkit.generation.LlmBackend;
import dev.ragkit.generation.LlmBackendProvider;
import dev.ragkit.generation.LlmBackends;
import java.io.InputStream;
import java.net.URI;
import java.time.Duration;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.junit5.StartStop;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@code LlmBackends.load("ollama", settings)}: discovery through ServiceLoader, every setting, bad input. */
final class OllamaBackendProviderTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @StartStop
    private final MockWebServer server = new MockWebServer();

    private static MockResponse json(int code, String body) {
        return new MockResponse.Builder().code(code).setHeader("Content-Type", "application/json").body(body).build();
    }

    private static ChatRequest hello() {
        return ChatRequest.of("llama3.2", List.of(ChatMessage.user("Hello!")));
    }

    /** Loads through ServiceLoader with the mock server's URL and {@code settings}. */
    private OllamaBackend load(String... settings) {
        Map<String, String> config = new HashMap<>();
        config.put("base-url", server.url("/").toString());
        for (int i = 0; i < settings.length; i += 2) {
            config.put(settings[i], settings[i + 1]);
        }
        LlmBackend backend = LlmBackends.load("ollama", config);
        assertThat(backend).isInstanceOf(OllamaBackend.class);
        return (OllamaBackend) backend;
    }

    // ---------------------------------------------------------------------------------------------------------
    // Discovery

    @Test
    void available_onTheClassPath_findsTheOllamaProvider() {
        Map<String, LlmBackendProvider> providers = LlmBackends.available();

        assertThat(providers).containsKey("ollama");
        assertThat(providers.get("ollama")).isInstanceOf(OllamaBackendProvider.class);
    }

    @Test
    void servicesFile_listsTheProvider() throws Exception {
        try (InputStream in = OllamaBackendProvider.class.getResourceAsStream(
                "/META-INF/services/dev.ragkit.generation.LlmBackendProvider")) {
            assertThat(in).isNotNull();
            assertThat(new String(in.readAllBytes(), StandardCharsets.UTF_8).strip())
                    .isEqualTo(OllamaBackendProvider.class.getName());
        }
    }

    @Test
    void load_noSettings_usesTheDefaultAddress() {
        LlmBackend backend = LlmBackends.load("ollama", Map.of());
        try {
            assertThat(backend.name()).isEqualTo("ollama");
            assertThat(((OllamaBackend) backend).baseUrl()).isEqualTo(URI.create("http://localhost:11434/"));
        } finally {
            ((OllamaBackend) backend).close();
        }
    }

    // ---------------------------------------------------------------------------------------------------------
    // Each setting is honoured

    @Test
    void load_baseUrl_sendsRequestsThere() throws Exception {
        server.enqueue(json(200, Fixtures.read("tags.json")));
        try (OllamaBackend backend = load()) {
            assertThat(backend.baseUrl()).isEqualTo(server.url("/").uri());

            assertThat(backend.availableModels()).contains("llama3.2:latest");
        }
        assertThat(server.takeRequest().getUrl().encodedPath()).isEqualTo("/api/tags");
    }

    @Test
    void load_keepAliveAndSeed_areSentWithEveryChat() throws Exception {
        server.enqueue(json(200, Fixtures.read("chat.json")));
        try (OllamaBackend backend = load("keep-alive", "5m", "seed", " 42 ")) {
            backend.chat(hello());
        }

        JsonNode body = JSON.readTree(server.takeRequest().getBody().utf8());
        assertThat(body.path("keep_alive").asText()).isEqualTo("5m");
        assertThat(body.path("options").path("seed").asLong()).isEqualTo(42);
    }

    @Test
    void load_withoutKeepAliveAndSeed_sendsNeither() throws Exception {
        server.enqueue(json(200, Fixtures.read("chat.json")));
        try (OllamaBackend backend = load()) {
            backend.chat(hello());
        }

        JsonNode body = JSON.readTree(server.takeRequest().getBody().utf8());
        assertThat(body.has("keep_alive")).isFalse();
        assertThat(body.path("options").has("seed")).isFalse();
    }

    @Test
    void load_pullIfMissingTrue_pullsAMissingModel() throws Exception {
        server.enqueue(json(404, Fixtures.read("error-model-not-found.json")));
        server.enqueue(new MockResponse.Builder().code(200).body(OllamaPullTest.PULL).build());
        server.enqueue(json(200, Fixtures.read("chat.json")));
        try (OllamaBackend backend = load("pull-if-missing", "TRUE")) {
            assertThat(backend.chat(hello()).text()).isEqualTo("Hello! How are you today?");
        }

        server.takeRequest();
        assertThat(server.takeRequest().getUrl().encodedPath()).isEqualTo("/api/pull");
    }

    @Test
    void load_pullIfMissingFalse_failsWithoutPulling() {
        server.enqueue(json(404, Fixtures.read("error-model-not-found.json")));
        try (OllamaBackend backend = load("pull-if-missing", "false")) {
            assertThatThrownBy(() -> backend.chat(hello())).isInstanceOf(ModelNotFoundException.class);
        }

        assertThat(server.getRequestCount()).isEqualTo(1);
    }

    @Test
    void load_maxRetriesOne_retriesABusyServerOnce() {
        server.enqueue(json(503, "{\"error\":\"server busy\"}"));
        server.enqueue(json(200, Fixtures.read("tags.json")));
        try (OllamaBackend backend = load("max-retries", "1")) {
            assertThat(backend.availableModels()).hasSize(2);
        }

        assertThat(server.getRequestCount()).isEqualTo(2);
    }

    @Test
    void load_maxRetriesZero_doesNotRetry() {
        server.enqueue(json(503, "{\"error\":\"server busy\"}"));
        server.enqueue(json(200, Fixtures.read("tags.json")));
        try (OllamaBackend backend = load("max-retries", "0")) {
            assertThatThrownBy(backend::availableModels).isInstanceOf(LlmUnavailableException.class);
        }

        assertThat(server.getRequestCount()).isEqualTo(1);
    }

    @Test
    void load_timeouts_areTheBackendsLimits() {
        // the server answers only after the 1 s limit; the timeout message lists the limits in force
        server.enqueue(new MockResponse.Builder().code(200).body(Fixtures.read("tags.json"))
                .headersDelay(5, TimeUnit.SECONDS).build());
        try (OllamaBackend backend = load("timeout-seconds", "1", "connect-timeout-seconds", "7", "max-retries", "0")) {
            assertThatThrownBy(backend::availableModels)
                    .isInstanceOf(LlmTimeoutException.class)
                    .hasMessageContaining("connect 7 s")
                    .hasMessageContaining("read 1 s")
                    .hasMessageContaining("whole call 1 s");
        }
    }

    // ---------------------------------------------------------------------------------------------------------
    // Bad input

    @Test
    void load_unknownId_listsTheIdsFound() {
        assertThatThrownBy(() -> LlmBackends.load("olama", Map.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'olama'")
                .hasMessageContaining("ollama");
    }

    @Test
    void load_unknownKey_isRejectedNamingItAndTheKnownKeys() {
        assertThatThrownBy(() -> LlmBackends.load("ollama", Map.of("baseUrl", "http://localhost:11434")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'baseUrl'")
                .hasMessageContaining("base-url")
                .hasMessageContaining("pull-if-missing");
    }

    @Test
    void load_nullKey_isRejectedAsUnknown() {
        Map<String, String> config = new HashMap<>();
        config.put(null, "x");

        assertThatThrownBy(() -> LlmBackends.load("ollama", config))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unknown ollama setting");
    }

    /** The builder behind the provider: its setters must reject bad values with IllegalArgumentException. */
    @Test
    void builder_timeoutTooLargeForMillis_isRejectedWithIllegalArgument() {
        OllamaBackend.Builder b = OllamaBackend.builder();

        assertThatThrownBy(() -> b.connectTimeout(Duration.ofSeconds(Long.MAX_VALUE)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("connectTimeout");
        assertThatThrownBy(() -> b.readTimeout(Duration.ofSeconds(Long.MAX_VALUE)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("readTimeout");
        assertThatThrownBy(() -> b.callTimeout(Duration.ofSeconds(Long.MAX_VALUE)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("callTimeout");
    }

    @Test
    void builder_timeoutOverMaxTimeout_isRejectedAndTheMaxAccepted() {
        OllamaBackend.Builder b = OllamaBackend.builder();

        assertThatThrownBy(() -> b.readTimeout(Settings.MAX_TIMEOUT.plusNanos(1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at most a day");
        b.connectTimeout(Settings.MAX_TIMEOUT).readTimeout(Settings.MAX_TIMEOUT).callTimeout(Settings.MAX_TIMEOUT)
                .build().close();
    }

    @Test
    void load_timeoutOfMaxTimeout_isAcceptedAndOneMoreSecondRejected() {
        String max = String.valueOf(Settings.MAX_TIMEOUT.toSeconds());
        load("timeout-seconds", max, "connect-timeout-seconds", max).close();

        assertThatThrownBy(() -> LlmBackends.load("ollama",
                Map.of("timeout-seconds", String.valueOf(Settings.MAX_TIMEOUT.toSeconds() + 1))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'timeout-seconds'").hasMessageContaining("from 1 to 86400");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "base-url                | not a url",
            "base-url                | ftp://localhost:11434",
            "timeout-seconds         | 0",
            "timeout-seconds         | -3",
            "timeout-seconds         | 2.5",
            "timeout-seconds         | thirty",
            "timeout-seconds         | 100000",
            "timeout-seconds         | 9223372036854775807",
            "timeout-seconds         | 99999999999999999999",
            "connect-timeout-seconds | 0",
            "connect-timeout-seconds | 9223372036854775807",
            "keep-alive              | '   '",
            "seed                    | 1.5",
            "seed                    | abc",
            "pull-if-missing         | yes",
            "pull-if-missing         | ''",
            "max-retries             | 11",
            "max-retries             | -1",
            "max-retries             | two"})
    void load_badValue_isRejectedNamingTheKey(String key, String value) {
        assertThatThrownBy(() -> LlmBackends.load("ollama", Map.of(key, value)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'" + key + "'");
    }
}
