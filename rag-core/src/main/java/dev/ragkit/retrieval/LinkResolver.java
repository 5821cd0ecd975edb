package dev.ragkit.retrieval;

import dev.ragkit.store.DocumentStore;
import dev.ragkit.store.Scope;
import dev.ragkit.store.StoredDocument;
import java.util.Collection;
import java.util.List;

/**
 * Follows the stored links of the relevant documents to bring in the documents they point to. Implementations
 * are thread-safe and never leave the caller's scope.
 */
public interface LinkResolver {

    /**
     * @param store        where documents are looked up (by path, through {@link DocumentStore#findByPaths})
     * @param scope        the caller's scope; nothing outside it is returned
     * @param seeds        the relevant documents, in relevance order
     * @param excludeIds   ids already in the context (seeds, critical documents); never returned
     * @param maxDepth     how many links away to go, at least 0 (0 returns nothing)
     * @param maxDocuments the most documents to return, at least 0
     * @return the linked documents in breadth-first order, each once
     */
    List<LinkedDocument> resolve(DocumentStore store, Scope scope, List<StoredDocument> seeds,
            Collection<String> excludeIds, int maxDepth, int maxDocuments);
}
