package dev.ragkit.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ragkit.audit.AuditOperation;
import dev.ragkit.audit.AuditRecord;
import dev.ragkit.audit.AuditSink;
import dev.ragkit.embedding.Embedder;
import dev.ragkit.ingest.Indexer;
import dev.ragkit.server.RagServer;
import dev.ragkit.server.ServerSettings;
import dev.ragkit.store.DocumentStore;
import dev.ragkit.testing.HashedBagOfWordsEmbedder;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.ApplicationRunner;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;

/**
 * {@code ragkit.server.enabled=true}: a real Spring Boot web application on a random port starts RagKit's server on
 * a port of its own, over the application's pipeline; it answers {@code /v1/ask} and {@code /v1/health} over HTTP,
 * audits through the application's sink, and stops with the context.
 */
@SpringBootTest(classes = RagKitServerTest.App.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"ragkit.backend.provider=extractive", "ragkit.confidence-threshold=0",
                "ragkit.server.enabled=true", "ragkit.server.port=0"})
class RagKitServerTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final List<AuditRecord> RECORDS = new CopyOnWriteArrayList<>();
    private final HttpClient http = HttpClient.newHttpClient();

    @LocalServerPort
    int appPort;

    @Autowired
    RagKitServer server;

    /** The application: an embedder, an audit sink and its documents; the starter does the rest. */
    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class App {
        @Bean
        Embedder embedder() {
            return new HashedBagOfWordsEmbedder("word-hash-64", 64);
        }

        @Bean
        AuditSink auditSink() {
            return RECORDS::add;
        }

        /** Indexes a small folder under the ingest's tenant ("default"), the one the server serves. */
        @Bean
        ApplicationRunner indexDocs(DocumentStore store, Embedder embedder) {
            return args -> {
                Path docs = Files.createTempDirectory("ragkit-docs");
                Files.writeString(docs.resolve("keys.md"), "# API keys\n\nAPI keys rotate every ninety days. Run "
                        + "the rotate command to replace a key early.\n");
                Indexer.builder().store(store).embedder(embedder).tenant("default").build().index(docs);
            };
        }
    }

    private HttpResponse<String> send(HttpRequest request) throws IOException, InterruptedException {
        return http.send(request, HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void servesAskAndHealthOnItsOwnPort_overTheApplicationsPipeline() throws Exception {
        assertThat(server.isRunning()).isTrue();
        assertThat(server.port()).isNotEqualTo(appPort).isPositive();
        String base = "http://127.0.0.1:" + server.port();
        HttpResponse<String> ask = send(HttpRequest.newBuilder(URI.create(base + "/v1/ask"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"question\": \"How often do API keys rotate?\"}"))
                .build());
        assertThat(ask.statusCode()).as(ask.body()).isEqualTo(200);
        JsonNode answer = JSON.readTree(ask.body());
        assertThat(answer.get("answer").asText()).contains("ninety days");
        assertThat(answer.at("/citations/0/path").asText()).isEqualTo("keys.md");
        assertThat(answer.get("action").asText()).isEqualTo("CITE");

        HttpResponse<String> health = send(HttpRequest.newBuilder(URI.create(base + "/v1/health")).GET().build());
        assertThat(health.statusCode()).as(health.body()).isEqualTo(200);
        assertThat(JSON.readTree(health.body()).get("tenant").asText()).isEqualTo("default");

        HttpResponse<String> search = send(HttpRequest.newBuilder(URI.create(base + "/v1/search"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"query\": \"rotate\"}")).build());
        assertThat(search.statusCode()).as(search.body()).isEqualTo(200);
        assertThat(RECORDS).anySatisfy(r -> {
            assertThat(r.operation()).isEqualTo(AuditOperation.ASK);
            assertThat(r.tenant()).isEqualTo("default");
        }).anySatisfy(r -> assertThat(r.operation()).isEqualTo(AuditOperation.RETRIEVE));

        // the application's own port keeps its own routes: the server does not mount into it
        HttpResponse<String> onApp = send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + appPort
                + "/v1/health")).GET().build());
        assertThat(onApp.statusCode()).isEqualTo(404);
    }

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(RagKitAutoConfiguration.class))
            .withBean(Embedder.class, () -> new HashedBagOfWordsEmbedder("word-hash-64", 64))
            .withPropertyValues("ragkit.backend.provider=extractive");

    @Test
    void offByDefault_andWithoutRagServerOnTheClassPath() {
        runner.run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(RagKitServer.class));
        runner.withPropertyValues("ragkit.server.enabled=true", "ragkit.server.port=0")
                .withClassLoader(new FilteredClassLoader(RagServer.class))
                .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(RagKitServer.class));
    }

    @Test
    void stopsWithTheContext() throws Exception {
        int[] port = new int[1];
        runner.withPropertyValues("ragkit.server.enabled=true", "ragkit.server.port=0", "ragkit.server.tenant=acme",
                "ragkit.server.tags=eng").run(context -> {
                    assertThat(context).hasNotFailed();
                    RagKitServer running = context.getBean(RagKitServer.class);
                    port[0] = running.port();
                    HttpResponse<String> docs = send(HttpRequest.newBuilder(URI.create(running.url()
                            + "v1/documents")).GET().build());
                    assertThat(docs.statusCode()).as(docs.body()).isEqualTo(200);
                    assertThat(JSON.readTree(docs.body()).get("tenant").asText()).isEqualTo("acme");
                });
        assertThatThrownBy(() -> send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port[0]
                + "/v1/health")).GET().build())).isInstanceOf(ConnectException.class);
    }

    @Test
    void defaults_areRagServersOwn_andThePageSaysThem() throws Exception {
        RagKitProperties.Server defaults = new RagKitProperties().getServer();
        assertThat(defaults.isEnabled()).isFalse();
        assertThat(defaults.getMaxConcurrent()).isEqualTo(ServerSettings.DEFAULT_MAX_CONCURRENT_REQUESTS);
        assertThat(defaults.getMaxRequestBytes()).isEqualTo(ServerSettings.DEFAULT_MAX_REQUEST_BYTES);
        assertThat(defaults.getRequestTimeout().toSeconds()).isEqualTo(ServerSettings.DEFAULT_REQUEST_TIMEOUT_SECONDS);
        assertThat(defaults.getIdleTimeout().toSeconds()).isEqualTo(ServerSettings.DEFAULT_IDLE_TIMEOUT_SECONDS);
        assertThat(defaults.getMaxQuestionChars()).isEqualTo(ServerSettings.DEFAULT_MAX_QUESTION_CHARS);
        String page = Files.readString(Path.of("../docs/spring-boot.md"));
        assertThat(page).contains("| `ragkit.server.max-concurrent` | " + defaults.getMaxConcurrent() + " |")
                .contains("| `ragkit.server.max-request-bytes` | " + defaults.getMaxRequestBytes() + " |")
                .contains("| `ragkit.server.request-timeout`, `ragkit.server.idle-timeout` | `"
                        + defaults.getRequestTimeout().toSeconds() + "s`, `" + defaults.getIdleTimeout().toSeconds()
                        + "s` |")
                .contains("| `ragkit.server.max-question-chars` | " + defaults.getMaxQuestionChars() + " |")
                .contains("| `ragkit.server.address`, `ragkit.server.port` | `" + defaults.getAddress() + "`, "
                        + defaults.getPort() + " |");
    }

    @Test
    void badSettings_failStartup_namingTheProperty() throws Exception {
        runner.withPropertyValues("ragkit.server.enabled=true", "ragkit.server.address=0.0.0.0")
                .run(context -> assertThat(context).hasFailed().getFailure()
                        .hasStackTraceContaining("ragkit.server").hasStackTraceContaining("tokens file"));
        Path tokens = Files.createTempFile("tokens", ".txt");
        Files.writeString(tokens, "acme-token-0123456789abcdef acme eng\n");
        runner.withPropertyValues("ragkit.server.enabled=true", "ragkit.server.tokens-file=" + tokens,
                "ragkit.server.tenant=acme")
                .run(context -> assertThat(context).hasFailed().getFailure()
                        .hasStackTraceContaining("ragkit.server.tenant and ragkit.server.tags clash"));
        runner.withPropertyValues("ragkit.server.enabled=true", "ragkit.server.max-concurrent=0")
                .run(context -> assertThat(context).hasFailed().getFailure()
                        .hasStackTraceContaining("ragkit.server.max-concurrent"));
    }
}
