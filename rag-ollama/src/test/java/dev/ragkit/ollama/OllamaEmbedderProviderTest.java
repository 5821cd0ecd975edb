package dev.ragkit.ollama;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ragkit.embedding.Embedder;
import dev.ragkit.embedding.Embedders;
import java.util.List;
import java.util.Map;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import mockwebserver3.junit5.StartStop;
import org.junit.jupiter.api.Test;

/** {@code ollama:<model>} through {@link Embedders}, against a real HTTP server replaying Ollama's answers. */
final class OllamaEmbedderProviderTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @StartStop
    private final MockWebServer server = new MockWebServer();

    private static MockResponse json(String body) {
        return new MockResponse.Builder().code(200).setHeader("Content-Type", "application/json").body(body).build();
    }

    @Test
    void load_ollamaName_embedsWithThatModelAtTheGivenServer() throws Exception {
        server.enqueue(json(Fixtures.read("embed.json")));
        Embedder embedder = Embedders.load("ollama:all-minilm", Map.of("base-url", server.url("/").toString(),
                "batch-size", "8", "truncate", "true", "max-retries", "0", "timeout-seconds", "5"));

        float[][] vectors = embedder.embed(List.of("Why is the sky blue?"));

        assertThat(embedder.name()).isEqualTo("ollama:all-minilm");
        assertThat(vectors).hasDimensions(1, 10);
        RecordedRequest request = server.takeRequest();
        assertThat(request.getUrl().encodedPath()).isEqualTo("/api/embed");
        assertThat(JSON.readTree(request.getBody().utf8()).path("model").asText()).isEqualTo("all-minilm");
        assertThat(JSON.readTree(request.getBody().utf8()).path("truncate").asBoolean()).isTrue();
    }

    @Test
    void load_declaredDimensionThatTheServerContradicts_failsNamingBoth() {
        server.enqueue(json(Fixtures.read("embed.json")));
        Embedder embedder = Embedders.load("ollama:all-minilm", Map.of("base-url", server.url("/").toString(),
                "dimension", "768", "max-retries", "0"));

        assertThatThrownBy(() -> embedder.embed(List.of("Why is the sky blue?")))
                .hasMessageContaining("768").hasMessageContaining("10");
    }

    @Test
    void load_readsTheHttpSettingsAsTheBackendProviderDoes() {
        try (OllamaEmbedder embedder = (OllamaEmbedder) Embedders.load("ollama:all-minilm", Map.of("base-url",
                server.url("/").toString(), "timeout-seconds", "6", "connect-timeout-seconds", "3"))) {
            assertThat(embedder.httpClient().connectTimeoutMillis()).isEqualTo(3_000);
            assertThat(embedder.httpClient().readTimeoutMillis()).isEqualTo(6_000);
            assertThat(embedder.httpClient().callTimeoutMillis()).isEqualTo(6_000);
        }
        assertThatThrownBy(() -> Embedders.load("ollama:all-minilm", Map.of("connect-timeout-seconds", "0")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("connect-timeout-seconds");
    }

    @Test
    void create_withoutAModelOrWithABadSetting_failsNamingTheFix() {
        OllamaEmbedderProvider provider = new OllamaEmbedderProvider();

        assertThat(provider.names()).containsExactly("ollama:");
        assertThatThrownBy(() -> provider.create("ollama: ", Map.of()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("ollama:nomic-embed-text");
        assertThatThrownBy(() -> Embedders.load("ollama:all-minilm", Map.of("model", "x")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("model")
                .hasMessageContaining("base-url");
        assertThatThrownBy(() -> Embedders.load("ollama:all-minilm", Map.of("batch-size", "0")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("batch-size");
    }
}
