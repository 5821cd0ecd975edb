package dev.ragkit.store.lucene;

import dev.ragkit.store.DocumentStore;
import dev.ragkit.store.tck.DocumentStoreContract;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.io.TempDir;

/**
 * The whole store contract against a Lucene directory in a temporary folder (commits per write); the persistence
 * cases close the store and open the directory again.
 */
final class LuceneDocumentStoreContractTest extends DocumentStoreContract {
    @TempDir
    Path dir;

    @Override
    protected DocumentStore createStore() {
        return LuceneDocumentStore.builder().directory(dir.resolve("index")).build();
    }

    @Override
    protected Optional<DocumentStore> reopenStore(DocumentStore store) {
        store.close();
        return Optional.of(LuceneDocumentStore.builder().directory(dir.resolve("index")).build());
    }
}
