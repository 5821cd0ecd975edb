package dev.ragkit.audit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ragkit.error.AuditException;
import dev.ragkit.error.RagException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class JsonLinesAuditSinkTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private static List<JsonNode> readLines(Path file) throws IOException {
        List<JsonNode> nodes = new ArrayList<>();
        for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
            nodes.add(JSON.readTree(line));
        }
        return nodes;
    }

    @Test
    void record_answeredRecord_roundTripsEveryFieldInFixedOrder() throws IOException {
        Path file = dir.resolve("audit.jsonl");
        AuditRecord record = AuditRecords.answered("req-1", "How many vacation days?");
        try (AuditSink sink = AuditSink.jsonLines(file)) {
            sink.record(record);
        }

        List<JsonNode> lines = readLines(file);
        assertThat(lines).hasSize(1);
        JsonNode node = lines.get(0);
        List<String> names = new ArrayList<>();
        node.fieldNames().forEachRemaining(names::add);
        assertThat(names).containsExactly("timestamp", "requestId", "tenant", "query", "querySha256", "sourceIds",
                "sourceCount", "contextTokens", "model", "action", "confidence", "latencyMillis", "outcome",
                "errorType", "operation", "counts", "retrievalQuery", "reason");
        assertThat(node.get("operation").asText()).isEqualTo("ASK");
        assertThat(node.get("counts").isObject()).isTrue();
        assertThat(node.get("counts").size()).isZero();
        assertThat(Instant.parse(node.get("timestamp").asText())).isEqualTo(record.timestamp());
        assertThat(node.get("timestamp").asText()).isEqualTo("2025-01-31T09:15:00.123456789Z");
        assertThat(node.get("requestId").asText()).isEqualTo("req-1");
        assertThat(node.get("tenant").asText()).isEqualTo("acme");
        assertThat(node.get("query").asText()).isEqualTo("How many vacation days?");
        assertThat(node.get("querySha256").asText()).isEqualTo(AuditRecord.sha256("How many vacation days?"));
        assertThat(node.get("sourceIds").isArray()).isTrue();
        assertThat(node.get("sourceIds")).extracting(JsonNode::asText)
                .containsExactly("handbook.md#0", "handbook.md#3");
        assertThat(node.get("sourceCount").isInt()).isTrue();
        assertThat(node.get("sourceCount").asInt()).isEqualTo(2);
        assertThat(node.get("contextTokens").asInt()).isEqualTo(412);
        assertThat(node.get("model").asText()).isEqualTo("llama3.2");
        assertThat(node.get("action").asText()).isEqualTo("CITE");
        assertThat(node.get("confidence").isInt()).isTrue();
        assertThat(node.get("confidence").asInt()).isEqualTo(87);
        assertThat(node.get("latencyMillis").asLong()).isEqualTo(1234L);
        assertThat(node.get("outcome").asText()).isEqualTo("ANSWERED");
        assertThat(node.get("errorType").isNull()).isTrue();
    }

    @Test
    void record_errorRecordWithRedactedQuery_writesExplicitNulls() throws IOException {
        Path file = dir.resolve("audit.jsonl");
        try (AuditSink sink = AuditSink.jsonLines(file)) {
            sink.record(AuditRecords.failed("req-err"));
        }

        JsonNode node = readLines(file).get(0);
        assertThat(node.has("query")).isTrue();
        assertThat(node.get("query").isNull()).isTrue();
        assertThat(node.get("querySha256").asText()).isEqualTo(AuditRecord.sha256("secret question"));
        assertThat(node.get("action").isNull()).isTrue();
        assertThat(node.get("confidence").isNull()).isTrue();
        assertThat(node.get("sourceIds")).isEmpty();
        assertThat(node.get("sourceCount").asInt()).isZero();
        assertThat(node.get("outcome").asText()).isEqualTo("ERROR");
        assertThat(node.get("errorType").asText()).isEqualTo("dev.ragkit.error.LlmTimeoutException");
        assertThat(Files.readString(file)).doesNotContain("secret question");
    }

    @Test
    void record_unicodeAndControlCharacters_staysOneUtf8LineAndRoundTrips() throws IOException {
        Path file = dir.resolve("audit.jsonl");
        String query = "Wie viele Urlaubstage? 休暇は何日? \uD83C\uDFD6 \"quoted\"\nsecond line\ttab \u2028";
        try (AuditSink sink = AuditSink.jsonLines(file)) {
            sink.record(AuditRecords.answered("req-ü", query));
        }

        String content = Files.readString(file, StandardCharsets.UTF_8);
        assertThat(content).endsWith("\n");
        assertThat(content.substring(0, content.length() - 1)).doesNotContain("\n", "\r");
        assertThat(content).contains("休暇は何日", "\uD83C\uDFD6");
        JsonNode node = readLines(file).get(0);
        assertThat(node.get("query").asText()).isEqualTo(query);
        assertThat(node.get("requestId").asText()).isEqualTo("req-ü");
    }

    @Test
    void record_unpairedSurrogate_writesValidLineInsteadOfFailing() throws IOException {
        Path file = dir.resolve("audit.jsonl");
        try (AuditSink sink = AuditSink.jsonLines(file)) {
            sink.record(AuditRecords.answered("req-1", "broken \uD800 text"));
            sink.record(AuditRecords.answered("req-2", "fine"));
        }

        List<JsonNode> lines = readLines(file);
        assertThat(lines).extracting(n -> n.get("requestId").asText()).containsExactly("req-1", "req-2");
        assertThat(lines.get(0).get("query").asText()).startsWith("broken ").endsWith(" text");
    }

    @Test
    void record_beforeClose_isAlreadyInTheFile() throws IOException {
        Path file = dir.resolve("audit.jsonl");
        try (AuditSink sink = AuditSink.jsonLines(file)) {
            sink.record(AuditRecords.answered("req-1", "first"));
            assertThat(readLines(file)).extracting(n -> n.get("requestId").asText()).containsExactly("req-1");

            sink.record(AuditRecords.answered("req-2", "second"));
            assertThat(readLines(file)).extracting(n -> n.get("requestId").asText())
                    .containsExactly("req-1", "req-2");
        }
    }

    @Test
    void jsonLines_existingFile_appendsAcrossReopen() throws IOException {
        Path file = dir.resolve("audit.jsonl");
        try (AuditSink first = AuditSink.jsonLines(file)) {
            first.record(AuditRecords.answered("req-1", "first"));
        }
        try (AuditSink second = AuditSink.jsonLines(file)) {
            second.record(AuditRecords.answered("req-2", "second"));
        }

        assertThat(Files.readAllLines(file)).hasSize(2);
        assertThat(readLines(file)).extracting(n -> n.get("requestId").asText()).containsExactly("req-1", "req-2");
    }

    @Test
    void jsonLines_missingParentFolders_createsThem() throws IOException {
        Path file = dir.resolve("logs/2025/01/audit.jsonl");
        try (AuditSink sink = AuditSink.jsonLines(file)) {
            sink.record(AuditRecords.answered("req-1", "q"));
        }

        assertThat(readLines(file)).hasSize(1);
    }

    @Test
    void jsonLines_relativePath_resolvesAgainstWorkingDirectory() throws IOException {
        Path file = dir.resolve("audit.jsonl");
        Path relative = Path.of("").toAbsolutePath().relativize(file);
        try (AuditSink sink = AuditSink.jsonLines(relative)) {
            sink.record(AuditRecords.answered("req-1", "q"));
        }

        assertThat(readLines(file)).hasSize(1);
    }

    @Test
    void record_eightThreadsConcurrently_writesEveryRecordOnItsOwnLine() throws Exception {
        Path file = dir.resolve("audit.jsonl");
        int threads = 8;
        int perThread = 500;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try (AuditSink sink = AuditSink.jsonLines(file)) {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<?>> futures = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int thread = t;
                futures.add(pool.submit(() -> {
                    start.await();
                    for (int i = 0; i < perThread; i++) {
                        // Long, varied queries make torn or interleaved writes visible.
                        sink.record(AuditRecords.answered("t" + thread + "-" + i,
                                ("question " + thread + " " + i + " ").repeat(1 + i % 40)));
                    }
                    return null;
                }));
            }
            start.countDown();
            for (Future<?> future : futures) {
                future.get(60, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdown();
        }

        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        assertThat(lines).hasSize(threads * perThread);
        Set<String> ids = new HashSet<>();
        for (String line : lines) {
            JsonNode node = JSON.readTree(line);
            ids.add(node.get("requestId").asText());
            assertThat(node.get("querySha256").asText()).isEqualTo(AuditRecord.sha256(node.get("query").asText()));
        }
        assertThat(ids).hasSize(threads * perThread);
    }

    @Test
    void jsonLines_pathIsDirectory_throwsAuditExceptionNamingTheFileAndFix() throws IOException {
        Path folder = Files.createDirectory(dir.resolve("audit"));

        assertThatThrownBy(() -> AuditSink.jsonLines(folder))
                .isInstanceOf(AuditException.class)
                .isInstanceOf(RagException.class)
                .hasMessageContaining(folder.toString())
                .hasMessageContaining("is a directory")
                .hasMessageContaining("audit.jsonl");
    }

    @Test
    void jsonLines_parentIsAFile_throwsAuditExceptionNamingTheFile() throws IOException {
        Path notAFolder = Files.writeString(dir.resolve("plain.txt"), "x");
        Path file = notAFolder.resolve("audit.jsonl");

        assertThatThrownBy(() -> AuditSink.jsonLines(file))
                .isInstanceOf(AuditException.class)
                .hasMessageContaining(file.toString())
                .hasMessageContaining("writable")
                .hasCauseInstanceOf(IOException.class);
    }

    @Test
    void jsonLines_nullFile_throwsNullPointerException() {
        assertThatThrownBy(() -> AuditSink.jsonLines(null))
                .isInstanceOf(NullPointerException.class)
                .hasMessage("file");
    }

    @Test
    void record_afterClose_throwsIllegalStateException() throws IOException {
        Path file = dir.resolve("audit.jsonl");
        AuditSink sink = AuditSink.jsonLines(file);
        sink.record(AuditRecords.answered("req-1", "q"));
        sink.close();
        sink.close();

        assertThatThrownBy(() -> sink.record(AuditRecords.answered("req-2", "q")))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("closed")
                .hasMessageContaining(file.toString());
        assertThat(readLines(file)).hasSize(1);
    }

    @Test
    void record_null_throwsNullPointerException() {
        try (AuditSink sink = AuditSink.jsonLines(dir.resolve("audit.jsonl"))) {
            assertThatThrownBy(() -> sink.record(null))
                    .isInstanceOf(NullPointerException.class)
                    .hasMessage("record");
        }
    }
}
