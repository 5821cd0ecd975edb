package dev.ragkit.ollama;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ragkit.error.LlmTimeoutException;
import dev.ragkit.error.LlmUnavailableException;
import dev.ragkit.error.ModelNotFoundException;
import dev.ragkit.generation.ChatMessage;
import dev.ragkit.generation.ChatRequest;
import dev.ragkit.generation.ChatResult;
import dev.ragkit.generation.FinishReason;
import dev.ragkit.http.ModelProtocolException;
import dev.ragkit.http.ModelServerException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import mockwebserver3.Dispatcher;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import mockwebserver3.SocketEffect;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link OllamaBackend#chat} ({@code POST /api/chat}, {@code stream:false}) against a local MockWebServer that
 * replays Ollama's published responses from {@code ../shared/fixtures/ollama} (see its SOURCES.md).
 */
final class OllamaBackendChatTest {
    /** The fixtures, relative to the rag-ollama module directory ({@code shared/} sits beside the repository). */
    private static final Path FIXTURES = Path.of("../../shared/fixtures/ollama");
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration SHORT = Duration.ofMillis(300);

    private MockWebServer server;
    private OllamaBackend backend;
    private final List<OllamaBackend> extraBackends = new ArrayList<>();
    private final CountDownLatch releaseServer = new CountDownLatch(1);

    @BeforeEach
    void startServer() throws IOException {
        server = new MockWebServer();
        server.start();
        backend = backendBuilder().build();
    }

    @AfterEach
    void stopServer() {
        releaseServer.countDown();
        backend.close();
        extraBackends.forEach(OllamaBackend::close);
        server.close();
    }

    private OllamaBackend.Builder backendBuilder() {
        return OllamaBackend.builder().baseUrl(server.url("/").toString()).retryBackoff(Duration.ofMillis(10));
    }

    private OllamaBackend extra(OllamaBackend.Builder builder) {
        OllamaBackend b = builder.build();
        extraBackends.add(b);
        return b;
    }

    static String fixture(String name) {
        Path file = FIXTURES.resolve(name);
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException("fixture " + name + " is expected at " + file.toAbsolutePath().normalize()
                    + " (shared/fixtures/ollama beside the repository)", e);
        }
    }

    private static MockResponse json(int code, String body) {
        return new MockResponse.Builder().code(code).setHeader("Content-Type", "application/json; charset=utf-8")
                .body(body).build();
    }

    private static ChatRequest request() {
        return ChatRequest.of("llama3.2", List.of(ChatMessage.user("Why is the sky blue?")));
    }

    private static JsonNode bodyOf(RecordedRequest recorded) throws IOException {
        assertThat(recorded.getBody()).as("request body").isNotNull();
        return JSON.readTree(recorded.getBody().utf8());
    }

    // --- the answer ---

    @Test
    void chat_publishedReply_returnsTextModelAndUsageCounts() {
        server.enqueue(json(200, fixture("chat.json")));

        ChatResult result = backend.chat(request());

        assertThat(result.text()).isEqualTo("Hello! How are you today?");
        assertThat(result.model()).isEqualTo("llama3.2");
        assertThat(result.promptTokens()).isEqualTo(26);
        assertThat(result.completionTokens()).isEqualTo(298);
        // chat.json predates done_reason: the reason is unknown, not invented
        assertThat(result.finishReason()).isEqualTo(FinishReason.OTHER);
        assertThat(result.duration().isNegative()).isFalse();
    }

    @ParameterizedTest
    @ValueSource(strings = {"stop", "length"})
    void chat_replyWithDoneReason_mapsFinishReason(String doneReason) throws IOException {
        ObjectNode reply = (ObjectNode) JSON.readTree(fixture("chat.json"));
        reply.put("done_reason", doneReason);
        server.enqueue(json(200, reply.toString()));

        ChatResult result = backend.chat(request());

        assertThat(result.finishReason()).isEqualTo("stop".equals(doneReason) ? FinishReason.STOP : FinishReason.LENGTH);
    }

    @Test
    void chat_replyNamesAnotherModelTag_reportsTheServersName() throws IOException {
        ObjectNode reply = (ObjectNode) JSON.readTree(fixture("chat.json"));
        reply.put("model", "llama3.2:latest");
        server.enqueue(json(200, reply.toString()));

        assertThat(backend.chat(request()).model()).isEqualTo("llama3.2:latest");
    }

    // --- the request ---

    @Test
    void chat_anyRequest_postsExactJsonWithBudgetedWindowAndReserve() throws Exception {
        server.enqueue(json(200, fixture("chat.json")));
        ChatRequest request = new ChatRequest("llama3.2", List.of(ChatMessage.system("Answer from the sources."),
                ChatMessage.user("What is a trait?"), ChatMessage.assistant("A set of methods."),
                ChatMessage.user("And a lifetime?")), 0.7, 512, 16384, null);

        backend.chat(request);

        RecordedRequest recorded = server.takeRequest(5, TimeUnit.SECONDS);
        assertThat(recorded).isNotNull();
        assertThat(recorded.getMethod()).isEqualTo("POST");
        assertThat(recorded.getUrl().encodedPath()).isEqualTo("/api/chat");
        assertThat(recorded.getHeaders().get("Content-Type")).startsWith("application/json");
        JsonNode expected = JSON.readTree("""
                {"model":"llama3.2",
                 "messages":[{"role":"system","content":"Answer from the sources."},
                             {"role":"user","content":"What is a trait?"},
                             {"role":"assistant","content":"A set of methods."},
                             {"role":"user","content":"And a lifetime?"}],
                 "stream":false,
                 "options":{"num_ctx":16384,"num_predict":512,"temperature":0.7}}
                """);
        assertThat(bodyOf(recorded)).isEqualTo(expected);
    }

    @Test
    void chat_seedAndKeepAliveConfigured_sendsThem() throws Exception {
        OllamaBackend configured = extra(backendBuilder().seed(7).keepAlive("5m"));
        server.enqueue(json(200, fixture("chat.json")));
        server.enqueue(json(200, fixture("chat.json")));

        configured.chat(request());
        configured.chat(new ChatRequest("llama3.2", List.of(ChatMessage.user("q")), 0.0, 64, 2048, 42L));

        JsonNode first = bodyOf(server.takeRequest(5, TimeUnit.SECONDS));
        assertThat(first.path("options").path("seed").asLong()).isEqualTo(7);
        assertThat(first.path("keep_alive").asText()).isEqualTo("5m");
        assertThat(first.path("options").path("num_ctx").asInt()).isEqualTo(8192);
        assertThat(first.path("options").path("num_predict").asInt()).isEqualTo(1024);
        JsonNode second = bodyOf(server.takeRequest(5, TimeUnit.SECONDS));
        assertThat(second.path("options").path("seed").asLong()).as("the request's seed wins").isEqualTo(42);
        assertThat(second.path("options").path("temperature").asDouble()).isEqualTo(0.0);
        assertThat(second.path("options").path("num_ctx").asInt()).isEqualTo(2048);
        assertThat(second.path("options").path("num_predict").asInt()).isEqualTo(64);
    }

    @Test
    void chat_noSeedOrKeepAliveConfigured_omitsThem() throws Exception {
        server.enqueue(json(200, fixture("chat.json")));

        backend.chat(request());

        JsonNode body = bodyOf(server.takeRequest(5, TimeUnit.SECONDS));
        assertThat(body.has("keep_alive")).isFalse();
        assertThat(body.path("options").has("seed")).isFalse();
    }

    @Test
    void chat_baseUrlWithPathPrefix_keepsThePrefix() throws Exception {
        OllamaBackend proxied = extra(OllamaBackend.builder().baseUrl(server.url("/ollama").toString()));
        server.enqueue(json(200, fixture("chat.json")));

        proxied.chat(request());

        assertThat(server.takeRequest(5, TimeUnit.SECONDS).getUrl().encodedPath()).isEqualTo("/ollama/api/chat");
    }

    // --- unavailable servers and retries ---

    @Test
    void chat_connectionRefused_throwsUnavailableAskingWhetherOllamaRuns() {
        String url = server.url("/").toString();
        server.close();
        OllamaBackend refused = extra(OllamaBackend.builder().baseUrl(url).retryBackoff(Duration.ofMillis(10)));

        assertThatThrownBy(() -> refused.chat(request()))
                .isInstanceOf(LlmUnavailableException.class)
                .hasMessageContaining("is Ollama running at " + url + "?")
                .hasMessageContaining("ollama serve");
    }

    @Test
    void chat_503Twice_retriesAndReturnsTheThirdAnswer() {
        server.enqueue(json(503, "{\"error\":\"server busy, please try again.  maximum pending requests exceeded\"}"));
        server.enqueue(json(503, "{\"error\":\"server busy\"}"));
        server.enqueue(json(200, fixture("chat.json")));

        ChatResult result = backend.chat(request());

        assertThat(result.text()).isEqualTo("Hello! How are you today?");
        assertThat(server.getRequestCount()).isEqualTo(3);
    }

    @Test
    void chat_429Then502_retriesBoth() {
        server.enqueue(json(429, "{\"error\":\"too many requests\"}"));
        server.enqueue(json(502, "bad gateway"));
        server.enqueue(json(200, fixture("chat.json")));

        assertThat(backend.chat(request()).promptTokens()).isEqualTo(26);
        assertThat(server.getRequestCount()).isEqualTo(3);
    }

    @Test
    void chat_503Always_throwsUnavailableAfterMaxRetries() {
        for (int i = 0; i < 4; i++) {
            server.enqueue(json(503, "{\"error\":\"server busy\"}"));
        }

        assertThatThrownBy(() -> backend.chat(request()))
                .isInstanceOf(LlmUnavailableException.class)
                .hasMessageContaining("HTTP 503")
                .hasMessageContaining("server busy")
                .hasMessageContaining(server.url("/").toString())
                .hasMessageContaining("is Ollama running");
        assertThat(server.getRequestCount()).as("one try and two retries (the default)").isEqualTo(3);
    }

    @Test
    void chat_503WithRetriesOff_triesOnce() {
        OllamaBackend once = extra(backendBuilder().maxRetries(0));
        server.enqueue(json(503, "{\"error\":\"server busy\"}"));
        server.enqueue(json(200, fixture("chat.json")));

        assertThatThrownBy(() -> once.chat(request())).isInstanceOf(LlmUnavailableException.class);
        assertThat(server.getRequestCount()).isEqualTo(1);
    }

    // --- errors the server reports ---

    @ParameterizedTest
    @ValueSource(strings = {"error-model-not-found.json", "error-model-not-found-legacy.json"})
    void chat_404ModelNotFound_throwsModelNotFoundSayingOllamaPull(String fixture) {
        server.enqueue(json(404, fixture(fixture)));
        server.enqueue(json(200, fixture("chat.json")));

        assertThatThrownBy(() -> backend.chat(request()))
                .isInstanceOf(ModelNotFoundException.class)
                .hasMessageContaining("'llama3.2'")
                .hasMessageContaining("ollama pull llama3.2");
        assertThat(server.getRequestCount()).as("a 404 is not retried").isEqualTo(1);
    }

    @Test
    void chat_500_throwsServerErrorWithTheServersTextWithoutRetry() {
        server.enqueue(json(500, fixture("error.json")));
        server.enqueue(json(200, fixture("chat.json")));

        ModelServerException e = catchThrowableOfType(() -> backend.chat(request()), ModelServerException.class);

        assertThat(e).isNotNull();
        assertThat(e.status()).isEqualTo(500);
        assertThat(e.serverError()).isEqualTo("the model failed to generate a response");
        assertThat(e.getMessage()).contains("HTTP 500").contains("the model failed to generate a response");
        assertThat(e.partialText()).isEmpty();
        assertThat(server.getRequestCount()).as("a 500 is not retried").isEqualTo(1);
    }

    @Test
    void chat_400_throwsServerErrorWithTheServersTextWithoutRetry() {
        server.enqueue(json(400, "{\"error\":\"json: cannot unmarshal string into Go struct field .options of type"
                + " int\"}"));
        server.enqueue(json(200, fixture("chat.json")));

        assertThatThrownBy(() -> backend.chat(request()))
                .isInstanceOfSatisfying(ModelServerException.class, e -> {
                    assertThat(e.status()).isEqualTo(400);
                    assertThat(e.getMessage()).contains("cannot unmarshal string");
                });
        assertThat(server.getRequestCount()).isEqualTo(1);
    }

    @Test
    void chat_404WithoutModelError_isAServerErrorNotModelNotFound() {
        server.enqueue(json(404, "404 page not found"));

        assertThatThrownBy(() -> backend.chat(request()))
                .isInstanceOf(ModelServerException.class)
                .isNotInstanceOf(ModelNotFoundException.class)
                .hasMessageContaining("404 page not found")
                .hasMessageContaining("base URL")
                .hasMessageNotContaining("ollama pull");
    }

    // --- garbage ---

    @Test
    void chat_bodyIsNotJson_throwsProtocolErrorNamingTheBaseUrl() {
        server.enqueue(new MockResponse.Builder().code(200).setHeader("Content-Type", "text/html")
                .body("<html><body>Welcome to nginx!</body></html>").build());

        assertThatThrownBy(() -> backend.chat(request()))
                .isInstanceOf(ModelProtocolException.class)
                .hasMessageContaining("not JSON")
                .hasMessageContaining("Welcome to nginx!")
                .hasMessageContaining("base URL");
        assertThat(server.getRequestCount()).isEqualTo(1);
    }

    @Test
    void chat_replyWithoutMessageContent_throwsProtocolError() {
        server.enqueue(json(200, "{\"model\":\"llama3.2\",\"done\":true}"));

        assertThatThrownBy(() -> backend.chat(request()))
                .isInstanceOf(ModelProtocolException.class)
                .hasMessageContaining("message.content");
    }

    @Test
    void chat_truncatedJsonBody_throwsProtocolError() {
        String whole = fixture("chat.json");
        server.enqueue(json(200, whole.substring(0, whole.length() / 2)));

        assertThatThrownBy(() -> backend.chat(request())).isInstanceOf(ModelProtocolException.class);
    }

    @Test
    void chat_connectionDropsMidBody_throwsProtocolErrorWithoutRetry() {
        String whole = fixture("chat.json");
        // Content-Length promises the whole reply; half arrives, then the server closes the socket
        server.enqueue(new MockResponse.Builder(json(200, whole.substring(0, whole.length() / 2)))
                .setHeader("Content-Length", whole.length())
                .onResponseEnd(new SocketEffect.CloseSocket()).build());
        server.enqueue(json(200, whole));

        assertThatThrownBy(() -> backend.chat(request()))
                .isInstanceOf(ModelProtocolException.class)
                .hasMessageContaining("closed the connection before its answer was complete")
                .hasMessageContaining("server's log").hasMessageNotContaining("unexpected end of stream");
        assertThat(server.getRequestCount()).isEqualTo(1);
    }

    private static MockResponse proxyTimeout(int code) {
        return new MockResponse.Builder().code(code).setHeader("Content-Type", "text/html")
                .body("<html>timed out</html>").build();
    }

    @Test
    void chat_gatewayTimeout504_throwsTimeoutSayingToRaiseTheProxysLimitWithoutRetry() {
        server.enqueue(proxyTimeout(504));
        server.enqueue(json(200, fixture("chat.json")));

        assertThatThrownBy(() -> backend.chat(request()))
                .isInstanceOf(LlmTimeoutException.class)
                .hasMessageContaining("HTTP 504")
                .hasMessageContaining("gateway timeout")
                .hasMessageContaining("raise that proxy's or server's time limit");
        assertThat(server.getRequestCount()).as("a timeout is not retried").isEqualTo(1);
    }

    @Test
    void chat_requestTimeout408_throwsTimeoutWithoutRetryOfOurOwn() {
        // OkHttp itself repeats a request once after a 408 (the server did not process it); RagKit adds no retry
        server.enqueue(proxyTimeout(408));
        server.enqueue(proxyTimeout(408));
        server.enqueue(json(200, fixture("chat.json")));

        assertThatThrownBy(() -> backend.chat(request()))
                .isInstanceOf(LlmTimeoutException.class)
                .hasMessageContaining("HTTP 408")
                .hasMessageContaining("request timeout")
                .hasMessageContaining("raise that proxy's or server's time limit");
        assertThat(server.getRequestCount()).as("OkHttp's one repeat, none of RagKit's maxRetries 2").isEqualTo(2);
    }

    // --- slow servers ---

    @Test
    void chat_headersLate_throwsTimeoutNamingTheReadLimitWithoutRetry() {
        OllamaBackend impatient = extra(backendBuilder().readTimeout(SHORT));
        server.enqueue(new MockResponse.Builder(json(200, fixture("chat.json"))).headersDelay(2, TimeUnit.SECONDS)
                .build());
        server.enqueue(json(200, fixture("chat.json")));

        assertThatThrownBy(() -> impatient.chat(request()))
                .isInstanceOf(LlmTimeoutException.class)
                .hasMessageContaining("read 300 ms")
                .hasMessageContaining("RAG_TIMEOUT_SECONDS");
        assertThat(server.getRequestCount()).as("a timeout is not retried").isEqualTo(1);
    }

    @Test
    void chat_bodyLate_throwsTimeout() {
        OllamaBackend impatient = extra(backendBuilder().readTimeout(SHORT));
        server.enqueue(new MockResponse.Builder(json(200, fixture("chat.json"))).bodyDelay(2, TimeUnit.SECONDS)
                .build());

        assertThatThrownBy(() -> impatient.chat(request()))
                .isInstanceOf(LlmTimeoutException.class)
                .hasMessageContaining("read 300 ms");
    }

    @Test
    void chat_bodyTrickles_throwsTimeoutNamingTheWholeCallLimit() {
        // every byte comes well inside the read limit, but the whole body would take seconds
        OllamaBackend impatient = extra(backendBuilder().callTimeout(SHORT));
        server.enqueue(new MockResponse.Builder(json(200, fixture("chat.json")))
                .throttleBody(8, 50, TimeUnit.MILLISECONDS).build());

        assertThatThrownBy(() -> impatient.chat(request()))
                .isInstanceOf(LlmTimeoutException.class)
                .hasMessageContaining("whole call 300 ms");
    }

    // --- concurrency ---

    @Test
    void chat_eightThreadsAtOnce_eachGetsItsOwnAnswer() throws Exception {
        int threads = 8;
        CountDownLatch allArrived = new CountDownLatch(threads);
        server.setDispatcher(new Dispatcher() {
            @Override
            public MockResponse dispatch(RecordedRequest recorded) throws InterruptedException {
                // answer only when all eight are in flight, so the calls really overlap
                allArrived.countDown();
                if (!allArrived.await(5, TimeUnit.SECONDS)) {
                    return json(500, "{\"error\":\"the calls did not overlap\"}");
                }
                try {
                    JsonNode body = bodyOf(recorded);
                    String question = body.path("messages").get(0).path("content").asText();
                    ObjectNode reply = (ObjectNode) JSON.readTree(fixture("chat.json"));
                    ((ObjectNode) reply.get("message")).put("content", "answer to " + question);
                    return json(200, reply.toString());
                } catch (IOException e) {
                    return json(500, "{\"error\":\"" + e + "\"}");
                }
            }
        });
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            CyclicBarrier start = new CyclicBarrier(threads);
            List<Future<ChatResult>> answers = new ArrayList<>();
            for (int i = 0; i < threads; i++) {
                String question = "question " + i;
                answers.add(pool.submit(() -> {
                    start.await(5, TimeUnit.SECONDS);
                    return backend.chat(ChatRequest.of("llama3.2", List.of(ChatMessage.user(question))));
                }));
            }
            for (int i = 0; i < threads; i++) {
                assertThat(answers.get(i).get(10, TimeUnit.SECONDS).text()).isEqualTo("answer to question " + i);
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(server.getRequestCount()).isEqualTo(threads);
    }

    // --- arguments ---

    @Test
    void chat_nullRequest_throwsNullPointerNamingIt() {
        assertThatThrownBy(() -> backend.chat(null)).isInstanceOf(NullPointerException.class).hasMessage("request");
        assertThat(server.getRequestCount()).isZero();
    }
}
