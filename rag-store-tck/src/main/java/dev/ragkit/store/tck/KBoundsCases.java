package dev.ragkit.store.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.ragkit.store.PromotionLevel;
import dev.ragkit.store.Scope;
import dev.ragkit.store.SearchRequest;
import dev.ragkit.store.StoredDocument;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** How many hits come back. */
abstract class KBoundsCases extends ContractFixtures {

    @Test
    void search_kOne_returnsTheSingleBestHit() {
        StoredDocument doc = put(document(TENANT_A, "k.md").build(), "x", vectorAtCosine(0.5),
                vectorAtCosine(0.9), vectorAtCosine(0.7));

        assertThat(sourceIds(searchVector(Scope.of(TENANT_A), axis(0), 1)))
                .containsExactlyElementsOf(sourceIds(doc, 1));
    }

    @Test
    void search_kAboveQualifyingCount_returnsEveryQualifyingChunk() {
        StoredDocument doc = put(document(TENANT_A, "k.md").build(), "x", descendingCosines(0.9, 0.1, 5));
        put(document(TENANT_A, "hidden.md").accessTags("hr").build(), "y", vectorAtCosine(0.95));

        assertThat(sourceIds(searchVector(Scope.of(TENANT_A), axis(0), requireMaxK(50))))
                .containsExactlyElementsOf(sourceIds(doc, 0, 1, 2, 3, 4));
    }

    @Test
    void search_kAboveMaxK_throwsIllegalArgumentException() {
        put(document(TENANT_A, "k.md").build(), "x", vectorAtCosine(0.9));
        int max = maxK();
        assumeTrue(max < Integer.MAX_VALUE, "the store accepts every k");
        SearchRequest request = SearchRequest.builder(Scope.of(TENANT_A)).vector(axis(0)).k(max + 1).build();

        assertThatThrownBy(() -> store().search(request))
                .isInstanceOf(IllegalArgumentException.class)
                .satisfies(e -> assertMessageMentions(e, String.valueOf(max), String.valueOf(max + 1)));
    }

    @Test
    void search_kEqualToMaxK_isAccepted() {
        put(document(TENANT_A, "k.md").build(), "x", vectorAtCosine(0.9), vectorAtCosine(0.8));

        assertThat(searchVector(Scope.of(TENANT_A), axis(0), maxK())).hasSize(Math.min(2, maxK()));
    }

    @ParameterizedTest
    @ValueSource(ints = {0, -1, Integer.MIN_VALUE})
    void searchRequest_kBelowOne_throwsIllegalArgumentException(int k) {
        assertThatThrownBy(() -> new SearchRequest(Scope.of(TENANT_A), axis(0), null, k, new TreeSet<>(),
                PromotionLevel.STANDARD))
                .isInstanceOf(IllegalArgumentException.class)
                .satisfies(e -> assertMessageMentions(e, "k"));
        assertThatThrownBy(() -> SearchRequest.builder(Scope.of(TENANT_A)).k(k))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void search_emptyStore_returnsNoHits() {
        assertThat(searchVector(Scope.unrestricted(TENANT_A), axis(0), 10)).isEmpty();
    }
}
