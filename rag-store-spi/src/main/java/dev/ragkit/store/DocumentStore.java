package dev.ragkit.store;

import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Keeps documents and their embedded chunks, and searches them inside a {@link Scope}.
 *
 * <h2>Contract</h2>
 * <ul>
 *   <li><b>Thread-safety:</b> every method may be called from any number of threads at once.</li>
 *   <li><b>Isolation:</b> every read takes a {@link Scope} and returns only documents it
 *       {@linkplain Scope#canSee(StoredDocument) can see}: never another tenant's, never a tagged document the
 *       scope shares no tag with. Documents are keyed by (tenant, id): the same id in two tenants names two
 *       independent documents.</li>
 *   <li><b>Atomic upserts:</b> {@link #upsert} replaces a document and all its chunks at once; a concurrent
 *       reader sees the old version or the new one, never a mix.</li>
 *   <li><b>Errors:</b> {@code null} arguments throw {@link NullPointerException} naming the argument; other bad
 *       arguments (a vector of the wrong dimension, {@code k} above {@link StoreCapabilities#maxK()}, chunks
 *       that do not belong to the document) throw {@link IllegalArgumentException}; failures of the store
 *       itself throw {@link StoreException}. A call that throws changes nothing.</li>
 *   <li><b>Ordering:</b> results come in a deterministic order for the same data and request, as each method
 *       states.</li>
 * </ul>
 * Implementations are verified by extending {@code dev.ragkit.store.tck.DocumentStoreContract}.
 */
public interface DocumentStore extends AutoCloseable {

    /**
     * Stores {@code document} with exactly {@code chunks}, replacing any earlier version of the same
     * (tenant, id) and all of its chunks, atomically.
     *
     * @param document the document
     * @param chunks   its chunks, with indexes 0, 1, … n−1 in order, each with an embedding of the store's
     *                 dimension (the first upsert fixes it unless the store was configured with one); may be
     *                 empty
     * @throws IllegalArgumentException when a chunk belongs to another document, lacks an embedding, has the
     *                                  wrong dimension, or the indexes are not 0…n−1 in order
     * @throws StoreException           when the store cannot write (closed, full, unreachable)
     */
    void upsert(StoredDocument document, List<StoredChunk> chunks);

    /**
     * Deletes a document and its chunks, if {@code scope} can see it.
     *
     * @param scope      who deletes; the document must be visible in it
     * @param documentId the document's id
     * @return {@code true} when a document was deleted, {@code false} when none was visible under that id
     * @throws StoreException when the store cannot write
     */
    boolean delete(Scope scope, String documentId);

    /**
     * Searches the chunks visible in the request's scope.
     *
     * <p>Results are ordered by {@link SearchHit#similarity()} descending (by {@link SearchHit#keywordScore()}
     * for text-only requests); ties are broken by document id, then chunk index, ascending. A hybrid request
     * returns the union described in {@link SearchRequest}, ordered the same way.
     *
     * @param request the search
     * @return at most {@code k} hits (up to {@code 2k} for a hybrid request); fewer only when fewer chunks
     *         qualify
     * @throws IllegalArgumentException when the vector's dimension differs from the store's, {@code k} exceeds
     *                                  {@link StoreCapabilities#maxK()}, or a text-only request goes to a store
     *                                  without keyword search
     * @throws StoreException           when the store cannot be read
     */
    List<SearchHit> search(SearchRequest request);

    /**
     * The document with this id, if visible.
     *
     * @param scope      who is reading
     * @param documentId the id
     * @return the document, or empty when absent or not visible
     */
    Optional<StoredDocument> document(Scope scope, String documentId);

    /**
     * The visible documents at these paths.
     *
     * @param scope who is reading
     * @param paths document paths as stored
     * @return the documents found, ordered by path; paths with no visible document are left out
     */
    List<StoredDocument> findByPaths(Scope scope, Collection<String> paths);

    /**
     * The visible documents at or above a promotion level, e.g. every critical document of a tenant.
     *
     * @param scope    who is reading
     * @param minLevel the lowest level to return
     * @param docTypes document types to keep; empty keeps every type
     * @return the documents, ordered by path
     */
    List<StoredDocument> findByPromotion(Scope scope, PromotionLevel minLevel, Set<String> docTypes);

    /**
     * Every visible document, e.g. to find documents whose files are gone.
     *
     * @param scope who is reading
     * @return the documents, ordered by path
     */
    List<StoredDocument> documents(Scope scope);

    /**
     * A visible document's chunks, with their embeddings.
     *
     * @param scope      who is reading
     * @param documentId the document's id
     * @return the chunks in index order, all from one version of the document; empty when it is absent or
     *         not visible
     */
    List<StoredChunk> chunks(Scope scope, String documentId);

    /**
     * A visible document's chunks without their embeddings: what a caller needs to show, cite or reassemble a
     * document. The default reads {@link #chunks} and drops the vectors; a store that keeps vectors apart from
     * text should override it so that no vector is copied.
     *
     * @param scope      who is reading
     * @param documentId the document's id
     * @return the same chunks as {@link #chunks}, each with a {@code null} embedding
     */
    default List<StoredChunk> chunksWithoutEmbeddings(Scope scope, String documentId) {
        List<StoredChunk> chunks = chunks(scope, documentId);
        List<StoredChunk> light = new java.util.ArrayList<>(chunks.size());
        for (StoredChunk chunk : chunks) {
            light.add(chunk.withoutEmbedding());
        }
        return List.copyOf(light);
    }

    /**
     * What this store can do.
     *
     * @return the capabilities; constant for the store's lifetime
     */
    StoreCapabilities capabilities();

    /**
     * Releases the store's resources. Calls after closing throw {@link StoreException}. Closing twice has no
     * further effect.
     */
    @Override
    void close();
}
