package dev.ragkit.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code ragkit serve}: the real command in a child JVM serving the index, and its usage errors. */
final class ServeCliTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path dir;

    @BeforeAll
    static void index() throws IOException {
        Path docs = Files.createDirectories(dir.resolve("docs"));
        Files.writeString(docs.resolve("keys.md"), "---\ntitle: API keys\ntags: [eng]\n---\n# API keys\n\n"
                + "API keys rotate every ninety days. Run the rotate command to replace a key early.\n",
                StandardCharsets.UTF_8);
        CliRun index = CliRun.of(new HashMap<>(), dir, "index", "docs");
        assertThat(index.code()).as(index.err()).isZero();
    }

    @Test
    void serve_printsItsUrl_andAnswersOverHttp() throws Exception {
        List<String> args = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "-cp", System.getProperty("java.class.path"), "dev.ragkit.cli.RagkitCli", "serve",
                "--index", dir.resolve(".ragkit/index").toString(), "--backend", "extractive", "--tags", "eng",
                "--http", "127.0.0.1:0"));
        Process server = new ProcessBuilder(args).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        try {
            BufferedReader stdout = new BufferedReader(new InputStreamReader(server.getInputStream(),
                    StandardCharsets.UTF_8));
            CompletableFuture<String> url = CompletableFuture.supplyAsync(() -> {
                Pattern listening = Pattern.compile("listening on (http://127\\.0\\.0\\.1:\\d+/)");
                try {
                    for (String line; (line = stdout.readLine()) != null; ) {
                        Matcher m = listening.matcher(line);
                        if (m.find()) {
                            return m.group(1);
                        }
                    }
                } catch (IOException e) {
                    throw new IllegalStateException(e);
                }
                throw new IllegalStateException("the server ended without listening");
            });
            String base = url.get(120, TimeUnit.SECONDS);
            HttpClient http = HttpClient.newHttpClient();
            HttpResponse<String> answer = http.send(HttpRequest.newBuilder(URI.create(base + "v1/ask"))
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString("{\"question\": \"How often do API keys rotate?\"}"))
                    .build(), HttpResponse.BodyHandlers.ofString());
            assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
            JsonNode body = JSON.readTree(answer.body());
            assertThat(body.get("answer").asText()).contains("ninety days");
            assertThat(body.at("/citations/0/path").asText()).endsWith("keys.md");
            HttpResponse<String> page = http.send(HttpRequest.newBuilder(URI.create(base)).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(page.body()).contains("<form id=\"ask-form\"");
        } finally {
            server.destroy();
            server.waitFor(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void serve_beyondLoopbackWithoutTokens_isAUsageError() {
        CliRun run = CliRun.of(new HashMap<>(), dir, "serve", "--backend", "extractive", "--http", "0.0.0.0:0");
        assertThat(run.code()).isEqualTo(RagkitCli.USAGE);
        assertThat(run.err()).contains("loopback only").contains("--tokens-file");
    }

    @Test
    void serve_tenantWithTokensFile_isAUsageError() throws IOException {
        Path tokens = Files.writeString(dir.resolve("tokens"), "acme-token-0123456789abcdef acme eng\n",
                StandardCharsets.UTF_8);
        CliRun run = CliRun.of(new HashMap<>(), dir, "serve", "--tokens-file", tokens.toString(), "--tenant", "x");
        assertThat(run.code()).isEqualTo(RagkitCli.USAGE);
        assertThat(run.err()).contains("clash with --tokens-file").doesNotContain("acme-token");
    }
}
