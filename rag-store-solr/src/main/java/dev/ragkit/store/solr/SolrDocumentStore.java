package dev.ragkit.store.solr;

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
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;
import java.util.regex.Pattern;
import org.apache.solr.client.solrj.SolrClient;
import org.apache.solr.client.solrj.SolrRequest;
import org.apache.solr.client.solrj.SolrServerException;
import org.apache.solr.client.solrj.request.QueryRequest;
import org.apache.solr.client.solrj.request.UpdateRequest;
import org.apache.solr.client.solrj.response.QueryResponse;
import org.apache.solr.client.solrj.util.ClientUtils;
import org.apache.solr.common.SolrDocument;
import org.apache.solr.common.SolrDocumentList;
import org.apache.solr.common.SolrException;
import org.apache.solr.common.SolrInputDocument;
import org.apache.solr.common.params.ModifiableSolrParams;
import org.jspecify.annotations.Nullable;

/**
 * A {@link DocumentStore} on an Apache SolrCloud collection created from {@link SolrConfigSet}.
 *
 * <p>Layout: one Solr document per stored document ({@code kind:doc}, its header) and one per chunk
 * ({@code kind:chunk}), each chunk carrying its document's tenant, access tags, type, promotion level, path and
 * the rest, so that every filter — tenant, tags, type, promotion — is a Solr filter query applied <em>before</em>
 * the k-NN cut. Vectors live in a {@code DenseVectorField} (cosine); chunk text in a BM25 text field, so the store
 * declares keyword search.
 *
 * <p>Queries go by POST (large vectors fail as GET). k-NN {@code topK} applies per shard, so the store asks each
 * shard for more than {@code k}, computes the exact cosine from the returned vectors, orders by it (ties by
 * document id, then chunk index, as the contract requires) and cuts to {@code k}.
 *
 * <p>Writes: an upsert overwrites the document's header and chunks by id, deletes its chunks beyond the new last
 * index, then soft-commits; the store's writes are serialised, and the config set has no automatic soft commit,
 * so a reader sees a document's old version or its new one, never a mix. This holds for the writes of one
 * {@code SolrDocumentStore} instance (two processes writing the same collection need their own coordination),
 * and across shards because a document's header and chunks share a route key and so a shard.
 *
 * <p>Known difference from the in-memory store: BM25 statistics (document counts, average length) are the
 * collection's, gathered across shards ({@code ExactStatsCache}) but not per tenant, so one tenant's documents
 * influence another's keyword scores (never its results: the tenant filter applies before scoring).
 *
 * <p>Thread-safe.
 */
public final class SolrDocumentStore implements DocumentStore {
    private static final Pattern WORD = Pattern.compile("[^\\p{L}\\p{N}]+");
    private static final String FIELDS = "id,kind,tenant,doc_id,path,title,doc_type,promotion,date,tags,owner_tag,"
            + "links,metadata,char_count,chunk_index,text,token_count,start_line,end_line,section,page,doc_version";
    private static final int PAGE = 1000;

    private final SolrClient client;
    private final boolean ownsClient;
    private final String collection;
    private final int dimension;
    private final int maxK;
    private final ReentrantLock writes = new ReentrantLock();
    /** Version stamps of this store's writes: increasing, and unlikely to repeat another instance's. */
    private final java.util.concurrent.atomic.AtomicLong versions =
            new java.util.concurrent.atomic.AtomicLong(System.currentTimeMillis() * 1000);
    private static final int HYBRID_ATTEMPTS = 5;
    private volatile boolean closed;

    private SolrDocumentStore(Builder b) {
        this.client = Objects.requireNonNull(b.client);
        this.ownsClient = b.ownsClient;
        this.collection = Objects.requireNonNull(b.collection);
        this.dimension = b.dimension;
        this.maxK = b.maxK;
    }

    /** @return a builder; client, collection and dimension are required */
    public static Builder builder() {
        return new Builder();
    }

    // ---------------------------------------------------------------------------------------------------------
    // Writes

    @Override
    public void upsert(StoredDocument document, List<StoredChunk> chunks) {
        Objects.requireNonNull(document, "document");
        Objects.requireNonNull(chunks, "chunks");
        checkOpen();
        List<SolrInputDocument> docs = new ArrayList<>(chunks.size() + 1);
        long version = versions.incrementAndGet();
        docs.add(SolrFields.header(document, version));
        StoredChunk.requireUpsertable(document, chunks, dimension);
        for (StoredChunk c : chunks) {
            float[] v = Objects.requireNonNull(c.embedding());
            docs.add(SolrFields.chunk(document, c, v, version));
        }
        writes.lock();
        try {
            // Overwrite by id and delete whatever chunks of the document lie beyond the new version's last index,
            // whatever the stored state (a failed earlier write may have left more). Nothing is visible before the
            // commit, and reads are single-pass from the shard leaders.
            UpdateRequest u = new UpdateRequest();
            u.add(docs);
            u.deleteByQuery(documentQuery(document.tenant(), document.id()) + " AND kind:chunk AND chunk_index:["
                    + chunks.size() + " TO *]");
            send(u);
            commit();
        } finally {
            writes.unlock();
        }
    }

    @Override
    public boolean delete(Scope scope, String documentId) {
        Objects.requireNonNull(scope, "scope");
        Objects.requireNonNull(documentId, "documentId");
        checkOpen();
        writes.lock();
        try {
            if (document(scope, documentId).isEmpty()) {
                return false;
            }
            UpdateRequest u = new UpdateRequest();
            u.deleteByQuery(documentQuery(scope.tenant(), documentId));
            send(u);
            commit();
            return true;
        } finally {
            writes.unlock();
        }
    }

    private static String documentQuery(String tenant, String documentId) {
        return "tenant:" + quote(tenant) + " AND doc_id:" + quote(documentId);
    }

    private void commit() {
        UpdateRequest c = new UpdateRequest();
        c.setAction(UpdateRequest.ACTION.COMMIT, true, true, true);
        send(c);
    }

    private void send(UpdateRequest u) {
        try {
            u.process(client, collection);
        } catch (SolrServerException | IOException | SolrException e) {
            throw failure("write to", e);
        }
    }

    @Override
    public List<SearchHit> search(SearchRequest request) {
        Objects.requireNonNull(request, "request");
        checkOpen();
        for (int attempt = 1; ; attempt++) {
            List<SearchHit> hits = attempt(request);
            if (hits != null) {
                return hits;
            }
            if (attempt == HYBRID_ATTEMPTS) {
                throw new StoreException("a hybrid search on Solr collection '" + collection + "' saw a document "
                        + "change between its queries " + HYBRID_ATTEMPTS + " times in a row; retry, or search while "
                        + "the document is not being rewritten", true);
            }
        }
    }

    /**
     * One try: the request checked → its filters → vector hits → keyword hits → for a hybrid search, their union
     * with both scores. A hybrid search takes several queries; when a commit lands between them and a document's
     * hits come from two versions (or a hit's chunk is gone), it answers {@code null} and the search tries again.
     */
    private @Nullable List<SearchHit> attempt(SearchRequest request) {
        float[] vector = checked(request);
        List<String> filters = filters(request);
        String text = request.queryText();
        List<String> terms = text == null ? List.of() : terms(text);
        List<Hit> vectorHits = vector == null ? List.of() : vectorHits(vector, request.k(), filters);
        if (text == null) {
            return toHits(vectorHits, true);
        }
        List<Hit> keywordHits = terms.isEmpty() ? List.of() : keywordHits(vector, terms, request.k(), filters);
        if (vector == null) {
            return toHits(keywordHits, false);
        }
        List<Hit> union = union(vectorHits, keywordHits, terms, filters);
        return union == null ? null : toHits(union, true);
    }

    /** @return the query vector (or {@code null}), once k and the vector's dimension are checked */
    private float @Nullable [] checked(SearchRequest request) {
        if (request.k() > maxK) {
            throw new IllegalArgumentException("k = " + request.k() + " exceeds this store's maxK " + maxK
                    + "; ask for fewer results");
        }
        float[] vector = request.queryVectorUnsafe();
        if (vector != null && vector.length != dimension) {
            throw new IllegalArgumentException("query vector has dimension " + vector.length + ", the store's "
                    + "dimension is " + dimension + "; embed the query with the documents' model");
        }
        return vector;
    }

    /** Scope, chunks only, document types, promotion and the metadata filter, as Solr filter queries. */
    private List<String> filters(SearchRequest request) {
        List<String> filters = new ArrayList<>(scopeFilters(request.scope()));
        filters.add("kind:chunk");
        if (!request.docTypes().isEmpty()) {
            filters.add("doc_type:(" + anyOf(request.docTypes()) + ")");
        }
        if (request.minPromotion() != PromotionLevel.STANDARD) {
            filters.add("promotion:[" + request.minPromotion().ordinal() + " TO *]");
        }
        if (request.metadataFilter() != null) {
            filters.add(SolrMetadataFilter.query(request.metadataFilter()));
        }
        return filters;
    }

    /** The k best chunks by exact cosine among Solr's approximate {@code 2k + 10} nearest. */
    private List<Hit> vectorHits(float[] vector, int k, List<String> filters) {
        int n = Math.min(maxK, k * 2 + 10);
        ModifiableSolrParams p = params(filters);
        p.set("q", "{!knn f=vector topK=" + n + "}" + SolrFields.vectorLiteral(vector));
        p.set("rows", n);
        p.set("fl", FIELDS + ",vector");
        List<Hit> hits = new ArrayList<>();
        for (SolrDocument d : query(p).results) {
            hits.add(new Hit(d, SolrFields.cosine(vector, SolrFields.vectorOf(d)), Double.NaN));
        }
        hits.sort(BY_SIMILARITY);
        return new ArrayList<>(hits.subList(0, Math.min(k, hits.size())));
    }

    /** The k best chunks by BM25 over any of the terms, each with its cosine when there is a query vector. */
    private List<Hit> keywordHits(float @Nullable [] vector, List<String> terms, int k, List<String> filters) {
        ModifiableSolrParams p = params(filters);
        p.set("q", "text:(" + String.join(" ", terms) + ")");
        p.set("q.op", "OR");
        p.set("rows", k);
        p.set("sort", "score desc,doc_id asc,chunk_index asc");
        p.set("fl", FIELDS + ",vector,score");
        List<Hit> hits = new ArrayList<>();
        for (SolrDocument d : query(p).results) {
            double score = ((Number) d.getFirstValue("score")).doubleValue();
            hits.add(new Hit(d, vector == null ? Double.NaN : SolrFields.cosine(vector, SolrFields.vectorOf(d)),
                    score));
        }
        return hits;
    }

    /**
     * Hybrid: the union of both lists, each hit with both scores (the keyword scores a vector hit lacks are asked
     * for), by similarity; {@code null} when a commit came between the queries.
     */
    private @Nullable List<Hit> union(List<Hit> vectorHits, List<Hit> keywordHits, List<String> terms,
            List<String> filters) {
        Map<String, Hit> byId = new LinkedHashMap<>();
        vectorHits.forEach(h -> byId.put(h.key(), h));
        List<SolrDocument> checked = new ArrayList<>();
        for (Hit h : keywordHits) {
            checked.add(h.doc);
            byId.merge(h.key(), h, (a, b) -> new Hit(a.doc, a.similarity, b.keywordScore));
        }
        List<Hit> missing = new ArrayList<>();
        for (Hit h : byId.values()) {
            if (Double.isNaN(h.keywordScore)) {
                missing.add(h);
            }
        }
        Map<String, SolrDocument> filled = keywordScores(missing, terms, filters);
        List<Hit> union = new ArrayList<>(byId.size());
        for (Hit h : byId.values()) {
            if (!Double.isNaN(h.keywordScore)) {
                union.add(h);
                continue;
            }
            SolrDocument now = filled.get(h.key());
            if (now == null) {
                return null;                  // the chunk is gone: a commit came between the queries
            }
            union.add(new Hit(h.doc, h.similarity, ((Number) now.getFirstValue("score")).doubleValue()));
            checked.add(now);
        }
        for (Hit h : union) {
            checked.add(h.doc);
        }
        if (!oneVersionPerDocument(checked)) {
            return null;
        }
        union.sort(BY_SIMILARITY);
        return union;
    }

    /**
     * The given chunks as they stand now, each with its BM25 score for the terms in {@code score} (0 for a chunk
     * without any of them): every chunk that still exists comes back, with its version.
     */
    private Map<String, SolrDocument> keywordScores(List<Hit> hits, List<String> terms, List<String> filters) {
        Map<String, SolrDocument> found = new HashMap<>();
        if (hits.isEmpty()) {
            return found;
        }
        ModifiableSolrParams p = params(filters);
        List<String> ids = new ArrayList<>();
        hits.forEach(h -> ids.add(h.key()));
        p.add("fq", "id:(" + anyOf(ids) + ")");
        p.set("q", terms.isEmpty() ? "(*:*)^=0" : "text:(" + String.join(" ", terms) + ") OR (*:*)^=0");
        p.set("q.op", "OR");
        p.set("rows", hits.size());
        p.set("fl", "id,doc_id,doc_version,score");
        for (SolrDocument d : query(p).results) {
            found.put((String) d.getFirstValue("id"), d);
        }
        return found;
    }

    /** Whether every document among these Solr documents appears in one version only. */
    private static boolean oneVersionPerDocument(List<SolrDocument> docs) {
        Map<Object, Object> versionOf = new HashMap<>();
        for (SolrDocument d : docs) {
            Object previous = versionOf.putIfAbsent(d.getFirstValue("doc_id"), d.getFirstValue("doc_version"));
            if (previous != null && !previous.equals(d.getFirstValue("doc_version"))) {
                return false;
            }
        }
        return true;
    }

    private static final Comparator<Hit> BY_SIMILARITY = Comparator.comparingDouble((Hit h) -> -h.similarity)
            .thenComparing(Hit::documentId).thenComparingInt(Hit::index);

    private List<SearchHit> toHits(List<Hit> hits, boolean bySimilarity) {
        if (!bySimilarity) {
            hits.sort(Comparator.comparingDouble((Hit h) -> -h.keywordScore).thenComparing(Hit::documentId)
                    .thenComparingInt(Hit::index));
        }
        List<SearchHit> out = new ArrayList<>(hits.size());
        for (Hit h : hits) {
            double similarity = Double.isNaN(h.similarity) ? Double.NaN : Math.max(0, Math.min(1, h.similarity));
            out.add(new SearchHit(SolrFields.chunkOf(h.doc, false), SolrFields.documentOf(h.doc), similarity,
                    h.keywordScore));
        }
        return out;
    }

    /** A Solr chunk document with its scores. */
    private static final class Hit {
        final SolrDocument doc;
        final double similarity;
        final double keywordScore;

        Hit(SolrDocument doc, double similarity, double keywordScore) {
            this.doc = doc;
            this.similarity = similarity;
            this.keywordScore = keywordScore;
        }

        String key() {
            return (String) doc.getFirstValue("id");
        }

        String documentId() {
            return (String) doc.getFirstValue("doc_id");
        }

        int index() {
            return ((Number) doc.getFirstValue("chunk_index")).intValue();
        }
    }

    @Override
    public Optional<StoredDocument> document(Scope scope, String documentId) {
        Objects.requireNonNull(scope, "scope");
        Objects.requireNonNull(documentId, "documentId");
        checkOpen();
        List<String> filters = new ArrayList<>(scopeFilters(scope));
        filters.add("kind:doc");
        filters.add("doc_id:" + quote(documentId));
        List<StoredDocument> found = documents(filters);
        return found.isEmpty() ? Optional.empty() : Optional.of(found.get(0));
    }

    @Override
    public List<StoredDocument> findByPaths(Scope scope, Collection<String> paths) {
        Objects.requireNonNull(scope, "scope");
        Objects.requireNonNull(paths, "paths");
        paths.forEach(p -> Objects.requireNonNull(p, "path"));
        checkOpen();
        if (paths.isEmpty()) {
            return List.of();
        }
        List<String> filters = new ArrayList<>(scopeFilters(scope));
        filters.add("kind:doc");
        filters.add("path:(" + anyOf(new LinkedHashSet<>(paths)) + ")");
        return documents(filters);
    }

    @Override
    public List<StoredDocument> findByPromotion(Scope scope, PromotionLevel minLevel, Set<String> docTypes) {
        Objects.requireNonNull(scope, "scope");
        Objects.requireNonNull(minLevel, "minLevel");
        Objects.requireNonNull(docTypes, "docTypes");
        docTypes.forEach(t -> Objects.requireNonNull(t, "docType"));
        checkOpen();
        List<String> filters = new ArrayList<>(scopeFilters(scope));
        filters.add("kind:doc");
        filters.add("promotion:[" + minLevel.ordinal() + " TO *]");
        if (!docTypes.isEmpty()) {
            filters.add("doc_type:(" + anyOf(new LinkedHashSet<>(docTypes)) + ")");
        }
        return documents(filters);
    }

    @Override
    public List<StoredDocument> documents(Scope scope) {
        Objects.requireNonNull(scope, "scope");
        checkOpen();
        List<String> filters = new ArrayList<>(scopeFilters(scope));
        filters.add("kind:doc");
        return documents(filters);
    }

    private List<StoredDocument> documents(List<String> filters) {
        List<StoredDocument> out = new ArrayList<>();
        for (SolrDocument d : all(filters, "path asc,doc_id asc", FIELDS)) {
            out.add(SolrFields.documentOf(d));
        }
        return out;
    }

    @Override
    public List<StoredChunk> chunks(Scope scope, String documentId) {
        return chunks(scope, documentId, true);
    }

    @Override
    public List<StoredChunk> chunksWithoutEmbeddings(Scope scope, String documentId) {
        return chunks(scope, documentId, false);
    }

    private List<StoredChunk> chunks(Scope scope, String documentId, boolean withVectors) {
        Objects.requireNonNull(scope, "scope");
        Objects.requireNonNull(documentId, "documentId");
        checkOpen();
        List<String> filters = new ArrayList<>(scopeFilters(scope));
        filters.add("kind:chunk");
        filters.add("doc_id:" + quote(documentId));
        List<StoredChunk> out = new ArrayList<>();
        for (SolrDocument d : all(filters, "chunk_index asc", withVectors ? FIELDS + ",vector" : FIELDS)) {
            out.add(SolrFields.chunkOf(d, withVectors));
        }
        return out;
    }

    @Override
    public StoreCapabilities capabilities() {
        checkOpen();
        return new StoreCapabilities(true, true, maxK, true);
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (ownsClient) {
            try {
                client.close();
            } catch (IOException e) {
                throw new StoreException("closing the Solr client failed: " + e.getMessage(), e, false);
            }
        }
    }

    // ---------------------------------------------------------------------------------------------------------
    // Queries

    /** The result of one query. */
    private static final class Result {
        final SolrDocumentList results;

        Result(SolrDocumentList results) {
            this.results = results;
        }
    }

    private Result query(ModifiableSolrParams params) {
        QueryResponse response;
        try {
            response = new QueryRequest(params, SolrRequest.METHOD.POST).process(client, collection);
        } catch (SolrServerException | IOException | SolrException e) {
            throw failure("query", e);
        }
        // While a node goes down a response can come back without results, or from only some shards: either
        // would be a wrong answer, so it is a (retriable) failure instead.
        Object partial = response.getHeader() == null ? null : response.getHeader().get("partialResults");
        if (response.getResults() == null || Boolean.TRUE.equals(partial)) {
            throw new StoreException("Solr collection '" + collection + "' answered "
                    + (response.getResults() == null ? "without results" : "with results from only some shards")
                    + " (a node may be going down); retry shortly", true);
        }
        return new Result(response.getResults());
    }

    /** Every matching Solr document, page by page, in a stable order. */
    private List<SolrDocument> all(List<String> filters, String sort, String fields) {
        List<SolrDocument> out = new ArrayList<>();
        for (int start = 0; ; start += PAGE) {
            ModifiableSolrParams p = params(filters);
            p.set("q", "*:*");
            p.set("sort", sort + ",id asc");
            p.set("fl", fields);
            p.set("start", start);
            p.set("rows", PAGE);
            SolrDocumentList page = query(p).results;
            out.addAll(page);
            if (page.size() < PAGE || out.size() >= page.getNumFound()) {
                return out;
            }
        }
    }

    private static ModifiableSolrParams params(List<String> filters) {
        ModifiableSolrParams p = new ModifiableSolrParams();
        // One pass: each shard returns whole documents at once. The default two passes (ids, then fields) can
        // straddle a commit and mix two versions of a document.
        p.set("distrib.singlePass", true);
        // Shard leaders hold every acknowledged write: reading from them keeps read-your-writes true even while a
        // replica that missed a commit (e.g. on a node going down) is still answering.
        p.set("shards.preference", "replica.leader:true");
        for (String f : filters) {
            p.add("fq", f);
        }
        return p;
    }

    /** Tenant, then access tags: untagged documents, or documents sharing one of the scope's tags. */
    private static List<String> scopeFilters(Scope scope) {
        List<String> filters = new ArrayList<>(2);
        filters.add("tenant:" + quote(scope.tenant()));
        if (!scope.unrestricted()) {
            filters.add(scope.accessTags().isEmpty() ? "tagged:false"
                    : "(tagged:false OR tags:(" + anyOf(scope.accessTags()) + "))");
        }
        return filters;
    }

    private static String anyOf(Collection<String> values) {
        List<String> quoted = new ArrayList<>(values.size());
        values.forEach(v -> quoted.add(quote(v)));
        return String.join(" OR ", quoted);
    }

    /** A quoted term: inside quotes only the backslash and the quote need escaping. */
    static String quote(String value) {
        return "\"" + value.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }

    /** The query's words as the text field's analyzer sees them (letters and digits, lower case), escaped. */
    static List<String> terms(String text) {
        List<String> out = new ArrayList<>();
        for (String w : WORD.split(text.toLowerCase(Locale.ROOT))) {
            if (!w.isEmpty()) {
                out.add(ClientUtils.escapeQueryChars(w));
            }
        }
        return out;
    }

    private void checkOpen() {
        if (closed) {
            throw new StoreException("this Solr store is closed; open a new one", false);
        }
    }

    private StoreException failure(String what, Exception e) {
        boolean retriable = !(e instanceof SolrException) || ((SolrException) e).code() >= 500;
        return new StoreException("could not " + what + " Solr collection '" + collection + "': " + e.getMessage()
                + (retriable ? " (retriable: check the cluster's health)" : ""), e, retriable);
    }

    /** Configures a {@link SolrDocumentStore}. Not thread-safe. */
    public static final class Builder {
        private @Nullable SolrClient client;
        private boolean ownsClient;
        private @Nullable String collection;
        private int dimension;
        private int maxK = 1000;

        private Builder() {
        }

        /**
         * @param client a client for the cluster (e.g. a {@code CloudSolrClient}); the caller keeps it and closes it
         * @return this builder
         */
        public Builder client(SolrClient client) {
            this.client = Objects.requireNonNull(client, "client");
            this.ownsClient = false;
            return this;
        }

        /**
         * @param client a client the store closes when it is closed (as the provider does)
         * @return this builder
         */
        public Builder ownedClient(SolrClient client) {
            this.client = Objects.requireNonNull(client, "client");
            this.ownsClient = true;
            return this;
        }

        /** @param name the collection, created from {@link SolrConfigSet} @return this builder */
        public Builder collection(String name) {
            Objects.requireNonNull(name, "collection");
            if (name.isBlank()) {
                throw new IllegalArgumentException("collection must not be blank");
            }
            this.collection = name;
            return this;
        }

        /** @param dimension the embedding dimension of the collection's schema @return this builder */
        public Builder dimension(int dimension) {
            if (dimension < 1 || dimension > 4096) {
                throw new IllegalArgumentException("dimension must be in [1, 4096], got " + dimension);
            }
            this.dimension = dimension;
            return this;
        }

        /** @param maxK the largest k accepted, 1–10,000 (default 1,000) @return this builder */
        public Builder maxK(int maxK) {
            if (maxK < 1 || maxK > 10_000) {
                throw new IllegalArgumentException("maxK must be in [1, 10000], got " + maxK);
            }
            this.maxK = maxK;
            return this;
        }

        /**
         * @return the store
         * @throws IllegalStateException when the client, collection or dimension is missing
         */
        public SolrDocumentStore build() {
            if (client == null || collection == null || dimension == 0) {
                throw new IllegalStateException("a SolrDocumentStore needs client(..), collection(..) and "
                        + "dimension(..)");
            }
            return new SolrDocumentStore(this);
        }
    }
}
