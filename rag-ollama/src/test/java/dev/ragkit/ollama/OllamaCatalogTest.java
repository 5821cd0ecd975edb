package dev.ragkit.ollama;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ragkit.error.LlmUnavailableException;
import dev.ragkit.error.ModelNotFoundException;
import dev.ragkit.generation.HealthStatus;
import dev.ragkit.generation.ModelInfo;
import dev.ragkit.http.ModelProtocolException;
import dev.ragkit.http.ModelServerException;
import java.util.List;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import mockwebserver3.junit5.StartStop;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@code /api/tags}, {@code /api/show}, {@code /api/version}: the model catalogue and health. */
final class OllamaCatalogTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @StartStop
    private final MockWebServer server = new MockWebServer();

    private OllamaBackend backend;

    @BeforeEach
    void setUp() {
        backend = OllamaBackend.builder().baseUrl(server.url("/").toString()).maxRetries(0).build();
    }

    @AfterEach
    void tearDown() {
        backend.close();
    }

    private static MockResponse json(int code, String body) {
        return new MockResponse.Builder().code(code).setHeader("Content-Type", "application/json").body(body).build();
    }

    private static JsonNode body(RecordedRequest request) throws Exception {
        return JSON.readTree(request.getBody().utf8());
    }

    /** A port nothing listens on: a server started and closed again. */
    private static String deadUrl() throws Exception {
        try (MockWebServer dead = new MockWebServer()) {
            dead.start();
            return dead.url("/").toString();
        }
    }

    // ---------------------------------------------------------------------------------------------------------
    // /api/tags

    @Test
    void availableModels_tagsFixture_returnsTheNamesWithTheirTags() throws Exception {
        server.enqueue(json(200, Fixtures.read("tags.json")));

        List<String> models = backend.availableModels();

        assertThat(models).containsExactly("deepseek-r1:latest", "llama3.2:latest");
        RecordedRequest request = server.takeRequest();
        assertThat(request.getMethod()).isEqualTo("GET");
        assertThat(request.getUrl().encodedPath()).isEqualTo("/api/tags");
    }

    @Test
    void requireModel_pulledModel_passesWithOneTagsCall() throws Exception {
        server.enqueue(json(200, Fixtures.read("tags.json")));

        backend.requireModel("llama3.2");

        assertThat(server.takeRequest().getUrl().encodedPath()).isEqualTo("/api/tags");
        assertThat(server.getRequestCount()).isEqualTo(1);
    }

    @Test
    void requireModel_modelNotInTheList_throwsWithThePullCommand() {
        server.enqueue(json(200, Fixtures.read("tags.json")));

        assertThatThrownBy(() -> backend.requireModel("mistral"))
                .isInstanceOf(ModelNotFoundException.class)
                .hasMessageContaining("GET /api/tags")
                .hasMessageContaining("run: ollama pull mistral");
    }

    @Test
    void requireModel_serverDown_isUnavailableNotMissing() throws Exception {
        try (OllamaBackend down = OllamaBackend.builder().baseUrl(deadUrl()).maxRetries(0).build()) {
            assertThatThrownBy(() -> down.requireModel("llama3.2")).isInstanceOf(LlmUnavailableException.class);
        }
    }

    @Test
    void availableModels_noModels_isEmpty() {
        server.enqueue(json(200, "{\"models\":[]}"));

        assertThat(backend.availableModels()).isEmpty();
    }

    @Test
    void availableModels_entryWithModelFieldOnly_usesIt() {
        server.enqueue(json(200, "{\"models\":[{\"model\":\"qwen3:8b\"},{\"size\":1}]}"));

        assertThat(backend.availableModels()).containsExactly("qwen3:8b");
    }

    @Test
    void availableModels_baseUrlWithPathPrefix_keepsThePrefix() throws Exception {
        try (OllamaBackend proxied = OllamaBackend.builder().baseUrl(server.url("/ollama").toString()).build()) {
            server.enqueue(json(200, Fixtures.read("tags.json")));

            proxied.availableModels();

            assertThat(server.takeRequest().getUrl().encodedPath()).isEqualTo("/ollama/api/tags");
        }
    }

    @Test
    void availableModels_bodyNotJson_throwsProtocolException() {
        server.enqueue(new MockResponse.Builder().code(200).body("<html>proxy login</html>").build());

        assertThatThrownBy(backend::availableModels)
                .isInstanceOf(ModelProtocolException.class)
                .hasMessageContaining("not JSON")
                .hasMessageContaining("<html>proxy login</html>");
    }

    @Test
    void availableModels_serverDown_throwsUnavailable() throws Exception {
        try (OllamaBackend down = OllamaBackend.builder().baseUrl(deadUrl()).maxRetries(0).build()) {
            assertThatThrownBy(down::availableModels)
                    .isInstanceOf(LlmUnavailableException.class)
                    .hasMessageContaining("ollama serve");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"llama3.2", "llama3.2:latest", "LLAMA3.2", " llama3.2 ", "deepseek-r1"})
    void isAvailable_presentModelInAnySpelling_isTrue(String model) {
        server.enqueue(json(200, Fixtures.read("tags.json")));

        assertThat(backend.isAvailable(model)).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {"llama3", "llama3.2:1b", "mistral", "llama3.2:latest2", "deepseek-r1:32b"})
    void isAvailable_absentModel_isFalse(String model) {
        server.enqueue(json(200, Fixtures.read("tags.json")));

        assertThat(backend.isAvailable(model)).isFalse();
    }

    @Test
    void matches_taggedAndUntaggedNames_matchOnlyTheLatestTag() {
        List<String> available = List.of("llama3.2:latest", "qwen3:8b");

        assertThat(OllamaBackend.matches(available, "llama3.2")).isTrue();
        assertThat(OllamaBackend.matches(available, "qwen3:8b")).isTrue();
        assertThat(OllamaBackend.matches(available, "qwen3")).as("qwen3 means qwen3:latest").isFalse();
        assertThat(OllamaBackend.matches(List.of("llama3.2"), "llama3.2:latest")).isTrue();
        assertThat(OllamaBackend.matches(List.of(), "llama3.2")).isFalse();
    }

    // ---------------------------------------------------------------------------------------------------------
    // /api/show → modelInfo

    @Test
    void modelInfo_showFixture_readsContextLengthAndSendsTheModel() throws Exception {
        server.enqueue(json(200, Fixtures.read("show-llama.json")));

        ModelInfo info = backend.modelInfo("llama3.2");

        assertThat(info.name()).isEqualTo("llama3.2");
        assertThat(info.contextWindow()).isEqualTo(8192);
        assertThat(info.maxResponseTokens()).as("KnownModels' response limit for llama3.2").isEqualTo(1024);
        RecordedRequest request = server.takeRequest();
        assertThat(request.getMethod()).isEqualTo("POST");
        assertThat(request.getUrl().encodedPath()).isEqualTo("/api/show");
        assertThat(body(request)).isEqualTo(JSON.readTree("{\"model\":\"llama3.2\"}"));
    }

    @Test
    void modelInfo_unknownModel_responseLimitIsAQuarterOfTheWindow() {
        server.enqueue(json(200, Fixtures.read("show-llama.json")));

        ModelInfo info = backend.modelInfo("my-finetune");

        assertThat(info).isEqualTo(new ModelInfo("my-finetune", 8192, 2048));
    }

    @Test
    void modelInfo_largeUnknownWindow_responseLimitCappedAt4096() {
        server.enqueue(json(200, "{\"model_info\":{\"general.architecture\":\"qwen2\",\"qwen2.context_length\":131072}}"));

        assertThat(backend.modelInfo("qwen2.5:7b")).isEqualTo(new ModelInfo("qwen2.5:7b", 131072, 4096));
    }

    @Test
    void modelInfo_otherArchitecture_readsItsContextLength() {
        server.enqueue(json(200, "{\"model_info\":{\"general.architecture\":\"gemma3\",\"gemma3.context_length\":"
                + "32768,\"gemma3.embedding_length\":2560}}"));

        assertThat(backend.modelInfo("gemma3").contextWindow()).isEqualTo(32768);
    }

    @Test
    void modelInfo_noArchitectureField_findsAnyContextLength() {
        server.enqueue(json(200, "{\"model_info\":{\"bert.context_length\":512}}"));

        assertThat(backend.modelInfo("all-minilm").contextWindow()).isEqualTo(512);
    }

    @Test
    void modelInfo_noContextLength_throwsProtocolExceptionSayingTheFix() {
        server.enqueue(json(200, "{\"model_info\":{\"general.architecture\":\"llama\"}}"));

        assertThatThrownBy(() -> backend.modelInfo("llama3.2"))
                .isInstanceOf(ModelProtocolException.class)
                .hasMessageContaining("context_length")
                .hasMessageContaining("modelInfo");
    }

    @Test
    void modelInfo_secondCall_isCachedWithoutARequest() {
        server.enqueue(json(200, Fixtures.read("show-llama.json")));

        ModelInfo first = backend.modelInfo("llama3.2");
        ModelInfo second = backend.modelInfo("llama3.2");
        ModelInfo tagged = backend.modelInfo("llama3.2:latest");

        assertThat(second).isSameAs(first);
        assertThat(tagged).as("llama3.2:latest is the same model").isSameAs(first);
        assertThat(server.getRequestCount()).isEqualTo(1);
    }

    @Test
    void modelInfo_differentModels_areAskedSeparately() {
        server.enqueue(json(200, Fixtures.read("show-llama.json")));
        server.enqueue(json(200, "{\"model_info\":{\"general.architecture\":\"qwen3\",\"qwen3.context_length\":40960}}"));

        assertThat(backend.modelInfo("llama3.2").contextWindow()).isEqualTo(8192);
        assertThat(backend.modelInfo("qwen3:8b").contextWindow()).isEqualTo(40960);
        assertThat(server.getRequestCount()).isEqualTo(2);
    }

    @ParameterizedTest
    @ValueSource(strings = {"error-model-not-found.json", "error-model-not-found-legacy.json"})
    void modelInfo_404_throwsModelNotFoundSayingOllamaPull(String fixture) {
        server.enqueue(json(404, Fixtures.read(fixture)));

        assertThatThrownBy(() -> backend.modelInfo("llama3.2"))
                .isInstanceOf(ModelNotFoundException.class)
                .hasMessageContaining("ollama pull llama3.2")
                .hasMessageContaining("not found");
    }

    @Test
    void modelInfo_after404_isNotCached() {
        server.enqueue(json(404, Fixtures.read("error-model-not-found.json")));
        server.enqueue(json(200, Fixtures.read("show-llama.json")));

        assertThatThrownBy(() -> backend.modelInfo("llama3.2")).isInstanceOf(ModelNotFoundException.class);
        assertThat(backend.modelInfo("llama3.2").contextWindow()).isEqualTo(8192);
        assertThat(server.getRequestCount()).isEqualTo(2);
    }

    @Test
    void modelInfo_serverError_throwsServerExceptionWithTheServersText() {
        server.enqueue(json(500, Fixtures.read("error.json")));

        assertThatThrownBy(() -> backend.modelInfo("llama3.2"))
                .isInstanceOfSatisfying(ModelServerException.class, e -> {
                    assertThat(e.status()).isEqualTo(500);
                    assertThat(e.serverError()).isEqualTo("the model failed to generate a response");
                })
                .hasMessageContaining("the model failed to generate a response");
    }

    // ---------------------------------------------------------------------------------------------------------
    // /api/version → health

    @Test
    void health_serverHasTheModel_isHealthyWithVersionAndLatency() throws Exception {
        server.enqueue(json(200, Fixtures.read("version.json")));
        server.enqueue(json(200, Fixtures.read("tags.json")));

        HealthStatus health = backend.health("llama3.2");

        assertThat(health.reachable()).isTrue();
        assertThat(health.modelAvailable()).isTrue();
        assertThat(health.healthy()).isTrue();
        assertThat(health.version()).isEqualTo("0.5.1");
        assertThat(health.latency()).isPositive();
        assertThat(health.detail()).contains("0.5.1").contains("llama3.2");
        RecordedRequest version = server.takeRequest();
        assertThat(version.getMethod()).isEqualTo("GET");
        assertThat(version.getUrl().encodedPath()).isEqualTo("/api/version");
        assertThat(server.takeRequest().getUrl().encodedPath()).isEqualTo("/api/tags");
    }

    @Test
    void health_modelMissing_isReachableButNotAvailableSayingOllamaPull() {
        server.enqueue(json(200, Fixtures.read("version.json")));
        server.enqueue(json(200, Fixtures.read("tags.json")));

        HealthStatus health = backend.health("mistral");

        assertThat(health.reachable()).isTrue();
        assertThat(health.modelAvailable()).isFalse();
        assertThat(health.healthy()).isFalse();
        assertThat(health.version()).isEqualTo("0.5.1");
        assertThat(health.detail()).contains("ollama pull mistral");
    }

    @Test
    void health_serverDown_isUnreachableWithoutThrowing() throws Exception {
        try (OllamaBackend down = OllamaBackend.builder().baseUrl(deadUrl()).maxRetries(0).build()) {
            HealthStatus health = down.health("llama3.2");

            assertThat(health.reachable()).isFalse();
            assertThat(health.modelAvailable()).isFalse();
            assertThat(health.version()).isNull();
            assertThat(health.detail()).contains("ollama serve");
        }
    }

    @Test
    void health_versionAnswersGarbage_isUnreachableWithoutThrowing() {
        server.enqueue(new MockResponse.Builder().code(200).body("not ollama").build());

        HealthStatus health = backend.health("llama3.2");

        assertThat(health.reachable()).isFalse();
        assertThat(health.detail()).contains("not JSON");
    }

    @Test
    void health_tagsFail_isReachableButNotAvailableWithoutThrowing() {
        server.enqueue(json(200, Fixtures.read("version.json")));
        server.enqueue(json(500, Fixtures.read("error.json")));

        HealthStatus health = backend.health("llama3.2");

        assertThat(health.reachable()).isTrue();
        assertThat(health.modelAvailable()).isFalse();
        assertThat(health.version()).isEqualTo("0.5.1");
        assertThat(health.detail()).contains("listing models failed");
    }
}
