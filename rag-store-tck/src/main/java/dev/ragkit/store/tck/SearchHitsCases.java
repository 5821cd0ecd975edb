package dev.ragkit.store.tck;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ragkit.store.Scope;
import dev.ragkit.store.SearchHit;
import dev.ragkit.store.StoredChunk;
import dev.ragkit.store.StoredDocument;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What a {@link SearchHit} carries. */
abstract class SearchHitsCases extends ContractFixtures {

    @Test
    void search_hits_carryChunksWithoutEmbedding() {
        put(document(TENANT_A, "hits.md").build(), "x", descendingCosines(0.9, 0.1, 3));

        List<SearchHit> hits = searchVector(Scope.of(TENANT_A), axis(0), 10);

        assertThat(hits).hasSize(3).allSatisfy(hit -> {
            assertThat(hit.chunk().embedding()).isNull();
            assertThat(hit.chunk().dimension()).isZero();
        });
    }

    @Test
    void search_hits_carryTheirChunksDocument() {
        StoredDocument first = put(document(TENANT_A, "first.md").docType("guide").build(), "x",
                vectorAtCosine(0.9), vectorAtCosine(0.7));
        StoredDocument second = put(document(TENANT_A, "second.md").ownerTag("team").build(), "y",
                vectorAtCosine(0.8));

        List<SearchHit> hits = searchVector(Scope.of(TENANT_A), axis(0), 10);

        assertThat(hits).extracting(SearchHit::document).containsExactly(first, second, first);
        assertThat(hits).allSatisfy(hit -> assertThat(hit.chunk().documentId()).isEqualTo(hit.document().id()));
    }

    @Test
    void search_hitChunk_equalsStoredChunkApartFromEmbedding() {
        StoredDocument doc = document(TENANT_A, "fields.md").build();
        StoredChunk chunk = new StoredChunk(doc.id(), 0, "exact text\nwith two lines", vectorAtCosine(0.9),
                7, 4, 5, "Install > Linux", 3);
        store().upsert(doc, List.of(chunk));

        assertThat(searchVector(Scope.of(TENANT_A), axis(0), 1)).singleElement()
                .extracting(SearchHit::chunk).isEqualTo(chunk.withoutEmbedding());
    }
}
