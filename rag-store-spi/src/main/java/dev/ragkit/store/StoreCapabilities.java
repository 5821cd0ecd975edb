package dev.ragkit.store;

/**
 * What a {@link DocumentStore} can do, so callers can adapt instead of failing late.
 *
 * @param keywordSearch whether the store keeps a keyword (BM25) index: text-only and hybrid
 *                      {@link SearchRequest}s are served, and hits carry a {@link SearchHit#keywordScore()}
 * @param persistent    whether stored data outlives the process (a server store, or a store with snapshots)
 * @param maxK          the largest {@link SearchRequest#k()} the store accepts; at least 1
 * @param metadataFilters whether the store applies {@link SearchRequest#metadataFilter()} (before the top-k
 *                      cut); a store that does not rejects filtered requests with {@link IllegalArgumentException}
 */
public record StoreCapabilities(boolean keywordSearch, boolean persistent, int maxK, boolean metadataFilters) {

    /**
     * Capabilities of a store without metadata filters.
     *
     * @param keywordSearch whether the store keeps a keyword index
     * @param persistent    whether stored data outlives the process
     * @param maxK          the largest {@code k}
     */
    public StoreCapabilities(boolean keywordSearch, boolean persistent, int maxK) {
        this(keywordSearch, persistent, maxK, false);
    }

    /**
     * Validates the arguments.
     *
     * @throws IllegalArgumentException when {@code maxK < 1}
     */
    public StoreCapabilities {
        if (maxK < 1) {
            throw new IllegalArgumentException("maxK must be at least 1, got " + maxK);
        }
    }
}
