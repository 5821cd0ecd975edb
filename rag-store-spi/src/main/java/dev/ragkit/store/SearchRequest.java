package dev.ragkit.store;

import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.SortedSet;
import java.util.TreeSet;
import org.jspecify.annotations.Nullable;

/**
 * A search of a {@link DocumentStore}: who asks, what for, how many results, and which documents qualify.
 *
 * <p>At least one of {@code queryVector} and {@code queryText} is given:
 * <ul>
 *   <li><b>vector only</b>: the {@code k} chunks most similar to the vector;</li>
 *   <li><b>text only</b>: the {@code k} chunks with the highest keyword (BM25) score; only for stores whose
 *       {@link StoreCapabilities#keywordSearch()} is {@code true};</li>
 *   <li><b>both</b> (hybrid): the union of the {@code k} most similar chunks and the {@code k} best keyword
 *       matches, each hit carrying both scores, so the caller can fuse them. A store without keyword search
 *       ignores the text and returns vector results.</li>
 * </ul>
 * Filters ({@code docTypes}, {@code minPromotion}, {@code metadataFilter}) and the scope are applied
 * <em>before</em> the top-k cut: when at least {@code k} qualifying chunks exist, {@code k} come back. Filters only
 * narrow what the scope sees; none of them can widen it.
 *
 * @param scope        who is reading (mandatory)
 * @param queryVector  the query embedding (copied), or {@code null} for keyword-only search
 * @param queryText    the query text for keyword search, or {@code null}; never blank
 * @param k            how many results to return, from 1 to the store's {@link StoreCapabilities#maxK()}
 * @param docTypes     document types to keep (immutable, sorted); empty keeps every type. A document with no
 *                     type never matches a non-empty filter
 * @param minPromotion the lowest promotion level to keep; {@link PromotionLevel#STANDARD} keeps all
 * @param metadataFilter a filter on {@link StoredDocument#metadata()}, or {@code null} for none; only stores whose
 *                     {@link StoreCapabilities#metadataFilters()} is {@code true} accept it, the others throw
 *                     {@link IllegalArgumentException} rather than ignore it
 */
public record SearchRequest(
        Scope scope,
        float @Nullable [] queryVector,
        @Nullable String queryText,
        int k,
        SortedSet<String> docTypes,
        PromotionLevel minPromotion,
        @Nullable MetadataFilter metadataFilter) {

    /**
     * Validates and copies the arguments.
     *
     * @throws IllegalArgumentException when both queries are missing, the text is blank, {@code k < 1}, or the
     *                                  vector is empty, all zeros or not finite
     */
    public SearchRequest {
        Objects.requireNonNull(scope, "scope");
        if (queryVector == null && queryText == null) {
            throw new IllegalArgumentException("a search needs a query vector, a query text, or both");
        }
        if (queryVector != null) {
            StoredChunk.requireUsableVector(queryVector, "query vector");
            queryVector = queryVector.clone();
        }
        if (queryText != null && queryText.isBlank()) {
            throw new IllegalArgumentException("query text is blank; pass null for a vector-only search");
        }
        if (k < 1) {
            throw new IllegalArgumentException("k must be at least 1, got " + k);
        }
        TreeSet<String> types = new TreeSet<>();
        for (String type : Objects.requireNonNull(docTypes, "docTypes")) {
            types.add(Scope.requireText(type, "doc type"));
        }
        docTypes = Collections.unmodifiableSortedSet(types);
        Objects.requireNonNull(minPromotion, "minPromotion");
    }

    /**
     * A request without a metadata filter.
     *
     * @param scope        who is reading
     * @param queryVector  the query embedding, or {@code null}
     * @param queryText    the query text, or {@code null}
     * @param k            how many results
     * @param docTypes     document types to keep
     * @param minPromotion the lowest promotion level to keep
     */
    public SearchRequest(Scope scope, float @Nullable [] queryVector, @Nullable String queryText, int k,
            SortedSet<String> docTypes, PromotionLevel minPromotion) {
        this(scope, queryVector, queryText, k, docTypes, minPromotion, null);
    }

    /**
     * The same request with another metadata filter.
     *
     * @param filter the filter, or {@code null} for none
     * @return a new request
     */
    public SearchRequest withMetadataFilter(@Nullable MetadataFilter filter) {
        return new SearchRequest(scope, queryVector, queryText, k, docTypes, minPromotion, filter);
    }

    /**
     * A copy of the query vector.
     *
     * @return a fresh copy, or {@code null} for a keyword-only search
     */
    @Override
    public float @Nullable [] queryVector() {
        return queryVector == null ? null : queryVector.clone();
    }

    /**
     * The query vector without copying it, for store implementations on their hot path. Callers must not
     * modify the returned array.
     *
     * @return the vector, or {@code null}
     */
    public float @Nullable [] queryVectorUnsafe() {
        return queryVector;
    }

    /**
     * Whether a document with this type and level passes the filters of this request (scope excluded).
     *
     * @param docType the document's type, or {@code null}
     * @param level   the document's promotion level
     * @return {@code true} when it passes
     */
    public boolean accepts(@Nullable String docType, PromotionLevel level) {
        if (!level.isAtLeast(minPromotion)) {
            return false;
        }
        return docTypes.isEmpty() || (docType != null && docTypes.contains(docType));
    }

    /**
     * Whether {@code document} passes every filter of this request: type, promotion and metadata (scope excluded).
     *
     * @param document a document
     * @return {@code true} when it passes
     */
    public boolean accepts(StoredDocument document) {
        return accepts(document.docType(), document.promotionLevel())
                && (metadataFilter == null || metadataFilter.test(document.metadata()));
    }

    /**
     * Starts a request in {@code scope}.
     *
     * @param scope who is reading
     * @return a builder with {@code k = 10}, no filters and no query yet
     */
    public static Builder builder(Scope scope) {
        return new Builder(scope);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof SearchRequest r && k == r.k && scope.equals(r.scope)
                && Arrays.equals(queryVector, r.queryVector) && Objects.equals(queryText, r.queryText)
                && docTypes.equals(r.docTypes) && minPromotion == r.minPromotion
                && Objects.equals(metadataFilter, r.metadataFilter);
    }

    @Override
    public int hashCode() {
        return Objects.hash(scope, Arrays.hashCode(queryVector), queryText, k, docTypes, minPromotion,
                metadataFilter);
    }

    @Override
    public String toString() {
        return "SearchRequest[scope=" + scope + ", vector=" + (queryVector == null ? "none" : queryVector.length + " dims")
                + ", text=" + queryText + ", k=" + k + ", docTypes=" + docTypes + ", minPromotion=" + minPromotion
                + (metadataFilter == null ? "" : ", metadataFilter=" + metadataFilter) + "]";
    }

    /** Builds a {@link SearchRequest}. Not thread-safe. */
    public static final class Builder {
        private final Scope scope;
        private float @Nullable [] vector;
        private @Nullable String text;
        private int k = 10;
        private SortedSet<String> docTypes = new TreeSet<>();
        private PromotionLevel minPromotion = PromotionLevel.STANDARD;
        private @Nullable MetadataFilter metadataFilter;

        private Builder(Scope scope) {
            this.scope = Objects.requireNonNull(scope, "scope");
        }

        /**
         * @param vector the query embedding (copied at {@link #build()})
         * @return this builder
         */
        public Builder vector(float[] vector) {
            this.vector = Objects.requireNonNull(vector, "vector");
            return this;
        }

        /**
         * @param text the query text for keyword search; not blank
         * @return this builder
         */
        public Builder text(String text) {
            this.text = Scope.requireText(text, "query text");
            return this;
        }

        /**
         * @param k how many results, at least 1
         * @return this builder
         */
        public Builder k(int k) {
            if (k < 1) {
                throw new IllegalArgumentException("k must be at least 1, got " + k);
            }
            this.k = k;
            return this;
        }

        /**
         * @param docTypes document types to keep; empty keeps all
         * @return this builder
         */
        public Builder docTypes(Collection<String> docTypes) {
            this.docTypes = new TreeSet<>(Objects.requireNonNull(docTypes, "docTypes"));
            return this;
        }

        /**
         * @param docTypes document types to keep; none keeps all
         * @return this builder
         */
        public Builder docTypes(String... docTypes) {
            return docTypes(List.of(Objects.requireNonNull(docTypes, "docTypes")));
        }

        /**
         * @param level the lowest promotion level to keep
         * @return this builder
         */
        public Builder minPromotion(PromotionLevel level) {
            this.minPromotion = Objects.requireNonNull(level, "minPromotion");
            return this;
        }

        /**
         * @param filter a filter on the documents' metadata
         * @return this builder
         */
        public Builder metadataFilter(MetadataFilter filter) {
            this.metadataFilter = Objects.requireNonNull(filter, "metadataFilter");
            return this;
        }

        /**
         * @param filter a filter in the syntax of {@link MetadataFilter#parse(String)}
         * @return this builder
         * @throws MetadataFilterSyntaxException when the text is not a filter
         */
        public Builder metadataFilter(String filter) {
            return metadataFilter(MetadataFilter.parse(filter));
        }

        /**
         * @return the request
         * @throws IllegalStateException when neither a vector nor a text was given
         */
        public SearchRequest build() {
            if (vector == null && text == null) {
                throw new IllegalStateException("a search needs vector(..), text(..) or both");
            }
            return new SearchRequest(scope, vector, text, k, docTypes, minPromotion, metadataFilter);
        }
    }
}
