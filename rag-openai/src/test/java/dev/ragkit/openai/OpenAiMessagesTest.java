package dev.ragkit.openai;

import static dev.ragkit.openai.OpenAiBackendTest.fixture;
import static dev.ragkit.openai.OpenAiBackendTest.json;
import static dev.ragkit.openai.OpenAiBackendTest.request;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ragkit.error.ModelNotFoundException;
import dev.ragkit.generation.HealthStatus;
import dev.ragkit.http.ModelHttp;
import dev.ragkit.http.ModelProtocolException;
import dev.ragkit.http.ModelServerException;
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
 * Issue 28: what the OpenAI-compatible backend says when a server answers something unexpected — each message says
 * once what happened and how to fix it, without a library's internals.
 */
final class OpenAiMessagesTest {
    private static final String NOT_FOUND = "{\"error\":{\"message\":\"The model `x` does not exist\","
            + "\"type\":\"invalid_request_error\",\"code\":\"model_not_found\"}}";

    private MockWebServer server;
    private OpenAiBackend backend;

    @BeforeEach
    void start() throws IOException {
        server = new MockWebServer();
        server.start();
        backend = OpenAiBackend.builder().baseUrl(server.url("/v1").toString()).apiKey(OpenAiBackendTest.KEY)
                .retryBackoff(Duration.ofMillis(10)).build();
    }

    @AfterEach
    void stop() {
        backend.close();
        server.close();
    }

    private static int count(String text, String part) {
        int n = 0;
        for (int at = text.indexOf(part); at >= 0; at = text.indexOf(part, at + 1)) {
            n++;
        }
        return n;
    }

    @Test
    void unknownModel404_saysOnceWhatWasNotFoundWhereAndWhatToUse() {
        server.enqueue(json(404, NOT_FOUND));
        server.enqueue(json(200, fixture("models.json")));

        assertThatThrownBy(() -> backend.chat(request("x"))).isInstanceOfSatisfying(ModelNotFoundException.class,
                e -> {
                    String message = e.getMessage();
                    assertThat(message).contains("model 'x' not found").contains(server.url("/v1/chat/completions")
                            .toString()).contains("HTTP 404").contains("gpt-4o-mini, gpt-4o");
                    assertThat(count(message, "does not exist")).as(message).isEqualTo(1);
                    assertThat(count(message, "'x'")).as(message).isEqualTo(1);
                    assertThat(count(message, server.url("/v1").toString())).as(message).isEqualTo(1);
                });
    }

    @Test
    void model404ForAListedModel_doesNotSayTheModelIsMissing() {
        server.enqueue(json(404, NOT_FOUND.replace("`x`", "`gpt-4o`")));
        server.enqueue(json(200, fixture("models.json")));

        assertThatThrownBy(() -> backend.chat(request("gpt-4o"))).isInstanceOf(ModelNotFoundException.class)
                .hasMessageContaining("lists model 'gpt-4o'").hasMessageContaining("HTTP 404")
                .hasMessageContaining("API key").hasMessageNotContaining("it has:")
                .hasMessageNotContaining("is not on");
    }

    @Test
    void endpoint404_saysTheEndpointWasNotFoundAndHowToFixTheBaseUrl() {
        server.enqueue(new MockResponse.Builder().code(404).body("404 page not found").build());

        assertThatThrownBy(() -> backend.chat(request("gpt-4o-mini")))
                .isInstanceOfSatisfying(ModelServerException.class, e -> assertThat(e.status()).isEqualTo(404))
                .hasMessageContaining("no API endpoint at " + server.url("/v1/chat/completions"))
                .hasMessageContaining("HTTP 404").hasMessageContaining("/v1");
    }

    @Test
    void health401_saysTheServerRefusedTheKeyNotThatThereIsNoServer() {
        server.enqueue(json(401, fixture("error-invalid-api-key.json")));

        HealthStatus health = backend.health("gpt-4o-mini");

        assertThat(health.healthy()).isFalse();
        assertThat(health.detail()).contains("answered HTTP 401").contains("authentication failed")
                .contains("OPENAI_API_KEY").doesNotContain(OpenAiBackendTest.KEY);
    }

    @Test
    void aCompletionOverTheJsonReadersLimit_saysItIsTooLargeNotThatItIsNotJson() {
        String huge = "a".repeat(24_000_000);
        String limit = String.format(Locale.ROOT, "%,d", ModelHttp.maxTextChars());
        assertThat(huge.length()).as("the body is over the limit").isGreaterThan(ModelHttp.maxTextChars());
        server.enqueue(json(200, "{\"id\":\"chatcmpl-1\",\"object\":\"chat.completion\",\"model\":\"gpt-4o-mini\","
                + "\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\",\"content\":\"" + huge + "\"},"
                + "\"finish_reason\":\"stop\"}]}"));

        assertThatThrownBy(() -> backend.chat(request("gpt-4o-mini"))).isInstanceOf(ModelProtocolException.class)
                .hasMessageContaining("more than " + limit + " characters")
                .hasMessageContaining("limit").hasMessageNotContaining("not JSON")
                .hasMessageNotContaining("StreamReadConstraints");
    }

    /** The fixture's first three events, then half of the next line: sent in a way {@code how} breaks. */
    private static MockResponse cut(String how) {
        List<String> lines = fixture("chat-stream.sse").lines().filter(l -> !l.isBlank()).toList();
        return CutStreams.cut(how, "text/event-stream", String.join("\n\n", lines) + "\n\n",
                String.join("\n\n", lines.subList(0, 3)) + "\n\n" + lines.get(3).substring(0, 40));
    }

    @ParameterizedTest
    @ValueSource(strings = {"content-length", "chunked", "until-close"})
    void aStreamCutMidChunk_saysTheServerClosedItWithTheTokensReceivedAndNoInternals(String how) throws Exception {
        server.enqueue(cut(how));

        OpenAiStreamTest.Recorder recorder = new OpenAiStreamTest.Recorder();
        backend.stream(request("gpt-4o-mini"), recorder);

        recorder.await();
        assertThat(recorder.error).isInstanceOfSatisfying(ModelProtocolException.class, e -> {
            long tokens = recorder.events.stream().filter(t -> t.startsWith("token:")).count();
            assertThat(e.getMessage()).contains("closed the stream before it finished (" + tokens + " token")
                    .contains(server.url("/v1").toString()).doesNotContainIgnoringCase("okio")
                    .doesNotContain("Exception").doesNotContain("unexpected end of stream")
                    .doesNotContain("limit=").doesNotContain("not JSON");
            assertThat(e.partialText()).isEqualTo(String.join("", recorder.events.stream()
                    .filter(t -> t.startsWith("token:")).map(t -> t.substring(6)).toList()));
        });
    }
}
