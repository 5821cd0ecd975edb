package dev.ragkit.langchain4j;

import static dev.langchain4j.store.embedding.filter.MetadataFilterBuilder.metadataKey;

import dev.langchain4j.data.document.Metadata;
import dev.langchain4j.data.embedding.Embedding;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.store.embedding.EmbeddingMatch;
import dev.langchain4j.store.embedding.EmbeddingSearchRequest;
import dev.langchain4j.store.embedding.EmbeddingSearchResult;
import dev.langchain4j.store.embedding.EmbeddingStore;
import dev.langchain4j.store.embedding.filter.Filter;
import dev.ragkit.store.DocumentStore;
import dev.ragkit.store.PromotionLevel;
import dev.ragkit.store.Scope;
import dev.ragkit.store.SearchHit;
import dev.ragkit.store.SearchRequest;
import dev.ragkit.store.StoreCapabilities;
import dev.ragkit.store.StoreException;
import dev.ragkit.store.StoredChunk;
import dev.ragkit.store.StoredDocument;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Any LangChain4j {@link EmbeddingStore EmbeddingStore&lt;TextSegment&gt;} as a RagKit {@link DocumentStore}.
 *
 * <pre>{@code
 * DocumentStore store = LangChain4jDocumentStore.builder()
 *         .store(new InMemoryEmbeddingStore<>())   // or pgvector, Qdrant, Chroma, ...
 *         .dimension(384)
 *         .build();
 * }</pre>
 *
 * <h2>How documents are kept</h2>
 * Each chunk becomes one {@link TextSegment} (its text, unchanged) with the chunk's embedding. Its metadata carries
 * the chunk's fields and, denormalised, the document fields that reads filter on, under keys starting with
 * {@value #KEY_PREFIX}: {@code tenant}, {@code document_id}, {@code version}, {@code chunk_index}, {@code source_id},
 * {@code path}, {@code title}, {@code doc_type} (absent when the document has none), {@code promotion} (0 standard,
 * 1 important, 2 critical), {@code owner_tag}, {@code date}, {@code start_line}, {@code end_line},
 * {@code token_count}, {@code section}, {@code page}, and the access tags. LangChain4j metadata values are scalars,
 * so tags are encoded as one integer key per tag, {@code ragkit_tag_<tag>} = 1 (characters other than letters,
 * digits and {@code -} escaped as {@code _} plus four hex digits, {@code _} as {@code __}), plus
 * {@code ragkit_tagged} = 0 or 1. Every search sends a LangChain4j {@link Filter} built only from
 * {@code isEqualTo}, {@code isIn}, {@code isGreaterThanOrEqualTo}, {@code and} and {@code or}:
 * <pre>
 * tenant = t  AND  (tagged = 0 OR tag_a = 1 OR tag_b = 1 ...)   -- the tag part is left out for unrestricted scopes
 *             AND  doc_type IN (...)                            -- when the request filters by type
 *             AND  promotion &gt;= level                          -- when the request sets a minimum level
 * </pre>
 * and {@code AND} the request's {@link dev.ragkit.store.MetadataFilter}, mapped by {@code BridgeMetadata} onto keys
 * {@code ragkit_meta_/num_/date_<key>}. The tenant is part of every filter. The bridge also checks every returned segment against the scope and the
 * filters itself; a store that ignores filters makes the bridge throw a {@link StoreException}, never leak.
 *
 * <h2>What the bridge cannot do, and how it says so</h2>
 * <ul>
 *   <li><b>No keyword search:</b> LangChain4j stores have no keyword index, so {@link #capabilities()} declares
 *       {@code keywordSearch = false}; a text-only search throws {@link IllegalArgumentException}, and a hybrid one
 *       is served by its vector alone (every {@link SearchHit#keywordScore()} is {@code NaN}).</li>
 *   <li><b>Atomic upserts only within this bridge:</b> an upsert adds the new version's segments, then removes the
 *       old ones. A read-write lock makes the switch atomic for every reader that goes through this bridge object;
 *       anyone reading the underlying store directly (or through another bridge) can see both versions for a
 *       moment. Give each bridge its own store (or collection) and write only through it.</li>
 *   <li><b>Documents live in the bridge:</b> LangChain4j stores cannot list or look up entries by metadata, so the
 *       bridge keeps a small index of documents (their fields, not their text or vectors) in memory. It starts
 *       empty: segments already in the store when the bridge is built are invisible to it (and skipped by
 *       searches with a logged warning). Hence {@code persistent = false} in {@link #capabilities()}, whatever
 *       the underlying store is.</li>
 *   <li><b>Chunks are read back with a search</b> filtered to one document version, asking for exactly its number
 *       of segments; a store that returns fewer, or no embeddings with its matches, makes {@link #chunks} throw a
 *       {@link StoreException} ({@link #chunksWithoutEmbeddings} needs no embeddings).</li>
 *   <li><b>Scores:</b> LangChain4j stores report {@code score = (cosine + 1) / 2} (its {@code RelevanceScore}); the
 *       bridge converts back to the cosine and clamps it to [0, 1], as {@link SearchHit#similarity()} requires.
 *       A store that reported raw cosines instead would yield wrong similarities.</li>
 *   <li>{@link #close()} does not close the LangChain4j store (the interface has no such method).</li>
 * </ul>
 * Verified with {@code DocumentStoreContract} over LangChain4j's {@code InMemoryEmbeddingStore}; the keyword and
 * hybrid cases are skipped because no keyword search is declared, every other case passes.
 */
public final class LangChain4jDocumentStore implements DocumentStore {

    /**
     * What the bridge cannot do over a LangChain4j store, said once (as a warning) when it is built, so that nobody
     * learns it after a restart: see the class description for the reasons.
     *
     * @return one sentence per limitation
     */
    public static List<String> limitations() {
        return List.of("the document listing is kept in this JVM, not in the embedding store: after a restart, "
                        + "documents already in the store are not listed, looked up or searched until they are "
                        + "indexed again through a bridge (use rag-store-lucene or rag-store-solr for a persistent "
                        + "store)",
                "no keyword search: hybrid requests are served by the vector alone",
                "upserts are atomic only for readers that use this bridge object");
    }

    /** The prefix of every metadata key the bridge writes. */
    public static final String KEY_PREFIX = "ragkit_";

    static final String TENANT = KEY_PREFIX + "tenant";
    static final String DOCUMENT_ID = KEY_PREFIX + "document_id";
    static final String VERSION = KEY_PREFIX + "version";
    static final String CHUNK_INDEX = KEY_PREFIX + "chunk_index";
    static final String SOURCE_ID = KEY_PREFIX + "source_id";
    static final String PATH = KEY_PREFIX + "path";
    static final String TITLE = KEY_PREFIX + "title";
    static final String DOC_TYPE = KEY_PREFIX + "doc_type";
    static final String PROMOTION = KEY_PREFIX + "promotion";
    static final String OWNER_TAG = KEY_PREFIX + "owner_tag";
    static final String DATE = KEY_PREFIX + "date";
    static final String START_LINE = KEY_PREFIX + "start_line";
    static final String END_LINE = KEY_PREFIX + "end_line";
    static final String TOKEN_COUNT = KEY_PREFIX + "token_count";
    static final String SECTION = KEY_PREFIX + "section";
    static final String PAGE = KEY_PREFIX + "page";
    static final String TAGGED = KEY_PREFIX + "tagged";
    static final String TAG = KEY_PREFIX + "tag_";

    private static final Logger LOG = LoggerFactory.getLogger(LangChain4jDocumentStore.class);
    private static final Comparator<SearchHit> ORDER = Comparator.comparingDouble(SearchHit::similarity).reversed()
            .thenComparing(hit -> hit.chunk().documentId())
            .thenComparingInt(hit -> hit.chunk().index());
    private static final Comparator<StoredDocument> BY_PATH = Comparator.comparing(StoredDocument::path)
            .thenComparing(StoredDocument::id);

    private final EmbeddingStore<TextSegment> store;
    private final int maxK;
    private final ReadWriteLock lock = new ReentrantReadWriteLock(true);
    private final Map<Key, Entry> documents = new HashMap<>();
    private final AtomicBoolean closed = new AtomicBoolean();
    private final AtomicBoolean staleWarned = new AtomicBoolean();
    private volatile int dimension;

    private LangChain4jDocumentStore(Builder b) {
        this.store = Objects.requireNonNull(b.store);
        this.maxK = b.maxK;
        this.dimension = b.dimension;
    }

    /** @return a builder with no dimension (the first upsert fixes it) and {@code maxK} 1,000 */
    public static Builder builder() {
        return new Builder();
    }

    // ---------------------------------------------------------------------------------------------- writes

    @Override
    public void upsert(StoredDocument document, List<StoredChunk> chunks) {
        Objects.requireNonNull(document, "document");
        Objects.requireNonNull(chunks, "chunks");
        List<StoredChunk> copy = new ArrayList<>(chunks.size());
        for (StoredChunk chunk : chunks) {
            copy.add(Objects.requireNonNull(chunk, "chunk"));
        }
        lock.writeLock().lock();
        try {
            checkOpen();
            int dim = StoredChunk.requireUpsertable(document, copy, dimension);
            Key key = new Key(document.tenant(), document.id());
            Entry old = documents.get(key);
            String version = UUID.randomUUID().toString();
            List<String> newIds = ids(key, version, copy.size());
            if (!copy.isEmpty()) {
                List<Embedding> embeddings = new ArrayList<>(copy.size());
                List<TextSegment> segments = new ArrayList<>(copy.size());
                for (StoredChunk chunk : copy) {
                    embeddings.add(Embedding.from(Objects.requireNonNull(chunk.embedding())));
                    segments.add(TextSegment.from(chunk.text(), BridgeMetadata.segment(document, chunk, version)));
                }
                try {
                    store.addAll(newIds, embeddings, segments);
                } catch (RuntimeException e) {
                    removeQuietly(newIds);
                    throw new StoreException("writing " + copy.size() + " segments of document " + document.id()
                            + " to the LangChain4j store failed: " + e.getMessage()
                            + "; the document was left as it was", e, true);
                }
            }
            if (old != null && old.chunkCount() > 0) {
                try {
                    store.removeAll(ids(key, old.version(), old.chunkCount()));
                } catch (RuntimeException e) {
                    removeQuietly(newIds);
                    throw new StoreException("removing the old segments of document " + document.id()
                            + " from the LangChain4j store failed: " + e.getMessage()
                            + "; the store must support removeAll(ids) for upserts to replace documents", e,
                            !(e instanceof UnsupportedOperationException));
                }
            }
            documents.put(key, new Entry(document, version, copy.size()));
            if (dimension == 0 && dim > 0) {
                dimension = dim;
            }
        } finally {
            lock.writeLock().unlock();
        }
    }

    @Override
    public boolean delete(Scope scope, String documentId) {
        Objects.requireNonNull(scope, "scope");
        Objects.requireNonNull(documentId, "documentId");
        lock.writeLock().lock();
        try {
            checkOpen();
            Key key = new Key(scope.tenant(), documentId);
            Entry entry = documents.get(key);
            if (entry == null || !scope.canSee(entry.document())) {
                return false;
            }
            if (entry.chunkCount() > 0) {
                try {
                    store.removeAll(ids(key, entry.version(), entry.chunkCount()));
                } catch (RuntimeException e) {
                    throw new StoreException("removing the segments of document " + documentId
                            + " from the LangChain4j store failed: " + e.getMessage()
                            + "; the store must support removeAll(ids) for deletes", e,
                            !(e instanceof UnsupportedOperationException));
                }
            }
            documents.remove(key);
            return true;
        } finally {
            lock.writeLock().unlock();
        }
    }

    // ---------------------------------------------------------------------------------------------- search

    @Override
    public List<SearchHit> search(SearchRequest request) {
        Objects.requireNonNull(request, "request");
        return read(() -> {
            float[] vector = request.queryVectorUnsafe();
            if (vector == null) {
                throw new IllegalArgumentException("this store has no keyword index: a LangChain4j EmbeddingStore"
                        + " searches by vector only, so a text-only search cannot be served; pass a query vector"
                        + " (capabilities().keywordSearch() is false)");
            }
            if (request.k() > maxK) {
                throw new IllegalArgumentException("k = " + request.k() + " exceeds this store's maxK of " + maxK
                        + "; ask for at most " + maxK + " results or raise maxK(..) on the builder");
            }
            int dim = dimension;
            if (dim != 0 && vector.length != dim) {
                throw new IllegalArgumentException("the query vector has dimension " + vector.length
                        + ", but the store holds vectors of dimension " + dim
                        + "; embed the query with the documents' model");
            }
            if (dim == 0) {
                return List.of();
            }
            return searchLocked(request, vector);
        });
    }

    private List<SearchHit> searchLocked(SearchRequest request, float[] vector) {
        Filter filter = filterFor(request);
        if (request.metadataFilter() != null) {
            try {
                return searchFiltered(request, vector, filter);
            } catch (StoreException e) {
                if (e.getCause() instanceof UnsupportedOperationException) {
                    throw new UnsupportedOperationException("the LangChain4j store " + store.getClass().getSimpleName()
                            + " cannot apply the metadata filter '" + request.metadataFilter() + "' (" + e.getMessage()
                            + "); search without it, or use a store whose filters support it", e);
                }
                throw e;
            }
        }
        return searchFiltered(request, vector, filter);
    }

    private List<SearchHit> searchFiltered(SearchRequest request, float[] vector, Filter filter) {
        Scope scope = request.scope();
        int k = request.k();
        long fetch = (long) k + 1;
        while (true) {
            int maxResults = (int) Math.min(fetch, Integer.MAX_VALUE);
            List<EmbeddingMatch<TextSegment>> matches = find(vector, maxResults, filter);
            List<SearchHit> hits = new ArrayList<>(matches.size());
            for (EmbeddingMatch<TextSegment> match : matches) {
                Entry entry = checked(match, scope);
                if (entry == null) {
                    continue;
                }
                if (!request.accepts(entry.document())) {
                    throw filterIgnored(match, "its document fails the request's type, promotion or metadata filters");
                }
                hits.add(new SearchHit(BridgeMetadata.chunkOf(match, entry.document().id(), null), entry.document(),
                        similarity(match), Double.NaN));
            }
            hits.sort(ORDER);
            boolean exhausted = matches.size() < maxResults;
            boolean settled = hits.size() > k && hits.get(k - 1).similarity() != hits.get(k).similarity();
            if (exhausted || settled || maxResults == Integer.MAX_VALUE) {
                return List.copyOf(hits.subList(0, Math.min(k, hits.size())));
            }
            // ties at the cut, or stale segments taking places: look further so the order stays exact
            fetch *= 2;
        }
    }

    private List<EmbeddingMatch<TextSegment>> find(float[] vector, int maxResults, Filter filter) {
        EmbeddingSearchResult<TextSegment> result;
        try {
            result = store.search(EmbeddingSearchRequest.builder().queryEmbedding(Embedding.from(vector.clone()))
                    .maxResults(maxResults).minScore(0.0).filter(filter).build());
        } catch (RuntimeException e) {
            throw new StoreException("searching the LangChain4j store failed: " + e.getMessage()
                    + (e instanceof UnsupportedOperationException
                            ? "; the store must support metadata filters (isEqualTo, isIn, isGreaterThanOrEqualTo,"
                                    + " and, or) for tenant isolation"
                            : ""), e, !(e instanceof UnsupportedOperationException));
        }
        if (result == null || result.matches() == null) {
            throw new StoreException("the LangChain4j store returned no search result", true);
        }
        return result.matches();
    }

    /**
     * The current document of a match, checked against the scope; {@code null} for a stale segment (an old
     * version, or one the bridge did not write).
     */
    private @Nullable Entry checked(EmbeddingMatch<TextSegment> match, Scope scope) {
        TextSegment segment = match.embedded();
        if (segment == null) {
            throw new StoreException("the LangChain4j store returned a match without its TextSegment; the bridge"
                    + " needs stores that keep the embedded segments", false);
        }
        Metadata m = segment.metadata();
        String tenant = m.getString(TENANT);
        if (!scope.tenant().equals(tenant)) {
            throw filterIgnored(match, "it belongs to another tenant");
        }
        String documentId = m.getString(DOCUMENT_ID);
        Entry entry = documentId == null ? null : documents.get(new Key(tenant, documentId));
        if (entry == null || !entry.version().equals(m.getString(VERSION))) {
            if (staleWarned.compareAndSet(false, true)) {
                LOG.warn("The LangChain4j store holds segments this bridge did not write or has replaced (e.g. {});"
                        + " they are skipped. Give each LangChain4jDocumentStore its own EmbeddingStore.",
                        match.embeddingId());
            }
            return null;
        }
        if (!scope.canSee(entry.document())) {
            throw filterIgnored(match, "its document's access tags are not visible in " + scope);
        }
        return entry;
    }

    private static StoreException filterIgnored(EmbeddingMatch<TextSegment> match, String why) {
        return new StoreException("the LangChain4j store returned segment " + match.embeddingId()
                + " although the search filter excludes it (" + why + "): the store does not apply metadata filters"
                + " as LangChain4j defines them, so the bridge refuses to answer rather than leak data", false);
    }

    private static double similarity(EmbeddingMatch<TextSegment> match) {
        Double score = match.score();
        if (score == null || score.isNaN()) {
            throw new StoreException("the LangChain4j store returned a match without a score", false);
        }
        double cosine = 2 * score - 1;
        return Math.max(0.0, Math.min(1.0, cosine));
    }

    static Filter filterFor(SearchRequest request) {
        Scope scope = request.scope();
        Filter filter = metadataKey(TENANT).isEqualTo(scope.tenant());
        if (!scope.unrestricted()) {
            Filter visible = metadataKey(TAGGED).isEqualTo(0);
            for (String tag : scope.accessTags()) {
                visible = Filter.or(visible, metadataKey(tagKey(tag)).isEqualTo(1));
            }
            filter = Filter.and(filter, visible);
        }
        if (!request.docTypes().isEmpty()) {
            filter = Filter.and(filter, metadataKey(DOC_TYPE).isIn(request.docTypes()));
        }
        if (request.minPromotion() != PromotionLevel.STANDARD) {
            filter = Filter.and(filter, metadataKey(PROMOTION).isGreaterThanOrEqualTo(request.minPromotion().ordinal()));
        }
        return request.metadataFilter() == null ? filter
                : Filter.and(filter, BridgeMetadata.filter(request.metadataFilter()));
    }

    // ---------------------------------------------------------------------------------------------- look-ups

    @Override
    public Optional<StoredDocument> document(Scope scope, String documentId) {
        Objects.requireNonNull(scope, "scope");
        Objects.requireNonNull(documentId, "documentId");
        return read(() -> Optional.ofNullable(visible(scope, documentId)).map(Entry::document));
    }

    @Override
    public List<StoredDocument> findByPaths(Scope scope, Collection<String> paths) {
        Objects.requireNonNull(scope, "scope");
        Objects.requireNonNull(paths, "paths");
        Set<String> wanted = Set.copyOf(paths);
        return list(scope, d -> wanted.contains(d.path()));
    }

    @Override
    public List<StoredDocument> findByPromotion(Scope scope, PromotionLevel minLevel, Set<String> docTypes) {
        Objects.requireNonNull(scope, "scope");
        Objects.requireNonNull(minLevel, "minLevel");
        Objects.requireNonNull(docTypes, "docTypes");
        Set<String> types = Set.copyOf(docTypes);
        return list(scope, d -> d.promotionLevel().isAtLeast(minLevel)
                && (types.isEmpty() || d.docType() != null && types.contains(d.docType())));
    }

    @Override
    public List<StoredDocument> documents(Scope scope) {
        Objects.requireNonNull(scope, "scope");
        return list(scope, d -> true);
    }

    private List<StoredDocument> list(Scope scope, java.util.function.Predicate<StoredDocument> keep) {
        return read(() -> {
            List<StoredDocument> found = new ArrayList<>();
            for (Entry entry : documents.values()) {
                StoredDocument d = entry.document();
                if (scope.canSee(d) && keep.test(d)) {
                    found.add(d);
                }
            }
            found.sort(BY_PATH);
            return List.copyOf(found);
        });
    }

    @Override
    public List<StoredChunk> chunks(Scope scope, String documentId) {
        Objects.requireNonNull(scope, "scope");
        Objects.requireNonNull(documentId, "documentId");
        return read(() -> readChunks(scope, documentId, true));
    }

    @Override
    public List<StoredChunk> chunksWithoutEmbeddings(Scope scope, String documentId) {
        Objects.requireNonNull(scope, "scope");
        Objects.requireNonNull(documentId, "documentId");
        return read(() -> readChunks(scope, documentId, false));
    }

    private List<StoredChunk> readChunks(Scope scope, String documentId, boolean withEmbeddings) {
        Entry entry = visible(scope, documentId);
        if (entry == null || entry.chunkCount() == 0) {
            return List.of();
        }
        float[] probe = new float[dimension];
        probe[0] = 1f;
        Filter filter = metadataKey(TENANT).isEqualTo(scope.tenant())
                .and(metadataKey(DOCUMENT_ID).isEqualTo(documentId))
                .and(metadataKey(VERSION).isEqualTo(entry.version()));
        List<EmbeddingMatch<TextSegment>> matches = find(probe, entry.chunkCount(), filter);
        StoredChunk[] chunks = new StoredChunk[entry.chunkCount()];
        for (EmbeddingMatch<TextSegment> match : matches) {
            TextSegment segment = match.embedded();
            Metadata m = segment == null ? null : segment.metadata();
            if (m == null || !scope.tenant().equals(m.getString(TENANT)) || !documentId.equals(m.getString(DOCUMENT_ID))
                    || !entry.version().equals(m.getString(VERSION))) {
                throw filterIgnored(match, "it is not a segment of document " + documentId + " in the current version");
            }
            float[] vector = null;
            if (withEmbeddings) {
                Embedding embedding = match.embedding();
                if (embedding == null) {
                    throw new StoreException("the LangChain4j store returns matches without their embeddings, so"
                            + " chunks() cannot return vectors; use chunksWithoutEmbeddings(..)", false);
                }
                vector = embedding.vector();
            }
            StoredChunk chunk = BridgeMetadata.chunkOf(match, documentId, vector);
            if (chunk.index() >= chunks.length || chunks[chunk.index()] != null) {
                throw new StoreException("the LangChain4j store returned an unexpected segment for chunk "
                        + chunk.sourceId(), false);
            }
            chunks[chunk.index()] = chunk;
        }
        if (matches.size() != chunks.length) {
            throw new StoreException("the LangChain4j store returned " + matches.size() + " of the "
                    + chunks.length + " segments of document " + documentId + "; it may cap maxResults below the"
                    + " document's chunk count", false);
        }
        return List.of(chunks);
    }

    private @Nullable Entry visible(Scope scope, String documentId) {
        Entry entry = documents.get(new Key(scope.tenant(), documentId));
        return entry != null && scope.canSee(entry.document()) ? entry : null;
    }

    // ---------------------------------------------------------------------------------------------- the rest

    @Override
    public StoreCapabilities capabilities() {
        return new StoreCapabilities(false, false, maxK, true);
    }

    /** Closes the bridge; the LangChain4j store stays as it is (it has no close method). */
    @Override
    public void close() {
        lock.writeLock().lock();
        try {
            closed.set(true);
        } finally {
            lock.writeLock().unlock();
        }
    }

    @Override
    public String toString() {
        return "LangChain4jDocumentStore[" + store.getClass().getSimpleName() + ", dimension "
                + (dimension == 0 ? "not fixed yet" : dimension) + ", maxK " + maxK + "]";
    }

    private <T> T read(Supplier<T> action) {
        lock.readLock().lock();
        try {
            checkOpen();
            return action.get();
        } finally {
            lock.readLock().unlock();
        }
    }

    private void checkOpen() {
        if (closed.get()) {
            throw new StoreException("this LangChain4jDocumentStore is closed; build a new one", false);
        }
    }

    private void removeQuietly(List<String> ids) {
        if (ids.isEmpty()) {
            return;
        }
        try {
            store.removeAll(ids);
        } catch (RuntimeException e) {
            LOG.warn("Could not remove {} segments after a failed upsert; they stay in the LangChain4j store,"
                    + " invisible to this bridge", ids.size(), e);
        }
    }

    /** The segment ids of one document version: name-based UUIDs, which every LangChain4j store accepts. */
    private static List<String> ids(Key key, String version, int count) {
        List<String> ids = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            String name = key.tenant().length() + ":" + key.tenant() + ":" + key.documentId().length() + ":"
                    + key.documentId() + ":" + version + ":" + i;
            ids.add(UUID.nameUUIDFromBytes(name.getBytes(StandardCharsets.UTF_8)).toString());
        }
        return ids;
    }

    /**
     * The metadata key that marks a tag: {@code ragkit_tag_} and the tag, with letters, digits and {@code -} kept,
     * {@code _} doubled, and every other character written as {@code _} and four hex digits.
     *
     * @param tag an access tag
     * @return its key
     */
    static String tagKey(String tag) {
        return BridgeMetadata.key(TAG, tag);
    }

    private record Key(String tenant, String documentId) {
    }

    private record Entry(StoredDocument document, String version, int chunkCount) {
    }

    /** Configures a {@link LangChain4jDocumentStore}. Not thread-safe. */
    public static final class Builder {
        private @Nullable EmbeddingStore<TextSegment> store;
        private int dimension;
        private int maxK = 1_000;

        private Builder() {
        }

        /**
         * @param store the LangChain4j store (required); give the bridge a store of its own and write only through
         *              the bridge
         * @return this builder
         */
        public Builder store(EmbeddingStore<TextSegment> store) {
            this.store = Objects.requireNonNull(store, "store");
            return this;
        }

        /**
         * @param dimension the embeddings' dimension, at least 1; without it, the first upsert with chunks fixes it
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
         * @param maxK the largest {@code k} a search accepts, at least 1; default 1,000. LangChain4j stores score
         *             every filtered segment per search, and some remote stores cap their results lower
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
         * @return the bridge
         * @throws IllegalStateException when no store was given
         */
        public LangChain4jDocumentStore build() {
            if (store == null) {
                throw new IllegalStateException("a LangChain4jDocumentStore needs store(..)");
            }
            LangChain4jDocumentStore bridge = new LangChain4jDocumentStore(this);
            LOG.warn("{}: {}", bridge, String.join("; ", limitations()));
            return bridge;
        }
    }
}
