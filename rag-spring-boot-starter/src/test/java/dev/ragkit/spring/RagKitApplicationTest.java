package dev.ragkit.spring;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ragkit.RagPipeline;
import dev.ragkit.RagRequest;
import dev.ragkit.RagResponse;
import dev.ragkit.embedding.Embedder;
import dev.ragkit.ingest.Indexer;
import dev.ragkit.testing.HashedBagOfWordsEmbedder;
import dev.ragkit.store.DocumentStore;
import dev.ragkit.store.Scope;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.ApplicationRunner;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * A real Spring Boot application on a random local port, as a user would write it: the starter's pipeline behind a
 * minimal controller, Actuator's health and metrics endpoints showing RagKit after a question.
 */
@SpringBootTest(classes = RagKitApplicationTest.App.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"ragkit.backend.provider=extractive", "ragkit.confidence-threshold=0",
                "management.endpoints.web.exposure.include=health,metrics",
                "management.endpoint.health.show-details=always"})
class RagKitApplicationTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final HttpClient http = HttpClient.newHttpClient();

    @LocalServerPort
    int port;

    /** The application: the starter does the rest. */
    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class App {
        @Bean
        Embedder embedder() {
            return new HashedBagOfWordsEmbedder("word-hash-64", 64);
        }

        @Bean
        AskController askController(RagPipeline rag) {
            return new AskController(rag);
        }

        /** Indexes a small folder into the store at startup. */
        @Bean
        ApplicationRunner indexDocs(DocumentStore store, Embedder embedder) {
            return args -> {
                Path docs = Files.createTempDirectory("ragkit-docs");
                Files.writeString(docs.resolve("keys.md"), "# API keys\n\nAPI keys rotate every ninety days. Run "
                        + "the rotate command to replace a key early.\n");
                Indexer.builder().store(store).embedder(embedder).tenant("acme").build().index(docs);
            };
        }
    }

    /** A minimal controller, as in the README. */
    @RestController
    static class AskController {
        private final RagPipeline rag;

        AskController(RagPipeline rag) {
            this.rag = rag;
        }

        @GetMapping("/ask")
        Map<String, Object> ask(@RequestParam("q") String question) {
            RagResponse r = rag.ask(RagRequest.of(question, Scope.of("acme")));
            Map<String, Object> out = new LinkedHashMap<>();
            out.put("answer", r.answer());
            out.put("action", r.action().name());
            out.put("citations", r.citations().stream().map(c -> c.location()).toList());
            return out;
        }
    }

    private JsonNode get(String path) throws IOException, InterruptedException {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
                + path)).GET().build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(path + ": " + response.body()).isEqualTo(200);
        return JSON.readTree(response.body());
    }

    @Test
    void answersOverHttpAndShowsHealthAndMetrics() throws Exception {
        JsonNode answer = get("/ask?q=" + URLEncoder.encode("How often do API keys rotate?", StandardCharsets.UTF_8));
        assertThat(answer.path("answer").asText()).contains("ninety days");
        assertThat(answer.path("citations").toString()).contains("keys.md");

        JsonNode health = get("/actuator/health");
        assertThat(health.path("components").path("ragkit").path("status").asText()).isEqualTo("UP");
        assertThat(health.path("components").path("ragkit").path("details").path("storeReady").asBoolean()).isTrue();

        JsonNode requests = get("/actuator/metrics/ragkit.requests");
        assertThat(requests.path("measurements").get(0).path("value").asDouble()).isGreaterThanOrEqualTo(1.0);
        JsonNode stages = get("/actuator/metrics/ragkit.stage");
        assertThat(stages.path("availableTags").toString()).contains("retrieve").contains("generate");
        JsonNode names = get("/actuator/metrics");
        assertThat(names.path("names").toString()).contains("ragkit.request").contains("ragkit.confidence");
    }
}
