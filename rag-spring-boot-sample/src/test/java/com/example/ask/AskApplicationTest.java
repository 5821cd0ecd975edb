package com.example.ask;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ragkit.ollama.Fixtures;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import mockwebserver3.Dispatcher;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.web.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The page's application, started as a user starts it ({@code SpringApplication.run} with its
 * application.properties; only the folders, the index and the model server's address are given on the command
 * line), on a random port, asked over HTTP with the JDK's client, answering from markdown files it ingested itself.
 */
class AskApplicationTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern SOURCE_ID = Pattern.compile("\\[SourceId: ([a-f0-9-]{36}:\\d+)]");
    private static final String QUESTION = "How often do API keys rotate?";

    @TempDir
    Path tmp;

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private ConfigurableApplicationContext app;
    private int port;

    @AfterEach
    void stop() {
        if (app != null) {
            app.close();
        }
    }

    /** Writes a few markdown files, starts the application on them, and waits until its health shows them indexed. */
    private void start(String modelServer) throws Exception {
        Path docs = Files.createDirectories(tmp.resolve("docs"));
        Files.writeString(docs.resolve("keys.md"), "# API keys\n\nAPI keys rotate every ninety days. Run the rotate "
                + "command to replace a key before then.\n");
        Files.writeString(docs.resolve("vacation.md"), "# Vacation\n\nVacation requests go through the people "
                + "portal, two weeks ahead.\n");
        Files.writeString(docs.resolve("badges.md"), "# Badges\n\nLost badges are replaced at the front desk on the "
                + "ground floor.\n");
        app = SpringApplication.run(AskApplication.class, "--server.port=0", "--ragkit.ingest.paths=" + docs,
                "--ragkit.store.lucene.path=" + tmp.resolve("index"),
                "--ragkit.backend.settings.base-url=" + modelServer);
        port = ((WebServerApplicationContext) app).getWebServer().getPort();
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        JsonNode index = get("/actuator/health").path("components").path("ragkit").path("details").path("index");
        while (!(index.path("status").asText().equals("ready") && index.path("documents").asInt() == 3)) {
            assertThat(System.nanoTime() - deadline).as("the index after 60 s: " + index).isNegative();
            Thread.sleep(100);
            index = get("/actuator/health").path("components").path("ragkit").path("details").path("index");
        }
        assertThat(index.path("failed").asInt()).isZero();
    }

    private JsonNode get(String path) throws IOException, InterruptedException {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
                + path)).timeout(Duration.ofSeconds(60)).GET().build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(path + ": " + response.body()).isEqualTo(200);
        return JSON.readTree(response.body());
    }

    private JsonNode ask(String question) throws IOException, InterruptedException {
        return get("/ask?q=" + URLEncoder.encode(question, StandardCharsets.UTF_8));
    }

    /** A local port nothing listens on: connections are refused, as when Ollama is not running. */
    private static int deadPort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    @Test
    void modelServerDown_answersFromTheIngestedFileQuotedAndFlagged() throws Exception {
        start("http://127.0.0.1:" + deadPort());

        JsonNode answer = ask(QUESTION);

        assertThat(answer.path("action").asText()).as(answer.toString()).isEqualTo("CITE");
        assertThat(answer.path("extractive").asBoolean()).isTrue();
        assertThat(answer.path("model").asText()).isEqualTo("extractive");
        assertThat(answer.path("answer").asText()).contains("ninety days");
        assertThat(answer.path("citations")).isNotEmpty()
                .allSatisfy(c -> assertThat(c.asText()).startsWith("docs/keys.md:"));
        JsonNode ragkit = get("/actuator/health").path("components").path("ragkit");
        assertThat(ragkit.path("status").asText()).isEqualTo("UP");
        assertThat(ragkit.path("details").path("backendReachable").asBoolean()).isFalse();
        assertThat(ragkit.path("details").path("answers").asText()).startsWith("extractive");
    }

    @Test
    void modelServerUp_theModelAnswers() throws Exception {
        List<JsonNode> chats = new CopyOnWriteArrayList<>();
        try (MockWebServer ollama = new MockWebServer()) {
            ollama.setDispatcher(new RecordedOllama(chats));
            ollama.start();
            start(ollama.url("/").toString());

            JsonNode answer = ask(QUESTION);

            assertThat(answer.path("action").asText()).as(answer.toString()).isEqualTo("CITE");
            assertThat(answer.path("extractive").asBoolean()).isFalse();
            assertThat(answer.path("model").asText()).isEqualTo("llama3.2");
            assertThat(answer.path("answer").asText()).startsWith("Hello! How are you today?")
                    .contains("ninety days");
            assertThat(answer.path("citations")).singleElement()
                    .satisfies(c -> assertThat(c.asText()).startsWith("docs/keys.md:"));
            assertThat(answer.path("confidence").asInt()).isGreaterThanOrEqualTo(60);
            assertThat(chats).as("the answer, then the self-rating").hasSize(2);
            assertThat(chats.get(0).path("model").asText()).isEqualTo("llama3.2");
            assertThat(chats.get(0).path("messages").get(0).path("content").asText()).contains("ninety days");
        }
    }

    /**
     * Ollama, from the recorded responses in shared/fixtures/ollama: {@code /api/tags}, {@code /api/version}, and
     * {@code /api/chat} as recorded, with the reply's text made to cite the first passage of the prompt (and the
     * self-rating answered with a number).
     */
    private static final class RecordedOllama extends Dispatcher {
        private final List<JsonNode> chats;

        RecordedOllama(List<JsonNode> chats) {
            this.chats = chats;
        }

        @Override
        public MockResponse dispatch(RecordedRequest request) {
            try {
                String path = request.getUrl().encodedPath();
                if (path.equals("/api/tags") || path.equals("/api/version")) {
                    return json(Fixtures.read(path.substring(5) + ".json"));
                }
                if (path.equals("/api/chat")) {
                    JsonNode in = JSON.readTree(request.getBody().utf8());
                    chats.add(in);
                    String system = in.path("messages").get(0).path("content").asText();
                    ObjectNode reply = (ObjectNode) JSON.readTree(Fixtures.read("chat.json"));
                    String recorded = reply.path("message").path("content").asText();
                    Matcher cited = SOURCE_ID.matcher(system);
                    String text = system.startsWith("You check answers against their sources") ? "92"
                            : cited.find() ? recorded + " API keys rotate every ninety days [SourceId: "
                            + cited.group(1) + "]." : recorded;
                    ((ObjectNode) reply.path("message")).put("content", text);
                    return json(reply.toString());
                }
                return new MockResponse.Builder().code(404).body("{\"error\":\"not found\"}").build();
            } catch (IOException e) {
                return new MockResponse.Builder().code(500).body("{\"error\":\"" + e + "\"}").build();
            }
        }

        private static MockResponse json(String body) {
            return new MockResponse.Builder().code(200).setHeader("Content-Type", "application/json").body(body)
                    .build();
        }
    }
}
