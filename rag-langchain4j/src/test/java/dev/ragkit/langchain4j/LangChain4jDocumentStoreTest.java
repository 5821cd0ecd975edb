package dev.ragkit.langchain4j;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.langchain4j.data.document.Metadata;
import dev.langchain4j.data.embedding.Embedding;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.store.embedding.EmbeddingMatch;
import dev.langchain4j.store.embedding.EmbeddingSearchRequest;
import dev.langchain4j.store.embedding.EmbeddingSearchResult;
import dev.langchain4j.store.embedding.EmbeddingStore;
import dev.langchain4j.store.embedding.inmemory.InMemoryEmbeddingStore;
import dev.ragkit.store.PromotionLevel;
import dev.ragkit.store.Scope;
import dev.ragkit.store.SearchHit;
import dev.ragkit.store.SearchRequest;
import dev.ragkit.store.StoreException;
import dev.ragkit.store.StoredChunk;
import dev.ragkit.store.StoredDocument;
import java.time.LocalDate;
import java.util.Collection;
import java.util.List;
import org.junit.jupiter.api.Test;

final class LangChain4jDocumentStoreTest {

    private final InMemoryEmbeddingStore<TextSegment> lc = new InMemoryEmbeddingStore<>();

    private static float[] atCosine(double cosine) {
        return new float[] {(float) cosine, (float) Math.sqrt(1 - cosine * cosine), 0, 0};
    }

    private static StoredDocument doc(String tenant, String path, String... tags) {
        return StoredDocument.builder().tenant(tenant).path(path).accessTags(tags).build();
    }

    private static List<StoredChunk> chunks(StoredDocument d, double... cosines) {
        return java.util.stream.IntStream.range(0, cosines.length)
                .mapToObj(i -> new StoredChunk(d.id(), i, "text " + i + " of " + d.path(), atCosine(cosines[i]), 4,
                        i + 1, i + 1, null, null))
                .toList();
    }

    /** Delegates to an in-memory store; optionally drops the filter or refuses removals. */
    private static final class WrappedStore implements EmbeddingStore<TextSegment> {
        private final InMemoryEmbeddingStore<TextSegment> inner = new InMemoryEmbeddingStore<>();
        private final boolean ignoreFilters;
        private final boolean refuseRemovals;

        WrappedStore(boolean ignoreFilters, boolean refuseRemovals) {
            this.ignoreFilters = ignoreFilters;
            this.refuseRemovals = refuseRemovals;
        }

        @Override
        public String add(Embedding embedding) {
            return inner.add(embedding);
        }

        @Override
        public void add(String id, Embedding embedding) {
            inner.add(id, embedding);
        }

        @Override
        public String add(Embedding embedding, TextSegment segment) {
            return inner.add(embedding, segment);
        }

        @Override
        public List<String> addAll(List<Embedding> embeddings) {
            return inner.addAll(embeddings);
        }

        @Override
        public void addAll(List<String> ids, List<Embedding> embeddings, List<TextSegment> segments) {
            inner.addAll(ids, embeddings, segments);
        }

        @Override
        public void removeAll(Collection<String> ids) {
            if (refuseRemovals) {
                throw new UnsupportedOperationException("removeAll(ids) is not supported");
            }
            inner.removeAll(ids);
        }

        @Override
        public EmbeddingSearchResult<TextSegment> search(EmbeddingSearchRequest request) {
            if (!ignoreFilters) {
                return inner.search(request);
            }
            return inner.search(EmbeddingSearchRequest.builder().queryEmbedding(request.queryEmbedding())
                    .maxResults(request.maxResults()).minScore(request.minScore()).build());
        }
    }

    @Test
    void capabilities_always_declareNoKeywordSearchNotPersistentAndMaxK() {
        LangChain4jDocumentStore store = LangChain4jDocumentStore.builder().store(lc).maxK(50).build();

        assertThat(store.capabilities().keywordSearch()).isFalse();
        assertThat(store.capabilities().persistent()).isFalse();
        assertThat(store.capabilities().maxK()).isEqualTo(50);
    }

    @Test
    void upsert_document_writesOneSegmentPerChunkWithDenormalisedMetadata() {
        LangChain4jDocumentStore store = LangChain4jDocumentStore.builder().store(lc).dimension(4).build();
        StoredDocument d = StoredDocument.builder().tenant("acme").path("guides/keys.md").title("Keys")
                .docType("guide").promotionLevel(PromotionLevel.IMPORTANT).date(LocalDate.of(2024, 3, 1))
                .accessTags("eng", "on_call", "r&d").ownerTag("platform").build();
        StoredChunk chunk = new StoredChunk(d.id(), 0, "Rotate keys monthly.", atCosine(0.9), 4, 3, 7,
                "Keys > Rotation", 2);

        store.upsert(d, List.of(chunk));

        List<EmbeddingMatch<TextSegment>> all = lc.search(EmbeddingSearchRequest.builder()
                .queryEmbedding(Embedding.from(atCosine(1))).maxResults(10).build()).matches();
        assertThat(all).singleElement().satisfies(match -> {
            TextSegment segment = match.embedded();
            Metadata m = segment.metadata();
            assertThat(segment.text()).isEqualTo("Rotate keys monthly.");
            assertThat(m.getString("ragkit_tenant")).isEqualTo("acme");
            assertThat(m.getString("ragkit_document_id")).isEqualTo(d.id());
            assertThat(m.getString("ragkit_source_id")).isEqualTo(d.id() + ":0");
            assertThat(m.getString("ragkit_path")).isEqualTo("guides/keys.md");
            assertThat(m.getString("ragkit_title")).isEqualTo("Keys");
            assertThat(m.getString("ragkit_doc_type")).isEqualTo("guide");
            assertThat(m.getInteger("ragkit_promotion")).isEqualTo(1);
            assertThat(m.getString("ragkit_owner_tag")).isEqualTo("platform");
            assertThat(m.getString("ragkit_date")).isEqualTo("2024-03-01");
            assertThat(m.getInteger("ragkit_start_line")).isEqualTo(3);
            assertThat(m.getInteger("ragkit_end_line")).isEqualTo(7);
            assertThat(m.getString("ragkit_section")).isEqualTo("Keys > Rotation");
            assertThat(m.getInteger("ragkit_page")).isEqualTo(2);
            assertThat(m.getInteger("ragkit_tagged")).isEqualTo(1);
            assertThat(m.getInteger("ragkit_tag_eng")).isEqualTo(1);
            assertThat(m.getInteger("ragkit_tag_on__call")).isEqualTo(1);
            assertThat(m.getInteger("ragkit_tag_r_0026d")).isEqualTo(1);
        });
    }

    @Test
    void tagKey_differentTags_neverShareAKey() {
        assertThat(LangChain4jDocumentStore.tagKey("a_b")).isEqualTo("ragkit_tag_a__b");
        assertThat(LangChain4jDocumentStore.tagKey("a b")).isEqualTo("ragkit_tag_a_0020b");
        assertThat(LangChain4jDocumentStore.tagKey("a_0020b")).isEqualTo("ragkit_tag_a__0020b");
        assertThat(LangChain4jDocumentStore.tagKey("é")).isEqualTo("ragkit_tag__00e9");
    }

    @Test
    void search_tagWithSpecialCharacters_visibleOnlyToScopesSharingIt() {
        LangChain4jDocumentStore store = LangChain4jDocumentStore.builder().store(lc).build();
        StoredDocument special = doc("acme", "rd.md", "r&d team");
        store.upsert(special, chunks(special, 0.9));

        assertThat(store.search(SearchRequest.builder(Scope.of("acme", "r&d team")).vector(atCosine(1)).build()))
                .hasSize(1);
        assertThat(store.search(SearchRequest.builder(Scope.of("acme", "r&d")).vector(atCosine(1)).build()))
                .isEmpty();
    }

    @Test
    void search_storeThatIgnoresFilters_throwsStoreExceptionInsteadOfLeaking() {
        LangChain4jDocumentStore store = LangChain4jDocumentStore.builder()
                .store(new WrappedStore(true, false)).build();
        StoredDocument other = doc("other", "secret.md");
        StoredDocument mine = doc("acme", "public.md");
        store.upsert(other, chunks(other, 0.99));
        store.upsert(mine, chunks(mine, 0.5));

        assertThatThrownBy(() -> store.search(SearchRequest.builder(Scope.of("acme")).vector(atCosine(1)).build()))
                .isInstanceOf(StoreException.class)
                .hasMessageContaining("does not apply metadata filters").hasMessageContaining("another tenant");
    }

    @Test
    void search_storeThatIgnoresFiltersWithinTenant_throwsOnInvisibleTaggedDocument() {
        LangChain4jDocumentStore store = LangChain4jDocumentStore.builder()
                .store(new WrappedStore(true, false)).build();
        StoredDocument hr = doc("acme", "hr.md", "hr");
        store.upsert(hr, chunks(hr, 0.9));

        assertThatThrownBy(() -> store.search(SearchRequest.builder(Scope.of("acme")).vector(atCosine(1)).build()))
                .isInstanceOf(StoreException.class).hasMessageContaining("access tags");
    }

    @Test
    void upsert_storeWithoutRemoval_failsLoudlyAndKeepsOldVersion() {
        LangChain4jDocumentStore store = LangChain4jDocumentStore.builder()
                .store(new WrappedStore(false, true)).build();
        StoredDocument d = doc("acme", "doc.md");
        List<StoredChunk> first = chunks(d, 0.9, 0.8);
        store.upsert(d, first);

        assertThatThrownBy(() -> store.upsert(d, chunks(d, 0.3)))
                .isInstanceOf(StoreException.class).hasMessageContaining("removeAll(ids)");

        assertThat(store.chunks(Scope.of("acme"), d.id())).containsExactlyElementsOf(first);
        assertThat(store.search(SearchRequest.builder(Scope.of("acme")).vector(atCosine(1)).build()))
                .extracting(SearchHit::sourceId).containsExactly(d.id() + ":0", d.id() + ":1");
    }

    @Test
    void search_segmentsNotWrittenByTheBridge_areSkipped() {
        Metadata foreign = new Metadata().put("ragkit_tenant", "acme").put("ragkit_document_id", "ghost")
                .put("ragkit_version", "old").put("ragkit_tagged", 0);
        lc.add(Embedding.from(atCosine(1)), TextSegment.from("left over", foreign));
        LangChain4jDocumentStore store = LangChain4jDocumentStore.builder().store(lc).build();
        StoredDocument d = doc("acme", "doc.md");
        store.upsert(d, chunks(d, 0.5));

        assertThat(store.search(SearchRequest.builder(Scope.of("acme")).vector(atCosine(1)).k(1).build()))
                .extracting(SearchHit::sourceId).containsExactly(d.id() + ":0");
    }

    @Test
    void search_relevanceScore_convertedBackToRawCosine() {
        LangChain4jDocumentStore store = LangChain4jDocumentStore.builder().store(lc).build();
        StoredDocument d = doc("acme", "doc.md");
        store.upsert(d, chunks(d, 0.6, -0.4));

        List<SearchHit> hits = store.search(SearchRequest.builder(Scope.of("acme")).vector(atCosine(1)).build());

        assertThat(hits).extracting(SearchHit::similarity).satisfiesExactly(
                s -> assertThat(s).isCloseTo(0.6, org.assertj.core.api.Assertions.within(1e-6)),
                s -> assertThat(s).isZero());
    }

    @Test
    void searchText_withoutVector_throwsIllegalArgumentNamingKeywordSearch() {
        LangChain4jDocumentStore store = LangChain4jDocumentStore.builder().store(lc).build();

        assertThatThrownBy(() -> store.search(SearchRequest.builder(Scope.of("acme")).text("keys").build()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("keyword");
    }

    @Test
    void builder_withoutStore_throwsIllegalState() {
        assertThatThrownBy(() -> LangChain4jDocumentStore.builder().build())
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("store(..)");
        assertThatThrownBy(() -> LangChain4jDocumentStore.builder().dimension(0))
                .isInstanceOf(IllegalArgumentException.class);
    }

    /** Refuses searches whose filter contains a negation, as some remote stores do. */
    private static final class NoNegationStore extends InMemoryEmbeddingStore<TextSegment> {
        @Override
        public EmbeddingSearchResult<TextSegment> search(EmbeddingSearchRequest request) {
            if (String.valueOf(request.filter()).contains("Not")) {
                throw new UnsupportedOperationException("Not filters are not supported");
            }
            return super.search(request);
        }
    }

    @Test
    void search_metadataFilter_mapsOntoLangChain4jFilterBeforeTheTopKCut() {
        LangChain4jDocumentStore store = LangChain4jDocumentStore.builder().store(lc).build();
        StoredDocument old = StoredDocument.builder().tenant("t").path("old.md")
                .metadata(java.util.Map.of("year", "2019", "published", "2019-05-01")).build();
        StoredDocument recent = StoredDocument.builder().tenant("t").path("recent.md")
                .metadata(java.util.Map.of("year", "2025", "published", "2025-05-01T10:00:00Z")).build();
        store.upsert(old, chunks(old, 0.9, 0.8));
        store.upsert(recent, chunks(recent, 0.2));

        SearchRequest byNumber = SearchRequest.builder(Scope.of("t")).vector(atCosine(1)).k(1)
                .metadataFilter("year >= 2020").build();
        SearchRequest byDate = SearchRequest.builder(Scope.of("t")).vector(atCosine(1)).k(1)
                .metadataFilter("published < 2020-01-01 and not year in (2025)").build();

        assertThat(store.search(byNumber)).extracting(SearchHit::document).containsExactly(recent);
        assertThat(store.search(byDate)).extracting(SearchHit::document).containsExactly(old);
    }

    @Test
    void search_storeWithoutNegation_throwsUnsupportedOperationNamingTheFilter() {
        LangChain4jDocumentStore store = LangChain4jDocumentStore.builder().store(new NoNegationStore()).build();
        StoredDocument d = StoredDocument.builder().tenant("t").path("a.md").metadata(java.util.Map.of("k", "v")).build();
        store.upsert(d, chunks(d, 0.9));

        assertThatThrownBy(() -> store.search(SearchRequest.builder(Scope.of("t")).vector(atCosine(1))
                .metadataFilter("k != v").build()))
                .isInstanceOf(UnsupportedOperationException.class).hasMessageContaining("not k = v")
                .hasMessageContaining("NoNegationStore");
        assertThat(store.search(SearchRequest.builder(Scope.of("t")).vector(atCosine(1)).metadataFilter("k = v")
                .build())).hasSize(1);
    }

    @Test
    void search_storeIgnoringTheMetadataFilter_refusesToAnswer() {
        LangChain4jDocumentStore store = LangChain4jDocumentStore.builder().store(new WrappedStore(true, false)).build();
        StoredDocument d = StoredDocument.builder().tenant("t").path("a.md").metadata(java.util.Map.of("k", "v")).build();
        store.upsert(d, chunks(d, 0.9));

        assertThatThrownBy(() -> store.search(SearchRequest.builder(Scope.of("t")).vector(atCosine(1))
                .metadataFilter("k = other").build())).isInstanceOf(StoreException.class)
                .hasMessageContaining("metadata");
    }

    @Test
    void limitations_sayPlainlyThatTheListingLivesInThisJvm() {
        assertThat(LangChain4jDocumentStore.limitations()).anySatisfy(l -> assertThat(l)
                .contains("listing is kept in this JVM").contains("after a restart"));
        assertThat(LangChain4jDocumentStore.builder().store(new dev.langchain4j.store.embedding.inmemory
                .InMemoryEmbeddingStore<>()).dimension(4).build().capabilities().persistent()).isFalse();
    }
}
