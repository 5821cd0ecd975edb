package dev.ragkit.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

final class SearchHitTest {

    private static final StoredDocument DOC = StoredDocument.builder().tenant("t").path("a.md").build();
    private static final StoredChunk CHUNK = new StoredChunk(DOC.id(), 0, "text", null, 1, 1, 1, null, null);

    @Test
    void constructor_chunkOfOtherDocument_throwsIllegalArgumentException() {
        StoredChunk foreign = new StoredChunk("other", 0, "text", null, 1, 1, 1, null, null);

        assertThatThrownBy(() -> new SearchHit(foreign, DOC, 0.5, Double.NaN))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("does not belong");
    }

    @Test
    void constructor_similarityOutsideUnitRange_throwsIllegalArgumentException() {
        assertThatThrownBy(() -> new SearchHit(CHUNK, DOC, -0.1, Double.NaN)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new SearchHit(CHUNK, DOC, 1.1, Double.NaN)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void constructor_negativeOrInfiniteKeywordScore_throwsIllegalArgumentException() {
        assertThatThrownBy(() -> new SearchHit(CHUNK, DOC, 0.5, -1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new SearchHit(CHUNK, DOC, 0.5, Double.POSITIVE_INFINITY))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void constructor_nanScores_areAllowed() {
        SearchHit hit = new SearchHit(CHUNK, DOC, Double.NaN, Double.NaN);

        assertThat(hit.similarity()).isNaN();
        assertThat(hit.sourceId()).isEqualTo(DOC.id() + ":0");
    }
}
