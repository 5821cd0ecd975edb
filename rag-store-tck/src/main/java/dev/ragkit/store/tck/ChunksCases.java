package dev.ragkit.store.tck;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ragkit.store.DocumentStore;
import dev.ragkit.store.Scope;
import dev.ragkit.store.StoredChunk;
import dev.ragkit.store.StoredDocument;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** {@link DocumentStore#chunks}. */
abstract class ChunksCases extends ContractFixtures {

    @Test
    void chunksWithoutEmbeddings_afterUpsert_equalChunksWithoutTheirVectors() {
        StoredDocument doc = document(TENANT_A, "light.md").build();
        Random random = new Random(13);
        List<StoredChunk> chunks = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            chunks.add(new StoredChunk(doc.id(), i, "light chunk " + i, randomVector(random), 2, i + 1, i + 1,
                    "Section " + i, null));
        }
        store().upsert(doc, chunks);

        List<StoredChunk> light = store().chunksWithoutEmbeddings(Scope.of(TENANT_A), doc.id());

        assertThat(light).containsExactlyElementsOf(withoutEmbeddings(chunks));
        assertThat(light).allSatisfy(c -> assertThat(c.embedding()).isNull());
        assertThat(store().chunksWithoutEmbeddings(Scope.of(TENANT_B), doc.id())).isEmpty();
        assertThat(store().chunksWithoutEmbeddings(Scope.of(TENANT_A), "no-such-id")).isEmpty();
    }

    @Test
    void chunks_afterUpsert_returnsEqualChunksInIndexOrder() {
        StoredDocument doc = document(TENANT_A, "chunks.md").build();
        Random random = new Random(7);
        List<StoredChunk> chunks = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            chunks.add(new StoredChunk(doc.id(), i, "chunk number " + i, randomVector(random), 3 + i,
                    1 + 4 * i, 3 + 4 * i, i % 2 == 0 ? "Heading " + i : null, i < 3 ? null : i));
        }
        store().upsert(doc, chunks);

        List<StoredChunk> read = store().chunks(Scope.of(TENANT_A), doc.id());

        assertThat(read).containsExactlyElementsOf(chunks);
        assertThat(read).extracting(StoredChunk::index).containsExactly(0, 1, 2, 3, 4, 5);
    }

    @Test
    void chunks_afterUpsert_carryExactlyTheUpsertedEmbeddings() {
        StoredDocument doc = document(TENANT_A, "vectors.md").build();
        Random random = new Random(11);
        float[][] vectors = new float[4][];
        for (int i = 0; i < vectors.length; i++) {
            vectors[i] = randomVector(random);
        }
        store().upsert(doc, chunksOf(doc, "x", vectors));

        List<StoredChunk> read = store().chunks(Scope.of(TENANT_A), doc.id());

        assertThat(read).hasSize(vectors.length);
        for (int i = 0; i < vectors.length; i++) {
            assertThat(read.get(i).embedding()).as("embedding of chunk %d", i).containsExactly(vectors[i]);
        }
    }

    @Test
    void chunks_unknownDocument_returnsEmptyList() {
        put(document(TENANT_A, "known.md").build(), "x", vectorAtCosine(0.5));

        assertThat(store().chunks(Scope.unrestricted(TENANT_A), "no-such-document")).isEmpty();
    }
}
