package dev.ragkit.ollama;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ragkit.embedding.SimilarityScale;
import dev.ragkit.error.LlmTimeoutException;
import dev.ragkit.error.LlmUnavailableException;
import dev.ragkit.error.ModelNotFoundException;
import dev.ragkit.http.ModelProtocolException;
import dev.ragkit.http.ModelServerException;
import dev.ragkit.internal.Settings;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import mockwebserver3.Dispatcher;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import mockwebserver3.junit5.StartStop;
import okhttp3.OkHttpClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@code POST /api/embed}: request shape, batching, order, dimension checks, typed errors. */
final class OllamaEmbedderTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** The first vector of embed.json and embed-multi.json. */
    private static final float[] FIRST = {0.010071029f, -0.0017594862f, 0.05007221f, 0.04692972f, 0.054916814f,
            0.008599704f, 0.105441414f, -0.025878139f, 0.12958129f, 0.031952348f};
    /** The second vector of embed-multi.json. */
    private static final float[] SECOND = {-0.0098027075f, 0.06042469f, 0.025257962f, -0.006364387f, 0.07272725f,
            0.017194884f, 0.09032035f, -0.051705178f, 0.09951512f, 0.09072481f};

    @StartStop
    private final MockWebServer server = new MockWebServer();

    private OllamaEmbedder.Builder builder() {
        return OllamaEmbedder.builder().baseUrl(server.url("/").toString()).model("all-minilm").maxRetries(0);
    }

    private static MockResponse json(int code, String body) {
        return new MockResponse.Builder().code(code).setHeader("Content-Type", "application/json").body(body).build();
    }

    private static JsonNode body(RecordedRequest request) throws Exception {
        return JSON.readTree(request.getBody().utf8());
    }

    /**
     * Answers every embed request with one vector per input: {@code [i, length]} for an input {@code "t<i>"}, so
     * the vectors say which text they belong to.
     */
    private static final class IndexingDispatcher extends Dispatcher {
        final List<List<String>> batches = new ArrayList<>();
        private final int dimension;

        IndexingDispatcher(int dimension) {
            this.dimension = dimension;
        }

        @Override
        public synchronized MockResponse dispatch(RecordedRequest request) {
            try {
                JsonNode in = JSON.readTree(request.getBody().utf8());
                List<String> batch = new ArrayList<>();
                ObjectNode reply = JSON.createObjectNode().put("model", in.path("model").asText());
                ArrayNode embeddings = reply.putArray("embeddings");
                for (JsonNode text : in.path("input")) {
                    batch.add(text.asText());
                    ArrayNode v = embeddings.addArray();
                    v.add(Integer.parseInt(text.asText().substring(1)));
                    for (int i = 1; i < dimension; i++) {
                        v.add(0.5);
                    }
                }
                batches.add(batch);
                return json(200, reply.toString());
            } catch (Exception e) {
                return json(400, "{\"error\":\"" + e + "\"}");
            }
        }
    }

    private static List<String> texts(int n) {
        List<String> texts = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            texts.add("t" + i);
        }
        return texts;
    }

    // ---------------------------------------------------------------------------------------------------------
    // Requests and replies

    @Test
    void embed_oneText_sendsModelAndInputArrayAndReturnsTheVector() throws Exception {
        server.enqueue(json(200, Fixtures.read("embed.json")));
        OllamaEmbedder embedder = builder().build();

        float[][] vectors = embedder.embed(List.of("Why is the sky blue?"));

        assertThat(vectors).hasDimensions(1, 10);
        assertThat(vectors[0]).containsExactly(FIRST);
        RecordedRequest request = server.takeRequest();
        assertThat(request.getMethod()).isEqualTo("POST");
        assertThat(request.getUrl().encodedPath()).isEqualTo("/api/embed");
        assertThat(request.getHeaders().get("Content-Type")).startsWith("application/json");
        assertThat(body(request)).isEqualTo(JSON.readTree(
                "{\"model\":\"all-minilm\",\"truncate\":false,\"input\":[\"Why is the sky blue?\"]}"));
    }

    @Test
    void embed_truncateAllowed_isSentSo() throws Exception {
        server.enqueue(json(200, Fixtures.read("embed.json")));
        builder().truncate(true).build().embed(List.of("Why is the sky blue?"));
        assertThat(body(server.takeRequest()).path("truncate").asBoolean(false)).isTrue();
    }

    @Test
    void embed_twoTexts_oneRequestAndVectorsInOrder() throws Exception {
        server.enqueue(json(200, Fixtures.read("embed-multi.json")));
        OllamaEmbedder embedder = builder().build();

        float[][] vectors = embedder.embed(List.of("Why is the sky blue?", "Why is the grass green?"));

        assertThat(vectors).hasDimensions(2, 10);
        assertThat(vectors[0]).containsExactly(FIRST);
        assertThat(vectors[1]).containsExactly(SECOND);
        assertThat(body(server.takeRequest())).isEqualTo(JSON.readTree(
                "{\"model\":\"all-minilm\",\"truncate\":false,\"input\":[\"Why is the sky blue?\","
                + "\"Why is the grass green?\"]}"));
        assertThat(server.getRequestCount()).isEqualTo(1);
    }

    @Test
    void embed_unicodeAndQuotes_areSentAsJsonStrings() throws Exception {
        server.enqueue(json(200, Fixtures.read("embed.json")));
        String text = "say \"hi\"\n\tto 日本 🙂 \\ end";

        builder().build().embed(List.of(text));

        assertThat(body(server.takeRequest()).path("input").get(0).asText()).isEqualTo(text);
    }

    @Test
    void embed_moreTextsThanBatchSize_splitsIntoBatchesAndKeepsOrder() {
        IndexingDispatcher dispatcher = new IndexingDispatcher(3);
        server.setDispatcher(dispatcher);
        OllamaEmbedder embedder = builder().batchSize(2).build();

        float[][] vectors = embedder.embed(texts(5));

        assertThat(dispatcher.batches).containsExactly(List.of("t0", "t1"), List.of("t2", "t3"), List.of("t4"));
        assertThat(vectors).hasNumberOfRows(5);
        for (int i = 0; i < 5; i++) {
            assertThat(vectors[i]).as("vector %d", i).containsExactly(i, 0.5f, 0.5f);
        }
    }

    @Test
    void embed_exactMultipleOfBatchSize_sendsNoEmptyBatch() {
        IndexingDispatcher dispatcher = new IndexingDispatcher(2);
        server.setDispatcher(dispatcher);

        builder().batchSize(3).build().embed(texts(6));

        assertThat(dispatcher.batches).containsExactly(List.of("t0", "t1", "t2"), List.of("t3", "t4", "t5"));
    }

    @Test
    void embed_defaultBatchSize_is32TextsPerRequest() {
        IndexingDispatcher dispatcher = new IndexingDispatcher(2);
        server.setDispatcher(dispatcher);

        float[][] vectors = builder().build().embed(texts(70));

        assertThat(dispatcher.batches).extracting(List::size).containsExactly(32, 32, 6);
        assertThat(vectors[69][0]).isEqualTo(69f);
    }

    @Test
    void name_isOllamaAndTheModel() {
        assertThat(builder().build().name()).isEqualTo("ollama:all-minilm");
    }

    // ---------------------------------------------------------------------------------------------------------
    // Similarity scale

    @Test
    void similarityScale_isMeasuredUnlessSetOnTheBuilder_withoutEmbeddingAnythingWhenSet() {
        SimilarityScale own = new SimilarityScale(0.3, 0.05);
        OllamaEmbedder stated = builder().model("nomic-embed-text").similarityScale(own).build();

        assertThat(builder().build().similarityScale()).isNull();
        assertThat(builder().similarityScale(null).build().similarityScale()).isNull();
        assertThat(stated.similarityScale()).isEqualTo(own);
        assertThat(SimilarityScale.of(stated)).isEqualTo(own);
        assertThat(server.getRequestCount()).as("no texts embedded to measure a scale").isZero();
    }

    // ---------------------------------------------------------------------------------------------------------
    // Dimension

    @Test
    void dimension_afterEmbedding_isLearnedWithoutARequest() {
        server.enqueue(json(200, Fixtures.read("embed.json")));
        OllamaEmbedder embedder = builder().build();

        embedder.embed(List.of("a"));

        assertThat(embedder.dimension()).isEqualTo(10);
        assertThat(server.getRequestCount()).isEqualTo(1);
    }

    @Test
    void dimension_beforeEmbedding_probesOnceThenRemembers() throws Exception {
        server.enqueue(json(200, Fixtures.read("embed.json")));
        OllamaEmbedder embedder = builder().build();

        assertThat(embedder.dimension()).isEqualTo(10);
        assertThat(embedder.dimension()).isEqualTo(10);

        assertThat(server.getRequestCount()).isEqualTo(1);
        assertThat(body(server.takeRequest()).path("input")).hasSize(1);
    }

    @Test
    void dimension_configured_needsNoRequest() {
        OllamaEmbedder embedder = builder().dimension(384).build();

        assertThat(embedder.dimension()).isEqualTo(384);
        assertThat(server.getRequestCount()).isZero();
    }

    @Test
    void embed_replyDisagreesWithConfiguredDimension_throwsProtocolException() {
        server.enqueue(json(200, Fixtures.read("embed.json")));
        OllamaEmbedder embedder = builder().dimension(384).build();

        assertThatThrownBy(() -> embedder.embed(List.of("a")))
                .isInstanceOf(ModelProtocolException.class)
                .hasMessageContaining("10 dimensions")
                .hasMessageContaining("384");
    }

    @Test
    void embed_laterBatchWithOtherDimension_throwsProtocolException() {
        server.enqueue(json(200, Fixtures.read("embed.json")));
        server.enqueue(json(200, "{\"embeddings\":[[0.1,0.2,0.3]]}"));
        OllamaEmbedder embedder = builder().batchSize(1).build();

        assertThatThrownBy(() -> embedder.embed(List.of("a", "b")))
                .isInstanceOf(ModelProtocolException.class)
                .hasMessageContaining("3 dimensions")
                .hasMessageContaining("expected 10");
    }

    @Test
    void embed_vectorsOfDifferentLengthsInOneReply_throwsProtocolException() {
        server.enqueue(json(200, "{\"embeddings\":[[0.1,0.2,0.3],[0.1,0.2]]}"));

        assertThatThrownBy(() -> builder().build().embed(List.of("a", "b")))
                .isInstanceOf(ModelProtocolException.class)
                .hasMessageContaining("embedding 1");
    }

    @Test
    void embed_laterCallWithOtherDimension_throwsProtocolException() {
        server.enqueue(json(200, Fixtures.read("embed.json")));
        server.enqueue(json(200, "{\"embeddings\":[[0.1,0.2,0.3]]}"));
        OllamaEmbedder embedder = builder().build();
        embedder.embed(List.of("a"));

        assertThatThrownBy(() -> embedder.embed(List.of("b"))).isInstanceOf(ModelProtocolException.class);
        assertThat(embedder.dimension()).isEqualTo(10);
    }

    // ---------------------------------------------------------------------------------------------------------
    // Garbage

    @Test
    void embed_fewerVectorsThanTexts_throwsProtocolException() {
        server.enqueue(json(200, Fixtures.read("embed.json")));

        assertThatThrownBy(() -> builder().build().embed(List.of("a", "b")))
                .isInstanceOf(ModelProtocolException.class)
                .hasMessageContaining("2 texts")
                .hasMessageContaining("1 vectors");
    }

    @Test
    void embed_moreVectorsThanTexts_throwsProtocolException() {
        server.enqueue(json(200, Fixtures.read("embed-multi.json")));

        assertThatThrownBy(() -> builder().build().embed(List.of("a")))
                .isInstanceOf(ModelProtocolException.class)
                .hasMessageContaining("2 vectors");
    }

    @ParameterizedTest
    @ValueSource(strings = {"{\"model\":\"all-minilm\"}", "{\"embeddings\":null}", "{\"embeddings\":{\"0\":[1]}}",
            "{\"embedding\":[0.1,0.2]}"})
    void embed_noEmbeddingsArray_throwsProtocolException(String reply) {
        server.enqueue(json(200, reply));

        assertThatThrownBy(() -> builder().build().embed(List.of("a")))
                .isInstanceOf(ModelProtocolException.class)
                .hasMessageContaining("no embeddings array");
    }

    @ParameterizedTest
    @ValueSource(strings = {"[[0.1,\"0.2\",0.3]]", "[[0.1,null,0.3]]", "[[0.1,[0.2],0.3]]", "[[0.1,true,0.3]]",
            "[[0.1,1e999,0.3]]", "[[0.1,-1e999,0.3]]", "[[]]", "[\"0.1 0.2\"]", "[null]", "[{\"v\":[0.1]}]"})
    void embed_vectorNotFiniteNumbers_throwsProtocolException(String embeddings) {
        server.enqueue(json(200, "{\"embeddings\":" + embeddings + "}"));

        assertThatThrownBy(() -> builder().build().embed(List.of("a")))
                .isInstanceOf(ModelProtocolException.class)
                .hasMessageContaining("embedding 0");
    }

    @Test
    void embed_valueOverflowingFloat_throwsProtocolException() {
        // finite as a double, infinite as the float the vector holds
        server.enqueue(json(200, "{\"embeddings\":[[0.1,1e300,0.3]]}"));

        assertThatThrownBy(() -> builder().build().embed(List.of("a")))
                .isInstanceOf(ModelProtocolException.class)
                .hasMessageContaining("position 1");
    }

    @Test
    void embed_nanLiteral_throwsProtocolException() {
        server.enqueue(json(200, "{\"embeddings\":[[0.1,NaN,0.3]]}"));

        assertThatThrownBy(() -> builder().build().embed(List.of("a"))).isInstanceOf(ModelProtocolException.class);
    }

    @Test
    void embed_bodyNotJson_throwsProtocolException() {
        server.enqueue(new MockResponse.Builder().code(200).body("<html>login</html>").build());

        assertThatThrownBy(() -> builder().build().embed(List.of("a")))
                .isInstanceOf(ModelProtocolException.class)
                .hasMessageContaining("not JSON");
    }

    // ---------------------------------------------------------------------------------------------------------
    // Server errors

    @ParameterizedTest
    @ValueSource(strings = {"error-model-not-found.json", "error-model-not-found-legacy.json"})
    void embed_modelNotPulled_throwsModelNotFoundSayingOllamaPull(String fixture) {
        server.enqueue(json(404, Fixtures.read(fixture)));

        assertThatThrownBy(() -> builder().build().embed(List.of("a")))
                .isInstanceOf(ModelNotFoundException.class)
                .hasMessageContaining("ollama pull all-minilm");
    }

    @Test
    void embed_serverError_throwsServerExceptionWithItsText() {
        server.enqueue(json(500, Fixtures.read("error.json")));

        assertThatThrownBy(() -> builder().build().embed(List.of("a")))
                .isInstanceOfSatisfying(ModelServerException.class, e -> assertThat(e.status()).isEqualTo(500))
                .hasMessageContaining("the model failed to generate a response");
    }

    @Test
    void embed_serverBusyThenReady_retries() {
        server.enqueue(json(503, "{\"error\":\"server busy\"}"));
        server.enqueue(json(200, Fixtures.read("embed.json")));

        float[][] vectors = builder().maxRetries(1).build().embed(List.of("a"));

        assertThat(vectors[0]).containsExactly(FIRST);
        assertThat(server.getRequestCount()).isEqualTo(2);
    }

    @Test
    void embed_serverDown_throwsUnavailable() throws Exception {
        String dead;
        try (MockWebServer gone = new MockWebServer()) {
            gone.start();
            dead = gone.url("/").toString();
        }
        OllamaEmbedder embedder = OllamaEmbedder.builder().baseUrl(dead).model("all-minilm").maxRetries(0).build();

        assertThatThrownBy(() -> embedder.embed(List.of("a"))).isInstanceOf(LlmUnavailableException.class);
    }

    // ---------------------------------------------------------------------------------------------------------
    // Arguments and builder

    @Test
    void embed_emptyList_isRejectedWithoutARequest() {
        assertThatThrownBy(() -> builder().build().embed(List.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("empty");
        assertThat(server.getRequestCount()).isZero();
    }

    @Test
    void embed_nullText_isRejectedWithoutARequest() {
        List<String> texts = new ArrayList<>();
        texts.add("a");
        texts.add(null);

        assertThatThrownBy(() -> builder().build().embed(texts)).isInstanceOf(NullPointerException.class);
        assertThat(server.getRequestCount()).isZero();
    }

    @Test
    void build_withoutModel_throwsIllegalStateNamingTheFix() {
        assertThatThrownBy(() -> OllamaEmbedder.builder().build())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("model(");
    }

    @Test
    void builder_badValues_areRejectedAtOnce() {
        OllamaEmbedder.Builder b = OllamaEmbedder.builder();

        assertThatThrownBy(() -> b.batchSize(0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("batchSize");
        assertThatThrownBy(() -> b.batchSize(2049)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> b.dimension(0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("dimension");
        assertThatThrownBy(() -> b.model(" ")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> b.baseUrl("localhost:11434")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("http://localhost:11434");
        assertThatThrownBy(() -> b.maxRetries(-1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> b.timeout(Duration.ZERO)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void timeout_overADay_isRejectedAtOnce() {
        OllamaEmbedder.Builder b = OllamaEmbedder.builder().model("all-minilm");

        assertThatThrownBy(() -> b.timeout(Duration.ofDays(30))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("timeout");
        assertThatThrownBy(() -> b.timeout(Duration.ofSeconds(Long.MAX_VALUE)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> b.timeout(Settings.MAX_TIMEOUT.plusNanos(1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at most a day");
        assertThat(b.timeout(Settings.MAX_TIMEOUT).build().name()).isEqualTo("ollama:all-minilm");
    }

    @Test
    void builder_takesTheBackendsHttpSettings_eachWithItsOwnLimit() {
        try (OllamaEmbedder embedder = OllamaEmbedder.builder().model("all-minilm").connectTimeout(Duration.ofSeconds(9))
                .readTimeout(Duration.ofSeconds(7)).callTimeout(Duration.ofSeconds(8)).build();
                OllamaBackend backend = OllamaBackend.builder().connectTimeout(Duration.ofSeconds(9))
                        .readTimeout(Duration.ofSeconds(7)).callTimeout(Duration.ofSeconds(8)).build()) {
            assertThat(embedder.httpClient().connectTimeoutMillis()).isEqualTo(9_000)
                    .isEqualTo(backend.httpClient().connectTimeoutMillis());
            assertThat(embedder.httpClient().readTimeoutMillis()).isEqualTo(7_000)
                    .isEqualTo(backend.httpClient().readTimeoutMillis());
            assertThat(embedder.httpClient().callTimeoutMillis()).isEqualTo(8_000)
                    .isEqualTo(backend.httpClient().callTimeoutMillis());
        }
    }

    @Test
    void retryBackoff_isTheEmbeddersToo() {
        server.enqueue(new MockResponse.Builder().code(503).body("{\"error\":\"busy\"}").build());
        server.enqueue(new MockResponse.Builder().code(200).setHeader("Content-Type", "application/json")
                .body(Fixtures.read("embed.json")).build());
        try (OllamaEmbedder embedder = builder().maxRetries(1).retryBackoff(Duration.ofMillis(1)).build()) {
            assertThat(embedder.embed(List.of("Why is the sky blue?"))).hasDimensions(1, 10);
        }
        assertThat(server.getRequestCount()).isEqualTo(2);
    }

    @Test
    void builder_sharedChecks_rejectWithTheBackendBuildersMessages() {
        OllamaEmbedder.Builder embedder = OllamaEmbedder.builder();
        OllamaBackend.Builder backend = OllamaBackend.builder();

        assertThatThrownBy(() -> embedder.baseUrl("localhost:11434")).hasMessage(
                catchMessage(() -> backend.baseUrl("localhost:11434")));
        assertThatThrownBy(() -> embedder.maxRetries(11)).hasMessage(catchMessage(() -> backend.maxRetries(11)))
                .hasMessageContaining("maxRetries");
        assertThatThrownBy(() -> embedder.timeout(Duration.ofDays(2)))
                .hasMessage(catchMessage(() -> backend.readTimeout(Duration.ofDays(2))).replace("readTimeout", "timeout"));
    }

    private static String catchMessage(Runnable call) {
        try {
            call.run();
        } catch (IllegalArgumentException e) {
            return e.getMessage();
        }
        throw new AssertionError("expected an IllegalArgumentException");
    }

    @Test
    void close_ownClient_releasesItsThreadsAndConnectionsAndMayBeRepeated() {
        server.enqueue(json(200, Fixtures.read("embed.json")));
        OllamaEmbedder embedder = builder().build();
        embedder.embed(List.of("a"));
        assertThat(embedder.httpClient().connectionPool().connectionCount()).isEqualTo(1);

        embedder.close();
        embedder.close();

        assertThat(embedder.httpClient().dispatcher().executorService().isShutdown()).isTrue();
        assertThat(embedder.httpClient().connectionPool().connectionCount()).isZero();
    }

    @Test
    void close_sharedClient_leavesTheCallersClientRunning() {
        OkHttpClient shared = new OkHttpClient();
        try {
            server.enqueue(json(200, Fixtures.read("embed.json")));
            OllamaEmbedder embedder = builder().httpClient(shared).build();
            embedder.embed(List.of("a"));

            embedder.close();
            embedder.close();

            assertThat(shared.dispatcher().executorService().isShutdown()).isFalse();
            assertThat(shared.connectionPool().idleConnectionCount()).as("the caller's idle connection kept")
                    .isEqualTo(1);
        } finally {
            OllamaHttp.release(shared);
        }
    }

    @Test
    void embedder_isAutoCloseable_forTryWithResources() {
        server.enqueue(json(200, Fixtures.read("embed.json")));
        try (OllamaEmbedder embedder = builder().build()) {
            assertThat(embedder.embed(List.of("a"))[0]).containsExactly(FIRST);
        }
    }

    @Test
    void embed_gatewayTimeout_throwsTimeoutWithoutRetry() {
        server.enqueue(json(504, "{\"error\":\"upstream timed out\"}"));
        server.enqueue(json(200, Fixtures.read("embed.json")));

        try (OllamaEmbedder embedder = builder().maxRetries(2).build()) {
            assertThatThrownBy(() -> embedder.embed(List.of("a")))
                    .isInstanceOf(LlmTimeoutException.class)
                    .hasMessageContaining("HTTP 504")
                    .hasMessageContaining("upstream timed out");
        }
        assertThat(server.getRequestCount()).isEqualTo(1);
    }
}
