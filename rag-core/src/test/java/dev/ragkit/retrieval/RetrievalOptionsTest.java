package dev.ragkit.retrieval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ragkit.retrieval.RetrievalOptions.Granularity;
import dev.ragkit.store.PromotionLevel;
import java.util.List;
import org.junit.jupiter.api.Test;

final class RetrievalOptionsTest {

    @Test
    void chunkQa_hasTheSpecificationDefaults() {
        RetrievalOptions o = RetrievalOptions.chunkQa();
        assertThat(o.granularity()).isEqualTo(Granularity.CHUNK);
        assertThat(o.minRelevance()).isEqualTo(0.3);
        assertThat(o.topK()).isEqualTo(5);
        assertThat(o.candidates()).isEqualTo(15); // min(5 x 3, 15)
        assertThat(o.maxChunksPerDocument()).isEqualTo(3);
        assertThat(o.includeCritical()).isFalse();
        assertThat(o.linkDepth()).isZero();
        assertThat(o.hybrid()).isTrue();
        assertThat(o.fusion()).isEqualTo(RetrievalOptions.Fusion.RELATIVE_SCORE);
        assertThat(o.minPromotion()).isEqualTo(PromotionLevel.STANDARD);
        assertThat(o.docTypes()).isEmpty();
    }

    @Test
    void knowledgeBase_hasTheSpecificationDefaults() {
        RetrievalOptions o = RetrievalOptions.knowledgeBase();
        assertThat(o.granularity()).isEqualTo(Granularity.DOCUMENT);
        assertThat(o.minRelevance()).isEqualTo(0.7);
        assertThat(o.topK()).isEqualTo(3);
        assertThat(o.candidates()).isEqualTo(9); // min(3 x 3, 15)
        assertThat(o.linkDepth()).isEqualTo(2);
        assertThat(o.maxLinkedDocuments()).isEqualTo(5);
        assertThat(o.includeCritical()).isTrue();
    }

    @Test
    void candidates_isOverFetchCappedButNeverBelowTopK() {
        assertThat(RetrievalOptions.builder().topK(2).build().candidates()).isEqualTo(6);
        assertThat(RetrievalOptions.builder().topK(10).build().candidates()).isEqualTo(15);
        assertThat(RetrievalOptions.builder().topK(4).overFetchFactor(1).build().candidates()).isEqualTo(4);
    }

    @Test
    void builder_badValues_areRejectedAtOnceNamingTheField() {
        RetrievalOptions.Builder b = RetrievalOptions.builder();
        assertThatThrownBy(() -> b.topK(0)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("topK");
        assertThatThrownBy(() -> b.minRelevance(1.2)).hasMessageContaining("minRelevance");
        assertThatThrownBy(() -> b.minRelevance(Double.NaN)).hasMessageContaining("minRelevance");
        assertThatThrownBy(() -> b.vectorWeight(-0.1)).hasMessageContaining("vectorWeight");
        assertThatThrownBy(() -> b.linkDepth(-1)).hasMessageContaining("linkDepth");
        assertThatThrownBy(() -> b.docTypes(List.of(" "))).hasMessageContaining("blank");
        assertThatThrownBy(() -> RetrievalOptions.builder().topK(20).build())
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("candidateCap");
    }

    @Test
    void with_overrides_replaceOnlyTheFieldsTheySet() {
        RetrievalOptions base = RetrievalOptions.knowledgeBase();
        RetrievalOptions changed = base.with(RetrievalOptions.Overrides.builder().topK(5).linkDepth(0)
                .docTypes(List.of("guide")).build());
        assertThat(changed.topK()).isEqualTo(5);
        assertThat(changed.linkDepth()).isZero();
        assertThat(changed.docTypes()).containsExactly("guide");
        assertThat(changed.toBuilder().topK(3).linkDepth(2).docTypes(List.of()).build()).isEqualTo(base);
        assertThat(base.with(RetrievalOptions.Overrides.builder().build())).isEqualTo(base);
    }

    @Test
    void toBuilder_roundTripsEveryField() {
        RetrievalOptions o = RetrievalOptions.builder().granularity(Granularity.DOCUMENT).topK(4).minRelevance(0.5)
                .overFetchFactor(2).candidateCap(12).maxChunksPerDocument(1).includeCritical(true).linkDepth(1)
                .maxLinkedDocuments(2).hybrid(false).fusion(RetrievalOptions.Fusion.RECIPROCAL_RANK)
                .vectorWeight(0.7).docTypes(List.of("faq")).minPromotion(PromotionLevel.IMPORTANT).build();
        assertThat(o.toBuilder().build()).isEqualTo(o).hasSameHashCodeAs(o);
        assertThat(o.toString()).contains("DOCUMENT").contains("types [faq]").doesNotContain("hybrid");
    }
}
