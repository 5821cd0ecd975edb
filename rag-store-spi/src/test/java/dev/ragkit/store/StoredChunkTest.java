package dev.ragkit.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

final class StoredChunkTest {

    private static StoredChunk chunk(float[] embedding) {
        return new StoredChunk("doc", 2, "text", embedding, 5, 3, 7, "Intro", 1);
    }

    @Test
    void constructor_embeddingMutatedAfterwards_keepsOriginalValues() {
        float[] vector = {1f, 2f, 3f};
        StoredChunk chunk = chunk(vector);

        vector[0] = 99f;

        assertThat(chunk.embedding()).containsExactly(1f, 2f, 3f);
    }

    @Test
    void embedding_returnedArrayMutated_leavesChunkUnchanged() {
        StoredChunk chunk = chunk(new float[] {1f, 2f, 3f});

        chunk.embedding()[0] = 99f;

        assertThat(chunk.embedding()).containsExactly(1f, 2f, 3f);
        assertThat(chunk.dimension()).isEqualTo(3);
    }

    @Test
    void constructor_unusableEmbedding_throwsIllegalArgumentException() {
        assertThatThrownBy(() -> chunk(new float[0])).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("empty");
        assertThatThrownBy(() -> chunk(new float[] {0f, 0f})).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("zeros");
        assertThatThrownBy(() -> chunk(new float[] {1f, Float.NaN})).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("non-finite");
        assertThatThrownBy(() -> chunk(new float[] {Float.POSITIVE_INFINITY})).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void constructor_badPositionFields_throwIllegalArgumentException() {
        float[] v = {1f};
        assertThatThrownBy(() -> new StoredChunk("doc", -1, "t", v, 1, 1, 1, null, null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("index");
        assertThatThrownBy(() -> new StoredChunk("doc", 0, "t", v, -1, 1, 1, null, null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("tokenCount");
        assertThatThrownBy(() -> new StoredChunk("doc", 0, "t", v, 1, 0, 1, null, null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("line");
        assertThatThrownBy(() -> new StoredChunk("doc", 0, "t", v, 1, 5, 4, null, null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("line");
        assertThatThrownBy(() -> new StoredChunk("doc", 0, "t", v, 1, 1, 1, null, 0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("page");
        assertThatThrownBy(() -> new StoredChunk(" ", 0, "t", v, 1, 1, 1, null, null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("documentId");
    }

    @Test
    void constructor_blankSection_storesNull() {
        assertThat(new StoredChunk("doc", 0, "t", null, 1, 1, 1, "  ", null).section()).isNull();
    }

    @Test
    void withoutEmbedding_chunkWithVector_dropsOnlyTheVector() {
        StoredChunk chunk = chunk(new float[] {1f, 2f});

        StoredChunk bare = chunk.withoutEmbedding();

        assertThat(bare.embedding()).isNull();
        assertThat(bare.dimension()).isZero();
        assertThat(bare).isEqualTo(new StoredChunk("doc", 2, "text", null, 5, 3, 7, "Intro", 1));
        assertThat(bare.withoutEmbedding()).isSameAs(bare);
    }

    @Test
    void equals_equalVectorContents_areEqualWithSameHashCode() {
        StoredChunk a = chunk(new float[] {1f, 2f});
        StoredChunk b = chunk(new float[] {1f, 2f});

        assertThat(a).isEqualTo(b).hasSameHashCodeAs(b);
        assertThat(a).isNotEqualTo(chunk(new float[] {1f, 3f}));
    }

    @Test
    void sourceId_always_isDocumentIdColonIndex() {
        assertThat(chunk(new float[] {1f}).sourceId()).isEqualTo("doc:2");
    }
}
