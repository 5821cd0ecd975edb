package dev.ragkit.openai;

import static dev.ragkit.openai.OpenAiBackendTest.fixture;
import static dev.ragkit.openai.OpenAiBackendTest.request;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ragkit.generation.ChatResult;
import dev.ragkit.generation.FinishReason;
import dev.ragkit.generation.StreamHandler;
import dev.ragkit.http.ModelProtocolException;
import dev.ragkit.http.ModelServerException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import mockwebserver3.MockResponse;
import mockwebserver3.MockResponseBody;
import mockwebserver3.MockWebServer;
import mockwebserver3.SocketEffect;
import okio.BufferedSink;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@link OpenAiBackend#stream}: server-sent events from a MockWebServer, whole, cut, and with errors inside. */
final class OpenAiStreamTest {
    private static final ObjectMapper JSON = new ObjectMapper();

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

    /** Every callback in order. */
    static final class Recorder implements StreamHandler {
        final List<String> events = Collections.synchronizedList(new ArrayList<>());
        final CountDownLatch done = new CountDownLatch(1);
        volatile @Nullable ChatResult result;
        volatile @Nullable Throwable error;

        @Override
        public void onToken(String token) {
            events.add("token:" + token);
        }

        @Override
        public void onComplete(ChatResult r) {
            result = r;
            events.add("complete");
            done.countDown();
        }

        @Override
        public void onError(Throwable e) {
            error = e;
            events.add("error");
            done.countDown();
        }

        Recorder await() throws InterruptedException {
            assertThat(done.await(10, TimeUnit.SECONDS)).as("the stream ended").isTrue();
            return this;
        }
    }

    private static MockResponse sse(String body) {
        return new MockResponse.Builder().code(200).setHeader("Content-Type", "text/event-stream").body(body).build();
    }

    /** The fixture's first {@code events} events, then half of the next line, then the socket closes. */
    private static MockResponse cut(int events) {
        List<String> lines = fixture("chat-stream.sse").lines().filter(l -> !l.isBlank()).toList();
        StringBuilder sent = new StringBuilder();
        for (int i = 0; i < events; i++) {
            sent.append(lines.get(i)).append("\n\n");
        }
        String next = lines.get(events);
        sent.append(next, 0, next.length() / 2);
        byte[] bytes = sent.toString().getBytes(StandardCharsets.UTF_8);
        MockResponseBody body = new MockResponseBody() {
            @Override
            public long getContentLength() {
                return -1;
            }

            @Override
            public void writeTo(BufferedSink sink) throws IOException {
                sink.writeUtf8(Integer.toHexString(bytes.length)).writeUtf8("\r\n").write(bytes).writeUtf8("\r\n");
                sink.flush();          // no last chunk: the body breaks off
            }
        };
        return new MockResponse.Builder().code(200).setHeader("Content-Type", "text/event-stream").body(body)
                .removeHeader("Content-Length").setHeader("Transfer-Encoding", "chunked")
                .onResponseEnd(new SocketEffect.CloseSocket()).build();
    }

    @Test
    void tokensArriveInOrderThenTheResultWithUsage() throws Exception {
        server.enqueue(sse(fixture("chat-stream.sse")));

        Recorder recorder = new Recorder();
        backend.stream(request("gpt-4o-mini"), recorder);

        recorder.await();
        assertThat(recorder.events).containsExactly("token:Hello", "token:!", "complete");
        assertThat(recorder.result.text()).isEqualTo("Hello!");
        assertThat(recorder.result.finishReason()).isEqualTo(FinishReason.STOP);
        assertThat(recorder.result.promptTokens()).isEqualTo(19);
        assertThat(recorder.result.completionTokens()).isEqualTo(2);
        assertThat(recorder.result.model()).isEqualTo("gpt-4o-mini-2024-07-18");
        JsonNode body = JSON.readTree(server.takeRequest().getBody().utf8());
        assertThat(body.path("stream").asBoolean()).isTrue();
        assertThat(body.path("stream_options").path("include_usage").asBoolean()).isTrue();
    }

    @Test
    void aStreamCutMidLine_keepsThePartialTextFlaggedAndIsNotRetried() throws Exception {
        server.enqueue(cut(3));             // role, "Hello", "!", then half of the finish chunk

        Recorder recorder = new Recorder();
        backend.stream(request("gpt-4o-mini"), recorder);

        recorder.await();
        assertThat(recorder.events).containsExactly("token:Hello", "token:!", "error");
        assertThat(recorder.error).isInstanceOfSatisfying(ModelProtocolException.class, e -> {
            assertThat(e.partialText()).isEqualTo("Hello!");
            assertThat(e.getMessage()).contains("incomplete");
        });
        Thread.sleep(100);
        assertThat(server.getRequestCount()).as("tokens were delivered: no retry").isEqualTo(1);
    }

    @Test
    void anErrorEventInsideTheStream_isAServerErrorWithThePartialText() throws Exception {
        List<String> lines = fixture("chat-stream.sse").lines().filter(l -> !l.isBlank()).toList();
        server.enqueue(sse(lines.get(0) + "\n\n" + lines.get(1) + "\n\n"
                + "data: {\"error\":{\"message\":\"The server had an error while processing your request.\","
                + "\"type\":\"server_error\",\"param\":null,\"code\":null}}\n\n"));

        Recorder recorder = new Recorder();
        backend.stream(request("gpt-4o-mini"), recorder);

        recorder.await();
        assertThat(recorder.events).containsExactly("token:Hello", "error");
        assertThat(recorder.error).isInstanceOfSatisfying(ModelServerException.class, e -> {
            assertThat(e.partialText()).isEqualTo("Hello");
            assertThat(e.status()).isEqualTo(200);
        }).hasMessageContaining("in the middle of the answer");
    }

    @Test
    void aFinishedStreamWithoutDone_completesButOneWithoutFinish_isAnError() throws Exception {
        String whole = fixture("chat-stream.sse");
        server.enqueue(sse(whole.replace("data: [DONE]", ": keep-alive comment")));
        Recorder finished = new Recorder();
        backend.stream(request("gpt-4o-mini"), finished);
        finished.await();
        assertThat(finished.events).endsWith("complete");

        List<String> lines = whole.lines().filter(l -> !l.isBlank()).toList();
        server.enqueue(sse(lines.get(0) + "\n\n" + lines.get(1) + "\n\n"));
        Recorder unfinished = new Recorder();
        backend.stream(request("gpt-4o-mini"), unfinished);
        unfinished.await();
        assertThat(unfinished.events).containsExactly("token:Hello", "error");
        assertThat(unfinished.error).isInstanceOfSatisfying(ModelProtocolException.class,
                e -> assertThat(e.partialText()).isEqualTo("Hello"))
                .hasMessageContaining("closed the stream before it finished (1 token received)");
    }

    @Test
    void garbageEvent_isAProtocolError() throws Exception {
        server.enqueue(sse("data: {not json\n\n"));

        Recorder recorder = new Recorder();
        backend.stream(request("gpt-4o-mini"), recorder);

        recorder.await();
        assertThat(recorder.error).isInstanceOf(ModelProtocolException.class).hasMessageContaining("not JSON");
    }

    @Test
    void usageCanBeLeftOutForServersThatRejectTheOption() throws Exception {
        OpenAiBackend plain = OpenAiBackend.builder().baseUrl(server.url("/v1").toString()).includeUsage(false)
                .build();
        server.enqueue(sse(fixture("chat-stream.sse")));

        Recorder recorder = new Recorder();
        plain.stream(request("gpt-4o-mini"), recorder);

        recorder.await();
        assertThat(JSON.readTree(server.takeRequest().getBody().utf8()).has("stream_options")).isFalse();
        plain.close();
    }
}
