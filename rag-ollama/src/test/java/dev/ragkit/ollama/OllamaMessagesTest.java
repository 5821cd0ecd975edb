package dev.ragkit.ollama;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ragkit.generation.ChatMessage;
import dev.ragkit.generation.ChatRequest;
import dev.ragkit.http.ModelHttp;
import dev.ragkit.http.ModelProtocolException;
import dev.ragkit.http.testing.CutStreams;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 28: what the Ollama backend says when the server's answer breaks off or is larger than RagKit reads — what
 * happened and how to fix it, without a library's internals.
 */
final class OllamaMessagesTest {
    /** Lines in the shape of Ollama's streamed {@code /api/chat} (its API documentation). */
    private static final List<String> LINES = List.of(
            "{\"model\":\"llama3.2\",\"created_at\":\"2024-08-04T08:52:19.385406455-07:00\",\"message\":"
                    + "{\"role\":\"assistant\",\"content\":\"The\"},\"done\":false}",
            "{\"model\":\"llama3.2\",\"created_at\":\"2024-08-04T08:52:19.435406455-07:00\",\"message\":"
                    + "{\"role\":\"assistant\",\"content\":\" sky\"},\"done\":false}",
            "{\"model\":\"llama3.2\",\"created_at\":\"2024-08-04T08:52:19.485406455-07:00\",\"message\":"
                    + "{\"role\":\"assistant\",\"content\":\" is\"},\"done\":false}",
            "{\"model\":\"llama3.2\",\"created_at\":\"2024-08-04T08:52:19.535406455-07:00\",\"message\":"
                    + "{\"role\":\"assistant\",\"content\":\"\"},\"done\":true,\"done_reason\":\"stop\","
                    + "\"total_duration\":4883583458,\"prompt_eval_count\":26,\"eval_count\":3}");

    private MockWebServer server;
    private OllamaBackend backend;

    @BeforeEach
    void start() throws IOException {
        server = new MockWebServer();
        server.start();
        backend = OllamaBackend.builder().baseUrl(server.url("/").toString()).retryBackoff(Duration.ofMillis(10))
                .build();
    }

    @AfterEach
    void stop() {
        backend.close();
        server.close();
    }

    private static ChatRequest request() {
        return ChatRequest.of("llama3.2", List.of(ChatMessage.user("Why is the sky blue?")));
    }

    /** The stream, broken off the way {@code how} says: always in the middle of the third line. */
    private static MockResponse cut(String how) {
        return CutStreams.cut(how, "application/x-ndjson", String.join("\n", LINES) + "\n",
                LINES.get(0) + "\n" + LINES.get(1) + "\n" + LINES.get(2).substring(0, 50));
    }

    @ParameterizedTest
    @ValueSource(strings = {"content-length", "chunked", "until-close"})
    void aStreamCutMidLine_saysOllamaClosedItWithTheTokensReceivedAndNoInternals(String how) throws Exception {
        server.enqueue(cut(how));

        OllamaBackendStreamTest.Recorder recorder = new OllamaBackendStreamTest.Recorder();
        backend.stream(request(), recorder);

        Throwable error = recorder.failed();
        List<String> tokens = recorder.events().stream().filter(e -> e.startsWith("token:"))
                .map(e -> e.substring(6)).toList();
        assertThat(error).isInstanceOfSatisfying(ModelProtocolException.class, e -> {
            assertThat(e.getMessage()).contains("Ollama at " + server.url("/") + " closed the stream before it "
                    + "finished (" + tokens.size() + " token").doesNotContainIgnoringCase("okio")
                    .doesNotContain("Exception").doesNotContain("unexpected end of stream")
                    .doesNotContain("limit=").doesNotContain("not JSON");
            assertThat(e.partialText()).isEqualTo(String.join("", tokens));
        });
    }

    @Test
    void aStreamThatEndsWithoutItsLastLine_isTheSameCutStream() throws Exception {
        server.enqueue(new MockResponse.Builder().code(200).setHeader("Content-Type", "application/x-ndjson")
                .body(LINES.get(0) + "\n" + LINES.get(1) + "\n").build());

        OllamaBackendStreamTest.Recorder recorder = new OllamaBackendStreamTest.Recorder();
        backend.stream(request(), recorder);

        assertThat(recorder.failed()).isInstanceOf(ModelProtocolException.class)
                .hasMessageContaining("closed the stream before it finished (2 tokens received)");
    }

    @Test
    void aReplyOverTheJsonReadersLimit_saysItIsTooLargeNotThatItIsNotJson() {
        String huge = "a".repeat(24_000_000);
        assertThat(huge.length()).as("the body is over the limit").isGreaterThan(ModelHttp.maxTextChars());
        server.enqueue(new MockResponse.Builder().code(200).setHeader("Content-Type", "application/json")
                .body("{\"model\":\"llama3.2\",\"created_at\":\"2024-08-04T19:22:45.499127Z\",\"message\":{\"role\":"
                        + "\"assistant\",\"content\":\"" + huge + "\"},\"done\":true,\"done_reason\":\"stop\"}")
                .build());

        assertThatThrownBy(() -> backend.chat(request())).isInstanceOf(ModelProtocolException.class)
                .hasMessageContaining("/api/chat").hasMessageContaining("more than "
                        + String.format(Locale.ROOT, "%,d", ModelHttp.maxTextChars()) + " characters")
                .hasMessageContaining("limit").hasMessageNotContaining("not JSON")
                .hasMessageNotContaining("StreamReadConstraints");
    }
}
