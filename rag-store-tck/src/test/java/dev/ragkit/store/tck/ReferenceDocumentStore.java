package dev.ragkit.store.tck;

import dev.ragkit.store.DocumentStore;
import dev.ragkit.store.PromotionLevel;
import dev.ragkit.store.Scope;
import dev.ragkit.store.SearchHit;
import dev.ragkit.store.SearchRequest;
import dev.ragkit.store.StoreCapabilities;
import dev.ragkit.store.StoreException;
import dev.ragkit.store.StoredChunk;
import dev.ragkit.store.StoredDocument;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/**
 * A deliberately simple store that exists only to validate {@link DocumentStoreContract}: every method is
 * {@code synchronized}, every read scans every entry, similarity is brute-force cosine, and keyword search is a
 * naive BM25 over lower-cased word tokens computed per request.
 *
 * <p>Two protected hooks ({@link #visible} and {@link #similarity}) let the broken stores of
 * {@link BrokenStoreTest} introduce one bug each.
 */
class ReferenceDocumentStore implements DocumentStore {
    static final int MAX_K = 1000;

    private static final Pattern TOKEN_SEPARATOR = Pattern.compile("[^\\p{L}\\p{N}]+");
    private static final double K1 = 1.2;
    private static final double B = 0.75;
    private static final Comparator<Candidate> TIE_ORDER = Comparator
            .comparing((Candidate c) -> c.chunk.documentId()).thenComparingInt(c -> c.chunk.index());

    private record Key(String tenant, String id) {
    }

    private record Entry(StoredDocument document, List<StoredChunk> chunks) {
    }

    private static final class Candidate {
        final StoredDocument document;
        final StoredChunk chunk;
        final double similarity;
        final double keywordScore;

        Candidate(StoredDocument document, StoredChunk chunk, double similarity, double keywordScore) {
            this.document = document;
            this.chunk = chunk;
            this.similarity = similarity;
            this.keywordScore = keywordScore;
        }

        SearchHit toHit() {
            return new SearchHit(chunk.withoutEmbedding(), document, similarity, keywordScore);
        }
    }

    private final Map<Key, Entry> entries = new LinkedHashMap<>();
    private int dimension;
    private boolean closed;

    @Override
    public synchronized void upsert(StoredDocument document, List<StoredChunk> chunks) {
        Objects.requireNonNull(document, "document");
        Objects.requireNonNull(chunks, "chunks");
        ensureOpen();
        List<StoredChunk> copy = new ArrayList<>(chunks.size());
        int dim = dimension;
        for (int i = 0; i < chunks.size(); i++) {
            StoredChunk chunk = Objects.requireNonNull(chunks.get(i), "chunks[" + i + "]");
            if (!chunk.documentId().equals(document.id())) {
                throw new IllegalArgumentException("chunk " + chunk.sourceId() + " belongs to document '"
                        + chunk.documentId() + "', not to document '" + document.id() + "'");
            }
            if (chunk.index() != i) {
                throw new IllegalArgumentException("chunk indexes must be 0.." + (chunks.size() - 1)
                        + " in order, but position " + i + " holds index " + chunk.index());
            }
            if (chunk.dimension() == 0) {
                throw new IllegalArgumentException("chunk " + chunk.sourceId() + " has no embedding;"
                        + " upsert needs every chunk's embedding");
            }
            if (dim == 0) {
                dim = chunk.dimension();
            } else if (chunk.dimension() != dim) {
                throw new IllegalArgumentException("chunk " + chunk.sourceId() + " has dimension " + chunk.dimension()
                        + " but the store holds vectors of dimension " + dim + "; embed with the same model");
            }
            copy.add(chunk);
        }
        dimension = dim;
        entries.put(new Key(document.tenant(), document.id()), new Entry(document, List.copyOf(copy)));
    }

    @Override
    public synchronized boolean delete(Scope scope, String documentId) {
        Objects.requireNonNull(scope, "scope");
        Objects.requireNonNull(documentId, "documentId");
        ensureOpen();
        return entries.values().removeIf(e -> e.document().id().equals(documentId) && visible(scope, e.document()));
    }

    @Override
    public synchronized List<SearchHit> search(SearchRequest request) {
        Objects.requireNonNull(request, "request");
        ensureOpen();
        if (request.k() > MAX_K) {
            throw new IllegalArgumentException("k is " + request.k() + " but this store returns at most " + MAX_K
                    + " hits; lower k");
        }
        float @Nullable [] vector = request.queryVector();
        String text = request.queryText();
        if (vector != null && dimension != 0 && vector.length != dimension) {
            throw new IllegalArgumentException("query vector has dimension " + vector.length
                    + " but the store holds vectors of dimension " + dimension);
        }
        List<Entry> visible = visibleEntries(request.scope());
        Bm25 bm25 = text == null ? null : new Bm25(visible);
        List<Candidate> candidates = new ArrayList<>();
        for (Entry entry : visible) {
            StoredDocument doc = entry.document();
            if (!request.accepts(doc)) {
                continue;
            }
            for (StoredChunk chunk : entry.chunks()) {
                double sim = vector == null ? Double.NaN : similarity(vector, Objects.requireNonNull(chunk.embedding()));
                double kw = bm25 == null ? Double.NaN : bm25.score(text, chunk.text());
                candidates.add(new Candidate(doc, chunk, sim, kw));
            }
        }
        Comparator<Candidate> bySimilarity = Comparator.comparingDouble((Candidate c) -> c.similarity).reversed()
                .thenComparing(TIE_ORDER);
        Comparator<Candidate> byKeyword = Comparator.comparingDouble((Candidate c) -> c.keywordScore).reversed()
                .thenComparing(TIE_ORDER);
        int k = request.k();
        List<Candidate> result;
        if (text == null) {
            result = candidates.stream().sorted(bySimilarity).limit(k).collect(Collectors.toList());
        } else if (vector == null) {
            result = candidates.stream().filter(c -> c.keywordScore > 0).sorted(byKeyword).limit(k)
                    .collect(Collectors.toList());
        } else {
            Set<Candidate> union = new LinkedHashSet<>();
            candidates.stream().sorted(bySimilarity).limit(k).forEach(union::add);
            candidates.stream().filter(c -> c.keywordScore > 0).sorted(byKeyword).limit(k).forEach(union::add);
            result = union.stream().sorted(bySimilarity).collect(Collectors.toList());
        }
        return result.stream().map(Candidate::toHit).collect(Collectors.toList());
    }

    @Override
    public synchronized Optional<StoredDocument> document(Scope scope, String documentId) {
        Objects.requireNonNull(scope, "scope");
        Objects.requireNonNull(documentId, "documentId");
        ensureOpen();
        return visibleEntries(scope).stream().map(Entry::document).filter(d -> d.id().equals(documentId)).findFirst();
    }

    @Override
    public synchronized List<StoredDocument> findByPaths(Scope scope, Collection<String> paths) {
        Objects.requireNonNull(scope, "scope");
        Objects.requireNonNull(paths, "paths");
        ensureOpen();
        Set<String> wanted = new HashSet<>(paths);
        return sortedDocuments(scope).stream().filter(d -> wanted.contains(d.path())).collect(Collectors.toList());
    }

    @Override
    public synchronized List<StoredDocument> findByPromotion(Scope scope, PromotionLevel minLevel, Set<String> docTypes) {
        Objects.requireNonNull(scope, "scope");
        Objects.requireNonNull(minLevel, "minLevel");
        Objects.requireNonNull(docTypes, "docTypes");
        ensureOpen();
        return sortedDocuments(scope).stream()
                .filter(d -> d.promotionLevel().isAtLeast(minLevel))
                .filter(d -> docTypes.isEmpty() || (d.docType() != null && docTypes.contains(d.docType())))
                .collect(Collectors.toList());
    }

    @Override
    public synchronized List<StoredDocument> documents(Scope scope) {
        Objects.requireNonNull(scope, "scope");
        ensureOpen();
        return sortedDocuments(scope);
    }

    @Override
    public synchronized List<StoredChunk> chunks(Scope scope, String documentId) {
        Objects.requireNonNull(scope, "scope");
        Objects.requireNonNull(documentId, "documentId");
        ensureOpen();
        return visibleEntries(scope).stream().filter(e -> e.document().id().equals(documentId)).findFirst()
                .map(Entry::chunks).orElse(List.of());
    }

    @Override
    public StoreCapabilities capabilities() {
        return new StoreCapabilities(true, false, MAX_K, true);
    }

    @Override
    public synchronized void close() {
        closed = true;
    }

    /** Whether {@code scope} may see {@code document}; the one place the visibility rule is applied. */
    protected boolean visible(Scope scope, StoredDocument document) {
        return scope.canSee(document);
    }

    /** The similarity reported for a chunk: the cosine clamped to [0, 1]. */
    protected double similarity(float[] query, float[] embedding) {
        return Math.max(0.0, Math.min(1.0, DocumentStoreContract.cosine(query, embedding)));
    }

    private List<Entry> visibleEntries(Scope scope) {
        return entries.values().stream().filter(e -> visible(scope, e.document())).collect(Collectors.toList());
    }

    private List<StoredDocument> sortedDocuments(Scope scope) {
        return visibleEntries(scope).stream().map(Entry::document)
                .sorted(Comparator.comparing(StoredDocument::path).thenComparing(StoredDocument::id))
                .collect(Collectors.toList());
    }

    private void ensureOpen() {
        if (closed) {
            throw new StoreException("the store is closed; create a new one", false);
        }
    }

    static List<String> tokens(String text) {
        return Arrays.stream(TOKEN_SEPARATOR.split(text.toLowerCase(Locale.ROOT)))
                .filter(t -> !t.isEmpty()).collect(Collectors.toList());
    }

    /** Okapi BM25 with the "+1" idf, over the chunks of the given entries. */
    private static final class Bm25 {
        private final Map<String, Integer> documentFrequency = new HashMap<>();
        private final int chunkCount;
        private final double averageLength;

        Bm25(List<Entry> entries) {
            int count = 0;
            long totalLength = 0;
            for (Entry entry : entries) {
                for (StoredChunk chunk : entry.chunks()) {
                    List<String> tokens = tokens(chunk.text());
                    count++;
                    totalLength += tokens.size();
                    for (String term : new HashSet<>(tokens)) {
                        documentFrequency.merge(term, 1, Integer::sum);
                    }
                }
            }
            chunkCount = count;
            averageLength = count == 0 ? 0 : (double) totalLength / count;
        }

        double score(String query, String text) {
            List<String> tokens = tokens(text);
            Map<String, Integer> frequencies = new HashMap<>();
            tokens.forEach(t -> frequencies.merge(t, 1, Integer::sum));
            double lengthRatio = averageLength == 0 ? 1 : tokens.size() / averageLength;
            double score = 0;
            for (String term : new LinkedHashSet<>(tokens(query))) {
                int tf = frequencies.getOrDefault(term, 0);
                if (tf == 0) {
                    continue;
                }
                int df = documentFrequency.getOrDefault(term, 0);
                double idf = Math.log(1 + (chunkCount - df + 0.5) / (df + 0.5));
                score += idf * tf * (K1 + 1) / (tf + K1 * (1 - B + B * lengthRatio));
            }
            return score;
        }
    }
}
