package dev.ragkit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ragkit.audit.AuditRecord;
import dev.ragkit.audit.AuditSink;
import dev.ragkit.generation.Cancellable;
import dev.ragkit.generation.ChatMessage;
import dev.ragkit.generation.ChatRequest;
import dev.ragkit.generation.ChatResult;
import dev.ragkit.generation.ExtractiveBackend;
import dev.ragkit.generation.FinishReason;
import dev.ragkit.generation.HealthStatus;
import dev.ragkit.generation.LlmBackend;
import dev.ragkit.generation.ModelInfo;
import dev.ragkit.generation.StreamHandler;
import dev.ragkit.embedding.Embedder;
import dev.ragkit.ingest.Indexer;
import dev.ragkit.retrieval.QueryTransformer;
import dev.ragkit.store.Scope;
import dev.ragkit.store.inmemory.InMemoryDocumentStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Follow-up questions: with history, retrieval embeds a standalone question — rewritten by the model (a recording
 * backend), or by the key-terms fallback when there is no model — and the rewrite is in the response and the audit.
 */
class FollowUpQuestionTest {
    private static final String FIRST = "Which backup jobs does the database team run?";
    private static final String FOLLOW_UP = "And how long is the second one kept?";
    private static final String STANDALONE = "How long is the weekly database backup kept?";

    @TempDir
    Path root;
    private InMemoryDocumentStore store;
    private final Embedder embedder = new WordEmbedder();
    private final List<AuditRecord> audit = new CopyOnWriteArrayList<>();

    @BeforeEach
    void index() throws IOException {
        Files.writeString(root.resolve("backups.md"), "# Database backups\n\nThe database team runs two backup "
                + "jobs: a nightly incremental backup and a weekly database backup. The weekly database backup is "
                + "kept for ninety days.\n");
        Files.writeString(root.resolve("holidays.md"), "# Holidays\n\nHow long is the summer break? The office "
                + "closes for two weeks in August; the second one is kept for maintenance.\n");
        store = InMemoryDocumentStore.builder().build();
        Indexer.builder().store(store).embedder(embedder).tenant("acme").build().index(root);
    }

    private RagRequest followUp() {
        return RagRequest.builder(FOLLOW_UP, Scope.of("acme"))
                .history(List.of(ChatMessage.user(FIRST), ChatMessage.assistant("Two: a nightly incremental "
                        + "backup and a weekly database backup."))).build();
    }

    @Test
    void withAModel_theFollowUpIsRewrittenAndRetrievesTheRightDocument() {
        Recording backend = new Recording(STANDALONE);
        RagPipeline rag = RagPipeline.builder().store(store).embedder(embedder).backend(backend).model("llama3.2")
                .selfRating(false).auditSink(audit::add).build();

        RagResponse response = rag.ask(followUp());

        assertThat(backend.requests.get(0).messages().get(1).content()).contains(FIRST).contains(FOLLOW_UP);
        assertThat(backend.requests.get(0).maxResponseTokens()).isLessThanOrEqualTo(96);
        assertThat(response.retrievalQuery()).isEqualTo(STANDALONE);
        assertThat(response.sources()).isNotEmpty();
        assertThat(response.sources().get(0).path()).isEqualTo("backups.md");
        ChatRequest answering = backend.requests.get(1);
        assertThat(answering.messages().get(answering.messages().size() - 1).content()).contains(FOLLOW_UP);
        assertThat(audit).singleElement().satisfies(r -> {
            assertThat(r.retrievalQuery()).isEqualTo("sha256:" + AuditRecord.sha256(STANDALONE));
            assertThat(r.query()).isNull();
        });
    }

    @Test
    void theSameFollowUpWithoutRewriting_findsTheWrongDocument() {
        RagPipeline rag = RagPipeline.builder().store(store).embedder(embedder).backend(new Recording("unused"))
                .model("llama3.2").selfRating(false).queryTransformer(QueryTransformer.identity()).build();

        RagResponse response = rag.ask(followUp());

        assertThat(response.retrievalQuery()).isNull();
        assertThat(response.sources().get(0).path()).isEqualTo("holidays.md");
    }

    @Test
    void whenTheModelFailsOrRambles_theKeyTermsFallbackIsUsed() {
        String keyTerms = QueryTransformer.keyTerms().standalone(FOLLOW_UP, followUp().history());
        assertThat(keyTerms).startsWith(FOLLOW_UP);
        assertThat(keyTerms.substring(FOLLOW_UP.length())).contains("backup").contains("database")
                .doesNotContain(" the ").doesNotContain("does");          // stop words are not key terms

        Recording rambling = new Recording("");
        assertThat(QueryTransformer.llm(rambling, "m", QueryTransformer.keyTerms())
                .standalone(FOLLOW_UP, followUp().history())).isEqualTo(keyTerms);
    }

    @Test
    void extractiveAnswers_useTheKeyTermsAndStillFindTheRightDocument() {
        RagPipeline rag = RagPipeline.builder().store(store).embedder(embedder).backend(new ExtractiveBackend())
                .model(ExtractiveBackend.MODEL).selfRating(false).build();

        RagResponse response = rag.ask(followUp());

        assertThat(response.retrievalQuery()).startsWith(FOLLOW_UP).contains("backup");
        assertThat(response.sources().get(0).path()).isEqualTo("backups.md");
    }

    @Test
    void withoutHistory_theQuestionIsUsedAsAsked() {
        Recording backend = new Recording("never asked");
        RagPipeline rag = RagPipeline.builder().store(store).embedder(embedder).backend(backend).model("llama3.2")
                .selfRating(false).build();

        RagResponse response = rag.ask(RagRequest.of(FIRST, Scope.of("acme")));

        assertThat(response.retrievalQuery()).isNull();
        assertThat(backend.requests).hasSize(1);                 // the answer only, no rewrite call
    }

    /** Answers the rewrite request with {@code rewrite} and every other request with a cited sentence. */
    private static final class Recording implements LlmBackend {
        final List<ChatRequest> requests = new CopyOnWriteArrayList<>();
        private final String rewrite;

        Recording(String rewrite) {
            this.rewrite = rewrite;
        }

        @Override
        public String name() {
            return "recording";
        }

        @Override
        public ChatResult chat(ChatRequest request) {
            requests.add(request);
            boolean rewriting = request.messages().get(0).content().startsWith("Rewrite the user's last question");
            return new ChatResult(rewriting ? rewrite : "Ninety days.", request.model(), FinishReason.STOP, 10, 3,
                    Duration.ofMillis(1));
        }

        @Override
        public Cancellable stream(ChatRequest request, StreamHandler handler) {
            throw new UnsupportedOperationException();
        }

        @Override
        public ModelInfo modelInfo(String model) {
            return new ModelInfo(model, 8192, 1024);
        }

        @Override
        public HealthStatus health(String model) {
            return new HealthStatus(true, true, Duration.ZERO, null, "ok");
        }
    }

    /** Bag of words without stop words: "the second one" must not find the backups on its own. */
    private static final class WordEmbedder implements Embedder {
        @Override
        public float[][] embed(List<String> texts) {
            float[][] out = new float[texts.size()][];
            for (int i = 0; i < out.length; i++) {
                float[] v = new float[128];
                v[127] = 0.01f;
                for (String w : dev.ragkit.internal.KeyTerms.of(texts.get(i).toLowerCase(Locale.ROOT))) {
                    v[Math.floorMod(w.hashCode(), 127)] += 1;
                }
                out[i] = v;
            }
            return out;
        }

        @Override
        public int dimension() {
            return 128;
        }

        @Override
        public String name() {
            return "key-terms-128";
        }
    }
}
