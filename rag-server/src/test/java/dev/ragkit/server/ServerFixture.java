package dev.ragkit.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ragkit.RagPipeline;
import dev.ragkit.audit.AuditFailurePolicy;
import dev.ragkit.audit.AuditRecord;
import dev.ragkit.audit.AuditSink;
import dev.ragkit.audit.AuditTrail;
import dev.ragkit.generation.Cancellable;
import dev.ragkit.generation.ChatRequest;
import dev.ragkit.generation.ChatResult;
import dev.ragkit.generation.ExtractiveBackend;
import dev.ragkit.generation.HealthStatus;
import dev.ragkit.generation.LlmBackend;
import dev.ragkit.generation.ModelInfo;
import dev.ragkit.generation.StreamHandler;
import dev.ragkit.ingest.IndexReport;
import dev.ragkit.ingest.Indexer;
import dev.ragkit.retrieval.Retriever;
import dev.ragkit.store.Scope;
import dev.ragkit.store.StoredDocument;
import dev.ragkit.store.inmemory.InMemoryDocumentStore;
import dev.ragkit.testing.HashedBagOfWordsEmbedder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.function.Consumer;

/**
 * A real server on a random loopback port over a real in-memory index: tenant {@code acme} holds {@code keys.md}
 * (tag {@code eng}) and {@code payroll.md} (tag {@code hr}); tenant {@code globex} holds {@code vacation.md}. The
 * pipeline answers with the extractive backend (or a slow one that streams a word at a time), and every audit record
 * is kept.
 */
final class ServerFixture implements AutoCloseable {
    static final String ACME = "acme";
    static final String GLOBEX = "globex";
    static final String ACME_TOKEN = "acme-token-0123456789abcdef";
    static final String GLOBEX_TOKEN = "globex-token-0123456789abcdef";
    static final String ADMIN = "help@acme.example";
    static final ObjectMapper JSON = new ObjectMapper();

    final InMemoryDocumentStore store = InMemoryDocumentStore.builder().dimension(64).build();
    final HashedBagOfWordsEmbedder embedder = new HashedBagOfWordsEmbedder("word-hash-64", 64);
    final List<AuditRecord> records = new CopyOnWriteArrayList<>();
    final AuditSink sink = records::add;
    final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    final Path root;
    RagServer server;

    ServerFixture(Path root) {
        this.root = root;
        write(root.resolve("acme"), "keys.md", "---\ntitle: API keys\ntags: [eng]\n---\n# API keys\n\n"
                + "API keys rotate every ninety days.\nRun the rotate command to replace a key early.\n"
                + "The old key stops working after one hour.\n");
        write(root.resolve("acme"), "payroll.md", "---\ntitle: Payroll\ntags: [hr]\n---\n# Payroll\n\n"
                + "Salaries are paid on the 25th. The payroll key rotates every ninety days too.\n");
        write(root.resolve("globex"), "vacation.md", "---\ntitle: Vacation\n---\n# Vacation\n\n"
                + "Globex staff get thirty vacation days. Request vacation days in the portal.\n");
        index(root.resolve("acme"), ACME, 2);
        index(root.resolve("globex"), GLOBEX, 1);
    }

    private static void write(Path dir, String name, String text) {
        try {
            Files.createDirectories(dir);
            Files.writeString(dir.resolve(name), text, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Adds the Word and PDF files of {@link OfficeFiles} to acme's folder and indexes it again (no tags: every acme
     * caller reads them).
     */
    ServerFixture withOfficeFiles() {
        try {
            OfficeFiles.guide(root.resolve("acme"));
            OfficeFiles.handbook(root.resolve("acme"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Indexer.builder().store(store).embedder(embedder).tenant(ACME).build().index(root.resolve("acme"));
        documentId(ACME, "guide.docx");
        documentId(ACME, "hr-handbook.pdf");
        return this;
    }

    private void index(Path dir, String tenant, int files) {
        IndexReport report = Indexer.builder().store(store).embedder(embedder).tenant(tenant).build().index(dir);
        assertThat(report.filesIndexed()).isEqualTo(files);
    }

    /** @return the id of a document of a tenant, by path */
    String documentId(String tenant, String path) {
        return store.documents(Scope.of(tenant, List.of("eng", "hr"))).stream().filter(d -> d.path().equals(path))
                .map(StoredDocument::id).findFirst().orElseThrow();
    }

    /** Starts the server with two tokens: acme (tag eng) and globex (no tags). */
    ServerFixture startWithTokens(LlmBackend backend, Consumer<ServerSettings.Builder> more) {
        return start(backend, b -> {
            b.token(ACME_TOKEN, ACME, List.of("eng")).token(GLOBEX_TOKEN, GLOBEX, List.of());
            more.accept(b);
        });
    }

    ServerFixture start(LlmBackend backend, Consumer<ServerSettings.Builder> settings) {
        RagPipeline.Builder pipeline = RagPipeline.builder().store(store).embedder(embedder).backend(backend)
                .selfRating(false).auditSink(sink).auditFailurePolicy(AuditFailurePolicy.LOG_AND_CONTINUE)
                .model(ExtractiveBackend.MODEL).adminEmail(ADMIN);
        ServerSettings.Builder b = ServerSettings.builder().address("127.0.0.1", 0);
        settings.accept(b);
        server = RagServer.builder().pipeline(pipeline.build())
                .retriever(Retriever.builder().store(store).embedder(embedder).build()).store(store)
                .audit(new AuditTrail(sink, AuditFailurePolicy.LOG_AND_CONTINUE)).settings(b.build()).start();
        return this;
    }

    String base() {
        return "http://127.0.0.1:" + server.port();
    }

    HttpResponse<String> get(String path, String token) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base() + path)).timeout(Duration.ofSeconds(30));
        if (token != null) {
            b.header("Authorization", "Bearer " + token);
        }
        return send(b.GET().build());
    }

    HttpResponse<String> post(String path, String token, String body) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base() + path)).timeout(Duration.ofSeconds(30))
                .header("Content-Type", "application/json");
        if (token != null) {
            b.header("Authorization", "Bearer " + token);
        }
        return send(b.POST(HttpRequest.BodyPublishers.ofString(body)).build());
    }

    HttpResponse<String> send(HttpRequest request) {
        try {
            return http.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    static JsonNode json(HttpResponse<String> response) {
        try {
            return JSON.readTree(response.body());
        } catch (IOException e) {
            throw new AssertionError("not JSON: " + response.body(), e);
        }
    }

    @Override
    public void close() {
        if (server != null) {
            server.close();
        }
        store.close();
    }

    /**
     * The extractive answer, streamed a word at a time with a pause between words, on a thread of its own; records
     * when it was cancelled.
     */
    static final class SlowBackend implements LlmBackend {
        final ExtractiveBackend answers = new ExtractiveBackend();
        final CountDownLatch cancelled = new CountDownLatch(1);
        final CountDownLatch started = new CountDownLatch(1);
        final long pauseMillis;

        SlowBackend(long pauseMillis) {
            this.pauseMillis = pauseMillis;
        }

        @Override
        public String name() {
            return "slow";
        }

        @Override
        public ChatResult chat(ChatRequest request) {
            return answers.chat(request);
        }

        @Override
        public Cancellable stream(ChatRequest request, StreamHandler handler) {
            ChatResult result = answers.chat(request);
            boolean[] stop = {false};
            Cancellable handle = new Cancellable() {
                @Override
                public void cancel() {
                    stop[0] = true;
                    cancelled.countDown();
                }

                @Override
                public boolean isCancelled() {
                    return stop[0];
                }
            };
            Thread t = new Thread(() -> {
                started.countDown();
                for (String word : result.text().split("(?<= )")) {
                    if (stop[0]) {
                        handler.onError(new CancellationException("cancelled"));
                        return;
                    }
                    handler.onToken(word);
                    try {
                        Thread.sleep(pauseMillis);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
                handler.onComplete(result);
            }, "slow-backend");
            t.setDaemon(true);
            t.start();
            return handle;
        }

        @Override
        public ModelInfo modelInfo(String model) {
            return answers.modelInfo(model);
        }

        @Override
        public HealthStatus health(String model) {
            return answers.health(model);
        }
    }
}
