package dev.ragkit.store.tck;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ragkit.store.DocumentStore;
import dev.ragkit.store.PromotionLevel;
import dev.ragkit.store.Scope;
import dev.ragkit.store.StoredDocument;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** {@link DocumentStore#document}, {@link DocumentStore#findByPaths}, {@link DocumentStore#findByPromotion} and
 * {@link DocumentStore#documents}. */
abstract class LookupsCases extends ContractFixtures {

    private List<StoredDocument> putShuffledDocuments() {
        StoredDocument charlie = document(TENANT_A, "charlie.md").docType("faq").build();
        StoredDocument alpha = document(TENANT_A, "alpha.md").docType("guide")
                .promotionLevel(PromotionLevel.CRITICAL).build();
        StoredDocument delta = document(TENANT_A, "delta/two.md").promotionLevel(PromotionLevel.IMPORTANT).build();
        StoredDocument bravo = document(TENANT_A, "bravo/one.md").docType("guide")
                .promotionLevel(PromotionLevel.IMPORTANT).build();
        StoredDocument echo = document(TENANT_A, "echo.md").docType("guide").accessTags("hr")
                .promotionLevel(PromotionLevel.CRITICAL).build();
        for (StoredDocument doc : List.of(charlie, echo, alpha, delta, bravo)) {
            put(doc, "x", vectorAtCosine(0.5));
        }
        return List.of(alpha, bravo, charlie, delta, echo);
    }

    @Test
    void document_visibleId_returnsEqualDocument() {
        List<StoredDocument> docs = putShuffledDocuments();

        for (StoredDocument doc : docs.subList(0, 4)) {
            assertThat(store().document(Scope.of(TENANT_A), doc.id())).contains(doc);
        }
    }

    @Test
    void document_unknownId_returnsEmpty() {
        putShuffledDocuments();

        assertThat(store().document(Scope.unrestricted(TENANT_A), "no-such-document")).isEmpty();
    }

    @Test
    void findByPaths_pathsInAnyOrder_returnsDocumentsOrderedByPath() {
        List<StoredDocument> docs = putShuffledDocuments();

        List<StoredDocument> found = store().findByPaths(Scope.unrestricted(TENANT_A),
                List.of("echo.md", "bravo/one.md", "alpha.md", "delta/two.md", "charlie.md"));

        assertThat(found).containsExactlyElementsOf(docs);
    }

    @Test
    void findByPaths_missingPath_leavesItOut() {
        List<StoredDocument> docs = putShuffledDocuments();

        List<StoredDocument> found = store().findByPaths(Scope.unrestricted(TENANT_A),
                List.of("charlie.md", "missing.md", "alpha.md"));

        assertThat(found).containsExactly(docs.get(0), docs.get(2));
    }

    @Test
    void findByPaths_invisiblePath_leavesItOut() {
        List<StoredDocument> docs = putShuffledDocuments();

        List<StoredDocument> found = store().findByPaths(Scope.of(TENANT_A),
                List.of("echo.md", "alpha.md"));

        assertThat(found).containsExactly(docs.get(0));
    }

    @Test
    void findByPaths_emptyCollection_returnsEmptyList() {
        putShuffledDocuments();

        assertThat(store().findByPaths(Scope.unrestricted(TENANT_A), List.of())).isEmpty();
    }

    @Test
    void findByPromotion_important_returnsImportantAndCriticalOrderedByPath() {
        List<StoredDocument> docs = putShuffledDocuments();

        List<StoredDocument> found = store().findByPromotion(Scope.unrestricted(TENANT_A),
                PromotionLevel.IMPORTANT, Set.of());

        assertThat(found).containsExactly(docs.get(0), docs.get(1), docs.get(3), docs.get(4));
    }

    @Test
    void findByPromotion_critical_returnsOnlyCriticalOrderedByPath() {
        List<StoredDocument> docs = putShuffledDocuments();

        assertThat(store().findByPromotion(Scope.unrestricted(TENANT_A), PromotionLevel.CRITICAL, Set.of()))
                .containsExactly(docs.get(0), docs.get(4));
        assertThat(store().findByPromotion(Scope.of(TENANT_A), PromotionLevel.CRITICAL, Set.of()))
                .containsExactly(docs.get(0));
    }

    @Test
    void findByPromotion_standard_returnsEveryVisibleDocumentOrderedByPath() {
        List<StoredDocument> docs = putShuffledDocuments();

        assertThat(store().findByPromotion(Scope.of(TENANT_A), PromotionLevel.STANDARD, Set.of()))
                .containsExactlyElementsOf(docs.subList(0, 4));
    }

    @Test
    void findByPromotion_docTypes_keepsListedTypesOnly() {
        List<StoredDocument> docs = putShuffledDocuments();

        assertThat(store().findByPromotion(Scope.unrestricted(TENANT_A), PromotionLevel.IMPORTANT, Set.of("guide")))
                .containsExactly(docs.get(0), docs.get(1), docs.get(4));
        assertThat(store().findByPromotion(Scope.unrestricted(TENANT_A), PromotionLevel.STANDARD, Set.of("faq")))
                .containsExactly(docs.get(2));
    }

    @Test
    void findByPromotion_docTypes_neverMatchesDocumentWithoutType() {
        List<StoredDocument> docs = putShuffledDocuments();

        List<StoredDocument> found = store().findByPromotion(Scope.unrestricted(TENANT_A),
                PromotionLevel.STANDARD, Set.of("guide", "faq"));

        assertThat(found).containsExactly(docs.get(0), docs.get(1), docs.get(2), docs.get(4));
    }

    @Test
    void documents_insertedInShuffledOrder_returnsThemOrderedByPath() {
        List<StoredDocument> docs = putShuffledDocuments();

        assertThat(store().documents(Scope.unrestricted(TENANT_A))).containsExactlyElementsOf(docs);
        assertThat(store().documents(Scope.of(TENANT_A))).containsExactlyElementsOf(docs.subList(0, 4));
    }

    @Test
    void documents_emptyStore_returnsEmptyList() {
        assertThat(store().documents(Scope.unrestricted(TENANT_A))).isEmpty();
    }
}
