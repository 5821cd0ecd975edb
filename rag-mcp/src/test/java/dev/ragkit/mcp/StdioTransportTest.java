package dev.ragkit.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The stdio server in this JVM, over pipes: one line in, one answer out. */
final class StdioTransportTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path root;
    private McpFixture fixture;
    private RagMcpServer server;
    private OutputStream toServer;
    private BufferedReader fromServer;

    @BeforeEach
    void start() throws IOException {
        fixture = new McpFixture(root);
        PipedInputStream serverIn = new PipedInputStream(1 << 20);
        toServer = new PipedOutputStream(serverIn);
        PipedInputStream clientIn = new PipedInputStream(1 << 20);
        PipedOutputStream serverOut = new PipedOutputStream(clientIn);
        fromServer = new BufferedReader(new InputStreamReader(clientIn, StandardCharsets.UTF_8));
        server = RagMcpServer.stdio(fixture.tools(), serverIn, serverOut);
    }

    @AfterEach
    void stop() {
        server.close();
        fixture.close();
    }

    private void send(String line) throws IOException {
        toServer.write((line + "\n").getBytes(StandardCharsets.UTF_8));
        toServer.flush();
    }

    private JsonNode answer() throws IOException {
        String line = fromServer.readLine();
        assertThat(line).as("an answer").isNotNull();
        return JSON.readTree(line);
    }

    private void initialize() throws IOException {
        send(RawHttp.INITIALIZE);
        assertThat(answer().path("result").path("serverInfo").path("name").asText()).isEqualTo("ragkit");
        send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
    }

    @Test
    void malformedLines_getJsonRpcErrors_andTheNextRequestIsAnswered() throws IOException {
        initialize();

        send("{not json");
        JsonNode notJson = answer();
        send("[]");
        JsonNode batch = answer();
        send("null");
        JsonNode nothing = answer();
        send("42");
        JsonNode number = answer();
        send("{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\",\"params\":\"x\"}");
        JsonNode stringParams = answer();
        send("{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"tools/list\"}");
        JsonNode tools = answer();

        assertThat(notJson.path("error").path("code").asInt()).isEqualTo(-32700);
        assertThat(notJson.path("id").isNull()).isTrue();
        assertThat(batch.path("error").path("code").asInt()).isEqualTo(-32600);
        assertThat(nothing.path("error").path("code").asInt()).isEqualTo(-32600);
        assertThat(number.path("error").path("code").asInt()).isEqualTo(-32600);
        assertThat(stringParams.path("error").path("code").asInt()).isEqualTo(-32600);
        assertThat(stringParams.path("id").asInt()).isEqualTo(7);
        assertThat(tools.path("id").asInt()).isEqualTo(8);
        assertThat(tools.path("result").path("tools")).hasSize(3);
    }

    @Test
    void inputEnd_answersWhatWasAsked_thenAwaitCloseReturns() throws Exception {
        initialize();
        CompletableFuture<Void> closed = CompletableFuture.runAsync(() -> {
            try {
                server.awaitClose();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });

        send("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"rag_search\","
                + "\"arguments\":{\"query\":\"How often do API keys rotate?\"}}}");
        toServer.close();

        JsonNode answer = answer();
        assertThat(answer.path("id").asInt()).isEqualTo(2);
        assertThat(answer.path("result").path("content").get(0).path("text").asText()).contains("ninety days");
        closed.get(30, TimeUnit.SECONDS);
    }
}
