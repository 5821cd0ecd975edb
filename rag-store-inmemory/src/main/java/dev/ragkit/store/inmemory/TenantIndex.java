package dev.ragkit.store.inmemory;

import dev.ragkit.store.Scope;
import dev.ragkit.store.SearchHit;
import dev.ragkit.store.SearchRequest;
import dev.ragkit.store.StoreException;
import dev.ragkit.store.StoredChunk;
import dev.ragkit.store.StoredDocument;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Predicate;

/**
 * One tenant's documents: vectors in one contiguous array, a BM25 inverted index, and lookups by id and
 * path.
 *
 * <p><b>Concurrency.</b> Writers take {@link #lock}; they append rows and documents past the end of what the
 * current {@link View} covers, mark replaced documents dead as of the next version, and then publish a new
 * view with one volatile write. Readers never lock: they read {@link #view} once and see exactly the
 * documents live in it, so a document's chunks come all from one version. The id and path maps are updated
 * right after each publish; lookups through them return whole immutable {@link DocEntry}s. When dead rows
 * outnumber live ones the writer compacts into a new generation, leaving older views intact for the readers
 * still using them.
 */
final class TenantIndex {
    /** BM25 term-frequency saturation. */
    static final float K1 = 1.2f;
    /** BM25 length normalisation. */
    static final float B = 0.75f;
    private static final int[] NO_TAGS = new int[0];
    private static final int MIN_DEAD_ROWS_TO_COMPACT = 1024;

    final String tenant;
    /** The vector dimension; 0 until the first chunk arrives, then fixed. Guarded by lock; readers use the view's. */
    private int dim;
    /** The single-writer lock; readers never take it. Package-private for tests. */
    final ReentrantLock lock = new ReentrantLock();
    private final Map<String, Integer> tagIds = new ConcurrentHashMap<>();
    private final Map<String, Integer> typeIds = new ConcurrentHashMap<>();
    private final Map<String, DocEntry> byId = new ConcurrentHashMap<>();
    private final Map<String, List<DocEntry>> byPath = new ConcurrentHashMap<>();
    private volatile View view;

    // Writer state, guarded by lock: the current generation's arrays and counters.
    private int generation;
    private int version;
    private int rowCount;
    private int docCount;
    private int liveRows;
    private long liveTokens;
    private float[] vectors;
    private float[] inverseNorms;
    private int[] rowLengths;
    private int[] rowDocs;
    private DocEntry[] docs;
    private int[] deaths;
    private Map<String, Postings> terms;

    TenantIndex(String tenant) {
        this.tenant = tenant;
        resetArrays(16, 4);
        this.view = snapshotView();
    }

    /** A chunk prepared outside the lock: vector checked and copied, text analysed. */
    static final class PreparedChunk {
        final StoredChunk chunk;
        final float[] vector;
        final float inverseNorm;
        final Map<String, Integer> termFrequencies;
        final int length;

        PreparedChunk(StoredChunk chunk, float[] vector) {
            this.chunk = chunk.withoutEmbedding();
            this.vector = vector;
            this.inverseNorm = inverseNorm(vector);
            List<String> analysed = KeywordAnalyzer.terms(chunk.text());
            this.termFrequencies = KeywordAnalyzer.termFrequencies(analysed);
            this.length = analysed.size();
        }
    }

    // ------------------------------------------------------------------ writes

    /**
     * Stores a new version of {@code document}.
     *
     * @param dimension the store's fixed dimension, or 0 while no vector has been stored anywhere; every
     *                  prepared vector has it
     */
    void upsert(StoredDocument document, List<PreparedChunk> chunks, int dimension) {
        lock.lock();
        try {
            int n = chunks.size();
            if (dim == 0 && dimension > 0) {
                dim = dimension;
                vectors = new float[Math.multiplyExact(inverseNorms.length, dim)];
            }
            ensureRowCapacity(rowCount + n);
            ensureDocCapacity(docCount + 1);
            int ordinal = docCount;
            int firstRow = rowCount;
            StoredChunk[] stored = new StoredChunk[n];
            long tokens = 0;
            for (int i = 0; i < n; i++) {
                PreparedChunk c = chunks.get(i);
                int row = firstRow + i;
                System.arraycopy(c.vector, 0, vectors, row * dim, dim);
                inverseNorms[row] = c.inverseNorm;
                rowLengths[row] = c.length;
                rowDocs[row] = ordinal;
                for (Map.Entry<String, Integer> term : c.termFrequencies.entrySet()) {
                    terms.computeIfAbsent(term.getKey(), t -> new Postings()).add(row, term.getValue());
                }
                stored[i] = c.chunk;
                tokens += c.length;
            }
            DocEntry entry = new DocEntry(document, stored, generation, ordinal, firstRow,
                    document.docType() == null ? -1 : intern(typeIds, document.docType()),
                    tagIdsOf(document), tokens);
            docs[ordinal] = entry;
            deaths[ordinal] = Integer.MAX_VALUE;
            version++;
            DocEntry old = byId.get(document.id());
            if (old != null) {
                kill(old);
            }
            rowCount += n;
            docCount++;
            liveRows += n;
            liveTokens += tokens;
            view = snapshotView();
            byId.put(document.id(), entry);
            if (old != null) {
                removePath(old);
            }
            byPath.merge(document.path(), List.of(entry), TenantIndex::concat);
            compactIfWorthIt();
        } finally {
            lock.unlock();
        }
    }

    boolean delete(Scope scope, String documentId) {
        lock.lock();
        try {
            DocEntry old = byId.get(documentId);
            if (old == null || !scope.canSee(old.document)) {
                return false;
            }
            version++;
            kill(old);
            view = snapshotView();
            byId.remove(documentId);
            removePath(old);
            compactIfWorthIt();
            return true;
        } finally {
            lock.unlock();
        }
    }

    private void kill(DocEntry old) {
        deaths[old.ordinal] = version;
        liveRows -= old.rowCount();
        liveTokens -= old.tokenTotal;
    }

    private void removePath(DocEntry old) {
        byPath.computeIfPresent(old.document.path(), (path, list) -> {
            List<DocEntry> kept = new ArrayList<>(list.size());
            for (DocEntry e : list) {
                if (!e.document.id().equals(old.document.id())) {
                    kept.add(e);
                }
            }
            return kept.isEmpty() ? null : List.copyOf(kept);
        });
    }

    private static List<DocEntry> concat(List<DocEntry> a, List<DocEntry> b) {
        List<DocEntry> all = new ArrayList<>(a.size() + b.size());
        all.addAll(a);
        all.addAll(b);
        return List.copyOf(all);
    }

    private int[] tagIdsOf(StoredDocument document) {
        if (document.accessTags().isEmpty()) {
            return NO_TAGS;
        }
        int[] ids = new int[document.accessTags().size()];
        int i = 0;
        for (String tag : document.accessTags()) {
            ids[i++] = intern(tagIds, tag);
        }
        Arrays.sort(ids);
        return ids;
    }

    private static int intern(Map<String, Integer> dictionary, String name) {
        Integer id = dictionary.get(name);
        if (id == null) {
            id = dictionary.size();
            dictionary.put(name, id);
        }
        return id;
    }

    private View snapshotView() {
        return new View(generation, version, dim, rowCount, docCount, vectors, inverseNorms, rowLengths, rowDocs, docs,
                deaths, terms, liveRows, liveTokens);
    }

    private void resetArrays(int rows, int documents) {
        vectors = new float[Math.multiplyExact(rows, dim)];
        inverseNorms = new float[rows];
        rowLengths = new int[rows];
        rowDocs = new int[rows];
        docs = new DocEntry[documents];
        deaths = new int[documents];
        terms = new ConcurrentHashMap<>();
        rowCount = 0;
        docCount = 0;
        version = 0;
    }

    private void ensureRowCapacity(int rows) {
        if (rows <= inverseNorms.length) {
            return;
        }
        long wanted = Math.max(rows, (long) inverseNorms.length * 2);
        long maxRows = (Integer.MAX_VALUE - 8) / Math.max(1, dim);
        if (rows > maxRows) {
            throw new StoreException("tenant '" + tenant + "' would hold " + rows + " chunks; the in-memory store"
                    + " holds at most " + maxRows + " chunks of dimension " + dim
                    + " per tenant. Use a server-backed store for a corpus this large", false);
        }
        int capacity = (int) Math.min(wanted, maxRows);
        // New arrays, never resized in place: views published earlier keep reading the old ones.
        vectors = Arrays.copyOf(vectors, capacity * dim);
        inverseNorms = Arrays.copyOf(inverseNorms, capacity);
        rowLengths = Arrays.copyOf(rowLengths, capacity);
        rowDocs = Arrays.copyOf(rowDocs, capacity);
    }

    private void ensureDocCapacity(int documents) {
        if (documents <= docs.length) {
            return;
        }
        int capacity = (int) Math.min(Integer.MAX_VALUE - 8, Math.max(documents, (long) docs.length * 2));
        docs = Arrays.copyOf(docs, capacity);
        deaths = Arrays.copyOf(deaths, capacity);
    }

    /**
     * Rebuilds the generation with live documents only when dead rows outnumber live ones. Readers on older
     * views keep the old arrays; lookups through the maps see the new entries once they are replaced.
     */
    private void compactIfWorthIt() {
        int deadRows = rowCount - liveRows;
        if (deadRows < MIN_DEAD_ROWS_TO_COMPACT || deadRows <= liveRows) {
            return;
        }
        View old = view;
        int[] rowMap = new int[old.rowCount];
        Arrays.fill(rowMap, -1);
        int liveDocs = 0;
        for (int d = 0; d < old.docCount; d++) {
            if (old.isLive(d)) {
                liveDocs++;
            }
        }
        generation++;
        resetArrays(Math.max(16, liveRows + liveRows / 4), Math.max(4, liveDocs + liveDocs / 4));
        List<DocEntry> moved = new ArrayList<>(liveDocs);
        for (int d = 0; d < old.docCount; d++) {
            if (!old.isLive(d)) {
                continue;
            }
            DocEntry e = old.docs[d];
            int ordinal = docCount++;
            int n = e.rowCount();
            System.arraycopy(old.vectors, e.firstRow * dim, vectors, rowCount * dim, n * dim);
            System.arraycopy(old.inverseNorms, e.firstRow, inverseNorms, rowCount, n);
            System.arraycopy(old.rowLengths, e.firstRow, rowLengths, rowCount, n);
            for (int i = 0; i < n; i++) {
                rowDocs[rowCount + i] = ordinal;
                rowMap[e.firstRow + i] = rowCount + i;
            }
            DocEntry entry = new DocEntry(e.document, e.chunks, generation, ordinal, rowCount, e.typeId, e.tagIds,
                    e.tokenTotal);
            docs[ordinal] = entry;
            deaths[ordinal] = Integer.MAX_VALUE;
            rowCount += n;
            moved.add(entry);
        }
        // Old row order is kept, so remapped postings stay sorted by row.
        for (Map.Entry<String, Postings> term : old.terms.entrySet()) {
            Postings from = term.getValue();
            int size = from.size();
            int[] rows = from.rows();
            float[] frequencies = from.frequencies();
            Postings to = null;
            for (int i = 0; i < size && rows[i] < old.rowCount; i++) {
                int mapped = rowMap[rows[i]];
                if (mapped >= 0) {
                    if (to == null) {
                        to = new Postings();
                        terms.put(term.getKey(), to);
                    }
                    to.add(mapped, frequencies[i]);
                }
            }
        }
        view = snapshotView();
        for (DocEntry entry : moved) {
            byId.put(entry.document.id(), entry);
        }
        byPath.clear();
        for (DocEntry entry : moved) {
            byPath.merge(entry.document.path(), List.of(entry), TenantIndex::concat);
        }
    }

    // ------------------------------------------------------------------- reads

    Optional<StoredDocument> document(Scope scope, String documentId) {
        DocEntry e = byId.get(documentId);
        return e != null && scope.canSee(e.document) ? Optional.of(e.document) : Optional.empty();
    }

    List<DocEntry> byPath(String path) {
        return byPath.getOrDefault(path, List.of());
    }

    List<StoredDocument> documents(Scope scope, Predicate<StoredDocument> filter) {
        List<StoredDocument> found = new ArrayList<>();
        for (DocEntry e : byId.values()) {
            if (scope.canSee(e.document) && filter.test(e.document)) {
                found.add(e.document);
            }
        }
        return found;
    }

    /** The chunks of the version the lookup finds, as stored: without vectors, nothing copied. */
    List<StoredChunk> chunksWithoutEmbeddings(Scope scope, String documentId) {
        DocEntry e = byId.get(documentId);
        return e == null || !scope.canSee(e.document) ? List.of() : List.of(e.chunks);
    }

    List<StoredChunk> chunks(Scope scope, String documentId) {
        while (true) {
            DocEntry e = byId.get(documentId);
            if (e == null || !scope.canSee(e.document)) {
                return List.of();
            }
            View v = view;
            if (v.generation != e.generation) {
                Thread.onSpinWait(); // a compaction is replacing the entries; read the new one
                continue;
            }
            // Rows of a generation are never overwritten, so the entry's rows are intact even if it was
            // replaced since: the result is exactly the version the lookup found.
            List<StoredChunk> result = new ArrayList<>(e.chunks.length);
            for (int i = 0; i < e.chunks.length; i++) {
                StoredChunk c = e.chunks[i];
                int from = (e.firstRow + i) * v.dim;
                result.add(new StoredChunk(c.documentId(), c.index(), c.text(),
                        Arrays.copyOfRange(v.vectors, from, from + v.dim), c.tokenCount(), c.startLine(), c.endLine(),
                        c.section(), c.page()));
            }
            return List.copyOf(result);
        }
    }

    List<SearchHit> search(SearchRequest request, DotKernel kernel, Executor executor, int parallelThreshold,
            int parallelism) {
        View v = view;
        DocFilter filter = DocFilter.of(request.scope(), request.docTypes(), request.minPromotion(),
                request.metadataFilter(), tagIds, typeIds);
        float[] query = request.queryVectorUnsafe();
        String text = request.queryText();
        int k = request.k();
        if (text == null) {
            TopK top = vectorTopK(v, query, inverseNorm(query), filter, k, kernel, executor, parallelThreshold,
                    parallelism);
            return hits(v, top, true);
        }
        RowScores keyword = keywordScores(v, text, filter);
        TopK keywordTop = new TopK(k, v.docs);
        keyword.forEach((row, score) -> {
            int ordinal = v.rowDocs[row];
            keywordTop.offer(score, ordinal, row - v.docs[ordinal].firstRow);
        });
        if (query == null) {
            return hits(v, keywordTop, false);
        }
        float queryInverseNorm = inverseNorm(query);
        TopK vectorTop = vectorTopK(v, query, queryInverseNorm, filter, k, kernel, executor, parallelThreshold,
                parallelism);
        return hybrid(v, query, queryInverseNorm, kernel, vectorTop, keywordTop, keyword);
    }

    private TopK vectorTopK(View v, float[] query, float queryInverseNorm, DocFilter filter, int k, DotKernel kernel,
            Executor executor,
            int parallelThreshold, int parallelism) {
        if (v.rowCount < parallelThreshold || parallelism < 2 || v.docCount < 2) {
            TopK top = new TopK(k, v.docs);
            scan(v, query, queryInverseNorm, filter, 0, v.docCount, kernel, top);
            return top;
        }
        int parts = Math.min(parallelism, v.docCount);
        @SuppressWarnings("unchecked")
        CompletableFuture<TopK>[] futures = new CompletableFuture[parts];
        int from = 0;
        for (int p = 1; p <= parts; p++) {
            int to = p == parts ? v.docCount : firstDocAtOrAfterRow(v, (int) ((long) v.rowCount * p / parts));
            int start = from;
            if (p < parts) {
                try {
                    futures[p] = CompletableFuture.supplyAsync(() -> {
                        TopK part = new TopK(k, v.docs);
                        scan(v, query, queryInverseNorm, filter, start, to, kernel, part);
                        return part;
                    }, executor);
                } catch (RejectedExecutionException e) {
                    TopK part = new TopK(k, v.docs);
                    scan(v, query, queryInverseNorm, filter, start, to, kernel, part);
                    futures[p] = CompletableFuture.completedFuture(part);
                }
            } else {
                TopK last = new TopK(k, v.docs);
                scan(v, query, queryInverseNorm, filter, start, to, kernel, last);
                futures[0] = CompletableFuture.completedFuture(last);
            }
            from = to;
        }
        TopK merged = futures[0].join();
        for (int p = 1; p < parts; p++) {
            merged.addAll(futures[p].join());
        }
        return merged;
    }

    /** The first document ordinal whose rows start at or after {@code row} (documents are in row order). */
    private static int firstDocAtOrAfterRow(View v, int row) {
        int lo = 0;
        int hi = v.docCount;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (v.docs[mid].firstRow < row) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /**
     * The hot loop: one filter check per document, one dot product per row. The heap's admission threshold is
     * kept in a local, so the common case — a row that cannot enter the top k — is one comparison, and the
     * heap is touched only by the few rows that can. Allocates nothing.
     */
    private void scan(View v, float[] query, float queryInverseNorm, DocFilter filter, int fromDoc, int toDoc,
            DotKernel kernel, TopK top) {
        float[] data = v.vectors;
        float[] norms = v.inverseNorms;
        DocEntry[] entries = v.docs;
        int d = v.dim;
        float threshold = top.threshold();
        for (int ordinal = fromDoc; ordinal < toDoc; ordinal++) {
            if (!v.isLive(ordinal)) {
                continue;
            }
            DocEntry e = entries[ordinal];
            if (!filter.accepts(e)) {
                continue;
            }
            int first = e.firstRow;
            int n = e.chunks.length;
            for (int i = 0; i < n; i++) {
                int row = first + i;
                float score = clamp(kernel.dot(query, data, row * d, d) * norms[row] * queryInverseNorm);
                if (score >= threshold) {
                    top.offer(score, ordinal, i);
                    threshold = top.threshold();
                }
            }
        }
    }

    private RowScores keywordScores(View v, String text, DocFilter filter) {
        List<String> queryTerms = KeywordAnalyzer.terms(text);
        RowScores scores = RowScores.acquire(v.rowCount);
        if (v.liveRows == 0) {
            return scores;
        }
        float averageLength = Math.max(1f, (float) ((double) v.liveTokens / v.liveRows));
        for (String term : new java.util.LinkedHashSet<>(queryTerms)) {
            Postings postings = v.terms.get(term);
            if (postings == null) {
                continue;
            }
            int size = postings.size();
            int[] rows = postings.rows();
            float[] frequencies = postings.frequencies();
            int df = 0;
            for (int i = 0; i < size && rows[i] < v.rowCount; i++) {
                if (v.isLive(v.rowDocs[rows[i]])) {
                    df++;
                }
            }
            if (df == 0) {
                continue;
            }
            float idf = (float) Math.log(1 + (v.liveRows - df + 0.5) / (df + 0.5));
            // Postings are in row order and a document's rows are adjacent: decide once per document.
            int lastOrdinal = -1;
            boolean accepted = false;
            for (int i = 0; i < size && rows[i] < v.rowCount; i++) {
                int row = rows[i];
                int ordinal = v.rowDocs[row];
                if (ordinal != lastOrdinal) {
                    lastOrdinal = ordinal;
                    accepted = v.isLive(ordinal) && filter.accepts(v.docs[ordinal]);
                }
                if (!accepted) {
                    continue;
                }
                float tf = frequencies[i];
                float norm = K1 * (1 - B + B * v.rowLengths[row] / averageLength);
                scores.add(row, idf * tf * (K1 + 1) / (tf + norm));
            }
        }
        return scores;
    }

    private List<SearchHit> hybrid(View v, float[] query, float queryInverseNorm, DotKernel kernel, TopK vectorTop,
            TopK keywordTop,
            RowScores keyword) {
        Map<Long, SearchHit> union = new HashMap<>();
        for (TopK top : List.of(vectorTop, keywordTop)) {
            int n = top.size();
            float[] scores = new float[n];
            int[] ordinals = new int[n];
            int[] chunks = new int[n];
            top.drainBestFirst(scores, ordinals, chunks);
            for (int i = 0; i < n; i++) {
                DocEntry e = v.docs[ordinals[i]];
                int row = e.firstRow + chunks[i];
                union.computeIfAbsent((long) ordinals[i] << 32 | chunks[i], key -> {
                    float cosine = kernel.dot(query, v.vectors, row * v.dim, v.dim) * v.inverseNorms[row]
                            * queryInverseNorm;
                    return new SearchHit(e.chunks[row - e.firstRow], e.document, clamp(cosine), keyword.get(row));
                });
            }
        }
        List<SearchHit> hits = new ArrayList<>(union.values());
        hits.sort(Comparator.comparingDouble(SearchHit::similarity).reversed()
                .thenComparing(h -> h.document().id())
                .thenComparingInt(h -> h.chunk().index()));
        return hits;
    }

    private static List<SearchHit> hits(View v, TopK top, boolean vectorScores) {
        int n = top.size();
        float[] scores = new float[n];
        int[] ordinals = new int[n];
        int[] chunks = new int[n];
        top.drainBestFirst(scores, ordinals, chunks);
        List<SearchHit> hits = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            DocEntry e = v.docs[ordinals[i]];
            hits.add(vectorScores
                    ? new SearchHit(e.chunks[chunks[i]], e.document, scores[i], Double.NaN)
                    : new SearchHit(e.chunks[chunks[i]], e.document, Double.NaN, scores[i]));
        }
        return hits;
    }

    private static float clamp(float cosine) {
        return Math.max(0f, Math.min(cosine, 1f));
    }

    static float inverseNorm(float[] vector) {
        double sum = 0;
        for (float x : vector) {
            sum += (double) x * x;
        }
        return (float) (1.0 / Math.sqrt(sum));
    }

    /** The live documents of one consistent view, in ordinal order, with the arrays holding their vectors. */
    Live live() {
        View v = view;
        List<DocEntry> entries = new ArrayList<>();
        for (int d = 0; d < v.docCount; d++) {
            if (v.isLive(d)) {
                entries.add(v.docs[d]);
            }
        }
        return new Live(tenant, entries, v.vectors, v.dim);
    }

    /** See {@link #live()}. */
    static final class Live {
        final String tenant;
        final List<DocEntry> entries;
        final float[] vectors;
        final int dim;

        Live(String tenant, List<DocEntry> entries, float[] vectors, int dim) {
            this.tenant = tenant;
            this.entries = entries;
            this.vectors = vectors;
            this.dim = dim;
        }
    }
}
