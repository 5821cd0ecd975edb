package dev.ragkit.langchain4j;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.langchain4j.data.embedding.Embedding;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.rag.content.Content;
import dev.langchain4j.rag.content.ContentMetadata;
import dev.langchain4j.rag.query.Query;
import dev.langchain4j.service.AiServices;
import dev.langchain4j.store.embedding.inmemory.InMemoryEmbeddingStore;
import dev.ragkit.retrieval.RelevanceModel;
import dev.ragkit.retrieval.RetrievalOptions;
import dev.ragkit.audit.AuditOperation;
import dev.ragkit.audit.AuditRecord;
import dev.ragkit.retrieval.Retriever;
import dev.ragkit.store.DocumentStore;
import dev.ragkit.store.PromotionLevel;
import dev.ragkit.store.Scope;
import dev.ragkit.store.StoredChunk;
import dev.ragkit.store.StoredDocument;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The content retriever over the whole LangChain4j round trip: a RagKit retriever embedding with a LangChain4j
 * embedding model and searching a LangChain4j in-memory store through the bridge.
 */
final class RagKitContentRetrieverTest {

    private final DocumentStore store = LangChain4jDocumentStore.builder()
            .store(new InMemoryEmbeddingStore<TextSegment>()).dimension(4).build();
    /** Every text, the query included, embeds to (1, 0, 0, 0); chunks are stored with explicit vectors. */
    private final LangChain4jEmbedder embedder = LangChain4jEmbedder.of(new LangChain4jEmbedderTest.FakeEmbeddingModel(
            "axis", 4, texts -> texts.stream().map(t -> Embedding.from(new float[] {1, 0, 0, 0})).toList()));

    private static float[] atCosine(double cosine) {
        return new float[] {(float) cosine, (float) Math.sqrt(1 - cosine * cosine), 0, 0};
    }

    private StoredDocument put(String tenant, String path, PromotionLevel level, List<String> links, String text,
            double cosine, String... tags) {
        StoredDocument d = StoredDocument.builder().tenant(tenant).path(path).title("Title " + path)
                .promotionLevel(level).links(links).accessTags(tags).build();
        store.upsert(d, List.of(new StoredChunk(d.id(), 0, text, atCosine(cosine), 8, 1, 3, "Intro", null)));
        return d;
    }

    private void putCorpus() {
        put("acme", "policy/critical.md", PromotionLevel.CRITICAL, List.of(), "Never share keys in chat.", 0.0);
        put("acme", "guides/standard.md", PromotionLevel.STANDARD, List.of("guides/linked.md"),
                "Rotate keys from the console settings page.", 0.80);
        put("acme", "guides/important.md", PromotionLevel.IMPORTANT, List.of(),
                "Key rotation runs every month for production.", 0.75);
        put("acme", "guides/duplicate.md", PromotionLevel.STANDARD, List.of(),
                "Rotate keys from the console settings page.", 0.79);
        put("acme", "guides/linked.md", PromotionLevel.STANDARD, List.of(), "The console lives at console.example.", 0.1);
        put("acme", "hr/secret.md", PromotionLevel.CRITICAL, List.of(), "Salary bands.", 0.95, "hr");
        put("other", "guides/other.md", PromotionLevel.CRITICAL, List.of(), "Another tenant's text.", 0.99);
    }

    private RagKitContentRetriever contentRetriever() {
        // chunk by chunk (no neighbours), so each relevant chunk is one content with its own metadata
        Retriever retriever = Retriever.builder().store(store).embedder(embedder).relevanceModel(RelevanceModel.fused())
                .options(RetrievalOptions.builder().hybrid(false).includeCritical(true).linkDepth(1)
                        .neighbourChunks(0).build()).build();
        return RagKitContentRetriever.builder().retriever(retriever).store(store)
                .scope(query -> Scope.of("acme")).build();
    }

    private static String meta(Content c, String key) {
        Object value = c.textSegment().metadata().toMap().get(key);
        return value == null ? null : value.toString();
    }

    @Test
    void retrieve_query_returnsCriticalThenBoostedRelevantThenLinkedWithoutDuplicates() {
        putCorpus();

        List<Content> contents = contentRetriever().retrieve(Query.from("How do I rotate keys?"));

        assertThat(contents).extracting(c -> meta(c, RagKitContentRetriever.KIND) + " " + meta(c, "path"))
                .containsExactly(
                        "critical policy/critical.md",
                        "relevant guides/important.md",   // 0.75 + 0.10 boost = 0.85 beats 0.80
                        "relevant guides/standard.md",    // its near-duplicate at 0.79 is dropped
                        "linked guides/linked.md");
        assertThat(contents).extracting(c -> c.textSegment().text())
                .noneMatch(text -> text.contains("Salary") || text.contains("Another tenant"));
    }

    @Test
    void retrieve_relevantChunk_carriesSourceIdLinesAndAllScores() {
        putCorpus();

        Content important = contentRetriever().retrieve(Query.from("rotate keys")).get(1);

        StoredDocument doc = store.findByPaths(Scope.of("acme"), List.of("guides/important.md")).get(0);
        assertThat(important.textSegment().text()).isEqualTo("Key rotation runs every month for production.");
        assertThat(meta(important, RagKitContentRetriever.SOURCE_ID)).isEqualTo(doc.id() + ":0");
        assertThat(meta(important, RagKitContentRetriever.DOCUMENT_ID)).isEqualTo(doc.id());
        assertThat(meta(important, RagKitContentRetriever.TITLE)).isEqualTo("Title guides/important.md");
        assertThat(meta(important, RagKitContentRetriever.START_LINE)).isEqualTo("1");
        assertThat(meta(important, RagKitContentRetriever.END_LINE)).isEqualTo("3");
        assertThat(meta(important, RagKitContentRetriever.SECTION)).isEqualTo("Intro");
        assertThat(meta(important, RagKitContentRetriever.PROMOTION)).isEqualTo("important");
        assertThat(important.textSegment().metadata().getDouble(RagKitContentRetriever.SIMILARITY))
                .isCloseTo(0.75, within(1e-5));
        assertThat(important.textSegment().metadata().getDouble(RagKitContentRetriever.RELEVANCE))
                .isCloseTo(0.75, within(1e-5));
        assertThat(important.textSegment().metadata().getDouble(RagKitContentRetriever.BOOSTED))
                .isCloseTo(0.85, within(1e-5));
        assertThat((Double) important.metadata().get(ContentMetadata.SCORE)).isCloseTo(0.85, within(1e-5));
    }

    @Test
    void retrieve_linkedDocument_carriesWhereTheLinkCameFrom() {
        putCorpus();

        Content linked = contentRetriever().retrieve(Query.from("rotate keys")).get(3);

        assertThat(linked.textSegment().text()).isEqualTo("The console lives at console.example.");
        assertThat(meta(linked, RagKitContentRetriever.LINKED_FROM)).isEqualTo("guides/standard.md");
        assertThat(meta(linked, RagKitContentRetriever.LINK_DEPTH)).isEqualTo("1");
        assertThat(linked.metadata()).doesNotContainKey(ContentMetadata.SCORE);
    }

    @Test
    void retrieve_withoutStore_leavesLinkedDocumentsOut() {
        putCorpus();
        RagKitContentRetriever withoutStore = RagKitContentRetriever.builder()
                .retriever(Retriever.builder().store(store).embedder(embedder).relevanceModel(RelevanceModel.fused())
                        .options(RetrievalOptions.builder().hybrid(false).linkDepth(1).build()).build())
                .scope(Scope.of("acme")).build();

        assertThat(withoutStore.retrieve(Query.from("rotate keys")))
                .extracting(c -> meta(c, RagKitContentRetriever.KIND)).containsOnly("relevant");
    }

    @Test
    void retrieve_scopeFromQuery_seesTaggedDocumentsOnlyForThatScope() {
        putCorpus();
        Retriever retriever = Retriever.builder().store(store).embedder(embedder).relevanceModel(RelevanceModel.fused())
                .options(RetrievalOptions.builder().hybrid(false).includeCritical(true).build()).build();
        RagKitContentRetriever byUser = RagKitContentRetriever.builder().retriever(retriever)
                .scope(query -> query.text().startsWith("[hr]") ? Scope.of("acme", "hr") : Scope.of("acme")).build();

        assertThat(byUser.retrieve(Query.from("[hr] rotate keys"))).extracting(c -> meta(c, "path"))
                .contains("hr/secret.md");
        assertThat(byUser.retrieve(Query.from("rotate keys"))).extracting(c -> meta(c, "path"))
                .doesNotContain("hr/secret.md");
    }

    @Test
    void retrieve_retrieverWithAnAuditSink_auditsEveryCallWithItsScope() {
        putCorpus();
        List<AuditRecord> records = new java.util.concurrent.CopyOnWriteArrayList<>();
        Retriever retriever = Retriever.builder().store(store).embedder(embedder).relevanceModel(RelevanceModel.fused())
                .options(RetrievalOptions.builder().hybrid(false).build()).auditSink(records::add).build();
        RagKitContentRetriever audited = RagKitContentRetriever.builder().retriever(retriever).store(store)
                .scope(query -> query.text().startsWith("[hr]") ? Scope.of("acme", "hr") : Scope.of("acme")).build();

        List<Content> contents = audited.retrieve(Query.from("rotate keys"));
        audited.retrieve(Query.from("[hr] rotate keys"));

        assertThat(records).hasSize(2).allSatisfy(r -> {
            assertThat(r.operation()).isEqualTo(AuditOperation.RETRIEVE);
            assertThat(r.tenant()).isEqualTo("acme");
        });
        assertThat(records.get(0).sourceIds()).hasSize(contents.size());
        assertThat(records.get(1).querySha256()).isEqualTo(AuditRecord.sha256("[hr] rotate keys"));
    }

    @Test
    void builder_missingRetrieverOrScope_throwsIllegalState() {
        assertThatThrownBy(() -> RagKitContentRetriever.builder().scope(Scope.of("acme")).build())
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("retriever(..)");
    }

    interface Assistant {
        String chat(String question);
    }

    @Test
    void aiServices_withRagKitContentRetriever_injectsCriticalRelevantAndLinkedText() {
        putCorpus();
        List<ChatRequest> seen = new ArrayList<>();
        LangChain4jBackendTest.FakeChatModel model = LangChain4jBackendTest.FakeChatModel.answering("Use the console.");

        Assistant assistant = AiServices.builder(Assistant.class)
                .chatModel(model)
                .contentRetriever(contentRetriever()) // the one line that changes
                .build();
        String answer = assistant.chat("How do I rotate keys?");

        assertThat(answer).isEqualTo("Use the console.");
        seen.addAll(model.requests);
        String prompt = ((UserMessage) seen.get(0).messages().get(seen.get(0).messages().size() - 1)).singleText();
        assertThat(prompt).contains("How do I rotate keys?");
        assertThat(prompt.indexOf("Never share keys in chat.")).isPositive()
                .isLessThan(prompt.indexOf("Key rotation runs every month"));
        assertThat(prompt.indexOf("Key rotation runs every month"))
                .isLessThan(prompt.indexOf("Rotate keys from the console settings page."));
        assertThat(prompt).contains("The console lives at console.example.");
        assertThat(prompt.indexOf("Rotate keys from the console settings page."))
                .isEqualTo(prompt.lastIndexOf("Rotate keys from the console settings page."));
    }
}
