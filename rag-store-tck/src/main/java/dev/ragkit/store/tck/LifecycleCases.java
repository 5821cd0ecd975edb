package dev.ragkit.store.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ragkit.store.DocumentStore;
import dev.ragkit.store.PromotionLevel;
import dev.ragkit.store.Scope;
import dev.ragkit.store.StoreException;
import dev.ragkit.store.StoredDocument;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** {@link DocumentStore#close()}. */
abstract class LifecycleCases extends ContractFixtures {
    /** Calls that must fail once the store is closed. */
    enum StoreCall { UPSERT, DELETE, SEARCH, DOCUMENT, FIND_BY_PATHS, FIND_BY_PROMOTION, DOCUMENTS, CHUNKS }


    @ParameterizedTest(name = "{0}")
    @EnumSource(StoreCall.class)
    void closedStore_anyCall_throwsStoreException(StoreCall call) {
        StoredDocument doc = put(document(TENANT_A, "closed.md").build(), "x", vectorAtCosine(0.9));
        DocumentStore s = store();
        Scope scope = Scope.unrestricted(TENANT_A);
        s.close();

        assertThatThrownBy(() -> {
            switch (call) {
                case UPSERT -> s.upsert(doc, chunksOf(doc, "y", vectorAtCosine(0.8)));
                case DELETE -> s.delete(scope, doc.id());
                case SEARCH -> searchVector(scope, axis(0), 5);
                case DOCUMENT -> s.document(scope, doc.id());
                case FIND_BY_PATHS -> s.findByPaths(scope, List.of(doc.path()));
                case FIND_BY_PROMOTION -> s.findByPromotion(scope, PromotionLevel.STANDARD, Set.of());
                case DOCUMENTS -> s.documents(scope);
                case CHUNKS -> s.chunks(scope, doc.id());
                default -> throw new IllegalStateException("unknown call " + call);
            }
        }).isInstanceOf(StoreException.class)
                .satisfies(e -> assertThat(e.getMessage()).as("exception message").isNotBlank());
    }

    @Test
    void close_calledTwice_doesNotThrow() {
        put(document(TENANT_A, "closed.md").build(), "x", vectorAtCosine(0.9));

        store().close();

        assertThatCode(() -> store().close()).doesNotThrowAnyException();
    }
}
