package dev.ragkit.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ragkit.budget.BudgetLimits;
import dev.ragkit.error.LlmUnavailableException;
import dev.ragkit.error.ModelNotFoundException;
import dev.ragkit.generation.ChatMessage;
import dev.ragkit.generation.ChatRequest;
import dev.ragkit.generation.ChatResult;
import dev.ragkit.generation.FinishReason;
import dev.ragkit.generation.HealthStatus;
import dev.ragkit.generation.StreamHandler;
import dev.ragkit.http.testing.CutStreams;
import dev.ragkit.tokens.CalibratedTokenCounter;
import java.io.IOException;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import okhttp3.OkHttpClient;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What {@link ModelServerBackend} owns for every backend — calibration of whole and streamed answers, the stream's
 * ends, the model list checks, health, the model-info cache, counters, closing — driven through {@link ToyBackend}
 * against a MockWebServer.
 */
final class ModelServerBackendTest {
    private static final String QUESTION = "how do keys rotate";

    private MockWebServer server;
    private ToyBackend backend;

    @BeforeEach
    void start() throws IOException {
        server = new MockWebServer();
        server.start();
        backend = ToyBackend.builder(server.url("/").toString()).maxRetries(0).build();
    }

    @AfterEach
    void stop() {
        backend.close();
        server.close();
    }

    private static ChatRequest request(String model) {
        return ChatRequest.of(model, List.of(ChatMessage.user(QUESTION)));
    }

    /** The local count the base teaches calibration with: the local counter plus the per-message allowance. */
    private static int localCount() {
        return new ToyBackend.Words().count(QUESTION) + BudgetLimits.DEFAULT_MESSAGE_OVERHEAD;
    }

    private static MockResponse json(int code, String body) {
        return new MockResponse.Builder().code(code).setHeader("Content-Type", "application/json").body(body).build();
    }

    private static MockResponse ndjson(String body) {
        return new MockResponse.Builder().code(200).setHeader("Content-Type", "application/x-ndjson").body(body)
                .build();
    }

    private JsonNode sentBody() throws InterruptedException {
        try {
            return ModelHttp.MAPPER.readTree(server.takeRequest().getBody().utf8());
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void chat_calibratesTheModelsCounterFromTheReportedPromptCount() throws Exception {
        int reported = localCount() + 3;
        server.enqueue(json(200, "{\"text\":\"They rotate.\",\"prompt\":" + reported + ",\"reason\":\"stop\"}"));

        ChatResult result = backend.chat(request("m"));

        assertThat(result.text()).isEqualTo("They rotate.");
        assertThat(result.finishReason()).isEqualTo(FinishReason.STOP);
        CalibratedTokenCounter counter = (CalibratedTokenCounter) backend.tokenCounter("m");
        assertThat(counter.observations()).isEqualTo(1);
        assertThat(counter.ratio()).isCloseTo((double) reported / localCount(), within(1e-12));
        JsonNode body = sentBody();
        assertThat(body.path("model").asText()).isEqualTo("m");
        assertThat(body.path("messages").path(0).path("role").asText()).isEqualTo("user");
        assertThat(body.path("messages").path(0).path("content").asText()).isEqualTo(QUESTION);
    }

    @Test
    void stream_deliversTokensAndCalibratesTheResult() throws Exception {
        int reported = localCount() + 2;
        server.enqueue(ndjson("{\"token\":\"They \"}\n{\"token\":\"rotate.\"}\n{\"done\":true,\"prompt\":" + reported
                + ",\"reason\":\"length\"}\n"));

        Recorder recorder = new Recorder();
        backend.stream(request("m"), recorder);
        recorder.await();

        assertThat(recorder.events).containsExactly("token:They ", "token:rotate.", "complete");
        assertThat(recorder.result.text()).isEqualTo("They rotate.");
        assertThat(recorder.result.finishReason()).isEqualTo(FinishReason.LENGTH);
        CalibratedTokenCounter counter = (CalibratedTokenCounter) backend.tokenCounter("m");
        assertThat(counter.observations()).as("a streamed answer calibrates too").isEqualTo(1);
        assertThat(counter.ratio()).isCloseTo((double) reported / localCount(), within(1e-12));
        assertThat(sentBody().path("stream").asBoolean()).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {"content-length", "chunked", "until-close"})
    void aStreamCutShort_isAProtocolErrorNamingTheProviderWithThePartialText(String how) throws Exception {
        String whole = "{\"token\":\"They \"}\n{\"token\":\"rotate.\"}\n{\"done\":true,\"prompt\":9}\n";
        server.enqueue(CutStreams.cut(how, "application/x-ndjson", whole, "{\"token\":\"They \"}\n{\"tok"));

        Recorder recorder = new Recorder();
        backend.stream(request("m"), recorder);
        recorder.await();

        assertThat(recorder.error).isInstanceOfSatisfying(ModelProtocolException.class, e -> {
            assertThat(e.provider()).isEqualTo("Toy");
            assertThat(e.partialText()).isEqualTo("They ");
            assertThat(e.isRetriable()).isFalse();
            assertThat(e.getMessage()).contains("the toy server at " + server.url("/"))
                    .contains("closed the stream before it finished (1 token received)");
        });
        assertThat(((CalibratedTokenCounter) backend.tokenCounter("m")).observations()).isZero();
    }

    @Test
    void anErrorLineInsideTheStream_isAServerErrorWithStatus200AndThePartialText() throws Exception {
        server.enqueue(ndjson("{\"token\":\"They \"}\n{\"error\":\"the model crashed\"}\n"));

        Recorder recorder = new Recorder();
        backend.stream(request("m"), recorder);
        recorder.await();

        assertThat(recorder.events).containsExactly("token:They ", "error");
        assertThat(recorder.error).isInstanceOfSatisfying(ModelServerException.class, e -> {
            assertThat(e.provider()).isEqualTo("Toy");
            assertThat(e.status()).isEqualTo(200);
            assertThat(e.serverError()).isEqualTo("the model crashed");
            assertThat(e.partialText()).isEqualTo("They ");
            assertThat(e.getMessage()).contains("the toy server at").contains("in the middle of the answer")
                    .contains("the model crashed").contains("5 characters were streamed before it")
                    .endsWith(e.fix());
        });
    }

    @Test
    void anErrorStatus_isTheDialectsException() {
        server.enqueue(json(400, "{\"error\":\"bad role\"}"));

        assertThatThrownBy(() -> backend.chat(request("m"))).isInstanceOfSatisfying(ModelServerException.class,
                e -> {
                    assertThat(e.status()).isEqualTo(400);
                    assertThat(e.serverError()).isEqualTo("bad role");
                    assertThat(e.fix()).isEqualTo("check the toy server");
                })
                .hasMessage("the toy server at " + server.url("/") + " answered HTTP 400: bad role; check the toy "
                        + "server");
    }

    @Test
    void aReplyWithoutTheProtocolsFields_isAProtocolErrorPrefixedWithTheProvider() {
        server.enqueue(json(200, "{\"answer\":\"no text field\"}"));

        assertThatThrownBy(() -> backend.chat(request("m"))).isInstanceOf(ModelProtocolException.class)
                .hasMessage("Toy: the reply has no text");
    }

    @Test
    void requireModel_listedPasses_missingNamesWhatTheServerHas() {
        server.enqueue(json(200, "{\"models\":[\"a\",\"b\"]}"));
        backend.requireModel("a");

        server.enqueue(json(200, "{\"models\":[\"a\",\"b\"]}"));
        assertThatThrownBy(() -> backend.requireModel("c")).isInstanceOf(ModelNotFoundException.class)
                .hasMessage("model 'c' is not on the toy server at " + server.url("/") + "; it has [a, b]");
    }

    @Test
    void requireModel_aMissingModelTheBackendCanFetch_passes() {
        try (ToyBackend fetching = ToyBackend.builder(server.url("/").toString()).canFetch().build()) {
            server.enqueue(json(200, "{\"models\":[]}"));
            fetching.requireModel("c");
            assertThat(fetching.fetched).hasValue(1);
        }
    }

    @Test
    void health_withoutAVersion_listsModelsOnce() throws Exception {
        server.enqueue(json(200, "{\"models\":[\"a\"]}"));
        server.enqueue(json(200, "{\"models\":[\"a\"]}"));

        HealthStatus present = backend.health("a");
        HealthStatus missing = backend.health("z");

        assertThat(present.healthy()).isTrue();
        assertThat(present.detail()).isEqualTo("the toy server at " + server.url("/") + " serves a");
        assertThat(missing.reachable()).isTrue();
        assertThat(missing.modelAvailable()).isFalse();
        assertThat(missing.detail()).contains("model 'z' is not on").contains("[a]");
        assertThat(server.getRequestCount()).as("one request per check").isEqualTo(2);
    }

    @Test
    void health_withAVersion_reportsItAndAFailedListingSeparately() {
        try (ToyBackend versioned = ToyBackend.builder(server.url("/").toString()).asksVersion().maxRetries(0)
                .build()) {
            server.enqueue(json(200, "{\"version\":\"1.2.3\"}"));
            server.enqueue(json(200, "{\"models\":[\"a\"]}"));
            HealthStatus ok = versioned.health("a");
            assertThat(ok.healthy()).isTrue();
            assertThat(ok.version()).isEqualTo("1.2.3");
            assertThat(ok.detail()).contains("(version 1.2.3) serves a");

            server.enqueue(json(200, "{\"version\":\"1.2.3\"}"));
            server.enqueue(json(503, "{\"error\":\"busy\"}"));
            HealthStatus listingFailed = versioned.health("a");
            assertThat(listingFailed.reachable()).isTrue();
            assertThat(listingFailed.modelAvailable()).isFalse();
            assertThat(listingFailed.detail()).startsWith("listing models failed: ").contains("busy");
        }
    }

    @Test
    void health_ofAServerThatIsNotThere_isUnreachableNamingTheFix() throws IOException {
        int port;
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort();
        }
        try (ToyBackend nowhere = ToyBackend.builder("http://127.0.0.1:" + port + "/").maxRetries(0).build()) {
            HealthStatus health = nowhere.health("a");
            assertThat(health.reachable()).isFalse();
            assertThat(health.detail()).contains("cannot connect to the toy server").contains("start the toy server");
            assertThatThrownBy(() -> nowhere.requireModel("a")).isInstanceOf(LlmUnavailableException.class);
        }
    }

    @Test
    void modelInfo_isAskedOncePerModelWhateverItsCaseOrLatestTag() {
        server.enqueue(json(200, "{\"window\":4096}"));

        assertThat(backend.modelInfo("Llama:latest").contextWindow()).isEqualTo(4096);
        assertThat(backend.modelInfo("llama").contextWindow()).isEqualTo(4096);
        assertThat(server.getRequestCount()).isEqualTo(1);
    }

    @Test
    void tokenCounter_onePerModel_exactWhereTheBackendKnowsTheTokenizer() {
        assertThat(backend.tokenCounter("M:latest")).isSameAs(backend.tokenCounter("m"))
                .isInstanceOf(CalibratedTokenCounter.class);
        assertThat(backend.tokenCounter("exact")).isNotInstanceOf(CalibratedTokenCounter.class);
        assertThat(backend.tokenCounter("exact").count("abcd")).isEqualTo(4);
        assertThat(backend.tokenCounterFor("m")).containsSame(backend.tokenCounter("m"));
        assertThat(backend.countTokens("exact", "abc")).hasValue(3);
    }

    @Test
    void seed_ofTheBuilder_goesIntoRequestsThatNameNone() throws Exception {
        try (ToyBackend seeded = ToyBackend.builder(server.url("/").toString()).seed(42).build()) {
            server.enqueue(json(200, "{\"text\":\"a\"}"));
            server.enqueue(json(200, "{\"text\":\"b\"}"));
            seeded.chat(request("m"));
            seeded.chat(new ChatRequest("m", List.of(ChatMessage.user("q")), 0.1, 10, 100, 7L));
            assertThat(sentBody().path("seed").asLong()).isEqualTo(42);
            assertThat(sentBody().path("seed").asLong()).isEqualTo(7);
        }
    }

    @Test
    void close_releasesAClientItMadeButNotAShared() {
        OkHttpClient shared = new OkHttpClient();
        try {
            ToyBackend own = ToyBackend.builder(server.url("/").toString()).build();
            ToyBackend borrowing = ToyBackend.builder(server.url("/").toString()).httpClient(shared).build();
            ExecutorService ownThreads = own.http.client.dispatcher().executorService();
            own.close();
            borrowing.close();
            assertThat(ownThreads.isShutdown()).isTrue();
            assertThat(shared.dispatcher().executorService().isShutdown()).isFalse();
            assertThat(borrowing.http.client.dispatcher().executorService().isShutdown()).isFalse();
        } finally {
            ModelHttp.release(shared);
        }
    }

    @Test
    void executor_runsStreamedCalls() throws Exception {
        ExecutorService pool = Executors.newSingleThreadExecutor(r -> new Thread(r, "toy-stream"));
        try (ToyBackend pooled = ToyBackend.builder(server.url("/").toString()).executor(pool).build()) {
            server.enqueue(ndjson("{\"token\":\"a\"}\n{\"done\":true}\n"));
            List<String> threads = Collections.synchronizedList(new ArrayList<>());
            Recorder recorder = new Recorder() {
                @Override
                public void onToken(String token) {
                    threads.add(Thread.currentThread().getName());
                    super.onToken(token);
                }
            };
            pooled.stream(request("m"), recorder);
            recorder.await();
            assertThat(threads).containsExactly("toy-stream");
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void toString_namesTheBackendAndItsServer() {
        assertThat(backend).hasToString("ToyBackend[" + server.url("/") + "]");
        assertThat(backend.baseUrl()).isEqualTo(server.url("/").uri());
    }

    /** Every callback in order. */
    static class Recorder implements StreamHandler {
        final List<String> events = Collections.synchronizedList(new ArrayList<>());
        final CountDownLatch done = new CountDownLatch(1);
        volatile @Nullable ChatResult result;
        volatile @Nullable Throwable error;

        @Override
        public void onToken(String token) {
            events.add("token:" + token);
        }

        @Override
        public void onComplete(ChatResult r) {
            result = r;
            events.add("complete");
            done.countDown();
        }

        @Override
        public void onError(Throwable e) {
            error = e;
            events.add("error");
            done.countDown();
        }

        void await() throws InterruptedException {
            assertThat(done.await(10, TimeUnit.SECONDS)).as("the stream ended").isTrue();
        }
    }
}
