package dev.ragkit.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.TreeSet;
import org.junit.jupiter.api.Test;

final class SearchRequestTest {

    private static final Scope SCOPE = Scope.of("t");

    @Test
    void constructor_noQuery_throwsIllegalArgumentException() {
        assertThatThrownBy(() -> new SearchRequest(SCOPE, null, null, 5, new TreeSet<>(), PromotionLevel.STANDARD))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("query");
    }

    @Test
    void build_noQuery_throwsIllegalStateException() {
        assertThatThrownBy(() -> SearchRequest.builder(SCOPE).build()).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void constructor_blankText_throwsIllegalArgumentException() {
        assertThatThrownBy(() -> new SearchRequest(SCOPE, null, " ", 5, new TreeSet<>(), PromotionLevel.STANDARD))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("blank");
    }

    @Test
    void constructor_kBelowOne_throwsIllegalArgumentException() {
        assertThatThrownBy(() -> new SearchRequest(SCOPE, new float[] {1f}, null, 0, new TreeSet<>(),
                PromotionLevel.STANDARD)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("k");
    }

    @Test
    void constructor_unusableVector_throwsIllegalArgumentException() {
        assertThatThrownBy(() -> SearchRequest.builder(SCOPE).vector(new float[] {0f, 0f}).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("zeros");
        assertThatThrownBy(() -> SearchRequest.builder(SCOPE).vector(new float[] {Float.NaN}).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("non-finite");
    }

    @Test
    void queryVector_inputAndOutputMutated_requestUnchanged() {
        float[] vector = {1f, 2f};
        SearchRequest request = SearchRequest.builder(SCOPE).vector(vector).build();

        vector[0] = 9f;
        request.queryVector()[1] = 9f;

        assertThat(request.queryVector()).containsExactly(1f, 2f);
        assertThat(request.queryVectorUnsafe()).containsExactly(1f, 2f);
    }

    @Test
    void builder_defaults_kTenNoFilters() {
        SearchRequest request = SearchRequest.builder(SCOPE).text("q").build();

        assertThat(request.k()).isEqualTo(10);
        assertThat(request.docTypes()).isEmpty();
        assertThat(request.minPromotion()).isEqualTo(PromotionLevel.STANDARD);
        assertThat(request.queryVector()).isNull();
    }

    @Test
    void accepts_docTypeFilter_keepsListedTypesAndNeverUntyped() {
        SearchRequest request = SearchRequest.builder(SCOPE).text("q").docTypes("guide", "faq").build();

        assertThat(request.accepts("guide", PromotionLevel.STANDARD)).isTrue();
        assertThat(request.accepts("policy", PromotionLevel.STANDARD)).isFalse();
        assertThat(request.accepts(null, PromotionLevel.CRITICAL)).isFalse();
    }

    @Test
    void accepts_noDocTypeFilter_keepsUntypedDocuments() {
        assertThat(SearchRequest.builder(SCOPE).text("q").build().accepts(null, PromotionLevel.STANDARD)).isTrue();
    }

    @Test
    void accepts_minPromotion_keepsLevelsAtOrAbove() {
        SearchRequest request = SearchRequest.builder(SCOPE).text("q").minPromotion(PromotionLevel.IMPORTANT).build();

        assertThat(request.accepts(null, PromotionLevel.STANDARD)).isFalse();
        assertThat(request.accepts(null, PromotionLevel.IMPORTANT)).isTrue();
        assertThat(request.accepts(null, PromotionLevel.CRITICAL)).isTrue();
    }

    @Test
    void equals_sameVectorContents_areEqual() {
        SearchRequest a = SearchRequest.builder(SCOPE).vector(new float[] {1f, 2f}).k(3).build();
        SearchRequest b = SearchRequest.builder(SCOPE).vector(new float[] {1f, 2f}).k(3).build();

        assertThat(a).isEqualTo(b).hasSameHashCodeAs(b);
        assertThat(a).isNotEqualTo(SearchRequest.builder(SCOPE).vector(new float[] {1f, 3f}).k(3).build());
    }
}
