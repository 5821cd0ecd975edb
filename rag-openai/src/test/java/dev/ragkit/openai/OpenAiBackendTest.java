package dev.ragkit.openai;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ragkit.error.LlmTimeoutException;
import dev.ragkit.error.LlmUnavailableException;
import dev.ragkit.error.ModelNotFoundException;
import dev.ragkit.error.RagException;
import dev.ragkit.generation.ChatMessage;
import dev.ragkit.generation.ChatRequest;
import dev.ragkit.generation.ChatResult;
import dev.ragkit.generation.FinishReason;
import dev.ragkit.generation.HealthStatus;
import dev.ragkit.generation.LlmBackends;
import dev.ragkit.generation.ModelInfo;
import dev.ragkit.http.ModelProtocolException;
import dev.ragkit.http.ModelServerException;
import dev.ragkit.tokens.CalibratedTokenCounter;
import dev.ragkit.tokens.TokenCounters;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link OpenAiBackend#chat} and everything but streaming, against a local MockWebServer replaying responses in the
 * shapes of OpenAI's API reference ({@code src/test/resources/openai}, see its SOURCES.md).
 */
final class OpenAiBackendTest {
    static final String KEY = "sk-test-0123456789abcdef1234";
    private static final ObjectMapper JSON = new ObjectMapper();

    private MockWebServer server;
    private OpenAiBackend backend;

    @BeforeEach
    void start() throws IOException {
        server = new MockWebServer();
        server.start();
        backend = builder().build();
    }

    @AfterEach
    void stop() {
        backend.close();
        server.close();
    }

    private OpenAiBackend.Builder builder() {
        return OpenAiBackend.builder().baseUrl(server.url("/v1").toString()).apiKey(KEY)
                .retryBackoff(Duration.ofMillis(10));
    }

    static String fixture(String name) {
        try (InputStream in = OpenAiBackendTest.class.getResourceAsStream("/openai/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static MockResponse json(int code, String body) {
        return new MockResponse.Builder().code(code).setHeader("Content-Type", "application/json").body(body).build();
    }

    static ChatRequest request(String model) {
        return new ChatRequest(model, List.of(ChatMessage.system("Answer from the context."),
                ChatMessage.user("Say hello")), 0.2, 300, 8192, 7L);
    }

    @Test
    void chat_sendsTheBudgetAndKeyAndReadsTheCompletion() throws Exception {
        server.enqueue(json(200, fixture("chat-completion.json")));
        OpenAiBackend withStop = builder().stop(List.of("\n\nQuestion:")).build();

        ChatResult result = withStop.chat(request("gpt-4o-mini"));

        assertThat(result.text()).isEqualTo("Hello! How can I assist you today?");
        assertThat(result.model()).isEqualTo("gpt-4o-mini-2024-07-18");
        assertThat(result.finishReason()).isEqualTo(FinishReason.STOP);
        assertThat(result.promptTokens()).isEqualTo(19);
        assertThat(result.completionTokens()).isEqualTo(10);
        RecordedRequest recorded = server.takeRequest();
        assertThat(recorded.getUrl().encodedPath()).isEqualTo("/v1/chat/completions");
        assertThat(recorded.getHeaders().get("Authorization")).isEqualTo("Bearer " + KEY);
        JsonNode body = JSON.readTree(recorded.getBody().utf8());
        assertThat(body.path("model").asText()).isEqualTo("gpt-4o-mini");
        assertThat(body.path("max_tokens").asInt()).isEqualTo(300);
        assertThat(body.path("temperature").asDouble()).isEqualTo(0.2);
        assertThat(body.path("seed").asLong()).isEqualTo(7L);
        assertThat(body.path("stop").get(0).asText()).isEqualTo("\n\nQuestion:");
        assertThat(body.path("stream").asBoolean()).isFalse();
        assertThat(body.path("messages")).hasSize(2);
        assertThat(body.path("messages").get(0).path("role").asText()).isEqualTo("system");
        withStop.close();
    }

    @Test
    void chat_lengthFinishAndAServerWithoutKey() throws Exception {
        server.enqueue(json(200, fixture("chat-completion.json").replace("\"stop\"", "\"length\"")));
        OpenAiBackend noKey = OpenAiBackend.builder().baseUrl(server.url("/v1").toString()).build();

        assertThat(noKey.chat(request("local-model")).finishReason()).isEqualTo(FinishReason.LENGTH);
        assertThat(server.takeRequest().getHeaders().get("Authorization")).isNull();
        noKey.close();
    }

    @Test
    void wrongKey_saysToSetItAndNeverShowsIt() {
        // a server that echoes the key it got must not put it in our message
        server.enqueue(json(401, fixture("error-invalid-api-key.json").replace("sk-test*****************1234", KEY)));

        assertThatThrownBy(() -> backend.chat(request("gpt-4o-mini")))
                .isInstanceOfSatisfying(ModelServerException.class, e -> {
                    assertThat(e.status()).isEqualTo(401);
                    assertThat(e.code()).isEqualTo("invalid_api_key");
                    assertThat(e.serverError()).doesNotContain(KEY);
                })
                .hasMessageContaining("set the API key").hasMessageContaining("OPENAI_API_KEY")
                .hasMessageNotContaining(KEY);
        assertThat(server.getRequestCount()).as("a 401 is not retried").isEqualTo(1);
    }

    @Test
    void unknownModel_namesTheModelsTheServerHas() {
        server.enqueue(json(404, fixture("error-model-not-found.json")));
        server.enqueue(json(200, fixture("models.json")));

        assertThatThrownBy(() -> backend.chat(request("gpt-9")))
                .isInstanceOf(ModelNotFoundException.class)
                .hasMessageContaining("'gpt-9'").hasMessageContaining("the server has: gpt-4o-mini, gpt-4o")
                .hasMessageContaining("does not exist");
    }

    @Test
    void contextTooLong_givesTheBudgetsNumbers() {
        server.enqueue(json(400, fixture("error-context-length.json")));

        assertThatThrownBy(() -> backend.chat(request("my-local-model")))
                .isInstanceOfSatisfying(ModelServerException.class,
                        e -> assertThat(e.code()).isEqualTo("context_length_exceeded"))
                .hasMessageContaining("maximum context length is 8192").hasMessageContaining("window of 8192 tokens")
                .hasMessageContaining("300 reserved").hasMessageContaining("RAG_CONTEXT_WINDOW");
    }

    @Test
    void rateLimited_isRetriedWithBackoffThenReported() {
        server.enqueue(json(429, fixture("error-rate-limit.json")));
        server.enqueue(json(200, fixture("chat-completion.json")));

        assertThat(backend.chat(request("gpt-4o-mini")).text()).startsWith("Hello!");
        assertThat(server.getRequestCount()).isEqualTo(2);

        for (int i = 0; i < 3; i++) {
            server.enqueue(json(429, fixture("error-rate-limit.json")));
        }
        assertThatThrownBy(() -> backend.chat(request("gpt-4o-mini")))
                .isInstanceOf(LlmUnavailableException.class).hasMessageContaining("rate limiting")
                .hasMessageContaining("Please try again in 20s");
        assertThat(server.getRequestCount()).as("2 retries after the first").isEqualTo(5);
    }

    @Test
    void serverErrorsAndGarbage_areTypedWithTheFix() {
        server.enqueue(json(503, "{\"error\":{\"message\":\"overloaded\",\"type\":\"server_error\"}}"));
        server.enqueue(json(503, "{\"error\":{\"message\":\"overloaded\",\"type\":\"server_error\"}}"));
        server.enqueue(json(503, "{\"error\":{\"message\":\"overloaded\",\"type\":\"server_error\"}}"));
        assertThatThrownBy(() -> backend.chat(request("gpt-4o-mini"))).isInstanceOf(LlmUnavailableException.class)
                .hasMessageContaining("not ready").hasMessageContaining("overloaded");

        server.enqueue(new MockResponse.Builder().code(200).setHeader("Content-Type", "text/html")
                .body("<html>Welcome to nginx!</html>").build());
        assertThatThrownBy(() -> backend.chat(request("gpt-4o-mini"))).isInstanceOf(ModelProtocolException.class)
                .hasMessageContaining("not JSON").hasMessageContaining("Welcome to nginx!");

        server.enqueue(json(200, "{\"id\":\"x\",\"object\":\"chat.completion\",\"choices\":[]}"));
        assertThatThrownBy(() -> backend.chat(request("gpt-4o-mini"))).isInstanceOf(ModelProtocolException.class)
                .hasMessageContaining("choices[0].message");

        server.enqueue(json(404, "404 page not found"));
        assertThatThrownBy(() -> backend.chat(request("gpt-4o-mini"))).isInstanceOf(ModelServerException.class)
                .hasMessageContaining("/v1");
    }

    @Test
    void serverDown_isUnavailableNamingTheAddress() throws IOException {
        int port;
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort();
        }
        OpenAiBackend down = OpenAiBackend.builder().baseUrl("http://127.0.0.1:" + port + "/v1").maxRetries(0).build();

        assertThatThrownBy(() -> down.chat(request("gpt-4o-mini"))).isInstanceOf(LlmUnavailableException.class)
                .hasMessageContaining("127.0.0.1:" + port).hasMessageContaining("OPENAI_BASE_URL");
        HealthStatus health = down.health("gpt-4o-mini");
        assertThat(health.reachable()).isFalse();
        down.close();
    }

    @Test
    void slowServer_timesOutNamingTheLimit() {
        server.enqueue(new MockResponse.Builder(json(200, fixture("chat-completion.json")))
                .headersDelay(2, TimeUnit.SECONDS).build());
        OpenAiBackend impatient = builder().readTimeout(Duration.ofMillis(200)).callTimeout(Duration.ofMillis(400))
                .build();

        assertThatThrownBy(() -> impatient.chat(request("gpt-4o-mini"))).isInstanceOf(LlmTimeoutException.class)
                .hasMessageContaining("RAG_TIMEOUT_SECONDS");
        impatient.close();
    }

    @Test
    void modelInfo_fromTheTableTheServersListOrTheConfiguredWindow() {
        assertThat(backend.modelInfo("gpt-4o-2024-08-06")).isEqualTo(new ModelInfo("gpt-4o-2024-08-06", 128_000,
                16_384));
        assertThat(backend.modelInfo("gpt-4o-mini").contextWindow()).isEqualTo(128_000);
        assertThat(backend.modelInfo("gpt-4").contextWindow()).isEqualTo(8_192);
        assertThat(server.getRequestCount()).as("known models need no request").isZero();

        server.enqueue(json(200, fixture("models-vllm.json")));
        assertThat(backend.modelInfo("Qwen/Qwen2.5-7B-Instruct")).isEqualTo(new ModelInfo("Qwen/Qwen2.5-7B-Instruct",
                32_768, 4_096));

        server.enqueue(json(200, fixture("models.json")));
        assertThatThrownBy(() -> backend.modelInfo("mystery")).isInstanceOf(RagException.class)
                .hasMessageContaining("RAG_CONTEXT_WINDOW");

        server.enqueue(json(200, fixture("models.json")));
        OpenAiBackend configured = builder().config(OpenAiConfig.builder().contextWindow(16_384).build()).build();
        assertThat(configured.modelInfo("mystery")).isEqualTo(new ModelInfo("mystery", 16_384, 4_096));
        configured.close();
    }

    @Test
    void tokenCounting_exactForOpenAiModelsCalibratedForOthers() {
        String text = "Tenants never see each other's documents.";
        assertThat(backend.tokenCounter("gpt-4o").count(text)).isEqualTo(TokenCounters.jtokkit("o200k_base")
                .count(text));
        assertThat(backend.tokenCounter("gpt-4").count(text)).isEqualTo(TokenCounters.jtokkit("cl100k_base")
                .count(text));
        assertThat(backend.tokenCounter("local-llama")).isInstanceOf(CalibratedTokenCounter.class);

        server.enqueue(json(200, fixture("chat-completion.json").replace("\"prompt_tokens\": 19",
                "\"prompt_tokens\": 24")));   // about 1.5 times the local count
        backend.chat(request("local-llama"));
        CalibratedTokenCounter learned = (CalibratedTokenCounter) backend.tokenCounter("local-llama");
        assertThat(learned.observations()).isEqualTo(1);
        assertThat(learned.ratio()).isGreaterThan(1.0);
    }

    @Test
    void requireModelAndHealth_readTheModelList() throws Exception {
        server.enqueue(json(200, fixture("models.json")));
        backend.requireModel("gpt-4o");
        assertThat(server.takeRequest().getUrl().encodedPath()).isEqualTo("/v1/models");

        server.enqueue(json(200, fixture("models.json")));
        assertThatThrownBy(() -> backend.requireModel("gpt-9")).isInstanceOf(ModelNotFoundException.class)
                .hasMessageContaining("it has: gpt-4o-mini, gpt-4o");

        server.enqueue(json(200, fixture("models.json")));
        HealthStatus up = backend.health("gpt-4o-mini");
        assertThat(up.reachable()).isTrue();
        assertThat(up.modelAvailable()).isTrue();
        server.enqueue(json(200, fixture("models.json")));
        HealthStatus missing = backend.health("gpt-9");
        assertThat(missing.modelAvailable()).isFalse();
        assertThat(missing.detail()).contains("gpt-9");
    }

    @Test
    void providerIsFoundByIdReadsTheKeyFromTheNamedVariableAndRefusesUnknownSettings() throws Exception {
        assertThat(LlmBackends.load("openai", Map.of("base-url", server.url("/v1").toString())))
                .isInstanceOf(OpenAiBackend.class);

        OpenAiBackendProvider provider = new OpenAiBackendProvider(Map.of("VLLM_KEY", "vllm-secret"));
        try (OpenAiBackend vllm = (OpenAiBackend) provider.create(Map.of("base-url", server.url("/v1").toString(),
                "api-key-env", "VLLM_KEY", "context-window", "4096"))) {
            server.enqueue(json(200, fixture("chat-completion.json")));
            vllm.chat(request("local"));
            assertThat(server.takeRequest().getHeaders().get("Authorization")).isEqualTo("Bearer vllm-secret");
            assertThat(vllm.toString()).doesNotContain("vllm-secret");
        }
        assertThatThrownBy(() -> provider.create(Map.of("api-key", "sk-x")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("unknown openai setting 'api-key'")
                .hasMessageContaining("api-key-env");
        assertThatThrownBy(() -> provider.create(Map.of("context-window", "12")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'context-window'");
    }

    @Test
    void config_fromEnvironmentLayersUnderTheBuilderAndHidesTheKey() throws Exception {
        OpenAiConfig config = OpenAiConfig.fromEnvironment(Map.of("OPENAI_BASE_URL", server.url("/v1").toString(),
                "OPENAI_API_KEY", KEY, "RAG_TIMEOUT_SECONDS", "5", "RAG_CONTEXT_WINDOW", "32768"));
        assertThat(config.apiKey()).isEqualTo(KEY);
        assertThat(config.contextWindow()).isEqualTo(32_768);
        assertThat(config.timeout()).isEqualTo(Duration.ofSeconds(5));
        assertThat(config.toString()).doesNotContain(KEY).contains("apiKey=***");
        assertThatThrownBy(() -> OpenAiConfig.fromEnvironment(Map.of("RAG_CONTEXT_WINDOW", "lots")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("RAG_CONTEXT_WINDOW");

        // an explicit key wins over the config's, whichever comes first
        for (OpenAiBackend b : List.of(OpenAiBackend.builder().apiKey("sk-explicit").config(config).build(),
                OpenAiBackend.builder().config(config).apiKey("sk-explicit").build())) {
            server.enqueue(json(200, fixture("chat-completion.json")));
            b.chat(request("gpt-4o-mini"));
            assertThat(server.takeRequest().getHeaders().get("Authorization")).isEqualTo("Bearer sk-explicit");
            b.close();
        }
    }
}
