package dev.ragkit.store.lucene;

import dev.ragkit.store.DocumentStore;
import dev.ragkit.store.PromotionLevel;
import dev.ragkit.store.Scope;
import dev.ragkit.store.SearchHit;
import dev.ragkit.store.SearchRequest;
import dev.ragkit.store.StoreCapabilities;
import dev.ragkit.store.StoreException;
import dev.ragkit.store.StoredChunk;
import dev.ragkit.store.StoredDocument;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.TreeMap;
import java.util.SortedMap;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause.Occur;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TermInSetQuery;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.util.BytesRef;
import org.jspecify.annotations.Nullable;

/**
 * A {@link DocumentStore} in a Lucene directory on disk: the embedded engine that Solr and Elasticsearch are built
 * on, for knowledge bases that should not have to fit in the heap nor be rewritten whole for a one-file change.
 *
 * <pre>{@code
 * try (LuceneDocumentStore store = LuceneDocumentStore.builder()
 *         .directory(Path.of(".ragkit/index"))
 *         .embedder("all-minilm-l6-v2").dimension(384)
 *         .build()) {
 *     store.upsert(document, chunks);
 *     List<SearchHit> hits = store.search(SearchRequest.builder(Scope.of("acme")).vector(query).text("vpn").build());
 * }
 * }</pre>
 *
 * <h2>How it keeps and searches documents</h2>
 * One Lucene document per stored document (its header) and one per chunk, written as one block; every chunk also
 * carries the document fields that filters look at. Vectors go into an HNSW graph ({@code KnnFloatVectorField},
 * normalised, dot product = cosine); the original vectors are kept as stored fields, so {@link #chunks} returns them
 * exactly and similarities are recomputed in double precision. Text goes into a BM25 field analysed for one
 * language ({@link Builder#language(String)}; English by default, with stemming and stop words). The scope
 * (tenant, access tags) and the request's filters, including {@linkplain SearchRequest#metadataFilter() metadata
 * filters}, are filter clauses inside the k-NN query and beside the BM25 query, so they apply before the top-k cut,
 * never after. When a filter leaves fewer chunks than the graph search would visit, Lucene scores them exactly.
 * BM25 statistics (document frequencies) are computed over the whole index, all tenants together.
 *
 * <h2>Durability, atomicity, concurrency</h2>
 * Thread-safe; reads never wait for writes. An upsert replaces a document and all its chunks with one
 * {@code updateDocuments} call, so readers see the old version or the new one, never a mix. With
 * {@link CommitMode#EACH_WRITE} (the default) writes are serialised and every upsert and delete is committed
 * (durable, fsynced) before it returns; with {@link CommitMode#BATCHED} writes from several threads run at the same
 * time (each thread fills its own in-memory segment and builds its graph, so bulk loading scales with the cores),
 * are visible to this store's readers at once and durable after {@link #flush()} or {@link #close()}, which wait
 * for the writes under way. A process killed at any moment reopens with its last commit intact.
 *
 * <h2>Processes</h2>
 * One process writes a directory at a time (Lucene's operating-system write lock, {@code write.lock}). A second
 * writer waits up to {@link Builder#lockWait(Duration)} (default: not at all) and then fails with a
 * {@link StoreException} naming the lock file and, when known, the holding process. Any number of
 * {@linkplain Builder#readOnly(boolean) read-only} stores, in any process, search the last commit and pick up new
 * commits on their next read.
 *
 * <h2>Safety of the directory</h2>
 * Every commit records the index format, the vector dimension, the embedder id, the analyzer and the
 * {@linkplain Builder#vectorEncoding(VectorEncoding) vector encoding}. Opening an index with another embedder,
 * dimension, analyzer or vector encoding, a foreign Lucene index, a damaged one, or a directory holding other
 * files fails with a {@link StoreException} that says what to do, and changes nothing. An empty index is written
 * at creation, so an empty store reopens as an empty store. A new index gets a marker file, {@code ragkit-index.txt},
 * the proof that the folder is RagKit's; an index from before the marker is adopted (marked) by its next writer.
 * Lucene's writer deletes files it takes for its own leftovers — any unreferenced {@code _*.*} or {@code segments*}
 * name — so a writer refuses a folder holding such a file that is not Lucene's ({@code _config.yml}, starting
 * without Lucene's header), naming it; other files in the folder are left alone. To replace the whole index, build
 * the new one beside it: {@link Builder#rebuild()}. Opening does not read every byte (Lucene checks each file's
 * header and checksum footer, not its content); {@link Builder#check()} does, and names the documents of any damaged
 * segment ({@link IndexCheck}).
 *
 * <h2>Limits</h2>
 * Vectors of at most 1,024 dimensions (Lucene 9's limit for HNSW fields). {@link #compact()} merges the index into
 * one segment, which makes searches several times faster after many small writes.
 */
public final class LuceneDocumentStore implements DocumentStore {

    /** When writes become durable. */
    public enum CommitMode {
        /** Every upsert and delete is committed before it returns (the default). */
        EACH_WRITE,
        /** Writes are committed by {@link #flush()} and {@link #close()}; faster for bulk indexing. */
        BATCHED
    }

    private static final Comparator<StoredDocument> BY_PATH = Comparator.comparing(StoredDocument::path)
            .thenComparing(StoredDocument::id);
    private static final int MAX_CANDIDATES = 10_000;

    private final LuceneIndex index;
    private final Analyzer analyzer;
    private final CommitMode commitMode;
    private final int maxK;
    private final int searchCandidates;
    /**
     * Shared by the writes that may run together (BATCHED upserts and deletes once the dimension is fixed),
     * exclusive for the rest: commits, merges, closing, the first vector, and every write with EACH_WRITE.
     */
    private final ReentrantReadWriteLock writes = new ReentrantReadWriteLock();
    private volatile boolean closed;
    private volatile int dimension;

    private LuceneDocumentStore(Builder b, LuceneIndex index) {
        this.index = index;
        this.analyzer = b.analyzer;
        this.commitMode = b.commitMode;
        this.maxK = b.maxK;
        this.searchCandidates = b.searchCandidates;
        this.dimension = index.dimension();
    }

    /**
     * A builder with English analysis, commits per write, no lock wait and {@code maxK} 1,000.
     *
     * @return a new builder; {@link Builder#directory(Path)} is required
     */
    public static Builder builder() {
        return new Builder();
    }

    // ------------------------------------------------------------------------------------------------ writes

    @Override
    public void upsert(StoredDocument document, List<StoredChunk> chunks) {
        Objects.requireNonNull(document, "document");
        Objects.requireNonNull(chunks, "chunks");
        List<StoredChunk> copy = new ArrayList<>(chunks.size());
        for (StoredChunk chunk : chunks) {
            copy.add(Objects.requireNonNull(chunk, "chunk"));
        }
        write("storing document " + document.id(), dimension != 0, () -> {
            int dim = StoredChunk.requireUpsertable(document, copy, dimension);
            if (dim > LuceneIndex.MAX_DIMENSION) {
                throw new IllegalArgumentException("vectors of " + dim + " dimensions exceed Lucene's limit of "
                        + LuceneIndex.MAX_DIMENSION + " for HNSW fields; use an embedding model with at most "
                        + LuceneIndex.MAX_DIMENSION + " dimensions, or the in-memory or Solr store");
            }
            index.writer().updateDocuments(LuceneFields.key(document.tenant(), document.id()),
                    LuceneFields.block(document, copy));
            if (dimension == 0 && dim > 0) {
                index.fixDimension(dim);
                dimension = dim;
            }
            return true;
        });
    }

    @Override
    public boolean delete(Scope scope, String documentId) {
        Objects.requireNonNull(scope, "scope");
        Objects.requireNonNull(documentId, "documentId");
        return write("deleting document " + documentId, true, () -> {
            if (find(scope, documentId).isEmpty()) {
                return false;
            }
            index.writer().deleteDocuments(LuceneFields.key(scope.tenant(), documentId));
            return true;
        });
    }

    /**
     * Commits the writes made since the last commit. Needed only with {@link CommitMode#BATCHED}; harmless
     * otherwise.
     *
     * @throws StoreException when the store is closed or read-only, or the commit fails
     */
    public void flush() {
        write("committing", false, () -> {
            index.commit();
            return true;
        });
    }

    /**
     * Merges the index into one segment and commits: searches get faster (many small segments each cost a graph
     * search), at the price of rewriting the index once. Worth it after bulk indexing or many updates.
     *
     * @throws StoreException when the store is closed or read-only, or the merge fails
     */
    public void compact() {
        write("compacting", false, () -> {
            index.writer().forceMerge(1);
            index.commit();
            return true;
        });
    }

    private interface Write {
        boolean run() throws IOException;
    }

    /**
     * Runs a write under the lock: shared when {@code mayShare} and the store batches its commits (Lucene's writer
     * takes concurrent updates), exclusive otherwise.
     */
    private boolean write(String what, boolean mayShare, Write action) {
        Lock lock = mayShare && commitMode == CommitMode.BATCHED ? writes.readLock() : writes.writeLock();
        lock.lock();
        try {
            checkOpen();
            index.writer();
            boolean changed;
            try {
                changed = action.run();
            } catch (IOException e) {
                throw LuceneIndex.failure(index.path(), what, e);
            }
            if (changed) {
                index.changed();
                if (commitMode == CommitMode.EACH_WRITE) {
                    try {
                        index.commit();
                    } catch (IOException | RuntimeException e) {
                        closed = true;
                        index.abandon();
                        throw new StoreException(what + " could not be committed at " + index.path() + " (" + e
                                + "); the store was closed and the index keeps its last commit. Check disk space"
                                + " and permissions, then open the store again", e, true);
                    }
                }
            }
            return changed;
        } finally {
            lock.unlock();
        }
    }

    // ------------------------------------------------------------------------------------------------ reads

    @Override
    public List<SearchHit> search(SearchRequest request) {
        Objects.requireNonNull(request, "request");
        if (request.k() > maxK) {
            throw new IllegalArgumentException("k = " + request.k() + " exceeds this store's maxK of " + maxK
                    + "; ask for at most " + maxK + " results or raise maxK(..) on the builder");
        }
        float[] vector = request.queryVectorUnsafe();
        int dim = dimension;
        if (vector != null && dim != 0 && vector.length != dim) {
            throw new IllegalArgumentException("the query vector has dimension " + vector.length + ", but the index"
                    + " holds vectors of dimension " + dim + (index.embedder() == null ? ""
                    : " made by '" + index.embedder() + "'") + "; embed the query with the documents' model");
        }
        return read("searching", s -> new LuceneSearch(s, analyzer, searchCandidates,
                Math.max(MAX_CANDIDATES, 2 * maxK), index.vectorEncoding() == VectorEncoding.INT8)
                .search(request));
    }

    @Override
    public Optional<StoredDocument> document(Scope scope, String documentId) {
        Objects.requireNonNull(scope, "scope");
        Objects.requireNonNull(documentId, "documentId");
        return find(scope, documentId);
    }

    private Optional<StoredDocument> find(Scope scope, String documentId) {
        BooleanQuery.Builder q = LuceneQueries.documents(scope);
        q.add(new TermQuery(LuceneFields.key(scope.tenant(), documentId)), Occur.FILTER);
        List<StoredDocument> found = headers(q.build());
        return found.isEmpty() ? Optional.empty() : Optional.of(found.get(0));
    }

    @Override
    public List<StoredDocument> findByPaths(Scope scope, Collection<String> paths) {
        Objects.requireNonNull(scope, "scope");
        Objects.requireNonNull(paths, "paths");
        List<BytesRef> terms = new ArrayList<>(paths.size());
        for (String path : paths) {
            terms.add(new BytesRef(Objects.requireNonNull(path, "path")));
        }
        checkOpen();
        if (terms.isEmpty()) {
            return List.of();
        }
        BooleanQuery.Builder q = LuceneQueries.documents(scope);
        q.add(new TermInSetQuery(LuceneFields.PATH, terms), Occur.FILTER);
        return headers(q.build());
    }

    @Override
    public List<StoredDocument> findByPromotion(Scope scope, PromotionLevel minLevel, Set<String> docTypes) {
        Objects.requireNonNull(scope, "scope");
        Objects.requireNonNull(minLevel, "minLevel");
        Objects.requireNonNull(docTypes, "docTypes");
        docTypes.forEach(t -> Objects.requireNonNull(t, "docType"));
        BooleanQuery.Builder q = LuceneQueries.documents(scope);
        LuceneQueries.addTypeAndPromotion(q, docTypes, minLevel);
        return headers(q.build());
    }

    /**
     * Every visible document, read from the index (so the listing survives restarts and sees other processes'
     * commits in read-only stores).
     */
    @Override
    public List<StoredDocument> documents(Scope scope) {
        Objects.requireNonNull(scope, "scope");
        return headers(LuceneQueries.documents(scope).build());
    }

    /**
     * @return the tenants that have documents, with how many each, in name order (for a health report; an
     *         administrator's view across tenants)
     */
    public SortedMap<String, Integer> documentCounts() {
        return read("counting documents", s -> {
            SortedMap<String, Integer> counts = new TreeMap<>();
            LuceneFields.HeaderReader headers = new LuceneFields.HeaderReader(s);
            for (ScoreDoc sd : inDocOrder(all(s, new TermQuery(new Term(LuceneFields.KIND, LuceneFields.DOC))))) {
                counts.merge(headers.read(sd.doc).tenant(), 1, Integer::sum);
            }
            return counts;
        });
    }

    private List<StoredDocument> headers(Query query) {
        List<StoredDocument> found = read("reading documents", s -> {
            List<StoredDocument> out = new ArrayList<>();
            LuceneFields.HeaderReader headers = new LuceneFields.HeaderReader(s);
            for (ScoreDoc sd : inDocOrder(all(s, query))) {
                out.add(headers.read(sd.doc));
            }
            return out;
        });
        List<StoredDocument> sorted = new ArrayList<>(found);
        sorted.sort(BY_PATH);
        return List.copyOf(sorted);
    }

    @Override
    public List<StoredChunk> chunks(Scope scope, String documentId) {
        Objects.requireNonNull(scope, "scope");
        Objects.requireNonNull(documentId, "documentId");
        return chunks(scope, documentId, true);
    }

    @Override
    public List<StoredChunk> chunksWithoutEmbeddings(Scope scope, String documentId) {
        Objects.requireNonNull(scope, "scope");
        Objects.requireNonNull(documentId, "documentId");
        return chunks(scope, documentId, false);
    }

    private List<StoredChunk> chunks(Scope scope, String documentId, boolean withVectors) {
        BooleanQuery.Builder visible = LuceneQueries.documents(scope);
        Term key = LuceneFields.key(scope.tenant(), documentId);
        visible.add(new TermQuery(key), Occur.FILTER);
        Query visibleQuery = visible.build();
        Query chunkQuery = new BooleanQuery.Builder().add(new TermQuery(key), Occur.FILTER)
                .add(new TermQuery(new Term(LuceneFields.KIND, LuceneFields.CHUNK)), Occur.FILTER).build();
        return read("reading chunks", s -> {
            if (s.count(visibleQuery) == 0) {
                return List.of();
            }
            StoredChunk[] chunks = new StoredChunk[s.count(chunkQuery)];
            for (ScoreDoc sd : all(s, chunkQuery)) {
                StoredChunk c = LuceneFields.chunk(s.storedFields().document(sd.doc), withVectors);
                if (c.index() >= chunks.length || chunks[c.index()] != null) {
                    throw new StoreException("document " + documentId + " has a chunk with an unexpected index "
                            + c.index() + " in the index at " + index.path() + "; rebuild it (ragkit index --rebuild)",
                            false);
                }
                chunks[c.index()] = c;
            }
            return List.of(chunks);
        });
    }

    private static ScoreDoc[] all(IndexSearcher s, Query query) throws IOException {
        int count = s.count(query);
        return count == 0 ? new ScoreDoc[0] : s.search(query, count).scoreDocs;
    }

    private static ScoreDoc[] inDocOrder(ScoreDoc[] docs) {
        Arrays.sort(docs, Comparator.comparingInt(d -> d.doc));
        return docs;
    }

    private interface Read<T> {
        T run(IndexSearcher searcher) throws IOException;
    }

    private <T> T read(String what, Read<T> action) {
        checkOpen();
        IndexSearcher searcher;
        try {
            searcher = index.acquire();
        } catch (IOException | RuntimeException e) {
            checkOpen(); // closed meanwhile: say so rather than report Lucene's AlreadyClosedException
            throw LuceneIndex.failure(index.path(), what, e);
        }
        try {
            return action.run(searcher);
        } catch (IOException e) {
            throw LuceneIndex.failure(index.path(), what, e);
        } finally {
            try {
                index.release(searcher);
            } catch (IOException | RuntimeException e) {
                // releasing a reader of a closed store; the read itself succeeded or already failed
            }
        }
    }

    // ------------------------------------------------------------------------------------------------ the rest

    /** Keyword search, persistence and metadata filters; {@code maxK} as configured. */
    @Override
    public StoreCapabilities capabilities() {
        return new StoreCapabilities(true, true, maxK, true);
    }

    /**
     * What the index records about itself.
     *
     * @return the directory, dimension (0 while empty), embedder id and whether this store is read-only
     */
    public IndexInfo info() {
        checkOpen();
        return new IndexInfo(index.path(), dimension, index.embedder(), index.readOnly());
    }

    /**
     * How this index keeps its vectors: as recorded in it (an index made before the encoding was recorded holds
     * float vectors).
     *
     * @return the vector encoding
     */
    public VectorEncoding vectorEncoding() {
        checkOpen();
        return index.vectorEncoding();
    }

    /**
     * What a Lucene index records about itself.
     *
     * @param directory the index directory
     * @param dimension the vectors' dimension, 0 while no vector was stored
     * @param embedder  the id of the embedder that made the vectors, or {@code null} when none was configured
     * @param readOnly  whether this store was opened read-only
     */
    public record IndexInfo(Path directory, int dimension, @Nullable String embedder, boolean readOnly) {
    }

    /** Commits pending writes (in {@link CommitMode#BATCHED} mode), releases the write lock and closes the index. */
    @Override
    public void close() {
        writes.writeLock().lock();
        try {
            if (closed) {
                return;
            }
            closed = true;
            try {
                if (!index.readOnly()) {
                    index.commit();
                }
                index.close();
            } catch (IOException | RuntimeException e) {
                index.abandon();
                throw LuceneIndex.failure(index.path(), "closing the index", e);
            }
        } finally {
            writes.writeLock().unlock();
        }
    }

    @Override
    public String toString() {
        return "LuceneDocumentStore[" + index.path() + (index.readOnly() ? ", read-only" : "") + ", dimension "
                + (dimension == 0 ? "not fixed yet" : dimension) + "]";
    }

    private void checkOpen() {
        if (closed) {
            throw new StoreException("this Lucene store (" + index.path() + ") is closed; open a new one", false);
        }
    }

    /** Configures and opens a {@link LuceneDocumentStore}. Not thread-safe. */
    public static final class Builder {
        private @Nullable Path directory;
        private int dimension;
        private @Nullable String embedder;
        private Analyzer analyzer = Analyzers.forLanguage("en");
        private String analyzerName = "en";
        private CommitMode commitMode = CommitMode.EACH_WRITE;
        private Duration lockWait = Duration.ZERO;
        private boolean readOnly;
        private int maxK = 1_000;
        private double ramBufferMb = 64;
        private int searchCandidates = 100;
        private @Nullable VectorEncoding vectorEncoding;
        private int maxConn = VectorFormats.DEFAULT_MAX_CONN;
        private int beamWidth = VectorFormats.DEFAULT_BEAM_WIDTH;
        private int mergeThreads = 1;
        private boolean bulkIndexing;

        private Builder() {
        }

        /**
         * @param directory the index directory (required); created when absent unless read-only
         * @return this builder
         */
        public Builder directory(Path directory) {
            this.directory = Objects.requireNonNull(directory, "directory");
            return this;
        }

        /**
         * @param dimension the embeddings' dimension, 1 to 1,024; without it the index's recorded dimension, or the
         *                  first stored chunk's, is used. An index with another dimension refuses to open
         * @return this builder
         */
        public Builder dimension(int dimension) {
            if (dimension < 1 || dimension > LuceneIndex.MAX_DIMENSION) {
                throw new IllegalArgumentException("dimension must be between 1 and " + LuceneIndex.MAX_DIMENSION
                        + " (Lucene's limit for HNSW fields), got " + dimension);
            }
            this.dimension = dimension;
            return this;
        }

        /**
         * @param embedder the id of the embedding model (e.g. {@code ollama:nomic-embed-text}); recorded in the index,
         *                 and an index made by another embedder refuses to open
         * @return this builder
         */
        public Builder embedder(String embedder) {
            this.embedder = text(embedder, "embedder");
            return this;
        }

        /**
         * @param language the text analysis: {@code en} (default), {@code de}, {@code fr}, {@code es}, {@code it},
         *                 {@code nl}, {@code pt}, or {@code standard} (no stemming, no stop words)
         * @return this builder
         */
        public Builder language(String language) {
            this.analyzer = Analyzers.forLanguage(Objects.requireNonNull(language, "language"));
            this.analyzerName = Analyzers.normalise(language);
            return this;
        }

        /**
         * @param analyzer an analyzer of your own for the text field
         * @param name     its name, recorded in the index so that the same analysis is used on reopening
         * @return this builder
         */
        public Builder analyzer(Analyzer analyzer, String name) {
            this.analyzer = Objects.requireNonNull(analyzer, "analyzer");
            this.analyzerName = "custom:" + text(name, "analyzer name");
            return this;
        }

        /**
         * @param mode when writes become durable; default {@link CommitMode#EACH_WRITE}
         * @return this builder
         */
        public Builder commitMode(CommitMode mode) {
            this.commitMode = Objects.requireNonNull(mode, "commitMode");
            return this;
        }

        /**
         * @param wait how long to wait for another process's write lock before failing; default zero (fail at once)
         * @return this builder
         */
        public Builder lockWait(Duration wait) {
            Objects.requireNonNull(wait, "lockWait");
            if (wait.isNegative()) {
                throw new IllegalArgumentException("lockWait must not be negative, got " + wait);
            }
            this.lockWait = wait;
            return this;
        }

        /**
         * @param readOnly {@code true} to search the last commit without taking the write lock (any number of
         *                 processes may); writes then throw {@link StoreException}
         * @return this builder
         */
        public Builder readOnly(boolean readOnly) {
            this.readOnly = readOnly;
            return this;
        }

        /**
         * @param maxK the largest {@code k} a search accepts, at least 1; default 1,000
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
         * @param candidates how many nearest neighbours a vector search collects from the HNSW graph before the
         *                   top {@code k} are taken, at least 1; default 100. More candidates raise recall and cost
         *                   time; searches whose filter leaves few chunks are exact anyway
         * @return this builder
         */
        public Builder searchCandidates(int candidates) {
            this.searchCandidates = between(candidates, 1, MAX_CANDIDATES, "searchCandidates", "search-candidates");
            return this;
        }

        /**
         * @param encoding how the HNSW graph's vectors are kept: {@link VectorEncoding#INT8} (scalar-quantized, the
         *                 default for a new index) or {@link VectorEncoding#FLOAT32}. Recorded in the index when it
         *                 is created; an index recorded with another encoding refuses to open. Without this setting
         *                 an existing index is opened with the encoding it records
         * @return this builder
         */
        public Builder vectorEncoding(VectorEncoding encoding) {
            this.vectorEncoding = Objects.requireNonNull(encoding, "vectorEncoding");
            return this;
        }

        /**
         * @param maxConn neighbours kept per node of the HNSW graph, 2 to 512; default 16 (Lucene's). More makes a
         *                larger graph that is slower to build and finds more at the same {@code searchCandidates}.
         *                Applies to segments written and merged from now on; not recorded in the index
         * @return this builder
         */
        public Builder maxConn(int maxConn) {
            this.maxConn = between(maxConn, 2, VectorFormats.MAX_MAX_CONN, "maxConn", "max-conn");
            return this;
        }

        /**
         * @param beamWidth candidates considered when a chunk is inserted into the HNSW graph, 1 to 3,200; default
         *                  100 (Lucene's). More builds a better graph (higher recall at the same search cost) and
         *                  builds more slowly. Applies to segments written and merged from now on; not recorded
         * @return this builder
         */
        public Builder beamWidth(int beamWidth) {
            this.beamWidth = between(beamWidth, 1, VectorFormats.MAX_BEAM_WIDTH, "beamWidth", "beam-width");
            return this;
        }

        /**
         * @param mergeThreads threads that build a merged segment's HNSW graph together, 1 to 64; default 1 (the
         *                     merging thread alone, Lucene's default). A merge of large segments re-inserts their
         *                     vectors into one graph, the slow part of {@link #compact()} after a bulk load; 2 on two
         *                     cores nearly halves it, at the price of those cores while it runs. Not recorded
         * @return this builder
         */
        public Builder mergeThreads(int mergeThreads) {
            this.mergeThreads = between(mergeThreads, 1, VectorFormats.MAX_MERGE_THREADS, "mergeThreads",
                    "merge-threads");
            return this;
        }

        /**
         * @param bulkIndexing {@code true} for a process that mostly writes, as {@code ragkit index} does: the
         *                     index's files are then read with buffered reads instead of memory maps (except the
         *                     temporary vectors a merge builds its graph from), so that the segments a merge reads
         *                     stay in the operating system's page cache rather than in the process's resident
         *                     memory; searches read more slowly. Default {@code false}, for a store that serves
         *                     searches. Not recorded in the index. Do not interrupt threads while they use such a
         *                     store: an interrupted read closes the file for every reader (Lucene's
         *                     {@code NIOFSDirectory}), and the store fails until it is reopened
         * @return this builder
         */
        public Builder bulkIndexing(boolean bulkIndexing) {
            this.bulkIndexing = bulkIndexing;
            return this;
        }

        /**
         * @param megabytes memory for buffering writes before Lucene flushes a segment, at least 1; default 64
         * @return this builder
         */
        public Builder ramBufferMb(double megabytes) {
            if (!(megabytes >= 1)) {
                throw new IllegalArgumentException("ramBufferMb must be at least 1, got " + megabytes);
            }
            this.ramBufferMb = megabytes;
            return this;
        }

        /** @return {@code value} when it is within {@code [min, max]}; else fails naming the method and setting */
        private static int between(int value, int min, int max, String method, String setting) {
            if (value < min || value > max) {
                throw new IllegalArgumentException(method + " (setting " + setting + ") must be between " + min
                        + " and " + max + ", got " + value);
            }
            return value;
        }

        private static String text(String value, String name) {
            Objects.requireNonNull(value, name);
            if (value.isBlank()) {
                throw new IllegalArgumentException(name + " must not be blank");
            }
            return value.strip();
        }

        /** @return a copy of these settings for another directory, read-write, without a lock wait */
        Builder copyFor(Path other) {
            Builder b = new Builder();
            b.directory = other;
            b.dimension = dimension;
            b.embedder = embedder;
            b.analyzer = analyzer;
            b.analyzerName = analyzerName;
            b.commitMode = commitMode;
            b.maxK = maxK;
            b.ramBufferMb = ramBufferMb;
            b.searchCandidates = searchCandidates;
            b.vectorEncoding = vectorEncoding;
            b.maxConn = maxConn;
            b.beamWidth = beamWidth;
            b.mergeThreads = mergeThreads;
            b.bulkIndexing = bulkIndexing;
            return b;
        }

        /**
         * Starts rebuilding the index in {@link #directory(Path)}: takes its write lock (waiting up to
         * {@link #lockWait(Duration)}) and opens an empty store with these settings in a staging folder beside it,
         * which {@link LuceneRebuild#replace()} swaps in whole. See {@link LuceneRebuild} for what it refuses.
         *
         * @return the rebuild; close it (after {@code replace()}, or to discard the new index)
         * @throws IllegalStateException when no directory was given, or the builder is read-only
         * @throws StoreException        when the folder is not provably RagKit's index (nothing is changed then), or
         *                               another writer holds it past the lock wait
         */
        public LuceneRebuild rebuild() {
            if (directory == null) {
                throw new IllegalStateException("a LuceneDocumentStore rebuild needs directory(..)");
            }
            if (readOnly) {
                throw new IllegalStateException("a rebuild writes the index; drop readOnly(true)");
            }
            return LuceneRebuild.start(this, directory, lockWait.toMillis());
        }

        /**
         * Checks the index in {@link #directory(Path)} deeply, changing nothing: Lucene's {@code CheckIndex} reads
         * every file of the last commit (checksums included) and every structure in it, and for each segment that
         * fails, the documents living in it are read (from the stored fields and from the terms) so that the caller
         * can say what to re-index. Holds the index's write lock meanwhile (waiting up to {@link #lockWait(Duration)}
         * for a writer), so that no writer removes files under the check; readers are not affected. See
         * {@link IndexCheck}.
         *
         * @return what the check found
         * @throws IllegalStateException when no directory was given
         * @throws StoreException        when the folder holds no index (or is being rebuilt), or another writer holds
         *                               it past the lock wait
         */
        public IndexCheck check() {
            if (directory == null) {
                throw new IllegalStateException("a LuceneDocumentStore check needs directory(..)");
            }
            return IndexCheck.run(directory, lockWait.toMillis(), false);
        }

        /**
         * Checks the index as {@link #check()} does and, when segments fail and the documents of every one of them
         * are known, writes a new commit without those segments ({@code CheckIndex.exorciseIndex}): their documents
         * are gone from the index afterwards, and indexing their folders again adds them back. When some damaged
         * segment's documents cannot be read, nothing is dropped ({@link IndexCheck#dropped()} is {@code false}):
         * the whole index must then be rebuilt from the source folders. Deletes index data; never called implicitly.
         *
         * @return what the check found, and whether the damaged segments were dropped
         * @throws IllegalStateException when no directory was given, or the builder is read-only
         * @throws StoreException        as {@link #check()}
         */
        public IndexCheck dropDamagedSegments() {
            if (directory == null) {
                throw new IllegalStateException("a LuceneDocumentStore repair needs directory(..)");
            }
            if (readOnly) {
                throw new IllegalStateException("dropping damaged segments writes the index; drop readOnly(true)");
            }
            return IndexCheck.run(directory, lockWait.toMillis(), true);
        }

        /**
         * Opens the index (creating an empty one when the directory is new or empty).
         *
         * @return the store
         * @throws IllegalStateException when no directory was given
         * @throws StoreException        when the index cannot be opened: locked by another writer, made by another
         *                               embedder, dimension or analyzer, foreign, or damaged
         */
        public LuceneDocumentStore build() {
            if (directory == null) {
                throw new IllegalStateException("a LuceneDocumentStore needs directory(..)");
            }
            LuceneIndex index = LuceneIndex.open(directory, readOnly, analyzer, analyzerName, dimension, embedder,
                    lockWait.toMillis(), ramBufferMb, vectorEncoding, maxConn, beamWidth, mergeThreads, bulkIndexing);
            return new LuceneDocumentStore(this, index);
        }
    }
}
