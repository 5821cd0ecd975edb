package dev.ragkit.store.tck;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ragkit.store.PromotionLevel;
import dev.ragkit.store.Scope;
import dev.ragkit.store.SearchHit;
import dev.ragkit.store.SearchRequest;
import dev.ragkit.store.StoredDocument;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Doc-type and promotion filters apply before the top-k cut. */
abstract class FiltersCases extends ContractFixtures {

    @Test
    void search_docTypeFilterWithManyCloserNonMatchingChunks_returnsExactlyKMatching() {
        FilterCorpus c = putFilterCorpus();

        List<SearchHit> hits = store().search(SearchRequest.builder(Scope.of(TENANT_A))
                .vector(axis(0)).k(5).docTypes("guide").build());

        assertThat(sourceIds(hits)).containsExactlyElementsOf(sourceIds(c.guide(), 0, 1, 2, 3, 4));
    }

    @Test
    void search_docTypeFilterAndLargeK_returnsEveryMatchingChunk() {
        FilterCorpus c = putFilterCorpus();

        List<SearchHit> hits = store().search(SearchRequest.builder(Scope.of(TENANT_A))
                .vector(axis(0)).k(requireMaxK(30)).docTypes("guide").build());

        assertThat(hits).hasSize(12).allSatisfy(hit -> assertThat(hit.document().docType()).isEqualTo("guide"));
        assertThat(hits).extracting(SearchHit::document).containsOnly(c.guide(), c.critical());
    }

    @Test
    void search_minPromotionWithManyCloserStandardChunks_returnsExactlyKQualifying() {
        FilterCorpus c = putFilterCorpus();

        List<SearchHit> hits = store().search(SearchRequest.builder(Scope.of(TENANT_A))
                .vector(axis(0)).k(6).minPromotion(PromotionLevel.IMPORTANT).build());

        List<String> expected = new ArrayList<>(sourceIds(c.important(), 0, 1, 2, 3));
        expected.addAll(sourceIds(c.critical(), 0, 1));
        assertThat(sourceIds(hits)).containsExactlyElementsOf(expected);
    }

    @Test
    void search_minPromotionCritical_returnsOnlyCriticalChunks() {
        FilterCorpus c = putFilterCorpus();

        List<SearchHit> hits = store().search(SearchRequest.builder(Scope.of(TENANT_A))
                .vector(axis(0)).k(3).minPromotion(PromotionLevel.CRITICAL).build());

        assertThat(sourceIds(hits)).containsExactlyElementsOf(sourceIds(c.critical(), 0, 1, 2));
    }

    @Test
    void search_docTypeAndMinPromotion_appliesBoth() {
        FilterCorpus c = putFilterCorpus();

        List<SearchHit> hits = store().search(SearchRequest.builder(Scope.of(TENANT_A))
                .vector(axis(0)).k(2).docTypes("guide").minPromotion(PromotionLevel.IMPORTANT).build());

        assertThat(sourceIds(hits)).containsExactlyElementsOf(sourceIds(c.critical(), 0, 1));
    }

    @Test
    void search_docTypeFilter_neverMatchesDocumentWithoutType() {
        FilterCorpus c = putFilterCorpus();
        int k = requireMaxK(40);

        List<SearchHit> filtered = store().search(SearchRequest.builder(Scope.of(TENANT_A))
                .vector(axis(0)).k(k).docTypes("faq", "guide").build());
        List<SearchHit> unfiltered = searchVector(Scope.of(TENANT_A), axis(0), k);

        assertThat(filtered).hasSize(28).extracting(SearchHit::document).doesNotContain(c.untyped());
        assertThat(unfiltered).hasSize(32).extracting(SearchHit::document).contains(c.untyped());
    }

    @Test
    void searchText_docTypeFilterWithManyBetterNonMatchingChunks_returnsExactlyKMatching() {
        assumeKeywordSearch();
        StoredDocument faq = document(TENANT_A, "text/faq.md").docType("faq").build();
        StoredDocument guide = document(TENANT_A, "text/guide.md").docType("guide").build();
        StoredDocument filler = document(TENANT_A, "text/filler.md").docType("guide").build();
        put(faq, "zephyr zephyr zephyr", descendingCosines(0.9, 0.01, 10));
        put(guide, "zephyr among several other longer words here", descendingCosines(0.5, 0.01, 4));
        put(filler, "nothing relevant in this text", descendingCosines(0.3, 0.01, 20));

        List<SearchHit> hits = store().search(SearchRequest.builder(Scope.of(TENANT_A))
                .text("zephyr").k(3).docTypes("guide").build());

        assertThat(hits).hasSize(3).allSatisfy(hit -> {
            assertThat(hit.document()).isEqualTo(guide);
            assertThat(hit.keywordScore()).isPositive();
        });
    }

    @Test
    void searchText_minPromotionWithManyBetterStandardChunks_returnsExactlyKQualifying() {
        assumeKeywordSearch();
        StoredDocument standard = document(TENANT_A, "text/standard.md").build();
        StoredDocument critical = document(TENANT_A, "text/critical.md")
                .promotionLevel(PromotionLevel.CRITICAL).build();
        StoredDocument filler = document(TENANT_A, "text/filler.md").build();
        put(standard, "zephyr zephyr zephyr", descendingCosines(0.9, 0.01, 10));
        put(critical, "zephyr among several other longer words here", descendingCosines(0.5, 0.01, 4));
        put(filler, "nothing relevant in this text", descendingCosines(0.3, 0.01, 20));

        List<SearchHit> hits = store().search(SearchRequest.builder(Scope.of(TENANT_A))
                .text("zephyr").k(2).minPromotion(PromotionLevel.CRITICAL).build());

        assertThat(hits).hasSize(2).extracting(SearchHit::document).containsOnly(critical);
    }
}
