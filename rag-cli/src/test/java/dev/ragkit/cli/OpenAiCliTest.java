package dev.ragkit.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import mockwebserver3.Dispatcher;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ragkit ask --backend openai} and {@code ragkit health --backend openai} against a MockWebServer speaking
 * the OpenAI protocol: the answer cites a real source, the key goes in the header and nowhere else.
 */
final class OpenAiCliTest {
    private static final String KEY = "sk-cli-test-secret-42";
    private static final Pattern SOURCE_ID = Pattern.compile("\\[SourceId: ([a-f0-9-]{36}:\\d+)]");
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path cwd;
    private final Map<String, String> env = new HashMap<>();
    private final List<String> authorizations = new CopyOnWriteArrayList<>();
    private MockWebServer server;

    @BeforeEach
    void start() throws IOException {
        server = new MockWebServer();
        server.setDispatcher(new Dispatcher() {
            @Override
            public MockResponse dispatch(RecordedRequest request) {
                String authorization = String.valueOf(request.getHeaders().get("Authorization"));
                authorizations.add(authorization);
                if (!authorization.equals("Bearer " + KEY)) {
                    return new MockResponse.Builder().code(401).setHeader("Content-Type", "application/json")
                            .body("{\"error\":{\"message\":\"Incorrect API key provided: sk-wrong*1234.\","
                                    + "\"type\":\"invalid_request_error\",\"param\":null,"
                                    + "\"code\":\"invalid_api_key\"}}").build();
                }
                String path = request.getUrl().encodedPath();
                if (path.equals("/v1/models")) {
                    return json("{\"object\":\"list\",\"data\":[{\"id\":\"gpt-4o-mini\",\"object\":\"model\","
                            + "\"created\":1721172741,\"owned_by\":\"system\"}]}");
                }
                if (path.equals("/v1/chat/completions")) {
                    return json(answer(request.getBody().utf8()));
                }
                return new MockResponse.Builder().code(404).body("{\"error\":{\"message\":\"no route\"}}").build();
            }
        });
        server.start();
        env.put("OPENAI_BASE_URL", server.url("/v1").toString());
        env.put("OPENAI_API_KEY", KEY);
        env.put("OLLAMA_BASE_URL", "http://127.0.0.1:9");
        Path docs = Files.createDirectories(cwd.resolve("docs"));
        Files.writeString(docs.resolve("keys.md"), "# API keys\n\nAPI keys rotate every ninety days. CliRun the rotate "
                + "command to replace a key early.\n", StandardCharsets.UTF_8);
    }

    @AfterEach
    void stop() {
        server.close();
    }

    /** A completion that cites the first source in the prompt (or rates itself when asked to). */
    private static String answer(String requestBody) {
        try {
            JsonNode body = JSON.readTree(requestBody);
            String prompt = body.path("messages").toString();
            Matcher id = SOURCE_ID.matcher(prompt);
            String content = prompt.contains("0 to 10") || prompt.toLowerCase().contains("rate")
                    && !id.find() ? "8" : "API keys rotate every ninety days [SourceId: "
                    + (id.find(0) ? id.group(1) : "none") + "].";
            return "{\"id\":\"chatcmpl-1\",\"object\":\"chat.completion\",\"created\":1741569952,\"model\":\"gpt-4o-mini\","
                    + "\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\",\"content\":"
                    + JSON.writeValueAsString(content) + "},\"finish_reason\":\"stop\"}],"
                    + "\"usage\":{\"prompt_tokens\":120,\"completion_tokens\":12,\"total_tokens\":132}}";
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static MockResponse json(String body) {
        return new MockResponse.Builder().code(200).setHeader("Content-Type", "application/json").body(body).build();
    }


    private CliRun run(String... args) {
        return CliRun.of(env, cwd, args);
    }

    @Test
    void ask_withTheOpenAiBackend_answersWithACitationAndKeepsTheKeySecret() throws IOException {
        assertThat(run("index", "docs").code()).isZero();

        CliRun ask = run("ask", "How often do API keys rotate?", "--backend", "openai");

        assertThat(ask.code()).as(ask.out() + ask.err()).isIn(RagkitCli.OK, RagkitCli.ROUTED);
        assertThat(ask.out()).contains("ninety days").contains("docs/keys.md:").contains("Model: gpt-4o-mini")
                .doesNotContain("Extractive answer");
        assertThat(authorizations).isNotEmpty().allMatch(h -> h.equals("Bearer " + KEY));
        String audit = Files.readString(cwd.resolve(".ragkit/audit.jsonl"));
        assertThat(ask.out() + ask.err() + audit).doesNotContain(KEY);
    }

    @Test
    void health_withTheOpenAiBackend_checksTheModelList() {
        CliRun ok = run("health", "--backend", "openai", "--model", "gpt-4o-mini");
        assertThat(ok.out()).contains("backend: OpenAI-compatible server at " + server.url("/v1"))
                .contains("gpt-4o-mini: available");

        CliRun missing = run("health", "--backend", "openai", "--model", "gpt-9");
        assertThat(missing.out()).contains("gpt-9: missing").contains("it has: gpt-4o-mini");
        assertThat(missing.code()).isEqualTo(RagkitCli.ERROR);
        assertThat(ok.out() + ok.err() + missing.out() + missing.err()).doesNotContain(KEY);
    }

    @Test
    void health_withAWrongKey_saysTheServerAnswered401AndHowToSetTheKey() {
        env.put("OPENAI_API_KEY", "sk-wrong-key-1234");

        CliRun health = run("health", "--backend", "openai", "--model", "gpt-4o-mini");

        assertThat(health.code()).isEqualTo(RagkitCli.ERROR);
        assertThat(health.out()).contains("answered HTTP 401 (authentication failed")
                .contains(server.url("/v1").toString()).contains("OPENAI_API_KEY")
                .doesNotContain("no model server").doesNotContain("unknown (no server)")
                .doesNotContain("sk-wrong-key-1234");
    }

    @Test
    void ask_withTheOpenAiBackendAndTheServerDown_failsInOneLineNamingTheAddress() throws IOException {
        assertThat(run("index", "docs").code()).isZero();
        env.put("OPENAI_BASE_URL", "http://127.0.0.1:9/v1");

        CliRun ask = run("ask", "How often do API keys rotate?", "--backend", "openai");

        assertThat(ask.code()).isEqualTo(RagkitCli.ERROR);
        assertThat(ask.err()).contains("127.0.0.1:9").doesNotContain("\tat ");
    }
}
