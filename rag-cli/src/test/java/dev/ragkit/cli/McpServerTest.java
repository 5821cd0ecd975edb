package dev.ragkit.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ragkit mcp} as a child process, driven by the official MCP Java SDK's own client: over stdio (initialize,
 * list the tools, call each, bad calls) and over Streamable HTTP on a local port.
 */
final class McpServerTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final McpJsonMapper MAPPER = new JacksonMcpJsonMapper(JSON);

    @TempDir
    static Path dir;
    private static Path indexFile;
    private static McpSyncClient client;

    @BeforeAll
    static void indexAndStart() throws IOException {
        Path docs = Files.createDirectories(dir.resolve("docs"));
        Files.writeString(docs.resolve("keys.md"), "---\ntitle: API keys\ntags: [eng]\n---\n# API keys\n\n"
                + "API keys rotate every ninety days. Run the rotate command to replace a key early.\n",
                StandardCharsets.UTF_8);
        Files.writeString(docs.resolve("payroll.md"), "---\ntitle: Payroll\ntags: [hr]\n---\n# Payroll\n\n"
                + "Salaries are paid on the 25th. The payroll key rotates every ninety days too.\n",
                StandardCharsets.UTF_8);
        Map<String, String> env = new HashMap<>();
        CliRun index = CliRun.of(env, dir, "index", "docs");
        assertThat(index.code()).as(index.err()).isZero();
        indexFile = dir.resolve(".ragkit/index");

        ServerParameters params = ServerParameters.builder(java()).args(command("--tags", "eng")).build();
        client = McpClient.sync(new StdioClientTransport(params, MAPPER)).requestTimeout(Duration.ofSeconds(120))
                .initializationTimeout(Duration.ofSeconds(120)).build();
        initialize(client);
    }

    @AfterAll
    static void stop() {
        if (client != null) {
            client.closeGracefully();
        }
    }

    private static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    /** The child JVM's command line: the test class path's ragkit, on the index, extractive answers. */
    private static List<String> command(String... extra) {
        List<String> args = new java.util.ArrayList<>(List.of("-cp", System.getProperty("java.class.path"),
                "dev.ragkit.cli.RagkitCli", "mcp", "--index", indexFile.toString(), "--tenant", "default",
                "--backend", "extractive", "--max-question-chars", "2000"));
        args.addAll(List.of(extra));
        return args;
    }

    private static CallToolResult call(String tool, Map<String, Object> args) {
        return client.callTool(new McpSchema.CallToolRequest(tool, args));
    }

    private static JsonNode structured(CallToolResult result) {
        assertThat(result.isError()).as(String.valueOf(result.content())).isFalse();
        return JSON.valueToTree(result.structuredContent());
    }

    private static String text(CallToolResult result) {
        return ((McpSchema.TextContent) result.content().get(0)).text();
    }

    @Test
    void listsThreeToolsWithSchemas() {
        List<McpSchema.Tool> tools = client.listTools().tools();

        assertThat(tools).extracting(McpSchema.Tool::name).containsExactlyInAnyOrder("rag_query", "rag_search",
                "rag_documents");
        McpSchema.Tool query = tools.stream().filter(t -> t.name().equals("rag_query")).findFirst().orElseThrow();
        assertThat(query.description()).contains("citations");
        assertThat(JSON.valueToTree(query.inputSchema()).path("required").toString()).contains("question");
    }

    @Test
    void ragQuery_answersWithCitationsInTheServersScope() {
        CallToolResult result = call("rag_query", Map.of("question", "How often do API keys rotate?"));

        JsonNode answer = structured(result);
        assertThat(answer.path("answer").asText()).contains("ninety days");
        assertThat(answer.path("citations")).isNotEmpty();
        JsonNode citation = answer.path("citations").get(0);
        assertThat(citation.path("path").asText()).isEqualTo("docs/keys.md");
        assertThat(citation.path("startLine").asInt()).isPositive();
        assertThat(citation.has("snippet")).isTrue();
        assertThat(answer.path("action").asText()).isIn("CITE", "ROUTE");
        assertThat(answer.path("confidence").path("overall").isInt()).isTrue();
        assertThat(text(result)).contains("docs/keys.md");
        assertThat(answer.toString()).as("the hr document is outside the server's tags").doesNotContain("payroll");
    }

    @Test
    void ragSearchAndRagDocuments_stayInsideTheScope() {
        JsonNode search = structured(call("rag_search", Map.of("query", "key rotation", "k", 5)));
        assertThat(search.path("chunks")).isNotEmpty();
        assertThat(search.path("chunks").get(0).path("sourceId").asText()).matches("[a-f0-9-]{36}:\\d+");
        assertThat(search.toString()).contains("docs/keys.md").doesNotContain("docs/payroll.md");

        JsonNode documents = structured(call("rag_documents", Map.of()));
        assertThat(documents.path("count").asInt()).isEqualTo(1);
        assertThat(documents.path("documents").get(0).path("path").asText()).isEqualTo("docs/keys.md");
    }

    @Test
    void badCalls_getToolErrorsAndTheServerGoesOn() {
        assertThat(call("rag_query", Map.of()).isError()).isTrue();
        assertThat(text(call("rag_query", Map.of("question", "   ")))).contains("blank");
        CallToolResult wrongType = call("rag_query", Map.of("question", 42));
        assertThat(wrongType.isError()).isTrue();
        CallToolResult huge = call("rag_query", Map.of("question", "x".repeat(1_000_000)));
        assertThat(huge.isError()).isTrue();
        assertThat(text(huge)).contains("2000");
        CallToolResult widen = call("rag_query", Map.of("question", "When are salaries paid?", "tags", List.of("hr")));
        assertThat(widen.isError()).isTrue();
        assertThat(text(widen)).contains("'hr' is not allowed");
        assertThat(call("rag_search", Map.of("query", "keys", "k", 500)).isError()).isTrue();
        assertThatThrownBy(() -> call("rag_delete_everything", Map.of())).isInstanceOf(RuntimeException.class);

        assertThat(structured(call("rag_documents", Map.of())).path("count").asInt()).isEqualTo(1);
    }

    @Test
    void everyToolCallIsAudited() throws IOException {
        call("rag_query", Map.of("question", "How often do API keys rotate?"));
        call("rag_search", Map.of("query", "rotate"));
        call("rag_documents", Map.of());

        String audit = Files.readString(indexFile.resolveSibling("audit.jsonl"));
        assertThat(audit).contains("\"operation\":\"ASK\"").contains("\"operation\":\"RETRIEVE\"")
                .contains("\"operation\":\"LIST\"");
    }

    @Test
    void streamableHttp_onALocalPort_servesTheSameTools() throws Exception {
        List<String> args = new java.util.ArrayList<>(List.of(java()));
        args.addAll(command("--tags", "eng", "--http", "127.0.0.1:0"));
        Process server = new ProcessBuilder(args).redirectErrorStream(false).start();
        try {
            BufferedReader stderr = new BufferedReader(new InputStreamReader(server.getErrorStream(),
                    StandardCharsets.UTF_8));
            CompletableFuture<String> url = CompletableFuture.supplyAsync(() -> {
                Pattern serving = Pattern.compile("serving (http://127\\.0\\.0\\.1:\\d+)/mcp");
                try {
                    for (String line; (line = stderr.readLine()) != null; ) {
                        Matcher m = serving.matcher(line);
                        if (m.find()) {
                            return m.group(1);
                        }
                    }
                } catch (IOException e) {
                    throw new IllegalStateException(e);
                }
                throw new IllegalStateException("the server ended without serving");
            });
            String base = url.get(120, TimeUnit.SECONDS);
            McpSyncClient http = McpClient.sync(HttpClientStreamableHttpTransport.builder(base).endpoint("/mcp")
                    .jsonMapper(MAPPER).build()).requestTimeout(Duration.ofSeconds(120)).build();
            try {
                initialize(http);
                assertThat(http.listTools().tools()).hasSize(3);
                CallToolResult result = http.callTool(new McpSchema.CallToolRequest("rag_query",
                        Map.of("question", "How often do API keys rotate?")));
                assertThat(JSON.valueToTree(result.structuredContent()).path("answer").asText())
                        .contains("ninety days");
            } finally {
                http.closeGracefully();
            }
        } finally {
            server.destroy();
            server.waitFor(10, TimeUnit.SECONDS);
        }
    }

    /**
     * Initializes an MCP SDK client, once more when the SDK's client (mcp-core 2.1.0) fails its own initialize with a
     * NullPointerException (it reads the initialization's result before storing it, now and then; the session is up
     * by then). As rag-mcp's McpFixture.initialize.
     */
    private static void initialize(McpSyncClient mcp) {
        try {
            mcp.initialize();
        } catch (NullPointerException e) {
            mcp.initialize();
        }
    }
}
