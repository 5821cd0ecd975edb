package dev.ragkit.store.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import dev.ragkit.store.Scope;
import dev.ragkit.store.SearchHit;
import dev.ragkit.store.SearchRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** Keyword (BM25) and hybrid search, or their absence. */
abstract class KeywordSearchCases extends ContractFixtures {

    @Test
    void searchText_rareTerm_ranksChunksContainingItFirst() {
        assumeKeywordSearch();
        KeywordCorpus c = putKeywordCorpus();

        List<SearchHit> hits = searchText(Scope.of(TENANT_A), "install zephyr", requireMaxK(20));

        assertThat(hits).isNotEmpty();
        assertThat(hits.get(0).sourceId()).isEqualTo(c.zephyrSourceId());
    }

    @Test
    void searchText_chunksContainingQueryTerms_haveNaNSimilarityAndPositiveKeywordScore() {
        assumeKeywordSearch();
        KeywordCorpus c = putKeywordCorpus();

        List<SearchHit> hits = searchText(Scope.of(TENANT_A), "install zephyr", requireMaxK(20));

        List<String> expectedMatches = new ArrayList<>(sourceIds(c.one(), 0, 1, 2, 3, 4, 5));
        expectedMatches.add(c.zephyrSourceId());
        List<SearchHit> matches = hits.stream()
                .filter(hit -> expectedMatches.contains(hit.sourceId())).collect(Collectors.toList());
        assertThat(matches).extracting(SearchHit::sourceId).containsExactlyInAnyOrderElementsOf(expectedMatches);
        assertThat(matches).allSatisfy(hit -> {
            assertThat(hit.similarity()).isNaN();
            assertThat(hit.keywordScore()).isPositive();
            assertThat(hit.chunk().embedding()).isNull();
        });
    }

    @Test
    void searchText_chunksWithoutQueryTerms_absentOrScoredZeroAfterMatches() {
        assumeKeywordSearch();
        putKeywordCorpus();

        List<SearchHit> hits = searchText(Scope.of(TENANT_A), "install zephyr", requireMaxK(20));

        boolean seenNonMatch = false;
        for (SearchHit hit : hits) {
            List<String> words = tokens(hit.chunk().text());
            boolean matches = words.contains("install") || words.contains("zephyr");
            if (matches) {
                assertThat(seenNonMatch).as("%s contains a query term but ranks after a chunk without any",
                        hit.sourceId()).isFalse();
            } else {
                seenNonMatch = true;
                assertThat(hit.keywordScore()).as("keyword score of %s, which has no query term", hit.sourceId())
                        .isEqualTo(0.0);
            }
        }
    }

    @Test
    void searchText_results_orderedByKeywordScoreDescending() {
        assumeKeywordSearch();
        putKeywordCorpus();

        List<SearchHit> hits = searchText(Scope.of(TENANT_A), "install zephyr package", requireMaxK(20));

        assertThat(hits).hasSizeGreaterThanOrEqualTo(7);
        assertRanked(hits, SearchHit::keywordScore, "keyword score");
    }

    @Test
    void searchText_identicalChunkTexts_tiesBrokenByDocumentIdThenChunkIndex() {
        assumeKeywordSearch();
        for (String id : List.of("doc-c", "doc-a", "doc-b")) {
            put(document(TENANT_A, "tie/" + id + ".md").id(id).build(), "lantern festival",
                    vectorAtCosine(0.5), vectorAtCosine(0.6));
        }
        float[][] fillers = descendingCosines(0.9, 0.01, 10);
        put(document(TENANT_A, "tie/filler.md").build(), "unrelated words only", fillers);

        List<SearchHit> hits = searchText(Scope.of(TENANT_A), "lantern", requireMaxK(20));

        List<SearchHit> matches = hits.stream().filter(hit -> hit.keywordScore() > 0).collect(Collectors.toList());
        assertThat(sourceIds(matches))
                .containsExactly("doc-a:0", "doc-a:1", "doc-b:0", "doc-b:1", "doc-c:0", "doc-c:1");
        assertRanked(hits, SearchHit::keywordScore, "keyword score");
    }

    @Test
    void searchHybrid_hits_carrySimilarityAndKeywordScore() {
        assumeKeywordSearch();
        putKeywordCorpus();

        List<SearchHit> hits = store().search(SearchRequest.builder(Scope.of(TENANT_A))
                .vector(axis(0)).text("install zephyr").k(3).build());

        assertThat(hits).isNotEmpty().allSatisfy(hit -> {
            assertThat(hit.similarity()).isBetween(0.0, 1.0);
            assertThat(hit.keywordScore()).isNotNaN().isGreaterThanOrEqualTo(0.0);
        });
    }

    @Test
    void searchHybrid_bestKeywordMatchWithDissimilarVector_isIncluded() {
        assumeKeywordSearch();
        KeywordCorpus c = putKeywordCorpus();

        List<SearchHit> hits = store().search(SearchRequest.builder(Scope.of(TENANT_A))
                .vector(axis(0)).text("zephyr").k(2).build());

        assertThat(hits).filteredOn(hit -> hit.sourceId().equals(c.zephyrSourceId())).singleElement()
                .satisfies(hit -> {
                    assertThat(hit.similarity()).isEqualTo(0.0);
                    assertThat(hit.keywordScore()).isPositive();
                });
    }

    @Test
    void searchHybrid_results_unionOfVectorAndKeywordTopKOrderedBySimilarity() {
        assumeKeywordSearch();
        KeywordCorpus c = putKeywordCorpus();

        List<SearchHit> hits = store().search(SearchRequest.builder(Scope.of(TENANT_A))
                .vector(axis(0)).text("zephyr").k(2).build());

        assertThat(hits).hasSizeBetween(3, 4);
        assertThat(sourceIds(hits)).contains(c.one().id() + ":0", c.one().id() + ":1", c.zephyrSourceId());
        assertThat(sourceIds(hits).subList(0, 2)).containsExactlyElementsOf(sourceIds(c.one(), 0, 1));
        assertRanked(hits, SearchHit::similarity, "similarity");
    }

    @Test
    void search_vectorOnly_keywordScoreIsNaN() {
        put(document(TENANT_A, "vector.md").build(), "install zephyr", descendingCosines(0.9, 0.1, 3));

        assertThat(searchVector(Scope.of(TENANT_A), axis(0), 3)).hasSize(3)
                .allSatisfy(hit -> assertThat(hit.keywordScore()).isNaN());
    }

    @Test
    void searchText_storeWithoutKeywordSearch_throwsIllegalArgumentException() {
        assumeFalse(store().capabilities().keywordSearch(), "the store declares keyword search");
        put(document(TENANT_A, "text.md").build(), "install zephyr", vectorAtCosine(0.9));

        assertThatThrownBy(() -> searchText(Scope.of(TENANT_A), "zephyr", 5))
                .isInstanceOf(IllegalArgumentException.class)
                .satisfies(e -> assertMessageMentions(e, "keyword", "text"));
    }

    @Test
    void searchHybrid_storeWithoutKeywordSearch_returnsVectorHitsWithNaNKeywordScore() {
        assumeFalse(store().capabilities().keywordSearch(), "the store declares keyword search");
        put(document(TENANT_A, "text.md").build(), "install zephyr", descendingCosines(0.9, 0.1, 4));

        List<SearchHit> hybrid = store().search(SearchRequest.builder(Scope.of(TENANT_A))
                .vector(axis(0)).text("zephyr").k(3).build());

        assertThat(hybrid).isEqualTo(searchVector(Scope.of(TENANT_A), axis(0), 3));
        assertThat(hybrid).hasSize(3).allSatisfy(hit -> assertThat(hit.keywordScore()).isNaN());
    }
}
