package dev.ragkit.store.inmemory;

import dev.ragkit.store.DocumentStore;
import dev.ragkit.store.PromotionLevel;
import dev.ragkit.store.Scope;
import dev.ragkit.store.SearchHit;
import dev.ragkit.store.SearchRequest;
import dev.ragkit.store.StoreCapabilities;
import dev.ragkit.store.StoreException;
import dev.ragkit.store.StoredChunk;
import dev.ragkit.store.StoredDocument;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.ForkJoinPool;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;

/**
 * A {@link DocumentStore} in the JVM's heap: exact cosine search over contiguous vectors, a BM25 keyword
 * index for hybrid search, and versioned binary snapshots on disk.
 *
 * <h2>How it searches</h2>
 * Each tenant's vectors sit in one contiguous {@code float[]}. A search scans them once, checking the scope
 * and filters once per document and computing one dot product per chunk, and keeps the best {@code k} in a
 * primitive heap: nothing is allocated per scanned chunk, so filters apply before the top-k cut at no extra
 * cost. A {@linkplain dev.ragkit.store.SearchRequest#metadataFilter() metadata filter} is evaluated in the same
 * per-document check. The dot product uses the JDK's Vector API when the {@code jdk.incubator.vector} module is present at
 * run time ({@code --add-modules jdk.incubator.vector}) and an unrolled scalar loop otherwise; see
 * {@link Kernel}. Tenants above {@link Builder#parallelThreshold(int)} chunks are scanned in parallel on the
 * {@linkplain Builder#executor(Executor) executor}.
 *
 * <h2>Concurrency</h2>
 * Thread-safe. Reads never lock and are never blocked by writes: a write prepares its rows past the end of
 * what readers look at and then publishes them with one volatile write, so a reader sees a document's old
 * chunks or its new ones, never a mix. Writes to one tenant are serialised; tenants do not block each other.
 * Space left by replaced and deleted documents is reclaimed when it exceeds the live data.
 *
 * <h2>Persistence</h2>
 * {@link #save(Path)} writes a snapshot atomically; {@link #load(Path)} or {@link Builder#load(Path)} read it
 * back. See {@link #save(Path)} for the guarantees. The snapshot records the {@linkplain Builder#embedder(String)
 * embedder} that made the vectors, when one was configured; loading it into a store configured for another
 * embedder fails, and loading it into a store configured for none tells that store, see {@link #embedder()}.
 *
 * <h2>Limits</h2>
 * At most {@code (2^31 - 9) / dimension} chunks per tenant (about 5.6 million at 384 dimensions), which is also
 * where a single machine's heap is the better limit; use a server store beyond that.
 */
public final class InMemoryDocumentStore implements DocumentStore {

    /** Which dot-product implementation the scan uses. */
    public enum Kernel {
        /** The Vector API when its module is present at run time, otherwise {@link #SCALAR}. The default. */
        AUTO,
        /** The Vector API; building the store fails when {@code jdk.incubator.vector} is not present. */
        VECTOR_API,
        /** A portable unrolled loop. */
        SCALAR
    }

    private final Map<String, TenantIndex> tenants = new ConcurrentHashMap<>();
    private final Object dimensionLock = new Object();
    private volatile int dimension;
    private volatile @Nullable String embedder;
    private volatile boolean closed;
    private final DotKernel kernel;
    private final Executor executor;
    private final int parallelThreshold;
    private final int parallelism;
    private final int maxK;
    private final StoreCapabilities capabilities;

    private InMemoryDocumentStore(Builder builder) {
        this.dimension = builder.dimension;
        this.embedder = builder.embedder;
        this.kernel = DotKernels.select(builder.kernel);
        this.executor = builder.executor;
        this.parallelThreshold = builder.parallelThreshold;
        this.parallelism = builder.parallelism;
        this.maxK = builder.maxK;
        this.capabilities = new StoreCapabilities(true, true, maxK, true);
    }

    /**
     * A builder with the defaults: dimension fixed by the first upsert, no embedder id, {@link Kernel#AUTO}, the
     * common fork-join pool, parallel scans from 131,072 chunks per tenant, {@code maxK} 10,000.
     *
     * @return a new builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Reads a snapshot written by {@link #save(Path)} into a new store with default settings.
     * The store {@linkplain #embedder() knows the embedder} the snapshot records, if any.
     *
     * @param file the snapshot
     * @return the store holding the snapshot's documents
     * @throws StoreException when the file is missing, unreadable, truncated, corrupted (checksum mismatch) or of
     *                        an unknown format version; nothing is loaded then
     */
    public static InMemoryDocumentStore load(Path file) {
        return builder().load(file);
    }

    /**
     * Writes every document of every tenant to {@code file}, atomically: the data goes to a temporary file in
     * the same folder, is flushed to the disk, and only then replaces {@code file} with an atomic move. A crash
     * or error at any point leaves the previous {@code file} as it was. The format is versioned and ends with a
     * CRC-32C checksum of everything before it. Each tenant is written as one consistent version; writes to the
     * store may continue meanwhile. The snapshot records the vectors' dimension and {@link #embedder()}.
     *
     * @param file where to write; its folder must exist
     * @throws StoreException when the file cannot be written; the previous file is then unchanged
     */
    public void save(Path file) {
        Objects.requireNonNull(file, "file");
        ensureOpen();
        Snapshot.write(file, dimension, embedder, new ArrayList<>(tenants.values()));
    }

    /**
     * The tenants this store holds a partition for (an administrator's view, e.g. for a health report); a
     * tenant whose documents were all deleted may still be listed.
     *
     * @return the tenant names, sorted (a snapshot)
     */
    public SortedSet<String> tenants() {
        return Collections.unmodifiableSortedSet(new TreeSet<>(tenants.keySet()));
    }

    /**
     * The dot-product kernel in use, e.g. {@code scalar} or {@code vector-api(256 bits)}.
     *
     * @return the kernel's name
     */
    public String kernelName() {
        return kernel.name();
    }

    /** Fixes the dimension when nothing fixed it yet (a snapshot's, when it holds no chunk). */
    void adoptDimension(int dim) {
        synchronized (dimensionLock) {
            if (dimension == 0) {
                dimension = dim;
            }
        }
    }

    /**
     * The id of the embedding model that made this store's vectors: the one {@linkplain Builder#embedder(String)
     * configured}, or else the one recorded in the snapshot it was {@linkplain Builder#load(Path) loaded} from.
     * Embed queries and new documents with this model.
     *
     * @return the embedder id, or {@code null} when neither the builder nor the snapshot named one (snapshots
     *         written before embedder ids were recorded name none)
     */
    public @Nullable String embedder() {
        return embedder;
    }

    /** Records the snapshot's embedder when none was configured; {@link Snapshot} checked that they agree. */
    void adoptEmbedder(String recorded) {
        if (embedder == null) {
            embedder = recorded;
        }
    }

    /**
     * The vector dimension of this store.
     *
     * @return the dimension, or 0 while it is not fixed yet (no configured dimension and no chunk stored)
     */
    public int dimension() {
        return dimension;
    }

    @Override
    public void upsert(StoredDocument document, List<StoredChunk> chunks) {
        Objects.requireNonNull(document, "document");
        Objects.requireNonNull(chunks, "chunks");
        ensureOpen();
        int dim = StoredChunk.requireUpsertable(document, chunks, dimension);
        List<TenantIndex.PreparedChunk> prepared = new ArrayList<>(chunks.size());
        for (StoredChunk chunk : chunks) {
            prepared.add(new TenantIndex.PreparedChunk(chunk, Objects.requireNonNull(chunk.embedding())));
        }
        if (dim > 0) {
            fixDimension(dim, document);
        }
        tenants.computeIfAbsent(document.tenant(), TenantIndex::new).upsert(document, prepared, dimension);
    }

    private void fixDimension(int dim, StoredDocument document) {
        if (dimension == 0) {
            synchronized (dimensionLock) {
                if (dimension == 0) {
                    dimension = dim;
                }
            }
        }
        if (dim != dimension) {
            throw new IllegalArgumentException("document " + document.path() + " has " + dim
                    + "-dimensional embeddings but this store holds " + dimension + "-dimensional ones;"
                    + " embed all documents with the same model, or use a separate store");
        }
    }

    @Override
    public boolean delete(Scope scope, String documentId) {
        Objects.requireNonNull(scope, "scope");
        Objects.requireNonNull(documentId, "documentId");
        ensureOpen();
        TenantIndex tenant = tenants.get(scope.tenant());
        return tenant != null && tenant.delete(scope, documentId);
    }

    @Override
    public List<SearchHit> search(SearchRequest request) {
        Objects.requireNonNull(request, "request");
        ensureOpen();
        if (request.k() > maxK) {
            throw new IllegalArgumentException("k = " + request.k() + " exceeds this store's maximum of " + maxK
                    + "; ask for fewer results or raise maxK when building the store");
        }
        float[] query = request.queryVectorUnsafe();
        int dim = dimension;
        if (query != null && dim != 0 && query.length != dim) {
            throw new IllegalArgumentException("the query vector has " + query.length + " dimensions but this store"
                    + " holds " + dim + "-dimensional embeddings; embed the query with the model used for the"
                    + " documents");
        }
        TenantIndex tenant = tenants.get(request.scope().tenant());
        if (tenant == null || (query != null && dim == 0)) {
            return List.of();
        }
        return tenant.search(request, kernel, executor, parallelThreshold, parallelism);
    }

    @Override
    public Optional<StoredDocument> document(Scope scope, String documentId) {
        Objects.requireNonNull(scope, "scope");
        Objects.requireNonNull(documentId, "documentId");
        ensureOpen();
        TenantIndex tenant = tenants.get(scope.tenant());
        return tenant == null ? Optional.empty() : tenant.document(scope, documentId);
    }

    @Override
    public List<StoredDocument> findByPaths(Scope scope, Collection<String> paths) {
        Objects.requireNonNull(scope, "scope");
        Objects.requireNonNull(paths, "paths");
        ensureOpen();
        TenantIndex tenant = tenants.get(scope.tenant());
        if (tenant == null) {
            return List.of();
        }
        List<StoredDocument> found = new ArrayList<>();
        for (String path : new LinkedHashSet<>(paths)) {
            for (DocEntry e : tenant.byPath(Objects.requireNonNull(path, "path"))) {
                if (scope.canSee(e.document)) {
                    found.add(e.document);
                }
            }
        }
        return sorted(found);
    }

    @Override
    public List<StoredDocument> findByPromotion(Scope scope, PromotionLevel minLevel, Set<String> docTypes) {
        Objects.requireNonNull(scope, "scope");
        Objects.requireNonNull(minLevel, "minLevel");
        Objects.requireNonNull(docTypes, "docTypes");
        Set<String> types = Set.copyOf(docTypes);
        return documents(scope, d -> d.promotionLevel().isAtLeast(minLevel)
                && (types.isEmpty() || (d.docType() != null && types.contains(d.docType()))));
    }

    @Override
    public List<StoredDocument> documents(Scope scope) {
        Objects.requireNonNull(scope, "scope");
        return documents(scope, d -> true);
    }

    private List<StoredDocument> documents(Scope scope, Predicate<StoredDocument> filter) {
        ensureOpen();
        TenantIndex tenant = tenants.get(scope.tenant());
        return tenant == null ? List.of() : sorted(tenant.documents(scope, filter));
    }

    @Override
    public List<StoredChunk> chunks(Scope scope, String documentId) {
        Objects.requireNonNull(scope, "scope");
        Objects.requireNonNull(documentId, "documentId");
        ensureOpen();
        TenantIndex tenant = tenants.get(scope.tenant());
        return tenant == null ? List.of() : tenant.chunks(scope, documentId);
    }

    @Override
    public List<StoredChunk> chunksWithoutEmbeddings(Scope scope, String documentId) {
        Objects.requireNonNull(scope, "scope");
        Objects.requireNonNull(documentId, "documentId");
        ensureOpen();
        TenantIndex tenant = tenants.get(scope.tenant());
        return tenant == null ? List.of() : tenant.chunksWithoutEmbeddings(scope, documentId);
    }

    @Override
    public StoreCapabilities capabilities() {
        return capabilities;
    }

    /** Drops all data; later calls throw {@link StoreException}. Idempotent. */
    @Override
    public void close() {
        closed = true;
        tenants.clear();
    }

    private void ensureOpen() {
        if (closed) {
            throw new StoreException("this in-memory store is closed; create a new one", false);
        }
    }

    private static List<StoredDocument> sorted(List<StoredDocument> documents) {
        documents.sort(Comparator.comparing(StoredDocument::path).thenComparing(StoredDocument::id));
        return List.copyOf(documents);
    }

    /** For tests in this package. */
    TenantIndex tenantForTest(String tenant) {
        return tenants.get(tenant);
    }

    /** Configures an {@link InMemoryDocumentStore}. Not thread-safe. */
    public static final class Builder {
        private int dimension;
        private @Nullable String embedder;
        private Executor executor = ForkJoinPool.commonPool();
        private int parallelThreshold = 131_072;
        private int parallelism = Math.max(1, Runtime.getRuntime().availableProcessors());
        private Kernel kernel = Kernel.AUTO;
        private int maxK = 10_000;

        private Builder() {
        }

        /**
         * Fixes the vector dimension up front; otherwise the first stored chunk fixes it.
         *
         * @param dimension at least 1
         * @return this builder
         */
        public Builder dimension(int dimension) {
            if (dimension < 1) {
                throw new IllegalArgumentException("dimension must be at least 1, got " + dimension);
            }
            this.dimension = dimension;
            return this;
        }

        /**
         * Names the embedding model that makes this store's vectors. {@link InMemoryDocumentStore#save(Path)}
         * records it in the snapshot, and {@link #load(Path)} refuses a snapshot recorded by another embedder
         * (a snapshot that records none, written before embedder ids were kept, takes this one). Without it the
         * store takes the embedder recorded in the snapshot it loads, if any.
         *
         * @param embedder the id of the embedding model (e.g. {@code ollama:nomic-embed-text}); not blank,
         *                 surrounding white space is dropped
         * @return this builder
         */
        public Builder embedder(String embedder) {
            Objects.requireNonNull(embedder, "embedder");
            if (embedder.isBlank()) {
                throw new IllegalArgumentException("embedder must not be blank; give the embedding model's id,"
                        + " e.g. ollama:nomic-embed-text, or leave it out");
            }
            this.embedder = embedder.strip();
            return this;
        }

        /**
         * Where parallel scans run. The store never creates threads of its own.
         *
         * @param executor the executor; default {@link ForkJoinPool#commonPool()}
         * @return this builder
         */
        public Builder executor(Executor executor) {
            this.executor = Objects.requireNonNull(executor, "executor");
            return this;
        }

        /**
         * How many chunks a tenant must hold before a search scans it in parallel.
         *
         * @param chunks at least 1; default 131,072. {@link Integer#MAX_VALUE} turns parallel scans off
         * @return this builder
         */
        public Builder parallelThreshold(int chunks) {
            if (chunks < 1) {
                throw new IllegalArgumentException("parallelThreshold must be at least 1, got " + chunks);
            }
            this.parallelThreshold = chunks;
            return this;
        }

        /**
         * Into how many parts a parallel scan splits (the calling thread scans one of them).
         *
         * @param parts at least 1; default the number of available processors
         * @return this builder
         */
        public Builder parallelism(int parts) {
            if (parts < 1) {
                throw new IllegalArgumentException("parallelism must be at least 1, got " + parts);
            }
            this.parallelism = parts;
            return this;
        }

        /**
         * @param kernel the dot-product implementation; default {@link Kernel#AUTO}
         * @return this builder
         */
        public Builder kernel(Kernel kernel) {
            this.kernel = Objects.requireNonNull(kernel, "kernel");
            return this;
        }

        /**
         * @param maxK the largest {@code k} a search may ask for; at least 1, default 10,000
         * @return this builder
         */
        public Builder maxK(int maxK) {
            if (maxK < 1) {
                throw new IllegalArgumentException("maxK must be at least 1, got " + maxK);
            }
            this.maxK = maxK;
            return this;
        }

        /**
         * @return a new empty store
         * @throws IllegalStateException when {@link Kernel#VECTOR_API} was asked for and its module is absent
         */
        public InMemoryDocumentStore build() {
            return new InMemoryDocumentStore(this);
        }

        /**
         * Builds a store and fills it from a snapshot written by {@link InMemoryDocumentStore#save(Path)}.
         *
         * @param file the snapshot
         * @return the filled store
         * @throws StoreException when the file is missing, unreadable, truncated, corrupted or of an unknown
         *                        format version
         * @throws IllegalArgumentException when the snapshot's dimension differs from a configured one, or the
         *                                  snapshot records an embedder other than the {@linkplain #embedder(String)
         *                                  configured} one
         */
        public InMemoryDocumentStore load(Path file) {
            Objects.requireNonNull(file, "file");
            InMemoryDocumentStore store = build();
            Snapshot.read(file, store);
            return store;
        }
    }
}
