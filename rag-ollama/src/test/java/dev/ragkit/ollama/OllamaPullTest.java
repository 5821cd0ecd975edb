package dev.ragkit.ollama;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ragkit.error.ModelNotFoundException;
import dev.ragkit.generation.ChatMessage;
import dev.ragkit.generation.ChatRequest;
import dev.ragkit.generation.ChatResult;
import dev.ragkit.generation.ModelInfo;
import dev.ragkit.http.ModelProtocolException;
import dev.ragkit.http.ModelServerException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import mockwebserver3.junit5.StartStop;
import org.junit.jupiter.api.Test;

/**
 * {@code POST /api/pull} and {@code pullIfMissing}. The pull bodies follow the NDJSON shape Ollama's API
 * documentation gives for a streamed pull (status lines, per-layer digest/total/completed, then "success"); the
 * digests and sizes are made up for the test.
 */
final class OllamaPullTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String LAYER = "sha256:dde5aa3fc5ffc17176b5e8bdc82f587b24b2678c6c66101bf7da77af9f7ccdff";
    private static final String CONFIG = "sha256:34bb5ab01051a11372a91f95f3fbbc51173eed8e7f13ec395b9ae9b8bd0e242b";

    /** A whole pull: manifest, two layers with progress, verification, manifest written, success. */
    static final String PULL = String.join("\n",
            "{\"status\":\"pulling manifest\"}",
            "{\"status\":\"pulling dde5aa3fc5ff\",\"digest\":\"" + LAYER + "\",\"total\":2142590208,\"completed\":241970}",
            "{\"status\":\"pulling dde5aa3fc5ff\",\"digest\":\"" + LAYER + "\",\"total\":2142590208,"
                    + "\"completed\":1071295104}",
            "{\"status\":\"pulling dde5aa3fc5ff\",\"digest\":\"" + LAYER + "\",\"total\":2142590208,"
                    + "\"completed\":2142590208}",
            "{\"status\":\"pulling 34bb5ab01051\",\"digest\":\"" + CONFIG + "\",\"total\":561,\"completed\":561}",
            "{\"status\":\"verifying sha256 digest\"}",
            "{\"status\":\"writing manifest\"}",
            "{\"status\":\"success\"}") + "\n";

    @StartStop
    private final MockWebServer server = new MockWebServer();

    private final List<PullProgress> progress = new CopyOnWriteArrayList<>();

    private OllamaBackend backend(boolean pullIfMissing) {
        return OllamaBackend.builder().baseUrl(server.url("/").toString()).maxRetries(0)
                .pullIfMissing(pullIfMissing).pullListener(progress::add).build();
    }

    private static MockResponse json(int code, String body) {
        return new MockResponse.Builder().code(code).setHeader("Content-Type", "application/json").body(body).build();
    }

    private static MockResponse ndjson(String body) {
        return new MockResponse.Builder().code(200).setHeader("Content-Type", "application/x-ndjson")
                .chunkedBody(body, 64).build();
    }

    private static JsonNode body(RecordedRequest request) throws Exception {
        return JSON.readTree(request.getBody().utf8());
    }

    private static ChatRequest hello() {
        return ChatRequest.of("llama3.2", List.of(ChatMessage.user("Hello!")));
    }

    private List<String> paths() throws InterruptedException {
        List<String> paths = new java.util.ArrayList<>();
        for (int i = server.getRequestCount(); i > 0; i--) {
            paths.add(server.takeRequest().getUrl().encodedPath());
        }
        return paths;
    }

    // ---------------------------------------------------------------------------------------------------------
    // pull(...)

    @Test
    void pull_documentedStream_deliversEveryLineInOrder() throws Exception {
        server.enqueue(ndjson(PULL));
        try (OllamaBackend backend = backend(false)) {
            backend.pull("llama3.2", progress::add);
        }

        assertThat(progress).extracting(PullProgress::status).containsExactly("pulling manifest",
                "pulling dde5aa3fc5ff", "pulling dde5aa3fc5ff", "pulling dde5aa3fc5ff", "pulling 34bb5ab01051",
                "verifying sha256 digest", "writing manifest", "success");
        assertThat(progress).allSatisfy(p -> assertThat(p.model()).isEqualTo("llama3.2"));
        assertThat(progress.get(0)).isEqualTo(new PullProgress("llama3.2", "pulling manifest", 0, 0));
        assertThat(progress.get(1)).isEqualTo(new PullProgress("llama3.2", "pulling dde5aa3fc5ff", 241970,
                2142590208L));
        assertThat(progress.get(3).fraction()).isEqualTo(1.0);
        assertThat(progress.get(2).fraction()).isEqualTo(0.5);
        assertThat(progress.get(0).fraction()).isNaN();
        RecordedRequest request = server.takeRequest();
        assertThat(request.getMethod()).isEqualTo("POST");
        assertThat(request.getUrl().encodedPath()).isEqualTo("/api/pull");
        assertThat(body(request)).isEqualTo(JSON.readTree("{\"model\":\"llama3.2\",\"stream\":true}"));
    }

    @Test
    void pull_blankLinesBetweenUpdates_areSkipped() {
        server.enqueue(ndjson("{\"status\":\"pulling manifest\"}\n\n  \n{\"status\":\"success\"}\n"));
        try (OllamaBackend backend = backend(false)) {
            backend.pull("llama3.2", progress::add);
        }

        assertThat(progress).extracting(PullProgress::status).containsExactly("pulling manifest", "success");
    }

    @Test
    void pull_errorLine_throwsServerExceptionWithTheServersText() {
        server.enqueue(ndjson("{\"status\":\"pulling manifest\"}\n"
                + "{\"error\":\"pull model manifest: file does not exist\"}\n"));
        try (OllamaBackend backend = backend(false)) {
            assertThatThrownBy(() -> backend.pull("no-such-model", progress::add))
                    .isInstanceOfSatisfying(ModelServerException.class, e -> {
                        assertThat(e.serverError()).isEqualTo("pull model manifest: file does not exist");
                        assertThat(e.status()).isEqualTo(200);
                    })
                    .hasMessageContaining("no-such-model")
                    .hasMessageContaining("file does not exist");
        }
        assertThat(progress).extracting(PullProgress::status).containsExactly("pulling manifest");
    }

    @Test
    void pull_streamEndsWithoutSuccess_throwsProtocolExceptionNamingTheLastStatus() {
        server.enqueue(ndjson("{\"status\":\"pulling manifest\"}\n{\"status\":\"pulling dde5aa3fc5ff\",\"digest\":\""
                + LAYER + "\",\"total\":2142590208,\"completed\":241970}\n"));
        try (OllamaBackend backend = backend(false)) {
            assertThatThrownBy(() -> backend.pull("llama3.2", progress::add))
                    .isInstanceOf(ModelProtocolException.class)
                    .hasMessageContaining("success")
                    .hasMessageContaining("pulling dde5aa3fc5ff");
        }
    }

    @Test
    void pull_emptyStream_throwsProtocolException() {
        server.enqueue(ndjson(""));
        try (OllamaBackend backend = backend(false)) {
            assertThatThrownBy(() -> backend.pull("llama3.2", progress::add))
                    .isInstanceOf(ModelProtocolException.class);
        }
        assertThat(progress).isEmpty();
    }

    @Test
    void pull_lineNotJson_throwsProtocolException() {
        server.enqueue(ndjson("{\"status\":\"pulling manifest\"}\n<html>gateway</html>\n{\"status\":\"success\"}\n"));
        try (OllamaBackend backend = backend(false)) {
            assertThatThrownBy(() -> backend.pull("llama3.2", progress::add))
                    .isInstanceOf(ModelProtocolException.class)
                    .hasMessageContaining("<html>gateway</html>");
        }
    }

    @Test
    void pull_httpError_throwsServerException() {
        server.enqueue(json(500, Fixtures.read("error.json")));
        try (OllamaBackend backend = backend(false)) {
            assertThatThrownBy(() -> backend.pull("llama3.2", progress::add))
                    .isInstanceOfSatisfying(ModelServerException.class, e -> assertThat(e.status()).isEqualTo(500));
        }
    }

    // ---------------------------------------------------------------------------------------------------------
    // pullIfMissing

    @Test
    void chat_missingModelWithPullIfMissing_pullsThenRetries() throws Exception {
        server.enqueue(json(404, Fixtures.read("error-model-not-found.json")));
        server.enqueue(ndjson(PULL));
        server.enqueue(json(200, Fixtures.read("chat.json")));

        ChatResult result;
        try (OllamaBackend backend = backend(true)) {
            result = backend.chat(hello());
        }

        assertThat(result.text()).isEqualTo("Hello! How are you today?");
        assertThat(progress).extracting(PullProgress::status).startsWith("pulling manifest").endsWith("success")
                .hasSize(8);
        RecordedRequest chat = server.takeRequest();
        RecordedRequest pull = server.takeRequest();
        RecordedRequest retried = server.takeRequest();
        assertThat(chat.getUrl().encodedPath()).isEqualTo("/api/chat");
        assertThat(pull.getUrl().encodedPath()).isEqualTo("/api/pull");
        assertThat(body(pull)).isEqualTo(JSON.readTree("{\"model\":\"llama3.2\",\"stream\":true}"));
        assertThat(retried.getUrl().encodedPath()).isEqualTo("/api/chat");
        assertThat(body(retried)).isEqualTo(body(chat));
    }

    @Test
    void chat_legacyNotFoundBodyWithPullIfMissing_pullsThenRetries() throws Exception {
        server.enqueue(json(404, Fixtures.read("error-model-not-found-legacy.json")));
        server.enqueue(ndjson(PULL));
        server.enqueue(json(200, Fixtures.read("chat.json")));

        try (OllamaBackend backend = backend(true)) {
            assertThat(backend.chat(hello()).text()).isEqualTo("Hello! How are you today?");
        }

        assertThat(paths()).containsExactly("/api/chat", "/api/pull", "/api/chat");
    }

    @Test
    void modelInfo_missingModelWithPullIfMissing_pullsThenRetries() throws Exception {
        server.enqueue(json(404, Fixtures.read("error-model-not-found.json")));
        server.enqueue(ndjson(PULL));
        server.enqueue(json(200, Fixtures.read("show-llama.json")));

        ModelInfo info;
        try (OllamaBackend backend = backend(true)) {
            info = backend.modelInfo("llama3.2");
        }

        assertThat(info.contextWindow()).isEqualTo(8192);
        assertThat(progress).isNotEmpty();
        assertThat(paths()).containsExactly("/api/show", "/api/pull", "/api/show");
    }

    @Test
    void stream_missingModelWithPullIfMissing_pullsThenStreams() throws Exception {
        server.enqueue(json(404, Fixtures.read("error-model-not-found.json")));
        server.enqueue(ndjson(PULL));
        server.enqueue(ndjson(Fixtures.read("chat-stream.ndjson")));
        java.util.concurrent.CompletableFuture<ChatResult> done = new java.util.concurrent.CompletableFuture<>();
        List<String> tokens = new CopyOnWriteArrayList<>();

        try (OllamaBackend backend = OllamaBackend.builder().baseUrl(server.url("/").toString()).maxRetries(0)
                .pullIfMissing(true).pullListener(progress::add).executor(Runnable::run).build()) {
            backend.stream(hello(), new dev.ragkit.generation.StreamHandler() {
                @Override
                public void onToken(String token) {
                    tokens.add(token);
                }

                @Override
                public void onComplete(ChatResult result) {
                    done.complete(result);
                }

                @Override
                public void onError(Throwable error) {
                    done.completeExceptionally(error);
                }
            });
        }

        assertThat(done).isCompleted();
        assertThat(done.get().text()).isEqualTo("The");
        assertThat(tokens).containsExactly("The");
        assertThat(progress).extracting(PullProgress::status).endsWith("success");
        assertThat(paths()).containsExactly("/api/chat", "/api/pull", "/api/chat");
    }

    @Test
    void chat_missingModelWithoutPullIfMissing_throwsWithoutPulling() {
        server.enqueue(json(404, Fixtures.read("error-model-not-found.json")));

        try (OllamaBackend backend = backend(false)) {
            assertThatThrownBy(() -> backend.chat(hello()))
                    .isInstanceOf(ModelNotFoundException.class)
                    .hasMessageContaining("ollama pull llama3.2");
        }

        assertThat(server.getRequestCount()).isEqualTo(1);
        assertThat(progress).isEmpty();
    }

    @Test
    void modelInfo_missingModelByDefault_throwsWithoutPulling() {
        server.enqueue(json(404, Fixtures.read("error-model-not-found.json")));

        try (OllamaBackend backend = OllamaBackend.builder().baseUrl(server.url("/").toString()).build()) {
            assertThatThrownBy(() -> backend.modelInfo("llama3.2")).isInstanceOf(ModelNotFoundException.class);
        }

        assertThat(server.getRequestCount()).as("pullIfMissing is off by default").isEqualTo(1);
    }

    @Test
    void chat_pullReportsError_throwsServerExceptionAndDoesNotRetry() throws Exception {
        server.enqueue(json(404, Fixtures.read("error-model-not-found.json")));
        server.enqueue(ndjson("{\"status\":\"pulling manifest\"}\n"
                + "{\"error\":\"pull model manifest: file does not exist\"}\n"));

        try (OllamaBackend backend = backend(true)) {
            assertThatThrownBy(() -> backend.chat(hello()))
                    .isInstanceOf(ModelServerException.class)
                    .hasMessageContaining("file does not exist");
        }

        assertThat(paths()).containsExactly("/api/chat", "/api/pull");
    }

    @Test
    void chat_pullEndsWithoutSuccess_throwsProtocolExceptionAndDoesNotRetry() throws Exception {
        server.enqueue(json(404, Fixtures.read("error-model-not-found.json")));
        server.enqueue(ndjson("{\"status\":\"pulling manifest\"}\n{\"status\":\"verifying sha256 digest\"}\n"));

        try (OllamaBackend backend = backend(true)) {
            assertThatThrownBy(() -> backend.chat(hello()))
                    .isInstanceOf(ModelProtocolException.class)
                    .hasMessageContaining("verifying sha256 digest");
        }

        assertThat(paths()).containsExactly("/api/chat", "/api/pull");
    }

    @Test
    void chat_stillMissingAfterPull_throwsModelNotFoundAndPullsOnlyOnce() throws Exception {
        server.enqueue(json(404, Fixtures.read("error-model-not-found.json")));
        server.enqueue(ndjson(PULL));
        server.enqueue(json(404, Fixtures.read("error-model-not-found.json")));

        try (OllamaBackend backend = backend(true)) {
            assertThatThrownBy(() -> backend.chat(hello())).isInstanceOf(ModelNotFoundException.class);
        }

        assertThat(paths()).containsExactly("/api/chat", "/api/pull", "/api/chat");
    }

    @Test
    void chat_otherServerErrorWithPullIfMissing_doesNotPull() {
        server.enqueue(json(500, Fixtures.read("error.json")));

        try (OllamaBackend backend = backend(true)) {
            assertThatThrownBy(() -> backend.chat(hello())).isInstanceOf(ModelServerException.class);
        }

        assertThat(server.getRequestCount()).isEqualTo(1);
        assertThat(progress).isEmpty();
    }

    @Test
    void modelInfo_afterPull_asksTheServerAgain() throws Exception {
        server.enqueue(json(200, "{\"model_info\":{\"general.architecture\":\"llama\",\"llama.context_length\":4096}}"));
        server.enqueue(ndjson(PULL));
        server.enqueue(json(200, Fixtures.read("show-llama.json")));

        try (OllamaBackend backend = backend(false)) {
            assertThat(backend.modelInfo("llama3.2").contextWindow()).isEqualTo(4096);
            backend.pull("llama3.2:latest", progress::add);
            assertThat(backend.modelInfo("llama3.2").contextWindow()).as("a pull may bring a new version")
                    .isEqualTo(8192);
        }
    }

    // ---------------------------------------------------------------------------------------------------------
    // PullProgress

    @Test
    void fraction_sizeKnown_isCompletedOverTotalCappedAtOne() {
        assertThat(new PullProgress("m", "pulling x", 25, 100).fraction()).isEqualTo(0.25);
        assertThat(new PullProgress("m", "pulling x", 0, 100).fraction()).isZero();
        assertThat(new PullProgress("m", "pulling x", 150, 100).fraction()).isEqualTo(1.0);
    }

    @Test
    void fraction_sizeUnknown_isNaN() {
        assertThat(new PullProgress("m", "pulling manifest", 0, 0).fraction()).isNaN();
        assertThat(new PullProgress("m", "success", 5, 0).fraction()).isNaN();
    }

    @Test
    void fraction_negativeCompleted_staysInZeroToOne() {
        assertThat(new PullProgress("m", "pulling x", -5, 100).fraction()).isZero();
    }

    @Test
    void constructor_nulls_areRejectedNamingTheField() {
        assertThatThrownBy(() -> new PullProgress(null, "s", 0, 0)).hasMessageContaining("model");
        assertThatThrownBy(() -> new PullProgress("m", null, 0, 0)).hasMessageContaining("status");
    }
}
