package dev.ragkit.micrometer;

import dev.ragkit.store.DocumentStore;
import dev.ragkit.store.PromotionLevel;
import dev.ragkit.store.Scope;
import dev.ragkit.store.SearchHit;
import dev.ragkit.store.SearchRequest;
import dev.ragkit.store.StoreCapabilities;
import dev.ragkit.store.StoredChunk;
import dev.ragkit.store.StoredDocument;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * A {@link DocumentStore} that times searches ({@code ragkit.store.search}, tagged with the store's name and the
 * kind of search: vector, keyword or hybrid) and upserts ({@code ragkit.store.upsert}); everything else passes
 * through unchanged. Tenants, queries and paths are never tags.
 */
public final class MeteredDocumentStore implements DocumentStore {
    private final DocumentStore delegate;
    private final MeterRegistry meters;
    private final String store;
    private final Timer upserts;

    /**
     * @param delegate the store
     * @param meters   where the timers go
     * @param store    a low-cardinality name for the store, e.g. {@code in-memory}, {@code lucene}, {@code solr}
     */
    public MeteredDocumentStore(DocumentStore delegate, MeterRegistry meters, String store) {
        this.delegate = Objects.requireNonNull(delegate, "delegate");
        this.meters = Objects.requireNonNull(meters, "meters");
        this.store = Objects.requireNonNull(store, "store");
        this.upserts = Timer.builder("ragkit.store.upsert").tag("store", store).register(meters);
    }

    @Override
    public List<SearchHit> search(SearchRequest request) {
        String kind = request.queryVector() != null && request.queryText() != null ? "hybrid"
                : request.queryVector() != null ? "vector" : "keyword";
        return Timer.builder("ragkit.store.search").description("one store search").tags("store", store, "kind", kind)
                .publishPercentileHistogram().register(meters).record(() -> delegate.search(request));
    }

    @Override
    public void upsert(StoredDocument document, List<StoredChunk> chunks) {
        upserts.record(() -> delegate.upsert(document, chunks));
    }

    @Override
    public boolean delete(Scope scope, String documentId) {
        return delegate.delete(scope, documentId);
    }

    @Override
    public Optional<StoredDocument> document(Scope scope, String documentId) {
        return delegate.document(scope, documentId);
    }

    @Override
    public List<StoredDocument> findByPaths(Scope scope, Collection<String> paths) {
        return delegate.findByPaths(scope, paths);
    }

    @Override
    public List<StoredDocument> findByPromotion(Scope scope, PromotionLevel minLevel, Set<String> docTypes) {
        return delegate.findByPromotion(scope, minLevel, docTypes);
    }

    @Override
    public List<StoredDocument> documents(Scope scope) {
        return delegate.documents(scope);
    }

    @Override
    public List<StoredChunk> chunks(Scope scope, String documentId) {
        return delegate.chunks(scope, documentId);
    }

    @Override
    public List<StoredChunk> chunksWithoutEmbeddings(Scope scope, String documentId) {
        return delegate.chunksWithoutEmbeddings(scope, documentId);
    }

    @Override
    public StoreCapabilities capabilities() {
        return delegate.capabilities();
    }

    @Override
    public void close() {
        delegate.close();
    }
}
