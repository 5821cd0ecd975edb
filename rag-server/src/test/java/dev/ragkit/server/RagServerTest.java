package dev.ragkit.server;

import static dev.ragkit.server.ServerFixture.ACME;
import static dev.ragkit.server.ServerFixture.ACME_TOKEN;
import static dev.ragkit.server.ServerFixture.GLOBEX;
import static dev.ragkit.server.ServerFixture.GLOBEX_TOKEN;
import static dev.ragkit.server.ServerFixture.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ragkit.internal.LimitedBodies;
import dev.ragkit.audit.AuditOperation;
import dev.ragkit.audit.AuditOutcome;
import dev.ragkit.audit.AuditRecord;
import dev.ragkit.generation.ExtractiveBackend;
import dev.ragkit.store.StoredChunk;
import dev.ragkit.store.StoredDocument;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The server on a random port, driven over real HTTP: every route, streaming, scope, and every bad input. */
final class RagServerTest {
    private static final String KEYS = "{\"question\": \"How often do API keys rotate?\"}";

    @TempDir
    Path dir;
    private ServerFixture fixture;

    @AfterEach
    void close() {
        if (fixture != null) {
            fixture.close();
        }
    }

    private ServerFixture tokens() {
        fixture = new ServerFixture(dir).startWithTokens(new ExtractiveBackend(), b -> { });
        return fixture;
    }

    @Test
    void ask_json_answersWithCitationsConfidenceAndAction() {
        ServerFixture f = tokens();
        HttpResponse<String> r = f.post("/v1/ask", ACME_TOKEN, KEYS);
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        JsonNode body = json(r);
        assertThat(body.get("answer").asText()).contains("ninety days");
        assertThat(body.get("action").asText()).isEqualTo("CITE");
        JsonNode citation = body.get("citations").get(0);
        assertThat(citation.get("path").asText()).isEqualTo("keys.md");
        assertThat(citation.get("documentId").asText()).isEqualTo(f.documentId(ACME, "keys.md"));
        assertThat(citation.get("startLine").asInt()).isPositive();
        assertThat(citation.get("endLine").asInt()).isGreaterThanOrEqualTo(citation.get("startLine").asInt());
        assertThat(citation.get("section").asText()).contains("API keys");
        assertThat(body.at("/confidence/explanation").asText()).isNotBlank();
        assertThat(body.get("numberedAnswer").asText()).contains("[1]").doesNotContain("SourceId");
        assertThat(f.records).anySatisfy(rec -> {
            assertThat(rec.operation()).isEqualTo(AuditOperation.ASK);
            assertThat(rec.tenant()).isEqualTo(ACME);
        });
    }

    @Test
    void ask_stream_sendsSourcesThenTokensThenDone() throws Exception {
        ServerFixture f = tokens();
        HttpResponse<String> r = f.post("/v1/ask", ACME_TOKEN,
                "{\"question\": \"How often do API keys rotate?\", \"stream\": true}");
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.headers().firstValue("Content-Type").orElse("")).startsWith("text/event-stream");
        List<String> names = new ArrayList<>();
        StringBuilder tokens = new StringBuilder();
        JsonNode done = null;
        for (String block : r.body().split("\n\n")) {
            String name = null;
            String data = null;
            for (String line : block.split("\n")) {
                if (line.startsWith("event: ")) {
                    name = line.substring(7);
                } else if (line.startsWith("data: ")) {
                    data = line.substring(6);
                }
            }
            if (name == null) {
                continue;
            }
            names.add(name);
            JsonNode node = ServerFixture.JSON.readTree(data);
            if (name.equals("token")) {
                tokens.append(node.get("text").asText());
            } else if (name.equals("done")) {
                done = node;
            }
        }
        assertThat(names.get(0)).isEqualTo("sources");
        assertThat(names.get(names.size() - 1)).isEqualTo("done");
        assertThat(names.subList(1, names.size() - 1)).isNotEmpty().containsOnly("token");
        assertThat(done).isNotNull();
        assertThat(tokens.toString()).isEqualTo(done.get("answer").asText());
        assertThat(done.get("action").asText()).isEqualTo("CITE");
        assertThat(done.at("/confidence/overall").asInt()).isBetween(0, 100);
    }

    @Test
    void ask_stream_closingTheConnectionCancelsTheAnswer() throws Exception {
        ServerFixture.SlowBackend slow = new ServerFixture.SlowBackend(300);
        fixture = new ServerFixture(dir).startWithTokens(slow, b -> { });
        String body = "{\"question\": \"How often do API keys rotate?\", \"stream\": true}";
        try (Socket socket = new Socket("127.0.0.1", fixture.server.port())) {
            OutputStream out = socket.getOutputStream();
            out.write(("POST /v1/ask HTTP/1.1\r\nHost: 127.0.0.1:" + fixture.server.port() + "\r\nAuthorization: "
                    + "Bearer " + ACME_TOKEN + "\r\nContent-Type: application/json\r\nContent-Length: "
                    + body.getBytes(StandardCharsets.UTF_8).length + "\r\n\r\n" + body)
                    .getBytes(StandardCharsets.UTF_8));
            out.flush();
            BufferedReader in = new BufferedReader(new InputStreamReader(socket.getInputStream(),
                    StandardCharsets.UTF_8));
            for (String line; (line = in.readLine()) != null; ) {
                if (line.equals("event: token")) {
                    break;
                }
            }
        }
        assertThat(slow.cancelled.await(10, TimeUnit.SECONDS)).as("the model call was cancelled").isTrue();
        assertThat(fixture.get("/v1/health", ACME_TOKEN).statusCode()).isEqualTo(200);
    }

    @Test
    void ask_json_longerThanTheIdleTimeout_stillAnswers() {
        ServerFixture.SlowBackend slow = new ServerFixture.SlowBackend(300);
        fixture = new ServerFixture(dir).startWithTokens(slow, b -> b.idleTimeout(Duration.ofSeconds(1)));
        long start = System.nanoTime();
        HttpResponse<String> r = fixture.post("/v1/ask", ACME_TOKEN, KEYS);
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThan(Duration.ofSeconds(2));
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        assertThat(json(r).get("answer").asText()).contains("ninety days");
        assertThat(slow.cancelled.getCount()).isEqualTo(1);
    }

    @Test
    void ask_slowerThanTheRequestTimeout_isCancelledWith504() throws Exception {
        ServerFixture.SlowBackend slow = new ServerFixture.SlowBackend(1_500);
        fixture = new ServerFixture(dir).startWithTokens(slow, b -> b.requestTimeout(Duration.ofSeconds(1)));
        HttpResponse<String> r = fixture.post("/v1/ask", ACME_TOKEN, KEYS);
        assertThat(r.statusCode()).isEqualTo(504);
        assertThat(json(r).at("/error/code").asText()).isEqualTo("ANSWER_TIMEOUT");
        assertThat(slow.cancelled.await(5, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void search_documents_health_models_answer() {
        ServerFixture f = tokens();
        HttpResponse<String> search = f.post("/v1/search", ACME_TOKEN, "{\"query\": \"rotate keys\", \"k\": 3}");
        assertThat(search.statusCode()).as(search.body()).isEqualTo(200);
        assertThat(json(search).get("chunks")).isNotEmpty()
                .allSatisfy(c -> assertThat(c.get("path").asText()).isEqualTo("keys.md"));
        JsonNode docs = json(f.get("/v1/documents", ACME_TOKEN));
        assertThat(docs.get("count").asInt()).isEqualTo(1);
        JsonNode doc = docs.get("documents").get(0);
        assertThat(doc.get("path").asText()).isEqualTo("keys.md");
        assertThat(doc.get("type").asText()).isEqualTo("md");
        assertThat(doc.has("pages")).isTrue();
        // when the indexer stored it (an ISO-8601 instant in UTC), not the document's own date
        assertThat(java.time.Instant.parse(doc.get("indexedAt").asText()))
                .isBetween(java.time.Instant.now().minus(Duration.ofHours(1)), java.time.Instant.now());
        JsonNode health = json(f.get("/v1/health", ACME_TOKEN));
        assertThat(health.get("status").asText()).isEqualTo("UP");
        assertThat(health.get("tenant").asText()).isEqualTo(ACME);
        JsonNode models = json(f.get("/v1/models", ACME_TOKEN));
        assertThat(models.at("/data/0/id").asText()).isEqualTo("ragkit");
        assertThat(f.records).anySatisfy(rec -> assertThat(rec.operation()).isEqualTo(AuditOperation.RETRIEVE))
                .anySatisfy(rec -> assertThat(rec.operation()).isEqualTo(AuditOperation.LIST));
    }

    @Test
    void view_showsTheIndexedTextWithTheCitedLinesMarked() {
        ServerFixture f = tokens();
        JsonNode citation = json(f.post("/v1/ask", ACME_TOKEN, KEYS)).get("citations").get(0);
        HttpResponse<String> r = f.get("/v1/documents/" + citation.get("documentId").asText() + "/view?lines="
                + citation.get("startLine").asInt() + "-" + citation.get("endLine").asInt(), ACME_TOKEN);
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        JsonNode view = json(r);
        List<String> marked = new ArrayList<>();
        view.get("lines").forEach(l -> {
            if (l.get("highlight").asBoolean()) {
                marked.add(l.get("text").asText());
                assertThat(l.get("n").asInt()).isBetween(citation.get("startLine").asInt(),
                        citation.get("endLine").asInt());
            }
        });
        assertThat(String.join("\n", marked)).contains("ninety days");
        assertThat(f.get("/v1/documents/x/view?lines=9-2", ACME_TOKEN).statusCode()).isEqualTo(404);
        assertThat(json(f.get("/v1/documents/" + citation.get("documentId").asText() + "/view?lines=a-b",
                ACME_TOKEN)).at("/error/code").asText()).isEqualTo("BAD_LINES");
    }

    @Test
    void view_pagedDocument_marksTheCitedPage_andTheListCountsPages() {
        ServerFixture f = tokens();
        List<String> pages = List.of("Installation guide.\nPlug in the unit.", "Safety.\nNever open the case.");
        float[][] vectors = f.embedder.embed(pages);
        StoredDocument manual = StoredDocument.builder().id("0f8fad5b-d9cb-469f-a165-70867728950e").tenant(ACME)
                .path("manual.pdf").title("Manual").accessTags("eng").charCount(60).build();
        f.store.upsert(manual, List.of(
                new StoredChunk(manual.id(), 0, pages.get(0), vectors[0], 8, 1, 2, null, 1),
                new StoredChunk(manual.id(), 1, pages.get(1), vectors[1], 8, 3, 4, "Safety", 2)));
        JsonNode listed = json(f.get("/v1/documents", ACME_TOKEN)).get("documents");
        JsonNode pdf = null;
        for (JsonNode d : listed) {
            if (d.get("path").asText().equals("manual.pdf")) {
                pdf = d;
            }
        }
        assertThat(pdf).isNotNull();
        assertThat(pdf.get("type").asText()).isEqualTo("pdf");
        assertThat(pdf.get("pages").asInt()).isEqualTo(2);
        JsonNode view = json(f.get("/v1/documents/" + manual.id() + "/view?page=2", ACME_TOKEN));
        List<String> marked = new ArrayList<>();
        view.get("lines").forEach(l -> {
            if (l.get("highlight").asBoolean()) {
                assertThat(l.get("page").asInt()).isEqualTo(2);
                marked.add(l.get("text").asText());
            }
        });
        assertThat(marked).containsExactly("Safety.", "Never open the case.");
        assertThat(view.at("/highlight/page").asInt()).isEqualTo(2);
        assertError(f.get("/v1/documents/" + manual.id() + "/view?page=two", ACME_TOKEN), 400, "BAD_PAGE");
    }

    @Test
    void openapi_listsEveryRoute() throws Exception {
        ServerFixture f = tokens();
        HttpResponse<String> r = f.get("/openapi.json", null);
        assertThat(r.statusCode()).isEqualTo(200);
        Set<String> paths = new HashSet<>();
        json(r).get("paths").fieldNames().forEachRemaining(paths::add);
        Set<String> routes = new HashSet<>(List.of("/v1/ask", "/v1/search", "/v1/documents",
                "/v1/documents/{id}/view", "/v1/health", "/v1/chat/completions", "/v1/models", "/openapi.json", "/"));
        assertThat(paths).isEqualTo(routes);
        for (String route : routes) {
            String path = route.replace("{id}", f.documentId(ACME, "keys.md"));
            HttpResponse<String> any = f.send(HttpRequest.newBuilder(URI.create(f.base() + path))
                    .header("Authorization", "Bearer " + ACME_TOKEN).GET().build());
            assertThat(any.statusCode()).as(route).isNotEqualTo(404);
        }
        assertThat(f.get("/v1/nothing", ACME_TOKEN).statusCode()).isEqualTo(404);
    }

    @Test
    void scope_twoTokensTwoTenants_neverLeak() {
        ServerFixture f = tokens();
        String keys = f.documentId(ACME, "keys.md");
        String payroll = f.documentId(ACME, "payroll.md");
        String vacation = f.documentId(GLOBEX, "vacation.md");
        // acme (tag eng) sees keys.md only: not payroll (hr), not globex's
        assertThat(json(f.get("/v1/documents", ACME_TOKEN)).findValuesAsText("path")).containsExactly("keys.md");
        assertThat(json(f.get("/v1/documents", GLOBEX_TOKEN)).findValuesAsText("path"))
                .containsExactly("vacation.md");
        assertThat(f.post("/v1/search", ACME_TOKEN, "{\"query\": \"vacation days payroll salaries\"}").body())
                .doesNotContain("vacation.md").doesNotContain("payroll.md");
        assertThat(f.post("/v1/ask", GLOBEX_TOKEN, KEYS).body()).doesNotContain("keys.md")
                .doesNotContain("ninety");
        for (String other : List.of(payroll, vacation)) {
            HttpResponse<String> r = f.get("/v1/documents/" + other + "/view", ACME_TOKEN);
            assertThat(r.statusCode()).isEqualTo(404);
            assertThat(r.body()).doesNotContain("Salaries").doesNotContain("Globex");
        }
        assertThat(f.get("/v1/documents/" + keys + "/view", GLOBEX_TOKEN).statusCode()).isEqualTo(404);
        assertThat(f.get("/v1/documents/" + vacation + "/view", GLOBEX_TOKEN).body()).contains("thirty");
        // a request can narrow its tags, never widen them
        HttpResponse<String> widened = f.post("/v1/ask", ACME_TOKEN,
                "{\"question\": \"When are salaries paid?\", \"tags\": [\"hr\"]}");
        assertThat(widened.statusCode()).isEqualTo(403);
        assertThat(json(widened).at("/error/code").asText()).isEqualTo("TAG_NOT_ALLOWED");
        assertThat(f.records).anySatisfy(rec -> {
            assertThat(rec.outcome()).isEqualTo(AuditOutcome.REFUSED);
            assertThat(rec.errorType()).isEqualTo("TAG_NOT_ALLOWED");
        });
        assertThat(f.records).extracting(AuditRecord::tenant).containsOnly(ACME, GLOBEX);
    }

    @Test
    void tokens_missingOrWrong_get401_andAreNeverEchoed() {
        ServerFixture f = tokens();
        HttpResponse<String> none = f.get("/v1/documents", null);
        assertThat(none.statusCode()).isEqualTo(401);
        assertThat(none.headers().firstValue("WWW-Authenticate").orElse("")).startsWith("Bearer");
        HttpResponse<String> wrong = f.get("/v1/documents", "not-a-token-of-this-server");
        assertThat(wrong.statusCode()).isEqualTo(401);
        assertThat(wrong.body()).doesNotContain("not-a-token-of-this-server");
        assertThat(json(wrong).at("/error/code").asText()).isEqualTo("TOKEN_INVALID");
        assertThat(f.get("/", null).statusCode()).isEqualTo(200);
    }

    @Test
    void badInput_getsTypedErrors() {
        ServerFixture f = tokens();
        assertError(f.post("/v1/ask", ACME_TOKEN, "{\"question\": "), 400, "BAD_JSON");
        assertError(f.post("/v1/ask", ACME_TOKEN, "[1, 2]"), 400, "NOT_AN_OBJECT");
        assertError(f.post("/v1/ask", ACME_TOKEN, "{\"question\": \"x?\", \"temperature\": 1}"), 400,
                "UNKNOWN_FIELD");
        assertError(f.post("/v1/ask", ACME_TOKEN, "{}"), 400, "MISSING_FIELD");
        assertError(f.post("/v1/ask", ACME_TOKEN, "{\"question\": 3}"), 400, "WRONG_TYPE");
        assertError(f.post("/v1/ask", ACME_TOKEN, "{\"question\": \"  \"}"), 400, "BLANK_QUESTION");
        assertError(f.post("/v1/ask", ACME_TOKEN, "{\"question\": \"" + "a".repeat(5_000) + "\"}"), 400,
                "QUESTION_TOO_LONG");
        assertError(f.post("/v1/search", ACME_TOKEN, "{\"query\": \"keys\", \"k\": 99}"), 400, "K_OUT_OF_RANGE");
        assertError(f.post("/v1/ask", ACME_TOKEN, "{\"question\": \"" + "a".repeat(2 * 1024 * 1024) + "\"}"), 413,
                "BODY_TOO_LARGE");
        assertError(f.send(HttpRequest.newBuilder(URI.create(f.base() + "/v1/ask"))
                .header("Authorization", "Bearer " + ACME_TOKEN).header("Content-Type", "text/plain")
                .POST(HttpRequest.BodyPublishers.ofString(KEYS)).build()), 415, "UNSUPPORTED_MEDIA_TYPE");
        assertError(f.get("/v1/ask", ACME_TOKEN), 405, "METHOD_NOT_ALLOWED");
        assertError(f.send(HttpRequest.newBuilder(URI.create(f.base() + "/v1/ask"))
                .header("Authorization", "Bearer " + ACME_TOKEN).header("Content-Type", "application/json")
                .header("Origin", "http://evil.example").POST(HttpRequest.BodyPublishers.ofString(KEYS)).build()),
                403, "ORIGIN_NOT_ALLOWED");
        assertThat(f.records).filteredOn(rec -> rec.outcome() == AuditOutcome.REFUSED).extracting(
                AuditRecord::errorType).contains("BAD_JSON", "UNKNOWN_FIELD", "BODY_TOO_LARGE");
        assertThat(f.post("/v1/ask", ACME_TOKEN, KEYS).statusCode()).isEqualTo(200);
    }

    @Test
    void bodyTooLarge_isRefusedBeforeItArrives_andTheConnectionClosed() throws Exception {
        ServerFixture f = tokens();
        // a length far over the limit announced, no body sent: the refusal comes at once, and says the connection
        // ends with it (a body up to LimitedBodies.SWALLOW_BYTES over the limit is read and dropped first, so
        // that a client still sending it gets the 413 rather than a reset connection; see the next test)
        long announced = ServerSettings.DEFAULT_MAX_REQUEST_BYTES + LimitedBodies.SWALLOW_BYTES + 1;
        String response = raw(f, "POST /v1/ask HTTP/1.1\r\nHost: 127.0.0.1:" + f.server.port()
                + "\r\nAuthorization: Bearer " + ACME_TOKEN + "\r\nContent-Type: application/json"
                + "\r\nContent-Length: " + announced + "\r\n\r\n");
        assertThat(response).startsWith("HTTP/1.1 413").containsIgnoringCase("connection: close")
                .contains("BODY_TOO_LARGE");
        // and a client's next request, on a new connection, is answered
        assertThat(f.post("/v1/ask", ACME_TOKEN, KEYS).statusCode()).isEqualTo(200);
    }

    @Test
    void foreignHost_isRefused_sameOriginPageIsServed() throws Exception {
        ServerFixture f = tokens();
        String refused = raw(f, "GET /v1/health HTTP/1.1\r\nHost: evil.example:" + f.server.port()
                + "\r\nAuthorization: Bearer " + ACME_TOKEN + "\r\nConnection: close\r\n\r\n");
        assertThat(refused).startsWith("HTTP/1.1 403").contains("HOST_NOT_ALLOWED");
        HttpResponse<String> sameOrigin = f.send(HttpRequest.newBuilder(URI.create(f.base() + "/v1/ask"))
                .header("Authorization", "Bearer " + ACME_TOKEN).header("Content-Type", "application/json")
                .header("Origin", f.base()).POST(HttpRequest.BodyPublishers.ofString(KEYS)).build());
        assertThat(sameOrigin.statusCode()).isEqualTo(200);
    }

    @Test
    void slowClient_getsA408_andTheServerGoesOn() throws Exception {
        fixture = new ServerFixture(dir).startWithTokens(new ExtractiveBackend(),
                b -> b.idleTimeout(Duration.ofSeconds(1)));
        // a body that never completes: the server answers 408 when the idle limit passes (no timing asserted here)
        String answer = raw(fixture, "POST /v1/ask HTTP/1.1\r\nHost: 127.0.0.1:" + fixture.server.port()
                + "\r\nAuthorization: Bearer " + ACME_TOKEN + "\r\nContent-Type: application/json\r\n"
                + "Content-Length: 100\r\n\r\n{\"question\":");
        assertThat(answer).startsWith("HTTP/1.1 408").contains("REQUEST_TIMEOUT");
        assertThat(fixture.post("/v1/ask", ACME_TOKEN, KEYS).statusCode()).isEqualTo(200);
    }

    @Test
    void tooManyConcurrentRequests_get429() throws Exception {
        ServerFixture.SlowBackend slow = new ServerFixture.SlowBackend(400);
        fixture = new ServerFixture(dir).startWithTokens(slow, b -> b.maxConcurrentRequests(1));
        CompletableFuture<HttpResponse<String>> first = CompletableFuture.supplyAsync(
                () -> fixture.post("/v1/ask", ACME_TOKEN, KEYS));
        assertThat(slow.started.await(10, TimeUnit.SECONDS)).isTrue();
        HttpResponse<String> second = fixture.post("/v1/ask", ACME_TOKEN, KEYS);
        assertThat(second.statusCode()).isEqualTo(429);
        assertThat(second.headers().firstValue("Retry-After")).contains("1");
        assertThat(first.get(60, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
    }

    @Test
    void earlyRefusals_401_403_429_areAudited_withoutTokenOrQuestion() throws Exception {
        ServerFixture.SlowBackend slow = new ServerFixture.SlowBackend(400);
        fixture = new ServerFixture(dir).startWithTokens(slow, b -> b.maxConcurrentRequests(1));
        ServerFixture f = fixture;
        String secret = "Which secret plans does nobody know?";
        String body = "{\"question\": \"" + secret + "\"}";
        assertThat(f.post("/v1/ask", null, body).statusCode()).isEqualTo(401);
        assertThat(f.post("/v1/ask", "wrong-token-0123456789abcdef", body).statusCode()).isEqualTo(401);
        assertThat(f.send(HttpRequest.newBuilder(URI.create(f.base() + "/v1/search"))
                .header("Authorization", "Bearer " + ACME_TOKEN).header("Content-Type", "application/json")
                .header("Origin", "http://evil.example").POST(HttpRequest.BodyPublishers.ofString(body)).build())
                .statusCode()).isEqualTo(403);
        assertThat(raw(f, "GET /v1/documents HTTP/1.1\r\nHost: evil.example:" + f.server.port()
                + "\r\nAuthorization: Bearer " + ACME_TOKEN + "\r\nConnection: close\r\n\r\n"))
                .startsWith("HTTP/1.1 403");
        CompletableFuture<HttpResponse<String>> first = CompletableFuture.supplyAsync(
                () -> f.post("/v1/ask", ACME_TOKEN, KEYS));
        assertThat(slow.started.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(f.post("/v1/ask", GLOBEX_TOKEN, body).statusCode()).isEqualTo(429);
        assertThat(first.get(60, TimeUnit.SECONDS).statusCode()).isEqualTo(200);

        List<AuditRecord> refused = f.records.stream().filter(r -> r.outcome() == AuditOutcome.REFUSED).toList();
        assertThat(refused).extracting(AuditRecord::errorType).containsExactlyInAnyOrder("TOKEN_MISSING",
                "TOKEN_INVALID", "ORIGIN_NOT_ALLOWED", "HOST_NOT_ALLOWED", "TOO_MANY_REQUESTS");
        for (AuditRecord r : refused) {
            assertThat(r.tenant()).as(r.errorType()).isEqualTo(r.errorType().equals("TOO_MANY_REQUESTS")
                    ? GLOBEX : RequestGuard.UNKNOWN_TENANT);
            assertThat(r.reason()).as(r.errorType()).isNotBlank().containsPattern("\\[(GET|POST) /v1/");
            assertThat(r.toString()).doesNotContain(ACME_TOKEN).doesNotContain(GLOBEX_TOKEN)
                    .doesNotContain("wrong-token").doesNotContain(secret);
        }
        assertThatThrownBy(() -> Grant.of(RequestGuard.UNKNOWN_TENANT, List.of()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("reserved");
        assertThat(refused).filteredOn(r -> r.errorType().equals("ORIGIN_NOT_ALLOWED")).singleElement()
                .extracting(AuditRecord::operation).isEqualTo(AuditOperation.RETRIEVE);
        assertThat(refused).filteredOn(r -> r.errorType().equals("HOST_NOT_ALLOWED")).singleElement()
                .extracting(AuditRecord::operation).isEqualTo(AuditOperation.LIST);
    }

    @Test
    void withoutTokens_oneTenantOnLoopbackOnly() throws Exception {
        fixture = new ServerFixture(dir).start(new ExtractiveBackend(), b -> b.scope(GLOBEX, List.of()));
        assertThat(json(fixture.get("/v1/documents", null)).findValuesAsText("path")).containsExactly(
                "vacation.md");
        assertThatThrownBy(() -> ServerSettings.builder().address("0.0.0.0", 0).scope(ACME, List.of()).build())
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("loopback only");
        assertThatThrownBy(() -> ServerSettings.builder().address("127.0.0.1", 0).build())
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("tokens file");
    }

    @Test
    void start_onAPortInUse_saysSoAndHowToFixIt() {
        ServerFixture f = tokens();
        int taken = f.server.port();
        assertThatThrownBy(() -> new ServerFixture(dir.resolve("second")).start(new ExtractiveBackend(),
                b -> b.address("127.0.0.1", taken).scope(ACME, List.of())))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("cannot serve HTTP on 127.0.0.1:" + taken + ": port " + taken + " is in use by another "
                        + "program; choose another port (0 picks a free one)");
    }

    @Test
    void tokensFile_grantsEachTokenItsScope_andBadLinesNameTheLineNotTheToken() throws Exception {
        Path file = Files.writeString(dir.resolve("tokens"), "# token tenant tags\n\n" + ACME_TOKEN + " acme eng\n"
                + GLOBEX_TOKEN + "\tglobex\n", StandardCharsets.UTF_8);
        ServerSettings settings = ServerSettings.builder().address("127.0.0.1", 0).tokensFile(file).build();
        assertThat(settings.grant(ACME_TOKEN)).isEqualTo(Grant.of(ACME, List.of("eng")));
        assertThat(settings.grant(GLOBEX_TOKEN)).isEqualTo(Grant.of(GLOBEX, List.of()));
        assertThat(settings.grant("acme-token-0123456789abcdeX")).isNull();
        assertThat(settings.toString()).doesNotContain(ACME_TOKEN);
        Path bad = Files.writeString(dir.resolve("bad"), "short acme\n", StandardCharsets.UTF_8);
        assertThatThrownBy(() -> ServerSettings.builder().tokensFile(bad))
                .hasMessageContaining("line 1").hasMessageNotContaining("short");
    }

    private static void assertError(HttpResponse<String> r, int status, String code) {
        assertThat(r.statusCode()).as(r.body()).isEqualTo(status);
        JsonNode error = json(r).get("error");
        assertThat(error.get("code").asText()).isEqualTo(code);
        assertThat(error.get("message").asText()).isNotBlank().doesNotContain("Exception").doesNotContain("at dev.");
    }

    @Test
    void bodyALittleTooLarge_isReadToItsEnd_beforeTheRefusal() throws Exception {
        ServerFixture f = tokens();
        int length = ServerSettings.DEFAULT_MAX_REQUEST_BYTES + 1000;
        try (Socket socket = new Socket("127.0.0.1", f.server.port())) {
            socket.getOutputStream().write(("POST /v1/ask HTTP/1.1\r\nHost: 127.0.0.1:" + f.server.port()
                    + "\r\nAuthorization: Bearer " + ACME_TOKEN + "\r\nContent-Type: application/json"
                    + "\r\nContent-Length: " + length + "\r\n\r\n").getBytes(StandardCharsets.UTF_8));
            socket.getOutputStream().write(new byte[length / 2]);
            socket.getOutputStream().flush();
            InputStream in = socket.getInputStream();
            socket.setSoTimeout(1_000);
            // half of it sent: no answer yet, the server reads on (were it to answer and close now, the bytes still
            // on their way would reset the connection, and a client busy sending could lose the answer)
            assertThatThrownBy(in::read).isInstanceOf(java.net.SocketTimeoutException.class);
            socket.getOutputStream().write(new byte[length - length / 2]);
            socket.getOutputStream().flush();
            socket.setSoTimeout(15_000);
            String response = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            assertThat(response).startsWith("HTTP/1.1 413").contains("BODY_TOO_LARGE");
        }
    }

    private static String raw(ServerFixture f, String request) throws Exception {
        try (Socket socket = new Socket("127.0.0.1", f.server.port())) {
            socket.setSoTimeout(15_000);
            socket.getOutputStream().write(request.getBytes(StandardCharsets.UTF_8));
            socket.getOutputStream().flush();
            InputStream in = socket.getInputStream();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
