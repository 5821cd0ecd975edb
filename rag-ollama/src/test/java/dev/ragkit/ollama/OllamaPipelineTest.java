package dev.ragkit.ollama;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ragkit.LinkedSource;
import dev.ragkit.RagPipeline;
import dev.ragkit.error.ModelNotFoundException;
import dev.ragkit.RagRequest;
import dev.ragkit.RagResponse;
import dev.ragkit.RagStreamListener;
import dev.ragkit.Source;
import dev.ragkit.audit.AuditSink;
import dev.ragkit.budget.BudgetLimits;
import dev.ragkit.tokens.CalibratedTokenCounter;
import dev.ragkit.tokens.TokenCounter;
import dev.ragkit.tokens.TokenCounters;
import dev.ragkit.grounding.Action;
import dev.ragkit.retrieval.RelevanceModel;
import dev.ragkit.store.DocumentStore;
import dev.ragkit.store.Scope;
import dev.ragkit.store.StoredChunk;
import dev.ragkit.store.StoredDocument;
import dev.ragkit.store.inmemory.InMemoryDocumentStore;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import mockwebserver3.Dispatcher;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import mockwebserver3.junit5.StartStop;
import org.junit.jupiter.api.Test;

/**
 * The whole pipeline on Ollama's HTTP API: embeddings through {@code /api/embed}, the answer and the self-rating
 * through {@code /api/chat}, served by a MockWebServer that answers like Ollama (deterministic embeddings; an
 * answer that cites the first SourceId of the prompt; the rating "92").
 */
final class OllamaPipelineTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int DIM = 32;
    private static final Pattern SOURCE_ID = Pattern.compile("\\[SourceId: ([a-f0-9-]{36}:\\d+)]");
    /** The fake model's tokens per cl100k_base token (the backend's default local counter). */
    private static final double MODEL_TOKENS_PER_CL100K = 1.25;
    private static final TokenCounter CL100K = TokenCounters.jtokkit();
    private static final String KEYS = "API keys rotate every ninety days; the rotate command replaces a key early.";

    @StartStop
    private final MockWebServer server = new MockWebServer();
    private final List<JsonNode> chats = new CopyOnWriteArrayList<>();
    private final DocumentStore store = InMemoryDocumentStore.builder().dimension(DIM).build();

    @Test
    void ask_throughOllama_isGroundedAndSendsTheBudgetedWindow() throws Exception {
        server.setDispatcher(new FakeOllama());
        try (OllamaBackend ollama = OllamaBackend.builder().baseUrl(server.url("/").toString()).build()) {
            RagPipeline rag = pipeline(ollama);
            index("docs/keys.md", "API keys", KEYS);

            RagResponse r = rag.ask(RagRequest.of("How often do API keys rotate?", Scope.of("acme")));

            assertThat(r.action()).isEqualTo(Action.CITE);
            assertThat(r.grounded()).isTrue();
            assertThat(r.citations()).singleElement().satisfies(c -> assertThat(c.path()).isEqualTo("docs/keys.md"));
            assertThat(r.confidence().selfRating()).isEqualTo(92);
            JsonNode answer = chats.get(0);
            assertThat(answer.path("options").path("num_ctx").asInt()).isEqualTo(8192);
            assertThat(answer.path("options").path("num_predict").asInt()).isEqualTo(1024);
            assertThat(answer.path("stream").asBoolean(true)).isFalse();
            assertThat(chats).hasSize(2);                                     // the answer, then the rating
            CalibratedTokenCounter learned = ollama.tokenCounter("llama3.2");
            assertThat(learned.observations()).isEqualTo(2);                 // both calls reported their counts
            assertThat(learned.ratio()).isCloseTo(MODEL_TOKENS_PER_CL100K, within(0.01));
            assertThat(tagCalls).hasValue(1);                                 // the model was checked first
        }
    }

    @Test
    void ask_modelNotPulled_failsWithThePullCommandBeforeAnyEmbedding() throws Exception {
        server.setDispatcher(new FakeOllama());
        try (OllamaBackend ollama = OllamaBackend.builder().baseUrl(server.url("/").toString()).build()) {
            RagPipeline rag = pipeline(ollama).toBuilder().model("mistral").build();

            assertThatThrownBy(() -> rag.ask(RagRequest.of("Anything?", Scope.of("nobody-here"))))
                    .isInstanceOf(ModelNotFoundException.class)
                    .hasMessageContaining("run: ollama pull mistral");
            assertThat(chats).isEmpty();
            assertThat(server.getRequestCount()).isEqualTo(1);               // GET /api/tags, nothing else
        }
    }

    @Test
    void stream_throughOllama_deliversTokensThenTheGroundedResponse() throws Exception {
        server.setDispatcher(new FakeOllama());
        try (OllamaBackend ollama = OllamaBackend.builder().baseUrl(server.url("/").toString()).build()) {
            RagPipeline rag = pipeline(ollama);
            index("docs/keys.md", "API keys", KEYS);
            List<String> tokens = new CopyOnWriteArrayList<>();
            AtomicReference<RagResponse> done = new AtomicReference<>();
            CountDownLatch end = new CountDownLatch(1);
            rag.stream(RagRequest.of("How often do API keys rotate?", Scope.of("acme")), new RagStreamListener() {
                @Override
                public void onSources(List<Source> sources, List<LinkedSource> linked) {
                    tokens.add("<sources " + sources.size() + ">");
                }

                @Override
                public void onToken(String token) {
                    tokens.add(token);
                }

                @Override
                public void onComplete(RagResponse response) {
                    done.set(response);
                    end.countDown();
                }

                @Override
                public void onError(Throwable error) {
                    end.countDown();
                }
            });
            assertThat(end.await(10, TimeUnit.SECONDS)).isTrue();
            assertThat(done.get()).isNotNull();
            assertThat(tokens.get(0)).isEqualTo("<sources 1>");
            assertThat(String.join("", tokens.subList(1, tokens.size()))).isEqualTo(done.get().answer());
            assertThat(tokens.size()).isGreaterThan(3);
            assertThat(done.get().grounded()).isTrue();
            assertThat(chats.get(0).path("stream").asBoolean(false)).isTrue();
        }
    }

    private RagPipeline pipeline(OllamaBackend ollama) {
        OllamaEmbedder embedder = OllamaEmbedder.builder().baseUrl(server.url("/").toString()).model("toy")
                .build();
        // a toy embedder over one document: relevance as the store scored it, not calibrated on unrelated text
        return RagPipeline.builder().store(store).embedder(embedder).backend(ollama).auditSink(AuditSink.none())
                .relevanceModel(RelevanceModel.fused()).build();
    }

    private void index(String path, String title, String text) {
        StoredDocument d = StoredDocument.builder().tenant("acme").path(path).title(title).charCount(text.length())
                .build();
        store.upsert(d, List.of(new StoredChunk(d.id(), 0, text, vector(text), 20, 1, 1, null, null)));
    }

    /** A hashed bag of words with a constant first component: deterministic, never all zero. */
    static float[] vector(String text) {
        float[] v = new float[DIM];
        v[0] = 0.5f;
        for (String w : text.toLowerCase(Locale.ROOT).split("[^a-z0-9]+")) {
            if (!w.isEmpty()) {
                v[1 + Math.floorMod(w.hashCode(), DIM - 1)] += 1;
            }
        }
        return v;
    }

    /** Answers /api/tags (the pipeline checks the model first), /api/embed, /api/chat (whole or streamed) like Ollama. */
    private final java.util.concurrent.atomic.AtomicInteger tagCalls = new java.util.concurrent.atomic.AtomicInteger();

    private final class FakeOllama extends Dispatcher {
        @Override
        public MockResponse dispatch(RecordedRequest request) {
            try {
                String path = request.getUrl().encodedPath();
                if (path.equals("/api/tags")) {
                    tagCalls.incrementAndGet();
                    return json(Fixtures.read("tags.json"));
                }
                JsonNode in = JSON.readTree(request.getBody().utf8());
                if (path.equals("/api/embed")) {
                    ObjectNode reply = JSON.createObjectNode().put("model", "toy");
                    ArrayNode embeddings = reply.putArray("embeddings");
                    for (JsonNode t : in.path("input")) {
                        ArrayNode v = embeddings.addArray();
                        for (float x : vector(t.asText())) {
                            v.add(x);
                        }
                    }
                    return json(reply.toString());
                }
                if (path.equals("/api/chat")) {
                    chats.add(in);
                    // a model whose tokenizer makes a quarter more tokens than cl100k_base, chat template included
                    int cl100k = 0;
                    for (JsonNode m : in.path("messages")) {
                        cl100k += CL100K.count(m.path("content").asText()) + BudgetLimits.DEFAULT_MESSAGE_OVERHEAD;
                    }
                    int promptTokens = (int) Math.round(cl100k * MODEL_TOKENS_PER_CL100K);
                    String system = in.path("messages").get(0).path("content").asText();
                    String answer;
                    if (system.startsWith("You check answers against their sources")) {
                        answer = "92";
                    } else {
                        Matcher m = SOURCE_ID.matcher(system);
                        answer = m.find() ? "API keys rotate every ninety days [SourceId: " + m.group(1) + "]."
                                : "I do not know.";
                    }
                    if (!in.path("stream").asBoolean(true)) {
                        ObjectNode reply = JSON.createObjectNode().put("model", "llama3.2").put("done", true)
                                .put("done_reason", "stop").put("prompt_eval_count", promptTokens).put("eval_count", 12);
                        reply.putObject("message").put("role", "assistant").put("content", answer);
                        return json(reply.toString());
                    }
                    StringBuilder ndjson = new StringBuilder();
                    for (String token : answer.split("(?<= )")) {
                        ObjectNode line = JSON.createObjectNode().put("model", "llama3.2").put("done", false);
                        line.putObject("message").put("role", "assistant").put("content", token);
                        ndjson.append(line).append('\n');
                    }
                    ObjectNode last = JSON.createObjectNode().put("model", "llama3.2").put("done", true)
                            .put("done_reason", "stop").put("prompt_eval_count", promptTokens).put("eval_count", 12);
                    last.putObject("message").put("role", "assistant").put("content", "");
                    ndjson.append(last).append('\n');
                    return new MockResponse.Builder().code(200).setHeader("Content-Type", "application/x-ndjson")
                            .body(ndjson.toString()).build();
                }
                return new MockResponse.Builder().code(404).body("404 page not found").build();
            } catch (Exception e) {
                return new MockResponse.Builder().code(500).body("{\"error\":\"" + e + "\"}").build();
            }
        }

        private MockResponse json(String body) {
            return new MockResponse.Builder().code(200).setHeader("Content-Type", "application/json").body(body)
                    .build();
        }
    }
}
