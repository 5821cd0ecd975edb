package dev.ragkit.ollama;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ragkit.error.LlmTimeoutException;
import dev.ragkit.error.LlmUnavailableException;
import dev.ragkit.error.ModelNotFoundException;
import dev.ragkit.generation.Cancellable;
import dev.ragkit.generation.ChatMessage;
import dev.ragkit.generation.ChatRequest;
import dev.ragkit.generation.ChatResult;
import dev.ragkit.generation.FinishReason;
import dev.ragkit.generation.StreamHandler;
import dev.ragkit.http.ModelProtocolException;
import dev.ragkit.http.ModelServerException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import mockwebserver3.Dispatcher;
import mockwebserver3.MockResponse;
import mockwebserver3.MockResponseBody;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import mockwebserver3.SocketEffect;
import okio.BufferedSink;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link OllamaBackend#stream} ({@code POST /api/chat}, NDJSON) against a local MockWebServer that replays Ollama's
 * published stream lines from {@code ../shared/fixtures/ollama} (see its SOURCES.md). Bodies are written chunk by
 * chunk, as Ollama does, and can be held at a gate the test opens, so delivery order is proven by sequence rather
 * than by timing.
 */
final class OllamaBackendStreamTest {
    /** The fixtures, relative to the rag-ollama module directory ({@code shared/} sits beside the repository). */
    private static final Path FIXTURES = Path.of("../../shared/fixtures/ollama");
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration SHORT = Duration.ofMillis(300);
    private static final long WAIT_SECONDS = 5;

    private MockWebServer server;
    private ExecutorService executor;
    private OllamaBackend backend;
    private final List<OllamaBackend> extraBackends = new ArrayList<>();
    /** Gates that server bodies wait at; all opened after each test so the server can shut down. */
    private final List<CountDownLatch> gates = Collections.synchronizedList(new ArrayList<>());

    @BeforeEach
    void startServer() throws IOException {
        server = new MockWebServer();
        server.start();
        executor = Executors.newCachedThreadPool();
        backend = backendBuilder().build();
    }

    @AfterEach
    void stopServer() throws InterruptedException {
        gates.forEach(CountDownLatch::countDown);
        executor.shutdownNow();
        executor.awaitTermination(WAIT_SECONDS, TimeUnit.SECONDS);
        backend.close();
        extraBackends.forEach(OllamaBackend::close);
        server.close();
    }

    private OllamaBackend.Builder backendBuilder() {
        return OllamaBackend.builder().baseUrl(server.url("/").toString()).retryBackoff(Duration.ofMillis(10))
                .executor(executor);
    }

    private OllamaBackend extra(OllamaBackend.Builder builder) {
        OllamaBackend b = builder.build();
        extraBackends.add(b);
        return b;
    }

    private CountDownLatch gate() {
        CountDownLatch gate = new CountDownLatch(1);
        gates.add(gate);
        return gate;
    }

    /** Waits until every stream call the backend ran on {@link #executor} has returned. */
    private void awaitStreamThreadsDone() throws InterruptedException {
        executor.shutdown();
        assertThat(executor.awaitTermination(WAIT_SECONDS, TimeUnit.SECONDS))
                .as("the stream call returned").isTrue();
    }

    // --- fixtures ---

    static String fixture(String name) {
        Path file = FIXTURES.resolve(name);
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException("fixture " + name + " is expected at " + file.toAbsolutePath().normalize()
                    + " (shared/fixtures/ollama beside the repository)", e);
        }
    }

    static List<String> fixtureLines(String name) {
        return fixture(name).lines().filter(l -> !l.isBlank()).toList();
    }

    /**
     * The lines of a published {@code /api/generate} stream in {@code /api/chat} shape: each {@code response} text
     * becomes {@code message.content}; other fields (done, done_reason) are kept; error lines stay as they are.
     */
    static List<String> generateLinesAsChat(String name) {
        List<String> out = new ArrayList<>();
        for (String line : fixtureLines(name)) {
            try {
                ObjectNode n = (ObjectNode) JSON.readTree(line);
                JsonNode response = n.remove("response");
                if (response != null) {
                    n.putObject("message").put("role", "assistant").put("content", response.asText());
                }
                out.add(n.toString());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return out;
    }

    private static ChatRequest request() {
        return ChatRequest.of("llama3.2", List.of(ChatMessage.user("Why is the sky blue?")));
    }

    private static MockResponse json(int code, String body) {
        return new MockResponse.Builder().code(code).setHeader("Content-Type", "application/json; charset=utf-8")
                .body(body).build();
    }

    /** A 200 NDJSON response, chunked like Ollama's, running {@code steps} in order. */
    private static MockResponse ndjson(Step... steps) {
        return new MockResponse.Builder().code(200).setHeader("Content-Type", "application/x-ndjson")
                .body(new ChunkedBody(List.of(steps), true))
                .removeHeader("Content-Length").setHeader("Transfer-Encoding", "chunked").build();
    }

    private static MockResponse ndjson(List<String> lines) {
        return ndjson(lines.stream().map(OllamaBackendStreamTest::line).toArray(Step[]::new));
    }

    /** One thing a streamed body does. */
    @FunctionalInterface
    interface Step {
        void run(BufferedSink sink) throws IOException;
    }

    /** Writes {@code line} and a newline as one chunk, and flushes it to the socket. */
    static Step line(String line) {
        return sink -> {
            byte[] bytes = (line + "\n").getBytes(StandardCharsets.UTF_8);
            sink.writeUtf8(Integer.toHexString(bytes.length)).writeUtf8("\r\n").write(bytes).writeUtf8("\r\n");
            sink.flush();
        };
    }

    /** Holds the body until {@code gate} opens. */
    static Step await(CountDownLatch gate) {
        return sink -> {
            try {
                if (!gate.await(WAIT_SECONDS, TimeUnit.SECONDS)) {
                    throw new IOException("the test never opened the gate");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException(e);
            }
        };
    }

    /** Runs {@code action} at this point of the body (e.g. to record that the server got this far). */
    static Step mark(Runnable action) {
        return sink -> action.run();
    }

    /** A chunked body written step by step; ends with the last chunk when {@code finish}. */
    private static final class ChunkedBody implements MockResponseBody {
        private final List<Step> steps;
        private final boolean finish;

        ChunkedBody(List<Step> steps, boolean finish) {
            this.steps = steps;
            this.finish = finish;
        }

        @Override
        public long getContentLength() {
            return -1;
        }

        @Override
        public void writeTo(BufferedSink sink) throws IOException {
            for (Step step : steps) {
                step.run(sink);
            }
            if (finish) {
                sink.writeUtf8("0\r\n\r\n");
            }
            sink.flush();
        }
    }

    /** Records every callback in order; fails the test on a second terminal callback. */
    static final class Recorder implements StreamHandler {
        final List<String> events = Collections.synchronizedList(new ArrayList<>());
        final BlockingQueue<String> tokens = new LinkedBlockingQueue<>();
        final CountDownLatch terminal = new CountDownLatch(1);
        final AtomicInteger inside = new AtomicInteger();
        final AtomicBoolean overlapped = new AtomicBoolean();
        volatile @Nullable ChatResult result;
        volatile @Nullable Throwable error;

        @Override
        public void onToken(String token) {
            enter();
            events.add("token:" + token);
            tokens.add(token);
            exit();
        }

        @Override
        public void onComplete(ChatResult r) {
            enter();
            result = r;
            events.add("complete");
            terminal.countDown();
            exit();
        }

        @Override
        public void onError(Throwable e) {
            enter();
            error = e;
            events.add("error");
            terminal.countDown();
            exit();
        }

        private void enter() {
            if (inside.incrementAndGet() != 1) {
                overlapped.set(true);
            }
        }

        private void exit() {
            inside.decrementAndGet();
        }

        String nextToken() throws InterruptedException {
            String token = tokens.poll(WAIT_SECONDS, TimeUnit.SECONDS);
            assertThat(token).as("a token arrived; events so far: %s", events).isNotNull();
            return token;
        }

        Recorder awaitTerminal() throws InterruptedException {
            assertThat(terminal.await(WAIT_SECONDS, TimeUnit.SECONDS))
                    .as("onComplete or onError was called; events so far: %s", events).isTrue();
            return this;
        }

        ChatResult completed() throws InterruptedException {
            awaitTerminal();
            assertThat(error).as("no error").isNull();
            assertThat(overlapped).isFalse();
            return result;
        }

        Throwable failed() throws InterruptedException {
            awaitTerminal();
            assertThat(result).as("no result").isNull();
            assertThat(overlapped).isFalse();
            return error;
        }

        List<String> events() {
            synchronized (events) {
                return List.copyOf(events);
            }
        }
    }

    // --- answers ---

    @Test
    void stream_publishedStream_deliversTokenThenCompletesWithUsageCounts() throws Exception {
        server.enqueue(ndjson(fixtureLines("chat-stream.ndjson")));
        Recorder recorder = new Recorder();

        backend.stream(request(), recorder);

        ChatResult result = recorder.completed();
        assertThat(recorder.events()).containsExactly("token:The", "complete");
        assertThat(result.text()).isEqualTo("The");
        assertThat(result.model()).isEqualTo("llama3.2");
        assertThat(result.promptTokens()).isEqualTo(26);
        assertThat(result.completionTokens()).isEqualTo(282);
        // this final line predates done_reason
        assertThat(result.finishReason()).isEqualTo(FinishReason.OTHER);
    }

    @Test
    void stream_finalLineWithDoneReason_fillsReasonAndCountsFromIt() throws Exception {
        server.enqueue(ndjson(List.of(fixtureLines("chat-stream.ndjson").get(0),
                fixtureLines("chat-stream-done-reason.ndjson").get(0))));
        Recorder recorder = new Recorder();

        backend.stream(request(), recorder);

        ChatResult result = recorder.completed();
        assertThat(recorder.events()).containsExactly("token:The", "complete");
        assertThat(result.finishReason()).isEqualTo(FinishReason.STOP);
        assertThat(result.promptTokens()).isEqualTo(169);
        assertThat(result.completionTokens()).isEqualTo(15);
    }

    @Test
    void stream_sevenChunks_deliversEveryTokenInOrderIncludingTheFinalLines() throws Exception {
        server.enqueue(ndjson(generateLinesAsChat("generate-stream.ndjson")));
        Recorder recorder = new Recorder();

        backend.stream(request(), recorder);

        ChatResult result = recorder.completed();
        assertThat(recorder.events()).containsExactly("token:That", "token:'", "token:s", "token: a",
                "token: fantastic", "token: question", "token:!", "complete");
        assertThat(result.text()).isEqualTo("That's a fantastic question!");
        assertThat(result.finishReason()).isEqualTo(FinishReason.STOP);
        assertThat(result.model()).isEqualTo("gemma4");
    }

    @Test
    void stream_doneReasonLength_reportsLength() throws Exception {
        ObjectNode last = (ObjectNode) JSON.readTree(fixtureLines("chat-stream-done-reason.ndjson").get(0));
        last.put("done_reason", "length");
        server.enqueue(ndjson(List.of(fixtureLines("chat-stream.ndjson").get(0), last.toString())));
        Recorder recorder = new Recorder();

        backend.stream(request(), recorder);

        assertThat(recorder.completed().finishReason()).isEqualTo(FinishReason.LENGTH);
    }

    @Test
    void stream_blankLinesBetweenChunks_areSkipped() throws Exception {
        List<String> lines = fixtureLines("chat-stream.ndjson");
        server.enqueue(ndjson(List.of(lines.get(0), "", lines.get(1))));
        Recorder recorder = new Recorder();

        backend.stream(request(), recorder);

        assertThat(recorder.completed().text()).isEqualTo("The");
        assertThat(recorder.events()).containsExactly("token:The", "complete");
    }

    @Test
    void stream_anyRequest_postsStreamTrueWithBudgetedWindowAndReserve() throws Exception {
        server.enqueue(ndjson(fixtureLines("chat-stream.ndjson")));
        Recorder recorder = new Recorder();
        ChatRequest request = new ChatRequest("llama3.2", List.of(ChatMessage.system("Use the sources."),
                ChatMessage.user("Why is the sky blue?")), 0.3, 700, 12000, 99L);

        backend.stream(request, recorder);

        recorder.completed();
        RecordedRequest recorded = server.takeRequest(WAIT_SECONDS, TimeUnit.SECONDS);
        assertThat(recorded.getUrl().encodedPath()).isEqualTo("/api/chat");
        JsonNode expected = JSON.readTree("""
                {"model":"llama3.2",
                 "messages":[{"role":"system","content":"Use the sources."},
                             {"role":"user","content":"Why is the sky blue?"}],
                 "stream":true,
                 "options":{"num_ctx":12000,"num_predict":700,"temperature":0.3,"seed":99}}
                """);
        assertThat(JSON.readTree(recorded.getBody().utf8())).isEqualTo(expected);
    }

    // --- delivery as lines arrive ---

    @Test
    void stream_firstLineSent_tokenReachesHandlerWhileServerStillHoldsTheRest() throws Exception {
        List<String> lines = generateLinesAsChat("generate-stream.ndjson");
        CountDownLatch rest = gate();
        AtomicBoolean restWritten = new AtomicBoolean();
        server.enqueue(ndjson(line(lines.get(0)), await(rest), mark(() -> restWritten.set(true)),
                line(lines.get(1)), line(lines.get(2)), line(lines.get(3)), line(lines.get(4)), line(lines.get(5)),
                line(lines.get(6))));
        Recorder recorder = new Recorder();

        backend.stream(request(), recorder);

        // the server sends nothing more until the first token is through
        assertThat(recorder.nextToken()).isEqualTo("That");
        assertThat(restWritten).as("the server is still holding the rest of the body").isFalse();
        assertThat(recorder.events()).containsExactly("token:That");
        rest.countDown();
        assertThat(recorder.completed().text()).isEqualTo("That's a fantastic question!");
        assertThat(recorder.events()).hasSize(8).endsWith("complete");
    }

    @Test
    void stream_eachLineHeldUntilThePreviousTokenArrived_deliversTokensOneByOne() throws Exception {
        List<String> lines = generateLinesAsChat("generate-stream.ndjson");
        List<CountDownLatch> next = new ArrayList<>();
        List<Step> steps = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            if (i > 0) {
                CountDownLatch g = gate();
                next.add(g);
                steps.add(await(g));
            }
            steps.add(line(lines.get(i)));
        }
        server.enqueue(ndjson(steps.toArray(Step[]::new)));
        Recorder recorder = new Recorder();

        backend.stream(request(), recorder);

        List<String> expected = List.of("That", "'", "s", " a", " fantastic", " question", "!");
        for (int i = 0; i < expected.size(); i++) {
            assertThat(recorder.nextToken()).isEqualTo(expected.get(i));
            if (i < next.size()) {
                // the server holds the next line until now
                assertThat(recorder.events()).as("nothing but the tokens so far").hasSize(i + 1);
                next.get(i).countDown();
            }
        }
        assertThat(recorder.completed().finishReason()).isEqualTo(FinishReason.STOP);
    }

    // --- errors inside the stream ---

    @Test
    void stream_errorLineAfterTokens_reportsServerErrorKeepingPartialTextWithoutRetry() throws Exception {
        server.enqueue(ndjson(generateLinesAsChat("generate-stream-error.ndjson")));
        server.enqueue(ndjson(fixtureLines("chat-stream.ndjson")));
        Recorder recorder = new Recorder();

        backend.stream(request(), recorder);

        Throwable error = recorder.failed();
        assertThat(recorder.events()).containsExactly("token: Yes", "token:.", "token:I", "token:can", "error");
        assertThat(error).isInstanceOfSatisfying(ModelServerException.class, e -> {
            assertThat(e.status()).isEqualTo(200);
            assertThat(e.serverError()).isEqualTo("an error was encountered while running the model");
            assertThat(e.partialText()).isEqualTo(" Yes.Ican");
            assertThat(e.getMessage()).contains("an error was encountered while running the model");
        });
        awaitStreamThreadsDone();
        assertThat(server.getRequestCount()).as("tokens were delivered: no retry").isEqualTo(1);
    }

    @Test
    void stream_lineIsNotJson_reportsProtocolErrorKeepingPartialText() throws Exception {
        server.enqueue(ndjson(List.of(fixtureLines("chat-stream.ndjson").get(0), "<html>502 Bad Gateway</html>",
                fixtureLines("chat-stream.ndjson").get(1))));
        Recorder recorder = new Recorder();

        backend.stream(request(), recorder);

        Throwable error = recorder.failed();
        assertThat(recorder.events()).containsExactly("token:The", "error");
        assertThat(error).isInstanceOfSatisfying(ModelProtocolException.class, e -> {
            assertThat(e.getMessage()).contains("not JSON").contains("502 Bad Gateway");
            assertThat(e.partialText()).isEqualTo("The");
        });
    }

    @Test
    void stream_bodyEndsBeforeDone_reportsProtocolErrorKeepingPartialText() throws Exception {
        server.enqueue(ndjson(List.of(fixtureLines("chat-stream.ndjson").get(0))));
        Recorder recorder = new Recorder();

        backend.stream(request(), recorder);

        Throwable error = recorder.failed();
        assertThat(recorder.events()).containsExactly("token:The", "error");
        assertThat(error).isInstanceOfSatisfying(ModelProtocolException.class, e -> {
            assertThat(e.getMessage()).contains("closed the stream before it finished (1 token received)");
            assertThat(e.partialText()).isEqualTo("The");
        });
    }

    @ParameterizedTest
    @ValueSource(strings = {"between lines", "after a chunk header", "in the middle of a line"})
    void stream_connectionDropsBeforeDone_reportsProtocolErrorKeepingPartialText(String where) throws Exception {
        String first = fixtureLines("chat-stream.ndjson").get(0);
        byte[] done = (fixtureLines("chat-stream.ndjson").get(1) + "\n").getBytes(StandardCharsets.UTF_8);
        Step cut = switch (where) {
            case "between lines" -> sink -> { };
            case "after a chunk header" -> sink -> sink.writeUtf8(Integer.toHexString(done.length) + "\r\n");
            default -> sink -> sink.writeUtf8(Integer.toHexString(done.length) + "\r\n")
                    .write(done, 0, done.length / 2);
        };
        // the server sends the first line, then closes the socket without the final line or the last chunk
        server.enqueue(new MockResponse.Builder().code(200).setHeader("Content-Type", "application/x-ndjson")
                .body(new ChunkedBody(List.of(line(first), cut), false))
                .removeHeader("Content-Length").setHeader("Transfer-Encoding", "chunked")
                .onResponseEnd(new SocketEffect.CloseSocket()).build());
        Recorder recorder = new Recorder();

        backend.stream(request(), recorder);

        Throwable error = recorder.failed();
        assertThat(recorder.events()).containsExactly("token:The", "error");
        assertThat(error).isInstanceOfSatisfying(ModelProtocolException.class,
                e -> assertThat(e.partialText()).isEqualTo("The"));
        awaitStreamThreadsDone();
        assertThat(server.getRequestCount()).as("tokens were delivered: no retry").isEqualTo(1);
    }

    // --- errors before the stream ---

    @Test
    void stream_connectionRefused_reportsUnavailableAskingWhetherOllamaRuns() throws Exception {
        String url = server.url("/").toString();
        server.close();
        OllamaBackend refused = extra(OllamaBackend.builder().baseUrl(url).retryBackoff(Duration.ofMillis(10))
                .executor(executor));
        Recorder recorder = new Recorder();

        refused.stream(request(), recorder);

        assertThat(recorder.failed()).isInstanceOf(LlmUnavailableException.class)
                .hasMessageContaining("is Ollama running at " + url + "?");
        assertThat(recorder.events()).containsExactly("error");
    }

    @Test
    void stream_503Twice_retriesThenStreams() throws Exception {
        server.enqueue(json(503, "{\"error\":\"server busy\"}"));
        server.enqueue(json(503, "{\"error\":\"server busy\"}"));
        server.enqueue(ndjson(fixtureLines("chat-stream.ndjson")));
        Recorder recorder = new Recorder();

        backend.stream(request(), recorder);

        assertThat(recorder.completed().text()).isEqualTo("The");
        assertThat(recorder.events()).containsExactly("token:The", "complete");
        assertThat(server.getRequestCount()).isEqualTo(3);
    }

    @Test
    void stream_503Always_reportsUnavailableAfterMaxRetries() throws Exception {
        for (int i = 0; i < 4; i++) {
            server.enqueue(json(503, "{\"error\":\"server busy\"}"));
        }
        Recorder recorder = new Recorder();

        backend.stream(request(), recorder);

        assertThat(recorder.failed()).isInstanceOf(LlmUnavailableException.class).hasMessageContaining("HTTP 503");
        assertThat(recorder.events()).containsExactly("error");
        assertThat(server.getRequestCount()).isEqualTo(3);
    }

    @ParameterizedTest
    @ValueSource(strings = {"error-model-not-found.json", "error-model-not-found-legacy.json"})
    void stream_404ModelNotFound_reportsModelNotFoundSayingOllamaPull(String fixture) throws Exception {
        server.enqueue(json(404, fixture(fixture)));
        server.enqueue(ndjson(fixtureLines("chat-stream.ndjson")));
        Recorder recorder = new Recorder();

        backend.stream(request(), recorder);

        assertThat(recorder.failed()).isInstanceOf(ModelNotFoundException.class)
                .hasMessageContaining("ollama pull llama3.2");
        assertThat(recorder.events()).containsExactly("error");
        awaitStreamThreadsDone();
        assertThat(server.getRequestCount()).isEqualTo(1);
    }

    @Test
    void stream_500_reportsServerErrorWithoutRetry() throws Exception {
        server.enqueue(json(500, fixture("error.json")));
        server.enqueue(ndjson(fixtureLines("chat-stream.ndjson")));
        Recorder recorder = new Recorder();

        backend.stream(request(), recorder);

        assertThat(recorder.failed()).isInstanceOfSatisfying(ModelServerException.class, e -> {
            assertThat(e.status()).isEqualTo(500);
            assertThat(e.serverError()).isEqualTo("the model failed to generate a response");
        });
        awaitStreamThreadsDone();
        assertThat(server.getRequestCount()).isEqualTo(1);
    }

    @Test
    void stream_400_reportsServerErrorWithoutRetry() throws Exception {
        server.enqueue(json(400, "{\"error\":\"invalid message role\"}"));
        server.enqueue(ndjson(fixtureLines("chat-stream.ndjson")));
        Recorder recorder = new Recorder();

        backend.stream(request(), recorder);

        assertThat(recorder.failed()).isInstanceOf(ModelServerException.class)
                .hasMessageContaining("invalid message role");
        awaitStreamThreadsDone();
        assertThat(server.getRequestCount()).isEqualTo(1);
    }

    // --- slow servers ---

    @Test
    void stream_headersLate_reportsTimeoutNamingTheReadLimit() throws Exception {
        OllamaBackend impatient = extra(backendBuilder().readTimeout(SHORT));
        server.enqueue(new MockResponse.Builder(ndjson(fixtureLines("chat-stream.ndjson")))
                .headersDelay(2, TimeUnit.SECONDS).build());
        Recorder recorder = new Recorder();

        impatient.stream(request(), recorder);

        assertThat(recorder.failed()).isInstanceOf(LlmTimeoutException.class).hasMessageContaining("read 300 ms");
        assertThat(recorder.events()).containsExactly("error");
        assertThat(server.getRequestCount()).isEqualTo(1);
    }

    @Test
    void stream_serverStallsAfterFirstToken_reportsTimeoutAfterTheToken() throws Exception {
        OllamaBackend impatient = extra(backendBuilder().readTimeout(SHORT));
        List<String> lines = fixtureLines("chat-stream.ndjson");
        server.enqueue(ndjson(line(lines.get(0)), await(gate()), line(lines.get(1))));
        Recorder recorder = new Recorder();

        impatient.stream(request(), recorder);

        assertThat(recorder.failed()).isInstanceOf(LlmTimeoutException.class).hasMessageContaining("read 300 ms");
        assertThat(recorder.events()).containsExactly("token:The", "error");
    }

    @Test
    void stream_tokensKeepComingPastTheCallLimit_reportsTimeoutNamingTheWholeCallLimit() throws Exception {
        OllamaBackend impatient = extra(backendBuilder().callTimeout(SHORT));
        List<String> lines = fixtureLines("chat-stream.ndjson");
        CountDownLatch stop = gate();
        // a token line every 50 ms, far inside the read limit, never done
        server.enqueue(ndjson(sink -> {
            while (stop.getCount() > 0) {
                line(lines.get(0)).run(sink);
                try {
                    stop.await(50, TimeUnit.MILLISECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IOException(e);
                }
            }
        }));
        Recorder recorder = new Recorder();

        impatient.stream(request(), recorder);

        assertThat(recorder.failed()).isInstanceOf(LlmTimeoutException.class)
                .hasMessageContaining("whole call 300 ms");
        assertThat(recorder.events()).startsWith("token:The").endsWith("error");
    }

    // --- cancellation ---

    @Test
    void stream_cancelAfterFirstToken_closesConnectionAndStaysSilent() throws Exception {
        List<String> lines = generateLinesAsChat("generate-stream.ndjson");
        CountDownLatch cancelled = gate();
        CompletableFuture<IOException> serverSawClose = new CompletableFuture<>();
        server.enqueue(ndjson(line(lines.get(0)), await(cancelled), sink -> {
            // after the cancel, keep writing the rest of the answer until the socket refuses it
            try {
                for (int i = 0; i < 200; i++) {
                    for (String l : lines.subList(1, lines.size() - 1)) {
                        line(l).run(sink);
                    }
                    Thread.sleep(10);
                }
            } catch (IOException e) {
                serverSawClose.complete(e);
                throw e;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            serverSawClose.complete(null);
            line(lines.get(lines.size() - 1)).run(sink);
        }));
        Recorder recorder = new Recorder();

        Cancellable call = backend.stream(request(), recorder);
        assertThat(recorder.nextToken()).isEqualTo("That");
        call.cancel();
        cancelled.countDown();

        assertThat(call.isCancelled()).isTrue();
        assertThat(serverSawClose.get(WAIT_SECONDS, TimeUnit.SECONDS))
                .as("the server's writes fail: the client closed the connection").isNotNull();
        awaitStreamThreadsDone();
        assertThat(recorder.events()).as("no token, onComplete or onError after cancel").containsExactly("token:That");
    }

    @Test
    void stream_cancelWhileWaitingForHeaders_returnsAtOnceAndStaysSilent() throws Exception {
        CountDownLatch answer = gate();
        server.setDispatcher(new Dispatcher() {
            @Override
            public MockResponse dispatch(RecordedRequest recorded) throws InterruptedException {
                answer.await(WAIT_SECONDS, TimeUnit.SECONDS);
                return ndjson(fixtureLines("chat-stream.ndjson"));
            }
        });
        Recorder recorder = new Recorder();

        Cancellable call = backend.stream(request(), recorder);
        assertThat(server.takeRequest(WAIT_SECONDS, TimeUnit.SECONDS)).as("the request reached the server").isNotNull();
        call.cancel();

        // the stream thread returns while the server is still holding the answer
        awaitStreamThreadsDone();
        assertThat(answer.getCount()).isEqualTo(1);
        assertThat(recorder.events()).isEmpty();
        assertThat(server.getRequestCount()).as("a cancelled call is not retried").isEqualTo(1);
    }

    @Test
    void stream_cancelBeforeTheCallStarts_sendsNothingAndStaysSilent() throws Exception {
        List<Runnable> queued = new ArrayList<>();
        OllamaBackend held = extra(backendBuilder().executor(queued::add));
        server.enqueue(ndjson(fixtureLines("chat-stream.ndjson")));
        Recorder recorder = new Recorder();

        Cancellable call = held.stream(request(), recorder);
        call.cancel();
        assertThat(queued).hasSize(1);
        queued.get(0).run();

        assertThat(recorder.events()).isEmpty();
        assertThat(server.getRequestCount()).isZero();
    }

    @Test
    void stream_cancelAfterCompletion_changesNothing() throws Exception {
        server.enqueue(ndjson(fixtureLines("chat-stream.ndjson")));
        Recorder recorder = new Recorder();

        Cancellable call = backend.stream(request(), recorder);
        recorder.completed();
        awaitStreamThreadsDone();
        call.cancel();

        assertThat(call.isCancelled()).isTrue();
        assertThat(recorder.events()).containsExactly("token:The", "complete");
    }

    // --- handler misbehaviour ---

    @Test
    void stream_handlerThrowsOnComplete_noSecondTerminalCallback() throws Exception {
        server.enqueue(ndjson(fixtureLines("chat-stream.ndjson")));
        List<String> events = Collections.synchronizedList(new ArrayList<>());
        StreamHandler throwing = new StreamHandler() {
            @Override
            public void onToken(String token) {
                events.add("token:" + token);
            }

            @Override
            public void onComplete(ChatResult result) {
                events.add("complete");
                throw new IllegalStateException("the application's bug");
            }

            @Override
            public void onError(Throwable error) {
                events.add("error:" + error.getMessage());
            }
        };

        backend.stream(request(), throwing);

        awaitStreamThreadsDone();
        assertThat(events).containsExactly("token:The", "complete");
    }

    @Test
    void stream_handlerThrowsOnToken_reportsThatErrorOnceAndClosesTheCall() throws Exception {
        server.enqueue(ndjson(generateLinesAsChat("generate-stream.ndjson")));
        AtomicReference<Throwable> reported = new AtomicReference<>();
        List<String> events = Collections.synchronizedList(new ArrayList<>());
        IllegalStateException bug = new IllegalStateException("the application's bug");
        StreamHandler throwing = new StreamHandler() {
            @Override
            public void onToken(String token) {
                events.add("token:" + token);
                throw bug;
            }

            @Override
            public void onComplete(ChatResult result) {
                events.add("complete");
            }

            @Override
            public void onError(Throwable error) {
                events.add("error");
                reported.set(error);
            }
        };

        backend.stream(request(), throwing);

        awaitStreamThreadsDone();
        assertThat(events).containsExactly("token:That", "error");
        assertThat(reported.get()).isSameAs(bug);
    }

    // --- concurrency ---

    @Test
    void stream_eightCallsAtOnce_eachHandlerGetsOnlyItsOwnTokens() throws Exception {
        int calls = 8;
        CountDownLatch allArrived = new CountDownLatch(calls);
        String template = fixtureLines("chat-stream.ndjson").get(0);
        String done = fixtureLines("chat-stream.ndjson").get(1);
        server.setDispatcher(new Dispatcher() {
            @Override
            public MockResponse dispatch(RecordedRequest recorded) throws InterruptedException {
                allArrived.countDown();
                if (!allArrived.await(WAIT_SECONDS, TimeUnit.SECONDS)) {
                    return json(500, "{\"error\":\"the calls did not overlap\"}");
                }
                try {
                    String question = JSON.readTree(recorded.getBody().utf8()).path("messages").get(0)
                            .path("content").asText();
                    List<String> lines = new ArrayList<>();
                    for (String word : ("answer to " + question).split(" ")) {
                        ObjectNode n = (ObjectNode) JSON.readTree(template);
                        ((ObjectNode) n.get("message")).put("content", word + " ");
                        lines.add(n.toString());
                    }
                    lines.add(done);
                    return ndjson(lines);
                } catch (IOException e) {
                    return json(500, "{\"error\":\"" + e + "\"}");
                }
            }
        });
        List<Recorder> recorders = new ArrayList<>();
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < calls; i++) {
            Recorder recorder = new Recorder();
            recorders.add(recorder);
            ChatRequest request = ChatRequest.of("llama3.2", List.of(ChatMessage.user("q" + i)));
            threads.add(new Thread(() -> backend.stream(request, recorder), "caller-" + i));
        }
        threads.forEach(Thread::start);
        for (Thread t : threads) {
            t.join(TimeUnit.SECONDS.toMillis(WAIT_SECONDS));
        }

        for (int i = 0; i < calls; i++) {
            ChatResult result = recorders.get(i).completed();
            assertThat(result.text()).isEqualTo("answer to q" + i + " ");
            assertThat(recorders.get(i).events()).containsExactly("token:answer ", "token:to ", "token:q" + i + " ",
                    "complete");
        }
        assertThat(server.getRequestCount()).isEqualTo(calls);
    }

    // --- arguments ---

    @Test
    void stream_nullHandler_throwsAtOnceAndSendsNothing() {
        assertThatThrownBy(() -> backend.stream(request(), null)).isInstanceOf(NullPointerException.class)
                .hasMessage("handler");
        assertThatThrownBy(() -> backend.stream(null, new Recorder())).isInstanceOf(NullPointerException.class)
                .hasMessage("request");
        assertThat(server.getRequestCount()).isZero();
    }
}
