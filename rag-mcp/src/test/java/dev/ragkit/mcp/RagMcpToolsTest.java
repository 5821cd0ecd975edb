package dev.ragkit.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ragkit.audit.AuditFailurePolicy;
import dev.ragkit.audit.AuditOperation;
import dev.ragkit.audit.AuditOutcome;
import dev.ragkit.audit.AuditRecord;
import dev.ragkit.generation.ExtractiveBackend;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The three tools through a real server and the official SDK client: what they declare, return and audit. */
final class RagMcpToolsTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path root;
    private McpFixture fixture;
    private RagMcpServer server;
    private McpSyncClient client;

    private void start(AuditFailurePolicy policy) {
        fixture = new McpFixture(root);
        RagMcpTools tools = fixture.tools(new ExtractiveBackend(), policy);
        server = RagMcpServer.http(tools, McpHttpSettings.loopback("127.0.0.1", 0));
        client = McpClient.sync(HttpClientStreamableHttpTransport.builder("http://127.0.0.1:" + server.port())
                .endpoint(RagMcpServer.ENDPOINT).jsonMapper(tools.jsonMapper()).build())
                .requestTimeout(Duration.ofSeconds(60)).build();
        McpFixture.initialize(client);
    }

    @AfterEach
    void stop() {
        if (client != null) {
            client.closeGracefully();
        }
        if (server != null) {
            server.close();
        }
        if (fixture != null) {
            fixture.close();
        }
    }

    private CallToolResult call(String tool, Map<String, Object> args) {
        return client.callTool(new McpSchema.CallToolRequest(tool, args));
    }

    private static String text(CallToolResult result) {
        return ((McpSchema.TextContent) result.content().get(0)).text();
    }

    private List<AuditRecord> refusals() {
        return fixture.records.stream().filter(r -> r.outcome() == AuditOutcome.REFUSED).toList();
    }

    @Test
    void everyTool_declaresAnOutputSchemaAndReadOnlyClosedWorldAnnotations() {
        start(AuditFailurePolicy.LOG_AND_CONTINUE);

        List<McpSchema.Tool> tools = client.listTools().tools();

        assertThat(tools).hasSize(3).allSatisfy(tool -> {
            assertThat(tool.outputSchema()).as(tool.name()).containsEntry("type", "object").containsKey("properties");
            assertThat(tool.annotations().readOnlyHint()).as(tool.name()).isTrue();
            assertThat(tool.annotations().openWorldHint()).as(tool.name()).isFalse();
            assertThat(tool.annotations().destructiveHint()).as(tool.name()).isFalse();
        });
    }

    @Test
    void ragSearch_textContentCarriesThePassagesWithTheirLocations() {
        start(AuditFailurePolicy.LOG_AND_CONTINUE);

        CallToolResult result = call("rag_search", Map.of("query", "How often do API keys rotate?", "k", 3));

        assertThat(result.isError()).as(text(result)).isFalse();
        String text = text(result);
        assertThat(text).contains(McpFixture.KEYS_TEXT).contains("docs/keys.md, lines ").contains("section: API keys")
                .contains("SourceId ");
        assertThat(text).as("outside the server's tags").doesNotContain("Salaries");
        JsonNode structured = JSON.valueToTree(result.structuredContent());
        assertThat(structured.path("chunks").get(0).path("text").asText()).contains("ninety days");
        assertThat(structured.path("flags")).isEmpty();
    }

    @Test
    void ragQuery_textContentCarriesTheAnswerAndItsSources() {
        start(AuditFailurePolicy.LOG_AND_CONTINUE);

        CallToolResult result = call("rag_query", Map.of("question", "How often do API keys rotate?"));

        assertThat(result.isError()).as(text(result)).isFalse();
        assertThat(text(result)).contains("ninety days").contains("Sources:").contains("docs/keys.md:");
    }

    @Test
    void refusedCalls_leaveAuditRecordsWithTheirReasons() {
        start(AuditFailurePolicy.LOG_AND_CONTINUE);

        assertThat(call("rag_query", Map.of("question", "When are salaries paid?", "tags", List.of("hr")))
                .isError()).isTrue();
        assertThat(call("rag_query", Map.of("question", "   ")).isError()).isTrue();
        assertThat(call("rag_query", Map.of("question", "x".repeat(5_000))).isError()).isTrue();
        assertThat(call("rag_query", Map.of("question", 42)).isError()).isTrue();
        assertThat(call("rag_search", Map.of("query", "keys", "k", 500)).isError()).isTrue();

        assertThat(refusals()).extracting(AuditRecord::errorType).containsExactly("TAG_NOT_ALLOWED",
                "BLANK_QUESTION", "QUESTION_TOO_LONG", "INVALID_ARGUMENTS", "INVALID_ARGUMENTS");
        assertThat(refusals()).extracting(AuditRecord::operation).containsExactly(AuditOperation.ASK,
                AuditOperation.ASK, AuditOperation.ASK, AuditOperation.ASK, AuditOperation.RETRIEVE);
        assertThat(refusals()).allSatisfy(r -> {
            assertThat(r.query()).as("a refused input is kept as its hash only").isNull();
            assertThat(r.tenant()).isEqualTo(McpFixture.TENANT);
        });
        assertThat(refusals().get(2).querySha256()).isEqualTo(AuditRecord.sha256("x".repeat(5_000)));
        assertThat(refusals().get(0).reason()).contains("tag 'hr' is not allowed");
    }

    @Test
    void answeredCalls_areAuditedOncePerCall() {
        start(AuditFailurePolicy.LOG_AND_CONTINUE);

        call("rag_query", Map.of("question", "How often do API keys rotate?"));
        call("rag_search", Map.of("query", "rotate"));
        call("rag_documents", Map.of());

        assertThat(fixture.records).extracting(AuditRecord::operation).containsExactly(AuditOperation.ASK,
                AuditOperation.RETRIEVE, AuditOperation.LIST);
    }

    @Test
    void unwritableAudit_logAndContinue_answersAndSaysSo() {
        start(AuditFailurePolicy.LOG_AND_CONTINUE);
        fixture.auditFails.set(true);

        CallToolResult search = call("rag_search", Map.of("query", "How often do API keys rotate?"));
        CallToolResult query = call("rag_query", Map.of("question", "How often do API keys rotate?"));
        CallToolResult refused = call("rag_query", Map.of("question", " "));

        assertThat(search.isError()).isFalse();
        assertThat(JSON.valueToTree(search.structuredContent()).path("flags").toString()).contains("AUDIT_NOT_WRITTEN");
        assertThat(text(search)).contains("no audit record").contains("disk full");
        assertThat(JSON.valueToTree(query.structuredContent()).path("flags").toString()).contains("AUDIT_NOT_WRITTEN");
        assertThat(text(query)).contains("no audit record");
        assertThat(text(refused)).contains("blank").contains("no audit record");
    }

    @Test
    void unwritableAudit_failRequest_answersNothing() {
        start(AuditFailurePolicy.FAIL_REQUEST);
        fixture.auditFails.set(true);

        CallToolResult search = call("rag_search", Map.of("query", "How often do API keys rotate?"));
        CallToolResult documents = call("rag_documents", Map.of());

        assertThat(search.isError()).isTrue();
        assertThat(text(search)).contains("could not be written").doesNotContain("ninety days");
        assertThat(documents.isError()).isTrue();
        assertThat(text(documents)).doesNotContain("docs/keys.md");
    }
}
