package dev.ragkit.store.tck;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ragkit.store.PromotionLevel;
import dev.ragkit.store.Scope;
import dev.ragkit.store.SearchHit;
import dev.ragkit.store.SearchRequest;
import dev.ragkit.store.StoredDocument;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A reopened store holds exactly what was written before: documents, chunks, search results and deletions; an
 * empty store reopens as an empty, writable store. Runs only for store tests that override
 * {@link DocumentStoreContract#reopenStore}.
 */
abstract class PersistenceCases extends ContractFixtures {

    @Test
    void reopen_emptyStore_isEmptyAndWritable() {
        reopen();

        assertThat(store().documents(Scope.unrestricted(TENANT_A))).isEmpty();
        assertThat(searchVector(Scope.unrestricted(TENANT_A), axis(0), 5)).isEmpty();
        StoredDocument doc = put(document(TENANT_A, "after.md").build(), "after", vectorAtCosine(0.9));
        assertThat(searchVector(Scope.of(TENANT_A), axis(0), 5)).extracting(SearchHit::document).containsExactly(doc);
    }

    @Test
    void reopen_emptyStoreTwice_staysEmpty() {
        reopen();
        reopen();

        assertThat(store().documents(Scope.unrestricted(TENANT_A))).isEmpty();
    }

    @Test
    void reopen_afterWrites_readsBackEverythingEqual() {
        putIsolationCorpus();
        StoredDocument full = document(TENANT_A, "full.md").docType("guide").promotionLevel(PromotionLevel.CRITICAL)
                .date(LocalDate.of(2024, 5, 17)).ownerTag("team").links(List.of("a.md", "b.md"))
                .metadata(Map.of("year", "2024")).charCount(99).build();
        put(full, "full", descendingCosines(0.7, 0.1, 3));
        store().upsert(document(TENANT_A, "empty.md").build(), List.of());
        Map<String, Snapshot> before = snapshotAll();

        reopen();

        assertThat(snapshotAll()).isEqualTo(before);
    }

    @Test
    void reopen_afterReplaceAndDelete_keepsTheLatestState() {
        IsolationCorpus c = putIsolationCorpus();
        StoredDocument replaced = c.aPublic().toBuilder().title("Replaced").build();
        put(replaced, "replaced", vectorAtCosine(0.3));
        store().delete(Scope.unrestricted(TENANT_A), c.aHr().id());
        Map<String, Snapshot> before = snapshotAll();

        reopen();

        assertThat(snapshotAll()).isEqualTo(before);
        assertThat(store().document(Scope.unrestricted(TENANT_A), c.aHr().id())).isEmpty();
        assertThat(store().chunks(Scope.of(TENANT_A), replaced.id())).hasSize(1);
    }

    @Test
    void reopen_metadataFilter_stillApplies() {
        assumeMetadataFilters();
        StoredDocument recent = put(document(TENANT_A, "recent.md").metadata(Map.of("year", "2025")).build(), "x",
                vectorAtCosine(0.5));
        put(document(TENANT_A, "old.md").metadata(Map.of("year", "2019")).build(), "x", vectorAtCosine(0.9));

        reopen();

        assertThat(store().search(SearchRequest.builder(Scope.of(TENANT_A)).vector(axis(0)).k(5)
                .metadataFilter("year >= 2020").build())).extracting(SearchHit::document).containsExactly(recent);
    }
}
