package dev.ragkit.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ragkit mcp} as the child process a client starts: it ends when its input ends, says when the audit file
 * cannot be written, and on HTTP takes its security options from the command line.
 */
final class McpCommandTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String TOKEN = "f00dfeedcafe0123456789abcdef4242";
    private static final String INITIALIZE = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":"
            + "{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}";
    private static final String SEARCH = "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":"
            + "\"rag_search\",\"arguments\":{\"query\":\"How often do API keys rotate?\"}}}";

    @TempDir
    static Path dir;
    private static final Map<String, String> ENV = new HashMap<>();

    @BeforeAll
    static void index() throws IOException {
        CliRun.write(dir, "docs/keys.md", "---\ntitle: API keys\n---\n# API keys\n\nAPI keys rotate every ninety "
                + "days. Run the rotate command to replace a key early.\n");
        CliRun index = CliRun.of(ENV, dir, "index", "docs");
        assertThat(index.code()).as(index.err()).isZero();
    }

    private static Process start(Path cwd, String... extra) throws IOException {
        List<String> args = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "-cp", System.getProperty("java.class.path"), "dev.ragkit.cli.RagkitCli", "mcp",
                "--index", cwd.resolve(".ragkit/index").toString(), "--backend", "extractive"));
        args.addAll(List.of(extra));
        return new ProcessBuilder(args).directory(cwd.toFile()).start();
    }

    private static CompletableFuture<String> collect(java.io.InputStream in) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return new String(in.readAllBytes(), StandardCharsets.UTF_8);
            } catch (IOException e) {
                return "";
            }
        });
    }

    private static void send(OutputStream to, String line) throws IOException {
        to.write((line + "\n").getBytes(StandardCharsets.UTF_8));
        to.flush();
    }

    /** Runs one stdio session: initialize, a malformed line, a search; closes the input; @return the answers */
    private static List<JsonNode> session(Process child) throws Exception {
        BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
        OutputStream in = child.getOutputStream();
        send(in, INITIALIZE);
        List<JsonNode> answers = new ArrayList<>();
        answers.add(JSON.readTree(CompletableFuture.supplyAsync(() -> readLine(out)).get(120, TimeUnit.SECONDS)));
        send(in, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
        send(in, "{not json");
        send(in, SEARCH);
        in.close();
        for (int i = 0; i < 2; i++) {
            answers.add(JSON.readTree(CompletableFuture.supplyAsync(() -> readLine(out)).get(60, TimeUnit.SECONDS)));
        }
        return answers;
    }

    private static String readLine(BufferedReader reader) {
        try {
            String line = reader.readLine();
            if (line == null) {
                throw new IllegalStateException("the server closed its output");
            }
            return line;
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void stdio_inputClosed_answersWhatWasAskedThenExitsWithin2Seconds() throws Exception {
        Process child = start(dir);
        CompletableFuture<String> err = collect(child.getErrorStream());
        try {
            List<JsonNode> answers = session(child);

            assertThat(answers.get(0).path("result").path("serverInfo").path("name").asText()).isEqualTo("ragkit");
            assertThat(answers.get(1).path("error").path("code").asInt()).isEqualTo(-32700);
            assertThat(answers.get(2).path("id").asInt()).isEqualTo(2);
            assertThat(answers.get(2).path("result").path("content").get(0).path("text").asText())
                    .contains("ninety days");
            assertThat(child.waitFor(2, TimeUnit.SECONDS)).as("exited within 2 s of answering after its input closed")
                    .isTrue();
            assertThat(child.exitValue()).as(err.get(10, TimeUnit.SECONDS)).isZero();
            assertThat(err.get(10, TimeUnit.SECONDS)).contains("the client closed the input");
        } finally {
            child.destroyForcibly();
        }
    }

    @Test
    void stdio_unwritableAuditFile_answersAndSaysSo() throws Exception {
        Path cwd = Files.createDirectories(dir.resolve("audit-broken"));
        CliRun.write(cwd, "docs/keys.md", "# API keys\n\nAPI keys rotate every ninety days.\n");
        assertThat(CliRun.of(ENV, cwd, "index", "docs").code()).isZero();
        Files.createDirectories(cwd.resolve(".ragkit/audit.jsonl"));   // a folder where the file should be
        Process child = start(cwd);
        CompletableFuture<String> err = collect(child.getErrorStream());
        try {
            List<JsonNode> answers = session(child);

            JsonNode result = answers.get(2).path("result");
            assertThat(result.path("isError").asBoolean()).isFalse();
            assertThat(result.path("structuredContent").path("flags").toString()).contains("AUDIT_NOT_WRITTEN");
            assertThat(result.path("content").get(0).path("text").asText()).contains("no audit record");
            assertThat(child.waitFor(30, TimeUnit.SECONDS)).isTrue();
            assertThat(err.get(10, TimeUnit.SECONDS)).contains("warning: a call has no audit record");
        } finally {
            child.destroyForcibly();
        }
    }

    @Test
    void http_nonLoopbackWithoutFlags_isAUsageError() throws IOException {
        CliRun bare = CliRun.of(ENV, dir, "mcp", "--http", "0.0.0.0:0", "--backend", "extractive");
        CliRun noToken = CliRun.of(ENV, dir, "mcp", "--http", "0.0.0.0:0", "--allow-remote", "--backend",
                "extractive");
        Path shortToken = Files.writeString(dir.resolve("short.token"), "abc");
        CliRun weak = CliRun.of(ENV, dir, "mcp", "--http", "0.0.0.0:0", "--allow-remote", "--auth-token-file",
                shortToken.toString(), "--backend", "extractive");

        assertThat(bare.code()).isEqualTo(RagkitCli.USAGE);
        assertThat(bare.err()).contains("--allow-remote").contains("--auth-token-file");
        assertThat(noToken.code()).isEqualTo(RagkitCli.USAGE);
        assertThat(noToken.err()).contains("the token is missing");
        assertThat(weak.code()).isEqualTo(RagkitCli.USAGE);
        assertThat(weak.err()).contains("at least 16").doesNotContain("abc\n");
    }

    @Test
    void http_anInvalidOrUnknownAddress_saysTheAddressIsInvalidAndTheFormExpected() {
        CliRun invalid = CliRun.of(ENV, dir, "mcp", "--http", "256.1.1.1:80", "--backend", "extractive");
        CliRun unknown = CliRun.of(ENV, dir, "mcp", "--http", "no-such-host.invalid:8808", "--backend", "extractive");

        assertThat(invalid.code()).isEqualTo(RagkitCli.USAGE);
        assertThat(invalid.err()).contains("--http 256.1.1.1:80: '256.1.1.1' is not a valid IPv4 address")
                .contains("host:port, e.g. 127.0.0.1:8808").doesNotContain("another port");
        assertThat(unknown.code()).isEqualTo(RagkitCli.USAGE);
        assertThat(unknown.err()).contains("'no-such-host.invalid' is not a valid address")
                .doesNotContain("another port");
    }

    @Test
    void http_aPortInUse_saysSoAndToChooseAnotherPort() throws IOException {
        try (ServerSocket taken = new ServerSocket()) {
            taken.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            int port = taken.getLocalPort();

            CliRun busy = CliRun.of(ENV, dir, "mcp", "--index", dir.resolve(".ragkit/index").toString(), "--http",
                    "127.0.0.1:" + port, "--backend", "extractive");

            assertThat(busy.code()).isEqualTo(RagkitCli.ERROR);
            assertThat(busy.err()).contains("port " + port + " is in use by another program; choose another port")
                    .doesNotContain("\tat ").doesNotContain("Exception");
        }
    }

    @Test
    void http_remoteBindWithTokenFile_refusesForeignOriginsAndRequestsWithoutTheToken() throws Exception {
        Path tokenFile = Files.writeString(dir.resolve("mcp.token"), TOKEN + "\n");
        Process child = start(dir, "--http", "0.0.0.0:0", "--allow-remote", "--auth-token-file",
                tokenFile.toString());
        BufferedReader err = new BufferedReader(new InputStreamReader(child.getErrorStream(), StandardCharsets.UTF_8));
        StringBuilder seen = new StringBuilder();
        try {
            String port = CompletableFuture.supplyAsync(() -> {
                Pattern serving = Pattern.compile("serving http://0\\.0\\.0\\.0:(\\d+)/mcp \\(bearer token required\\)");
                for (String line; (line = readLineOrNull(err)) != null; ) {
                    seen.append(line).append('\n');
                    Matcher m = serving.matcher(line);
                    if (m.find()) {
                        return m.group(1);
                    }
                }
                throw new IllegalStateException("the server ended without serving: " + seen);
            }).get(120, TimeUnit.SECONDS);
            HttpClient http = HttpClient.newHttpClient();
            URI endpoint = URI.create("http://127.0.0.1:" + port + "/mcp");

            HttpResponse<String> noToken = http.send(initialize(endpoint).build(), HttpResponse.BodyHandlers.ofString());
            HttpResponse<String> foreign = http.send(initialize(endpoint).header("Authorization", "Bearer " + TOKEN)
                    .header("Origin", "http://evil.example").build(), HttpResponse.BodyHandlers.ofString());
            HttpResponse<String> good = http.send(initialize(endpoint).header("Authorization", "Bearer " + TOKEN)
                    .build(), HttpResponse.BodyHandlers.ofString());

            assertThat(noToken.statusCode()).isEqualTo(401);
            assertThat(foreign.statusCode()).isEqualTo(403);
            assertThat(good.statusCode()).as(good.body()).isEqualTo(200);
            assertThat(good.headers().firstValue("Mcp-Session-Id")).isPresent();
            assertThat(noToken.body() + foreign.body() + seen).doesNotContain(TOKEN);
        } finally {
            child.destroy();
            child.waitFor(10, TimeUnit.SECONDS);
        }
    }

    private static HttpRequest.Builder initialize(URI endpoint) {
        return HttpRequest.newBuilder(endpoint).header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString(INITIALIZE));
    }

    private static String readLineOrNull(BufferedReader reader) {
        try {
            return reader.readLine();
        } catch (IOException e) {
            return null;
        }
    }
}
