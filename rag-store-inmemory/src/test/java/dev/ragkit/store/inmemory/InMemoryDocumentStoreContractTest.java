package dev.ragkit.store.inmemory;

import dev.ragkit.store.DocumentStore;
import dev.ragkit.store.tck.DocumentStoreContract;
import org.junit.jupiter.api.Nested;

/**
 * The whole store contract against the in-memory store: with default settings (the Vector API kernel when
 * the module is present, sequential scans), and with a scalar kernel that scans every search in parallel.
 */
final class InMemoryDocumentStoreContractTest extends DocumentStoreContract {

    @Override
    protected DocumentStore createStore() {
        return InMemoryDocumentStore.builder().build();
    }

    /** Parallel scans from the first chunk on, split three ways, so the merge path meets the contract too. */
    @Nested
    final class ParallelScalarScan extends DocumentStoreContract {
        @Override
        protected DocumentStore createStore() {
            return InMemoryDocumentStore.builder().kernel(InMemoryDocumentStore.Kernel.SCALAR).parallelThreshold(1)
                    .parallelism(3).build();
        }
    }
}
