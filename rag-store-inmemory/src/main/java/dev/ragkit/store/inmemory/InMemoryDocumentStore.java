package dev.ragkit.store.inmemory;

import dev.ragkit.store.DocumentStore;
import dev.ragkit.store.PromotionLevel;
import dev.ragkit.store.Scope;
import dev.ragkit.store.SearchHit;
import dev.ragkit.store.SearchRequest;
import dev.ragkit.store.StoreCapabilities;
import dev.ragkit.store.StoredChunk;
import dev.ragkit.store.StoredDocument;
import java.nio.file.Path;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.concurrent.ForkJoinPool;

/** STUB: being written. API is fixed. */
public final class InMemoryDocumentStore implements DocumentStore {

    /** Which dot-product kernel the scan uses. */
    public enum Kernel { AUTO, VECTOR_API, SCALAR }

    public static Builder builder() { return new Builder(); }

    public void save(Path file) { throw new UnsupportedOperationException(); }

    public static InMemoryDocumentStore load(Path file) { return builder().load(file); }

    @Override public void upsert(StoredDocument document, List<StoredChunk> chunks) { throw new UnsupportedOperationException(); }
    @Override public boolean delete(Scope scope, String documentId) { throw new UnsupportedOperationException(); }
    @Override public List<SearchHit> search(SearchRequest request) { throw new UnsupportedOperationException(); }
    @Override public Optional<StoredDocument> document(Scope scope, String documentId) { throw new UnsupportedOperationException(); }
    @Override public List<StoredDocument> findByPaths(Scope scope, Collection<String> paths) { throw new UnsupportedOperationException(); }
    @Override public List<StoredDocument> findByPromotion(Scope scope, PromotionLevel minLevel, Set<String> docTypes) { throw new UnsupportedOperationException(); }
    @Override public List<StoredDocument> documents(Scope scope) { throw new UnsupportedOperationException(); }
    @Override public List<StoredChunk> chunks(Scope scope, String documentId) { throw new UnsupportedOperationException(); }
    @Override public StoreCapabilities capabilities() { return new StoreCapabilities(true, true, 10_000); }
    @Override public void close() { }

    public static final class Builder {
        public Builder dimension(int dimension) { return this; }
        public Builder executor(Executor executor) { return this; }
        public Builder parallelThreshold(int rows) { return this; }
        public Builder kernel(Kernel kernel) { return this; }
        public Builder maxK(int maxK) { return this; }
        public InMemoryDocumentStore build() { return new InMemoryDocumentStore(); }
        public InMemoryDocumentStore load(Path file) { throw new UnsupportedOperationException(); }
    }
}
