package dev.ragkit.store.inmemory;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ragkit.store.PromotionLevel;
import dev.ragkit.store.Scope;
import dev.ragkit.store.SearchHit;
import dev.ragkit.store.SearchRequest;
import dev.ragkit.store.StoredChunk;
import dev.ragkit.store.StoredDocument;
import java.util.ArrayList;
import java.util.List;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;

final class KeywordSearchTest {
    private static final Offset<Double> CLOSE = Offset.offset(1e-5);
    private final InMemoryDocumentStore store = InMemoryDocumentStore.builder().build();

    @Test
    void analyzer_isEnglish_stemsDropsStopWordsAndPossessives_unicodeIncluded() {
        List<String> terms = KeywordAnalyzer.terms("The KEYS rotate; a rotation of the user's keys. Größe, café!");

        assertThat(terms).doesNotContain("the", "a", "of");                 // English stop words
        assertThat(terms).contains("user").doesNotContain("user's");        // possessive removed
        assertThat(KeywordAnalyzer.terms("rotate")).isEqualTo(KeywordAnalyzer.terms("rotation"));
        assertThat(KeywordAnalyzer.terms("KEYS")).isEqualTo(KeywordAnalyzer.terms("keys"));
        assertThat(terms).anyMatch(t -> t.startsWith("größ")).anyMatch(t -> t.startsWith("caf"));
        assertThat(KeywordAnalyzer.terms("  ...  ")).isEmpty();
        assertThat(KeywordAnalyzer.terms("the of and")).isEmpty();
    }

    @Test
    void search_textOnly_findsOtherFormsOfAWord() {
        put("rotation.md", "t", List.of(), PromotionLevel.STANDARD, "Key rotation happens every ninety days");
        put("other.md", "t", List.of(), PromotionLevel.STANDARD, "The office closes in August");

        List<SearchHit> hits = store.search(SearchRequest.builder(Scope.of("t")).text("when do keys rotate").k(5)
                .build());

        assertThat(hits).extracting(h -> h.document().path()).containsExactly("rotation.md");
    }

    @Test
    void search_textOnly_scoresAreTextbookBm25() {
        put("a.md", "t", List.of(), PromotionLevel.STANDARD, "apple banana apple");
        put("b.md", "t", List.of(), PromotionLevel.STANDARD, "banana cherry");
        put("c.md", "t", List.of(), PromotionLevel.STANDARD, "cherry date elderberry fig");
        // N = 3 chunks, average length 3
        List<SearchHit> apple = text("t", "apple");
        assertThat(apple).hasSize(1);
        assertThat(apple.get(0).document().path()).isEqualTo("a.md");
        assertThat(apple.get(0).keywordScore()).isCloseTo(bm25(3, 1, 2, 3, 3.0), CLOSE);
        assertThat(apple.get(0).similarity()).isNaN();

        List<SearchHit> hits = text("t", "Banana, CHERRY?");
        assertThat(hits).extracting(h -> h.document().path()).containsExactly("b.md", "a.md", "c.md");
        assertThat(hits.get(0).keywordScore()).isCloseTo(2 * bm25(3, 2, 1, 2, 3.0), CLOSE);
        assertThat(hits.get(1).keywordScore()).isCloseTo(bm25(3, 2, 1, 3, 3.0), CLOSE);
        assertThat(hits.get(2).keywordScore()).isCloseTo(bm25(3, 2, 1, 4, 3.0), CLOSE);
    }

    @Test
    void search_textOnly_replacedAndDeletedChunksLeaveTheStatistics() {
        put("a.md", "t", List.of(), PromotionLevel.STANDARD, "apple banana apple");
        put("b.md", "t", List.of(), PromotionLevel.STANDARD, "banana cherry");
        put("c.md", "t", List.of(), PromotionLevel.STANDARD, "cherry date elderberry fig");
        put("b.md", "t", List.of(), PromotionLevel.STANDARD, "kiwi"); // replaces b.md
        store.delete(Scope.unrestricted("t"), StoredDocument.idFor("t", "c.md"));
        // live: "apple banana apple" (3), "kiwi" (1): N = 2, average length 2
        List<SearchHit> hits = text("t", "banana cherry");
        assertThat(hits).extracting(h -> h.document().path()).containsExactly("a.md");
        assertThat(hits.get(0).keywordScore()).isCloseTo(bm25(2, 1, 1, 3, 2.0), CLOSE);
    }

    @Test
    void search_textOnly_respectsTenantTagsAndFiltersBeforeTopK() {
        put("open.md", "t", List.of(), PromotionLevel.STANDARD, "zebra zebra zebra");
        put("secret.md", "t", List.of("hr"), PromotionLevel.CRITICAL, "zebra zebra");
        put("other.md", "u", List.of(), PromotionLevel.STANDARD, "zebra");
        assertThat(text("t", "zebra")).extracting(h -> h.document().path()).containsExactly("open.md");
        assertThat(store.search(SearchRequest.builder(Scope.of("t", "hr")).text("zebra").k(5).build()))
                .extracting(h -> h.document().path()).containsExactly("open.md", "secret.md");
        assertThat(store.search(SearchRequest.builder(Scope.of("t", "hr")).text("zebra").k(1)
                .minPromotion(PromotionLevel.CRITICAL).build()))
                .extracting(h -> h.document().path()).containsExactly("secret.md");
        assertThat(text("u", "zebra")).extracting(h -> h.document().path()).containsExactly("other.md");
    }

    @Test
    void search_hybrid_unionCarriesBothScoresOrderedBySimilarity() {
        put("keyword.md", "t", List.of(), PromotionLevel.STANDARD, "quokka habitat", new float[] {0, 1, 0});
        put("vector.md", "t", List.of(), PromotionLevel.STANDARD, "something else", new float[] {1, 0, 0});
        put("neither.md", "t", List.of(), PromotionLevel.STANDARD, "unrelated words", new float[] {0, 0, 1});
        List<SearchHit> hits = store.search(SearchRequest.builder(Scope.of("t")).vector(new float[] {1, 0.1f, 0})
                .text("quokka").k(1).build());
        assertThat(hits).extracting(h -> h.document().path()).containsExactly("vector.md", "keyword.md");
        assertThat(hits.get(0).keywordScore()).isZero();
        assertThat(hits.get(0).similarity()).isGreaterThan(0.99);
        assertThat(hits.get(1).keywordScore()).isPositive();
        assertThat(hits.get(1).similarity()).isCloseTo(0.1 / Math.sqrt(1.01), CLOSE);
    }

    /** Lucene-style BM25 of one term: k1 = 1.2, b = 0.75. */
    private static double bm25(int n, int df, int tf, int length, double averageLength) {
        double idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
        return idf * tf * 2.2 / (tf + 1.2 * (1 - 0.75 + 0.75 * length / averageLength));
    }

    private List<SearchHit> text(String tenant, String query) {
        return store.search(SearchRequest.builder(Scope.of(tenant)).text(query).k(10).build());
    }

    private void put(String path, String tenant, List<String> tags, PromotionLevel level, String text) {
        put(path, tenant, tags, level, text, new float[] {1, 1, 1});
    }

    private void put(String path, String tenant, List<String> tags, PromotionLevel level, String text, float[] v) {
        StoredDocument d = StoredDocument.builder().tenant(tenant).path(path).accessTags(tags).promotionLevel(level)
                .build();
        List<StoredChunk> chunks = new ArrayList<>();
        chunks.add(new StoredChunk(d.id(), 0, text, v, 3, 1, 1, null, null));
        store.upsert(d, chunks);
    }
}
