package dev.ragkit.store.inmemory;

import dev.ragkit.store.DocumentStore;
import dev.ragkit.store.tck.DocumentStoreContract;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.io.TempDir;

/**
 * The whole store contract against the in-memory store: with default settings (the Vector API kernel when
 * the module is present, sequential scans), and with a scalar kernel that scans every search in parallel.
 * The persistence cases save a snapshot and load it into a new store.
 */
final class InMemoryDocumentStoreContractTest extends DocumentStoreContract {
    @TempDir
    Path dir;

    @Override
    protected DocumentStore createStore() {
        return InMemoryDocumentStore.builder().build();
    }

    @Override
    protected Optional<DocumentStore> reopenStore(DocumentStore store) {
        Path file = dir.resolve("snapshot.bin");
        ((InMemoryDocumentStore) store).save(file);
        store.close();
        return Optional.of(InMemoryDocumentStore.load(file));
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
