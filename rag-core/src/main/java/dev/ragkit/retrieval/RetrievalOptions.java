package dev.ragkit.retrieval;

import dev.ragkit.store.MetadataFilter;
import dev.ragkit.store.PromotionLevel;
import java.util.Collection;
import java.util.Collections;
import java.util.Objects;
import java.util.SortedSet;
import java.util.TreeSet;
import org.jspecify.annotations.Nullable;

/**
 * How retrieval selects context. Immutable; build with {@link #builder()}, start from a preset
 * ({@link #chunkQa()}, {@link #knowledgeBase()}), and override single fields per request with
 * {@link #with(Overrides)}.
 *
 * <p>Defaults come from the product specifications: relevance threshold 0.3, top 5 chunks, over-fetch
 * {@code min(k × 3, 15)} candidates, at most 3 chunks per document, hybrid search when the store has a keyword
 * index, no critical injection, no link following; and, RagKit's own, each relevant chunk with the chunk before and
 * after it. The specifications compare their thresholds (0.3 here, 0.7 for
 * the knowledge base) with the raw cosine similarity of one embedder; RagKit compares the same numbers with the
 * calibrated relevance of a {@link RelevanceModel} (the estimated probability that a chunk holds the answer), which
 * means the same on every embedder, where a raw cosine of 0.3 is a near-match for one model and unrelated text for
 * another.
 */
public final class RetrievalOptions {

    /** What the top-k counts and returns. */
    public enum Granularity {
        /** The best chunks, each cited on its own. */
        CHUNK,
        /** The best documents, each scored by its best chunk and returned whole. */
        DOCUMENT
    }

    /** How vector and keyword scores of a hybrid search become one relevance in [0, 1]. */
    public enum Fusion {
        /** Each score min-max normalised over the candidates, then a weighted sum. */
        RELATIVE_SCORE,
        /** Weighted reciprocal ranks ({@code 1 / (60 + rank)}), scaled so that first in both lists is 1. */
        RECIPROCAL_RANK
    }

    private final Granularity granularity;
    private final int topK;
    private final double minRelevance;
    private final int overFetchFactor;
    private final int candidateCap;
    private final int maxChunksPerDocument;
    private final int neighbourChunks;
    private final boolean includeCritical;
    private final int linkDepth;
    private final int maxLinkedDocuments;
    private final boolean hybrid;
    private final Fusion fusion;
    private final double vectorWeight;
    private final SortedSet<String> docTypes;
    private final PromotionLevel minPromotion;
    private final @Nullable MetadataFilter metadataFilter;

    private RetrievalOptions(Builder b) {
        this.granularity = b.granularity;
        this.topK = b.topK;
        this.minRelevance = b.minRelevance;
        this.overFetchFactor = b.overFetchFactor;
        this.candidateCap = b.candidateCap;
        this.maxChunksPerDocument = b.maxChunksPerDocument;
        this.neighbourChunks = b.neighbourChunks;
        this.includeCritical = b.includeCritical;
        this.linkDepth = b.linkDepth;
        this.maxLinkedDocuments = b.maxLinkedDocuments;
        this.hybrid = b.hybrid;
        this.fusion = b.fusion;
        this.vectorWeight = b.vectorWeight;
        this.docTypes = Collections.unmodifiableSortedSet(new TreeSet<>(b.docTypes));
        this.minPromotion = b.minPromotion;
        this.metadataFilter = b.metadataFilter;
    }

    /**
     * The chunk question-answering profile: threshold 0.3, top 5 chunks, each with its neighbours.
     *
     * @return the preset
     */
    public static RetrievalOptions chunkQa() {
        return builder().build();
    }

    /**
     * The knowledge-base profile: threshold 0.7, top 3 whole documents, links followed to depth 2 (at most 5
     * linked documents), critical documents always included.
     *
     * @return the preset
     */
    public static RetrievalOptions knowledgeBase() {
        return builder().granularity(Granularity.DOCUMENT).minRelevance(0.7).topK(3).linkDepth(2)
                .maxLinkedDocuments(5).includeCritical(true).build();
    }

    /**
     * @return a builder holding the {@link #chunkQa()} defaults
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * @return a builder holding these options
     */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.granularity = granularity;
        b.topK = topK;
        b.minRelevance = minRelevance;
        b.overFetchFactor = overFetchFactor;
        b.candidateCap = candidateCap;
        b.maxChunksPerDocument = maxChunksPerDocument;
        b.neighbourChunks = neighbourChunks;
        b.includeCritical = includeCritical;
        b.linkDepth = linkDepth;
        b.maxLinkedDocuments = maxLinkedDocuments;
        b.hybrid = hybrid;
        b.fusion = fusion;
        b.vectorWeight = vectorWeight;
        b.docTypes = new TreeSet<>(docTypes);
        b.minPromotion = minPromotion;
        b.metadataFilter = metadataFilter;
        return b;
    }

    /**
     * These options with every field the overrides set replaced, and every other field kept.
     *
     * @param overrides per-request changes
     * @return the combined options
     * @throws IllegalStateException when the combination is invalid (see {@link Builder#build()})
     */
    public RetrievalOptions with(Overrides overrides) {
        Objects.requireNonNull(overrides, "overrides");
        Builder b = toBuilder();
        if (overrides.granularity != null) {
            b.granularity(overrides.granularity);
        }
        if (overrides.topK != null) {
            b.topK(overrides.topK);
        }
        if (overrides.minRelevance != null) {
            b.minRelevance(overrides.minRelevance);
        }
        if (overrides.includeCritical != null) {
            b.includeCritical(overrides.includeCritical);
        }
        if (overrides.linkDepth != null) {
            b.linkDepth(overrides.linkDepth);
        }
        if (overrides.hybrid != null) {
            b.hybrid(overrides.hybrid);
        }
        if (overrides.docTypes != null) {
            b.docTypes(overrides.docTypes);
        }
        if (overrides.metadataFilter != null) {
            b.metadataFilter(metadataFilter == null ? overrides.metadataFilter
                    : MetadataFilter.and(metadataFilter, overrides.metadataFilter));   // a request only narrows
        }
        if (overrides.minPromotion != null) {
            b.minPromotion(overrides.minPromotion);
        }
        return b.build();
    }

    /**
     * How many candidates to ask the store for: {@code min(topK × overFetchFactor, candidateCap)}, but at least
     * {@code topK}.
     *
     * @return the candidate count
     */
    public int candidates() {
        return Math.max(topK, Math.min(topK * overFetchFactor, candidateCap));
    }

    /** @return what the top-k counts */
    public Granularity granularity() {
        return granularity;
    }

    /** @return how many chunks or documents to return */
    public int topK() {
        return topK;
    }

    /** @return the lowest calibrated relevance a candidate may have, 0 to 1 (see {@link RelevanceModel}) */
    public double minRelevance() {
        return minRelevance;
    }

    /** @return the over-fetch multiplier */
    public int overFetchFactor() {
        return overFetchFactor;
    }

    /** @return the most candidates fetched */
    public int candidateCap() {
        return candidateCap;
    }

    /** @return the most chunks kept from one document */
    public int maxChunksPerDocument() {
        return maxChunksPerDocument;
    }

    /**
     * @return at chunk granularity, how many chunks before and after each relevant chunk go into the prompt with it,
     *         so that the model reads the passage around a match ("small to big": chunks are as small as the
     *         embedder reads whole; the model gets more); 0 for none
     */
    public int neighbourChunks() {
        return neighbourChunks;
    }

    /** @return whether critical documents of the scope are always included */
    public boolean includeCritical() {
        return includeCritical;
    }

    /** @return how many links away to follow; 0 follows none */
    public int linkDepth() {
        return linkDepth;
    }

    /** @return the most linked documents added */
    public int maxLinkedDocuments() {
        return maxLinkedDocuments;
    }

    /** @return whether to use keyword scores too when the store has a keyword index */
    public boolean hybrid() {
        return hybrid;
    }

    /** @return how hybrid scores are fused */
    public Fusion fusion() {
        return fusion;
    }

    /** @return the vector score's weight in fusion, in [0, 1]; the keyword score gets the rest */
    public double vectorWeight() {
        return vectorWeight;
    }

    /** @return document types to keep (immutable); empty keeps all */
    public SortedSet<String> docTypes() {
        return docTypes;
    }

    /** @return the lowest promotion level to keep */
    public PromotionLevel minPromotion() {
        return minPromotion;
    }

    /**
     * @return the filter on document metadata every search applies before its top-k cut (and critical documents
     *         must pass), or {@code null} for none
     */
    public @Nullable MetadataFilter metadataFilter() {
        return metadataFilter;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RetrievalOptions r && granularity == r.granularity && topK == r.topK
                && Double.compare(minRelevance, r.minRelevance) == 0 && overFetchFactor == r.overFetchFactor
                && candidateCap == r.candidateCap && maxChunksPerDocument == r.maxChunksPerDocument
                && neighbourChunks == r.neighbourChunks
                && includeCritical == r.includeCritical && linkDepth == r.linkDepth
                && maxLinkedDocuments == r.maxLinkedDocuments && hybrid == r.hybrid && fusion == r.fusion
                && Double.compare(vectorWeight, r.vectorWeight) == 0 && docTypes.equals(r.docTypes)
                && minPromotion == r.minPromotion && Objects.equals(metadataFilter, r.metadataFilter);
    }

    @Override
    public int hashCode() {
        return Objects.hash(granularity, topK, minRelevance, overFetchFactor, candidateCap, maxChunksPerDocument,
                neighbourChunks,
                includeCritical, linkDepth, maxLinkedDocuments, hybrid, fusion, vectorWeight, docTypes, minPromotion,
                metadataFilter);
    }

    @Override
    public String toString() {
        return "RetrievalOptions[" + granularity + ", top " + topK + ", min relevance " + minRelevance
                + ", candidates " + candidates() + ", " + maxChunksPerDocument + " per document"
                + (neighbourChunks > 0 ? ", " + neighbourChunks + " neighbours" : "")
                + (includeCritical ? ", critical included" : "") + (linkDepth > 0 ? ", links depth " + linkDepth
                + " max " + maxLinkedDocuments : "") + (hybrid ? ", hybrid " + fusion + " w=" + vectorWeight : "")
                + (docTypes.isEmpty() ? "" : ", types " + docTypes) + ", min " + minPromotion
                + (metadataFilter == null ? "" : ", where " + metadataFilter) + "]";
    }

    /** Builds {@link RetrievalOptions}; setters reject bad values at once. Not thread-safe. */
    public static final class Builder {
        private Granularity granularity = Granularity.CHUNK;
        private int topK = 5;
        private double minRelevance = 0.3;
        private int overFetchFactor = 3;
        private int candidateCap = 15;
        private int maxChunksPerDocument = 3;
        private int neighbourChunks = 1;
        private boolean includeCritical;
        private int linkDepth;
        private int maxLinkedDocuments = 5;
        private boolean hybrid = true;
        private Fusion fusion = Fusion.RELATIVE_SCORE;
        private double vectorWeight = 0.5;
        private SortedSet<String> docTypes = new TreeSet<>();
        private PromotionLevel minPromotion = PromotionLevel.STANDARD;
        private @Nullable MetadataFilter metadataFilter;

        private Builder() {
        }

        /** @param granularity what the top-k counts @return this builder */
        public Builder granularity(Granularity granularity) {
            this.granularity = Objects.requireNonNull(granularity, "granularity");
            return this;
        }

        /** @param topK at least 1 @return this builder */
        public Builder topK(int topK) {
            this.topK = atLeast(topK, 1, "topK");
            return this;
        }

        /** @param minRelevance the lowest calibrated relevance a chunk may have, in [0, 1] @return this builder */
        public Builder minRelevance(double minRelevance) {
            this.minRelevance = unit(minRelevance, "minRelevance");
            return this;
        }

        /** @param factor at least 1 @return this builder */
        public Builder overFetchFactor(int factor) {
            this.overFetchFactor = atLeast(factor, 1, "overFetchFactor");
            return this;
        }

        /** @param cap at least 1 @return this builder */
        public Builder candidateCap(int cap) {
            this.candidateCap = atLeast(cap, 1, "candidateCap");
            return this;
        }

        /** @param max at least 1 @return this builder */
        public Builder maxChunksPerDocument(int max) {
            this.maxChunksPerDocument = atLeast(max, 1, "maxChunksPerDocument");
            return this;
        }

        /**
         * @param n how many chunks before and after each relevant chunk join it in the prompt at chunk granularity,
         *          at least 0 (default 1)
         * @return this builder
         */
        public Builder neighbourChunks(int n) {
            this.neighbourChunks = atLeast(n, 0, "neighbourChunks");
            return this;
        }

        /** @param include whether critical documents are always included @return this builder */
        public Builder includeCritical(boolean include) {
            this.includeCritical = include;
            return this;
        }

        /** @param depth at least 0; 0 follows no links @return this builder */
        public Builder linkDepth(int depth) {
            this.linkDepth = atLeast(depth, 0, "linkDepth");
            return this;
        }

        /** @param max at least 0 @return this builder */
        public Builder maxLinkedDocuments(int max) {
            this.maxLinkedDocuments = atLeast(max, 0, "maxLinkedDocuments");
            return this;
        }

        /** @param hybrid whether to fuse keyword scores when the store can @return this builder */
        public Builder hybrid(boolean hybrid) {
            this.hybrid = hybrid;
            return this;
        }

        /** @param fusion how hybrid scores are fused @return this builder */
        public Builder fusion(Fusion fusion) {
            this.fusion = Objects.requireNonNull(fusion, "fusion");
            return this;
        }

        /** @param weight the vector score's weight in [0, 1] @return this builder */
        public Builder vectorWeight(double weight) {
            this.vectorWeight = unit(weight, "vectorWeight");
            return this;
        }

        /** @param types document types to keep; empty keeps all @return this builder */
        public Builder docTypes(Collection<String> types) {
            TreeSet<String> copy = new TreeSet<>();
            for (String type : Objects.requireNonNull(types, "docTypes")) {
                if (Objects.requireNonNull(type, "doc type").isBlank()) {
                    throw new IllegalArgumentException("doc types must not be blank");
                }
                copy.add(type);
            }
            this.docTypes = copy;
            return this;
        }

        /**
         * @param filter a filter on document metadata (e.g. {@code MetadataFilter.parse("year>=2024")}) applied by
         *               every search before its top-k cut; critical documents must pass it too
         * @return this builder
         */
        public Builder metadataFilter(MetadataFilter filter) {
            this.metadataFilter = Objects.requireNonNull(filter, "metadataFilter");
            return this;
        }

        /** @param level the lowest promotion level to keep @return this builder */
        public Builder minPromotion(PromotionLevel level) {
            this.minPromotion = Objects.requireNonNull(level, "minPromotion");
            return this;
        }

        /**
         * @return the options
         * @throws IllegalStateException when {@code candidateCap < topK}, which would make the top-k unreachable
         */
        public RetrievalOptions build() {
            if (candidateCap < topK) {
                throw new IllegalStateException("candidateCap (" + candidateCap + ") is below topK (" + topK
                        + "); raise candidateCap or lower topK");
            }
            return new RetrievalOptions(this);
        }
    }

    /** Per-request changes to configured options; unset fields keep the configured value. Immutable. */
    public static final class Overrides {
        private final @Nullable Granularity granularity;
        private final @Nullable Integer topK;
        private final @Nullable Double minRelevance;
        private final @Nullable Boolean includeCritical;
        private final @Nullable Integer linkDepth;
        private final @Nullable Boolean hybrid;
        private final @Nullable SortedSet<String> docTypes;
        private final @Nullable PromotionLevel minPromotion;
        private final @Nullable MetadataFilter metadataFilter;

        private Overrides(OverridesBuilder b) {
            this.granularity = b.granularity;
            this.topK = b.topK;
            this.minRelevance = b.minRelevance;
            this.includeCritical = b.includeCritical;
            this.linkDepth = b.linkDepth;
            this.hybrid = b.hybrid;
            this.docTypes = b.docTypes;
            this.minPromotion = b.minPromotion;
            this.metadataFilter = b.metadataFilter;
        }

        /**
         * @param filter a metadata filter for the request
         * @return these overrides with {@code filter} as well (ANDed with a filter they hold already)
         */
        public Overrides withMetadataFilter(MetadataFilter filter) {
            OverridesBuilder b = copy();
            b.metadataFilter = metadataFilter == null ? Objects.requireNonNull(filter, "filter")
                    : MetadataFilter.and(metadataFilter, filter);
            return new Overrides(b);
        }

        /**
         * @param minRelevance the lowest calibrated relevance a chunk may have, in [0, 1]
         * @return these overrides with {@code minRelevance} in place of theirs
         */
        public Overrides withMinRelevance(double minRelevance) {
            return copy().minRelevance(minRelevance).build();
        }

        /** @return a builder holding these overrides */
        private OverridesBuilder copy() {
            OverridesBuilder b = builder();
            b.granularity = granularity;
            b.topK = topK;
            b.minRelevance = minRelevance;
            b.includeCritical = includeCritical;
            b.linkDepth = linkDepth;
            b.hybrid = hybrid;
            b.docTypes = docTypes;
            b.minPromotion = minPromotion;
            b.metadataFilter = metadataFilter;
            return b;
        }

        /** @return a builder with nothing overridden */
        public static OverridesBuilder builder() {
            return new OverridesBuilder();
        }
    }

    /** Builds {@link Overrides}; setters validate like {@link Builder}'s. Not thread-safe. */
    public static final class OverridesBuilder {
        private @Nullable Granularity granularity;
        private @Nullable Integer topK;
        private @Nullable Double minRelevance;
        private @Nullable Boolean includeCritical;
        private @Nullable Integer linkDepth;
        private @Nullable Boolean hybrid;
        private @Nullable SortedSet<String> docTypes;
        private @Nullable PromotionLevel minPromotion;
        private @Nullable MetadataFilter metadataFilter;

        private OverridesBuilder() {
        }

        /** @param granularity what the top-k counts @return this builder */
        public OverridesBuilder granularity(Granularity granularity) {
            this.granularity = Objects.requireNonNull(granularity, "granularity");
            return this;
        }

        /** @param topK at least 1 @return this builder */
        public OverridesBuilder topK(int topK) {
            this.topK = atLeast(topK, 1, "topK");
            return this;
        }

        /** @param minRelevance in [0, 1] @return this builder */
        public OverridesBuilder minRelevance(double minRelevance) {
            this.minRelevance = unit(minRelevance, "minRelevance");
            return this;
        }

        /** @param include whether critical documents are included @return this builder */
        public OverridesBuilder includeCritical(boolean include) {
            this.includeCritical = include;
            return this;
        }

        /** @param depth at least 0 @return this builder */
        public OverridesBuilder linkDepth(int depth) {
            this.linkDepth = atLeast(depth, 0, "linkDepth");
            return this;
        }

        /** @param hybrid whether to fuse keyword scores @return this builder */
        public OverridesBuilder hybrid(boolean hybrid) {
            this.hybrid = hybrid;
            return this;
        }

        /** @param types document types to keep; empty keeps all @return this builder */
        public OverridesBuilder docTypes(Collection<String> types) {
            this.docTypes = RetrievalOptions.builder().docTypes(types).docTypes;
            return this;
        }

        /**
         * @param filter a filter on document metadata for this request; combined with the options' own filter by
         *               AND, so it can only narrow what is searched
         * @return this builder
         */
        public OverridesBuilder metadataFilter(MetadataFilter filter) {
            this.metadataFilter = Objects.requireNonNull(filter, "metadataFilter");
            return this;
        }

        /** @param level the lowest promotion level @return this builder */
        public OverridesBuilder minPromotion(PromotionLevel level) {
            this.minPromotion = Objects.requireNonNull(level, "minPromotion");
            return this;
        }

        /** @return the overrides */
        public Overrides build() {
            return new Overrides(this);
        }
    }

    private static int atLeast(int value, int min, String name) {
        if (value < min) {
            throw new IllegalArgumentException(name + " must be at least " + min + ", got " + value);
        }
        return value;
    }

    private static double unit(double value, String name) {
        if (!(value >= 0 && value <= 1)) {
            throw new IllegalArgumentException(name + " must be in [0, 1], got " + value);
        }
        return value;
    }
}
