package dev.ragkit.generation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ragkit.RagPipeline;
import dev.ragkit.RagRequest;
import dev.ragkit.RagResponse;
import dev.ragkit.ResponseFlag;
import dev.ragkit.audit.AuditRecord;
import dev.ragkit.audit.AuditSink;
import dev.ragkit.error.LlmTimeoutException;
import dev.ragkit.error.LlmUnavailableException;
import dev.ragkit.error.ModelNotFoundException;
import dev.ragkit.error.RagException;
import dev.ragkit.grounding.Action;
import dev.ragkit.grounding.Citation;
import dev.ragkit.retrieval.RelevanceModel;
import dev.ragkit.store.DocumentStore;
import dev.ragkit.store.Scope;
import dev.ragkit.store.StoredChunk;
import dev.ragkit.store.StoredDocument;
import dev.ragkit.store.inmemory.InMemoryDocumentStore;
import dev.ragkit.testing.HashedBagOfWordsEmbedder;
import dev.ragkit.testing.RecordingBackend;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * The model server behind an extractive fallback: a server that cannot be reached (or does not answer in time) gives
 * quoted answers, flagged, without failing the request; other failures still fail; the server is left alone for the
 * retry interval and tried again after it.
 */
final class ExtractiveFallbackBackendTest {
    private static final String KEYS = "API keys rotate every ninety days. The rotate command replaces a key early.";
    private final AtomicLong now = new AtomicLong();

    /** A model server that can be switched off: down, every call fails as a refused connection would. */
    private static class Switchable implements LlmBackend {
        final RecordingBackend model = RecordingBackend.answering(
                r -> "Keys rotate every ninety days [SourceId: " + RecordingBackend.sourceIds(r).get(0) + "].", "90");
        final AtomicInteger calls = new AtomicInteger();
        volatile RuntimeException failure = new LlmUnavailableException("cannot connect to http://127.0.0.1:9");

        void up() {
            failure = null;
        }

        private void call() {
            calls.incrementAndGet();
            RuntimeException f = failure;
            if (f != null) {
                throw f;
            }
        }

        @Override
        public String name() {
            return "switchable";
        }

        @Override
        public ChatResult chat(ChatRequest request) {
            call();
            return model.chat(request);
        }

        @Override
        public Cancellable stream(ChatRequest request, StreamHandler handler) {
            calls.incrementAndGet();
            RuntimeException f = failure;
            if (f != null) {
                handler.onError(f);          // as a streaming backend reports a failed connection
                return new ExtractiveBackend().stream(request, new StreamHandler() {
                    @Override
                    public void onToken(String token) {
                    }

                    @Override
                    public void onComplete(ChatResult result) {
                    }

                    @Override
                    public void onError(Throwable error) {
                    }
                });
            }
            return model.stream(request, handler);
        }

        @Override
        public ModelInfo modelInfo(String model) {
            call();
            return new ModelInfo(model, 4096, 512);
        }

        @Override
        public void requireModel(String model) {
            call();
        }

        @Override
        public HealthStatus health(String model) {
            return failure == null ? new HealthStatus(true, true, Duration.ZERO, "1", "ok")
                    : new HealthStatus(false, false, Duration.ZERO, null, "cannot connect");
        }
    }

    private ExtractiveFallbackBackend fallback(LlmBackend server) {
        return ExtractiveFallbackBackend.of(server, Duration.ofSeconds(30), now::get);
    }

    private static ChatRequest question() {
        String system = "Answer from the context.\n\n[SourceId: 123e4567-e89b-12d3-a456-426614174000:0]\n"
                + "Document: keys.md\n---\n" + KEYS + "\n---\n";
        return ChatRequest.of("llama3.2", List.of(ChatMessage.system(system),
                ChatMessage.user("How often do API keys rotate?")));
    }

    @Test
    void chat_serverDown_quotesTheDocumentsAndLeavesTheServerAloneUntilTheIntervalEnds() {
        Switchable server = new Switchable();
        ExtractiveFallbackBackend backend = fallback(server);

        ChatResult first = backend.chat(question());

        assertThat(first.model()).isEqualTo(ExtractiveBackend.MODEL);
        assertThat(first.text()).startsWith(ExtractiveBackend.LABEL).contains("ninety days");
        assertThat(server.calls).hasValue(1);
        assertThat(backend.answeringExtractively()).isTrue();
        assertThat(backend.lastFailure()).hasValueSatisfying(m -> assertThat(m).contains("cannot connect"));

        now.addAndGet(Duration.ofSeconds(29).toNanos());
        assertThat(backend.chat(question()).model()).isEqualTo(ExtractiveBackend.MODEL);
        assertThat(server.calls).as("left alone within the interval").hasValue(1);

        server.up();
        now.addAndGet(Duration.ofSeconds(2).toNanos());
        ChatResult after = backend.chat(question());
        assertThat(after.model()).isEqualTo("llama3.2");
        assertThat(after.text()).startsWith("Keys rotate every ninety days");
        assertThat(server.calls).hasValue(2);
        assertThat(backend.answeringExtractively()).isFalse();
        assertThat(backend.lastFailure()).isEmpty();
    }

    @Test
    void quotingWith_quotesWithTheEmbedder_andKeepsTheServerAndItsInterval() {
        Switchable server = new Switchable();
        HashedBagOfWordsEmbedder embedder = new HashedBagOfWordsEmbedder("toy", 64);
        ExtractiveFallbackBackend backend = fallback(server).quotingWith(embedder);

        ChatResult first = backend.chat(question());
        now.addAndGet(Duration.ofSeconds(29).toNanos());
        backend.chat(question());

        assertThat(fallback(server).embedder()).isNull();
        assertThat(backend.embedder()).isSameAs(embedder);
        assertThat(first.text()).startsWith(ExtractiveBackend.LABEL).contains("ninety days");
        assertThat(server.calls).as("left alone within the same interval").hasValue(1);
        server.up();
        now.addAndGet(Duration.ofSeconds(2).toNanos());
        assertThat(backend.chat(question()).model()).isEqualTo("llama3.2");
    }

    @Test
    void chat_serverTooSlow_fallsBackToo() {
        Switchable server = new Switchable();
        server.failure = new LlmTimeoutException("no answer within 30 s");

        assertThat(fallback(server).chat(question()).model()).isEqualTo(ExtractiveBackend.MODEL);
    }

    @Test
    void chat_modelMissingOrServerError_stillFails() {
        Switchable server = new Switchable();
        server.failure = new ModelNotFoundException("model 'llama3.2' not found; run: ollama pull llama3.2");
        ExtractiveFallbackBackend backend = fallback(server);

        assertThatThrownBy(() -> backend.chat(question())).isInstanceOf(ModelNotFoundException.class);
        assertThatThrownBy(() -> backend.requireModel("llama3.2")).isInstanceOf(ModelNotFoundException.class);
        server.failure = new RagException("Ollama answered HTTP 500: out of memory");
        assertThatThrownBy(() -> backend.chat(question())).hasMessageContaining("out of memory");
        assertThat(backend.answeringExtractively()).isFalse();
    }

    @Test
    void modelCheckAndLimits_serverDown_areNoError() {
        Switchable server = new Switchable();
        ExtractiveFallbackBackend backend = fallback(server);

        backend.requireModel("llama3.2");
        assertThat(backend.modelInfo("mistral")).isEqualTo(new ExtractiveBackend().modelInfo("mistral"));
        assertThat(server.calls).as("the second call left the server alone").hasValue(1);
        assertThat(backend.health("llama3.2").reachable()).isFalse();
    }

    @Test
    void stream_serverDownBeforeAnyToken_streamsTheQuotedAnswer() {
        Switchable server = new Switchable();
        List<String> tokens = new CopyOnWriteArrayList<>();
        AtomicReference<ChatResult> done = new AtomicReference<>();
        AtomicReference<Throwable> failed = new AtomicReference<>();

        fallback(server).stream(question(), handler(tokens, done, failed));

        assertThat(failed.get()).isNull();
        assertThat(done.get().model()).isEqualTo(ExtractiveBackend.MODEL);
        assertThat(String.join("", tokens)).isEqualTo(done.get().text());
    }

    @Test
    void stream_failureAfterATokenReachesTheHandler() {
        LlmBackend server = new Switchable() {
            @Override
            public Cancellable stream(ChatRequest request, StreamHandler handler) {
                handler.onToken("Keys rotate ");
                handler.onError(new LlmUnavailableException("connection reset"));
                return new ExtractiveBackend().stream(request, handler(new ArrayList<>(), new AtomicReference<>(),
                        new AtomicReference<>()));
            }
        };
        List<String> tokens = new CopyOnWriteArrayList<>();
        AtomicReference<ChatResult> done = new AtomicReference<>();
        AtomicReference<Throwable> failed = new AtomicReference<>();

        fallback(server).stream(question(), handler(tokens, done, failed));

        assertThat(tokens).containsExactly("Keys rotate ");
        assertThat(done.get()).isNull();
        assertThat(failed.get()).isInstanceOf(LlmUnavailableException.class);
    }

    @Test
    void withoutModel_alwaysQuotesAndSaysWhyInItsHealth() {
        ExtractiveFallbackBackend backend = ExtractiveFallbackBackend.withoutModel(
                "no LLM backend provider with id 'ollama'; add the dependency dev.ragkit:rag-ollama");

        assertThat(backend.chat(question()).model()).isEqualTo(ExtractiveBackend.MODEL);
        assertThat(backend.answeringExtractively()).isTrue();
        HealthStatus health = backend.health("llama3.2");
        assertThat(health.reachable()).isFalse();
        assertThat(health.detail()).contains("dev.ragkit:rag-ollama").contains("answering extractively");
    }

    @Test
    void pipeline_serverDown_citesTheDocumentFlaggedExtractiveWithoutASelfRating() {
        Switchable server = new Switchable();
        List<AuditRecord> audit = new CopyOnWriteArrayList<>();
        DocumentStore store = InMemoryDocumentStore.builder().dimension(64).build();
        StoredDocument keys = StoredDocument.builder().tenant("acme").path("docs/keys.md").title("Keys")
                .charCount(KEYS.length()).build();
        store.upsert(keys, List.of(new StoredChunk(keys.id(), 0, KEYS, HashedBagOfWordsEmbedder.vector(KEYS, 64), 16,
                1, 1, null, null)));
        for (String other : List.of("Vacation requests go through the people portal.",
                "The cafeteria opens at eight and serves lunch until two.")) {
            StoredDocument o = StoredDocument.builder().tenant("acme").path(other.substring(0, 8) + ".md")
                    .title(other).charCount(other.length()).build();
            store.upsert(o, List.of(new StoredChunk(o.id(), 0, other, HashedBagOfWordsEmbedder.vector(other, 64), 12,
                    1, 1, null, null)));
        }
        RagPipeline rag = RagPipeline.builder().store(store).embedder(new HashedBagOfWordsEmbedder("toy", 64))
                .backend(fallback(server)).relevanceModel(RelevanceModel.fused()).confidenceThreshold(0)
                .auditSink(audit::add).build();

        RagResponse r = rag.ask(RagRequest.of("How often do API keys rotate?", Scope.of("acme")));

        assertThat(r.action()).isEqualTo(Action.CITE);
        assertThat(r.citations()).extracting(Citation::path).containsExactly("docs/keys.md");
        assertThat(r.flags()).contains(ResponseFlag.EXTRACTIVE_ANSWER)
                .doesNotContain(ResponseFlag.SELF_RATING_UNAVAILABLE);
        assertThat(r.modelUsed()).isEqualTo(ExtractiveBackend.MODEL);
        assertThat(r.confidence().selfRating()).isNull();
        assertThat(r.confidence().explanation()).contains("the answer is quoted");
        assertThat(audit).singleElement().satisfies(a -> assertThat(a.model()).isEqualTo(ExtractiveBackend.MODEL));
        assertThat(server.model.requests).as("no call reached the model").isEmpty();

        // a follow-up while the server is down: the quoted text never becomes the retrieval query
        RagResponse followUp = rag.ask(RagRequest.builder("And how is a key replaced early?", Scope.of("acme"))
                .history(List.of(ChatMessage.user("How often do API keys rotate?"),
                        ChatMessage.assistant(r.answer()))).build());
        assertThat(String.valueOf(followUp.retrievalQuery())).doesNotContain("Extractive answer");
        assertThat(followUp.flags()).contains(ResponseFlag.EXTRACTIVE_ANSWER);

        // the server is back after the interval: the model answers, unflagged
        server.up();
        now.addAndGet(Duration.ofSeconds(31).toNanos());
        RagResponse back = rag.ask(RagRequest.of("How often do API keys rotate?", Scope.of("acme")));
        assertThat(back.modelUsed()).isEqualTo("llama3.2");
        assertThat(back.flags()).doesNotContain(ResponseFlag.EXTRACTIVE_ANSWER);
        assertThat(back.confidence().selfRating()).isEqualTo(90);
    }

    private static StreamHandler handler(List<String> tokens, AtomicReference<ChatResult> done,
            AtomicReference<Throwable> failed) {
        return new StreamHandler() {
            @Override
            public void onToken(String token) {
                tokens.add(token);
            }

            @Override
            public void onComplete(ChatResult result) {
                done.set(result);
            }

            @Override
            public void onError(Throwable error) {
                failed.set(error);
            }
        };
    }
}
