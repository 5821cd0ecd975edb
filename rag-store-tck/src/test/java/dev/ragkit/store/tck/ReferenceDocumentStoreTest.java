package dev.ragkit.store.tck;

import dev.ragkit.store.DocumentStore;

/** The whole contract suite against {@link ReferenceDocumentStore}: the suite itself must be satisfiable. */
final class ReferenceDocumentStoreTest extends DocumentStoreContract {

    @Override
    protected DocumentStore createStore() {
        return new ReferenceDocumentStore();
    }
}
