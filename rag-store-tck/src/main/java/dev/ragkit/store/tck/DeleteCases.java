package dev.ragkit.store.tck;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ragkit.store.DocumentStore;
import dev.ragkit.store.Scope;
import dev.ragkit.store.SearchHit;
import dev.ragkit.store.StoredChunk;
import dev.ragkit.store.StoredDocument;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** {@link DocumentStore#delete}. */
abstract class DeleteCases extends ContractFixtures {

    @Test
    void delete_visibleDocument_returnsTrue() {
        StoredDocument doc = put(document(TENANT_A, "gone.md").build(), "x", vectorAtCosine(0.9));

        assertThat(store().delete(Scope.of(TENANT_A), doc.id())).isTrue();
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(ReadPath.class)
    void delete_existingDocument_removesItFromReadPath(ReadPath path) {
        IsolationCorpus c = putIsolationCorpus();
        assumeReadPath(path);

        store().delete(Scope.unrestricted(TENANT_A), c.aHr().id());

        assertThat(labelsVia(path, Scope.unrestricted(TENANT_A), probe(c.all())))
                .containsExactlyElementsOf(labels(c.aPublic(), c.aEng()));
    }

    @Test
    void delete_unknownId_returnsFalse() {
        put(document(TENANT_A, "kept.md").build(), "x", vectorAtCosine(0.9));
        Map<String, Snapshot> before = snapshotAll();

        assertThat(store().delete(Scope.unrestricted(TENANT_A), "no-such-document")).isFalse();
        assertThat(snapshotAll()).isEqualTo(before);
    }

    @Test
    void delete_sameDocumentTwice_secondCallReturnsFalse() {
        StoredDocument doc = put(document(TENANT_A, "twice.md").build(), "x", vectorAtCosine(0.9));

        assertThat(store().delete(Scope.of(TENANT_A), doc.id())).isTrue();
        assertThat(store().delete(Scope.of(TENANT_A), doc.id())).isFalse();
    }

    @Test
    void delete_taggedDocumentFromScopeWithoutItsTag_returnsFalseAndKeepsIt() {
        StoredDocument doc = put(document(TENANT_A, "hr.md").accessTags("hr").build(), "x", vectorAtCosine(0.9));
        Map<String, Snapshot> before = snapshotAll();

        assertThat(store().delete(Scope.of(TENANT_A), doc.id())).isFalse();
        assertThat(store().delete(Scope.of(TENANT_A, "eng"), doc.id())).isFalse();

        assertThat(snapshotAll()).isEqualTo(before);
        assertThat(store().document(Scope.of(TENANT_A, "hr"), doc.id())).contains(doc);
    }

    @Test
    void delete_taggedDocumentFromScopeSharingATag_returnsTrue() {
        StoredDocument doc = put(document(TENANT_A, "hr.md").accessTags("hr", "eng").build(), "x",
                vectorAtCosine(0.9));

        assertThat(store().delete(Scope.of(TENANT_A, "eng"), doc.id())).isTrue();
        assertThat(store().document(Scope.unrestricted(TENANT_A), doc.id())).isEmpty();
    }

    @Test
    void delete_oneDocument_leavesOtherDocumentsIntact() {
        StoredDocument gone = put(document(TENANT_A, "gone.md").build(), "x", vectorAtCosine(0.9));
        StoredDocument kept = document(TENANT_A, "kept.md").build();
        List<StoredChunk> keptChunks = chunksOf(kept, "y", vectorAtCosine(0.8), vectorAtCosine(0.7));
        store().upsert(kept, keptChunks);

        store().delete(Scope.of(TENANT_A), gone.id());

        assertThat(store().documents(Scope.of(TENANT_A))).containsExactly(kept);
        assertThat(store().chunks(Scope.of(TENANT_A), kept.id())).containsExactlyElementsOf(keptChunks);
        assertThat(searchVector(Scope.of(TENANT_A), axis(0), 10)).extracting(SearchHit::chunk)
                .containsExactlyElementsOf(withoutEmbeddings(keptChunks));
    }
}
