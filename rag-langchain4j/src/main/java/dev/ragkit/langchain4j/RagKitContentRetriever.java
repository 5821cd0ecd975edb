package dev.ragkit.langchain4j;

import dev.langchain4j.data.document.Metadata;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.rag.content.Content;
import dev.langchain4j.rag.content.ContentMetadata;
import dev.langchain4j.rag.content.retriever.ContentRetriever;
import dev.langchain4j.rag.query.Query;
import dev.ragkit.retrieval.DocumentSegment;
import dev.ragkit.retrieval.LinkedDocument;
import dev.ragkit.retrieval.RetrievalOptions;
import dev.ragkit.retrieval.RetrievedChunk;
import dev.ragkit.retrieval.RetrievedContext;
import dev.ragkit.retrieval.RetrievedDocument;
import dev.ragkit.retrieval.Retriever;
import dev.ragkit.store.DocumentStore;
import dev.ragkit.store.Scope;
import dev.ragkit.store.StoredChunk;
import dev.ragkit.store.StoredDocument;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/**
 * A LangChain4j {@link ContentRetriever} backed by a RagKit {@link Retriever}: an {@code AiServices} application
 * gets promotion boosts, critical documents, link following and near-duplicate removal by swapping one line.
 *
 * <pre>{@code
 * Assistant assistant = AiServices.builder(Assistant.class)
 *         .chatModel(chatModel)
 *         .contentRetriever(RagKitContentRetriever.builder().retriever(retriever).store(store)
 *                 .scope(query -> Scope.of("acme", "eng")).build())   // instead of EmbeddingStoreContentRetriever
 *         .build();
 * }</pre>
 *
 * <p>{@link #retrieve(Query)} runs the retriever with the query's text in the scope the
 * {@linkplain Builder#scope(Function) scope function} picks for the query (derive it from
 * {@code query.metadata().chatMemoryId()} or the user message: the retriever never reads outside it), and returns the
 * {@link RetrievedContext} in prompt order:
 * <ol>
 *   <li>the scope's critical documents, whole;</li>
 *   <li>the relevant chunks, best boosted score first, or at document granularity the relevant documents, whole;</li>
 *   <li>documents reached by links, whole: their text is read from the {@linkplain Builder#store(DocumentStore)
 *       store} (without a store they are left out).</li>
 * </ol>
 * No document appears twice. Each content's {@link TextSegment} carries, in its metadata: {@value #KIND}
 * ({@code critical}, {@code relevant} or {@code linked}), {@value #SOURCE_ID} (the citation id
 * {@code documentId:chunkIndex}; for a whole document, the ids of its chunks joined by commas), {@value #DOCUMENT_ID},
 * {@value #PATH}, {@value #TITLE}, {@value #START_LINE}, {@value #END_LINE}, {@value #SECTION} (chunks, when known),
 * {@value #PROMOTION}, {@value #DOC_TYPE} (when set), the scores {@value #SIMILARITY} (raw cosine),
 * {@value #RELEVANCE} (before boosting) and {@value #BOOSTED} (after), when known, and for linked documents
 * {@value #LINKED_FROM} and {@value #LINK_DEPTH}. The boosted score is also the content's
 * {@link ContentMetadata#SCORE}.
 *
 * <p>Thread-safe when the retriever and the functions are.
 */
public final class RagKitContentRetriever implements ContentRetriever {

    /** Metadata key: where the content sits in the context, {@code critical}, {@code relevant} or {@code linked}. */
    public static final String KIND = "kind";
    /** Metadata key: the citation id(s), {@code documentId:chunkIndex}, comma-separated for whole documents. */
    public static final String SOURCE_ID = "source_id";
    /** Metadata key: the document id. */
    public static final String DOCUMENT_ID = "document_id";
    /** Metadata key: the document's path. */
    public static final String PATH = "path";
    /** Metadata key: the document's title. */
    public static final String TITLE = "title";
    /** Metadata key: the first line of the text in its document, 1-based. */
    public static final String START_LINE = "start_line";
    /** Metadata key: the last line of the text in its document. */
    public static final String END_LINE = "end_line";
    /** Metadata key: a chunk's heading path. */
    public static final String SECTION = "section";
    /** Metadata key: the document's promotion level, lower case. */
    public static final String PROMOTION = "promotion";
    /** Metadata key: the document's type. */
    public static final String DOC_TYPE = "doc_type";
    /** Metadata key: the raw cosine similarity. */
    public static final String SIMILARITY = "similarity";
    /** Metadata key: the relevance before boosting. */
    public static final String RELEVANCE = "relevance";
    /** Metadata key: the relevance after the promotion boost. */
    public static final String BOOSTED = "boosted_score";
    /** Metadata key: the path of the document whose link led to a linked document. */
    public static final String LINKED_FROM = "linked_from";
    /** Metadata key: how many links away a linked document is. */
    public static final String LINK_DEPTH = "link_depth";

    private final Retriever retriever;
    private final Function<Query, Scope> scope;
    private final @Nullable Function<Query, RetrievalOptions.Overrides> overrides;
    private final @Nullable DocumentStore store;

    private RagKitContentRetriever(Builder b) {
        this.retriever = Objects.requireNonNull(b.retriever);
        this.scope = Objects.requireNonNull(b.scope);
        this.overrides = b.overrides;
        this.store = b.store;
    }

    /** @return a builder; {@code retriever} and {@code scope} are required */
    public static Builder builder() {
        return new Builder();
    }

    /** @return a builder holding this retriever's settings */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.retriever = retriever;
        b.scope = scope;
        b.overrides = overrides;
        b.store = store;
        return b;
    }

    /**
     * Retrieves the context for the query's text.
     *
     * @param query the query; its text must not be blank
     * @return critical, then relevant, then linked contents; empty when nothing qualified
     * @throws IllegalArgumentException when the text is blank
     * @throws IllegalStateException    when the scope function returns {@code null}
     */
    @Override
    public List<Content> retrieve(Query query) {
        Objects.requireNonNull(query, "query");
        Scope s = scope.apply(query);
        if (s == null) {
            throw new IllegalStateException("the scope function returned null for query '" + query.text()
                    + "'; every retrieval needs a tenant");
        }
        RetrievalOptions.Overrides o = overrides == null ? null : overrides.apply(query);
        RetrievedContext context = o == null ? retriever.retrieve(query.text(), s) : retriever.retrieve(query.text(), s, o);
        return toContents(context, s);
    }

    private List<Content> toContents(RetrievedContext context, Scope s) {
        List<Content> contents = new ArrayList<>();
        Set<String> shownDocuments = new HashSet<>();
        for (RetrievedDocument d : context.critical()) {
            if (shownDocuments.add(d.document().id())) {
                add(contents, documentContent("critical", d.document(), d.text(), d.chunks(), d.relevance(),
                        d.boosted()));
            }
        }
        if (!context.relevantDocuments().isEmpty()) {
            for (RetrievedDocument d : context.relevantDocuments()) {
                if (shownDocuments.add(d.document().id())) {
                    add(contents, documentContent("relevant", d.document(), d.text(), d.chunks(), d.relevance(),
                            d.boosted()));
                }
            }
        } else {
            Set<String> shownChunks = new HashSet<>();
            for (RetrievedChunk c : context.relevant()) {
                if (!shownDocuments.contains(c.document().id()) && shownChunks.add(c.sourceId())) {
                    add(contents, chunkContent(c));
                }
            }
        }
        DocumentStore linkedStore = store;
        if (linkedStore != null) {
            for (LinkedDocument l : context.linked()) {
                StoredDocument doc = l.document();
                if (!shownDocuments.add(doc.id())) {
                    continue;
                }
                List<StoredChunk> chunks = linkedStore.chunksWithoutEmbeddings(s, doc.id());
                String text = DocumentSegment.join(DocumentSegment.of(chunks));
                Metadata m = documentMetadata("linked", doc, chunks, Double.NaN, Double.NaN);
                m.put(LINKED_FROM, l.linkedFrom());
                m.put(LINK_DEPTH, l.depth());
                add(contents, text, m, Double.NaN);
            }
        }
        return List.copyOf(contents);
    }

    private static Content chunkContent(RetrievedChunk c) {
        StoredChunk chunk = c.chunk();
        StoredDocument doc = c.document();
        Metadata m = common("relevant", doc);
        m.put(SOURCE_ID, chunk.sourceId());
        m.put(START_LINE, chunk.startLine());
        m.put(END_LINE, chunk.endLine());
        if (chunk.section() != null) {
            m.put(SECTION, chunk.section());
        }
        putScore(m, SIMILARITY, c.similarity());
        putScore(m, RELEVANCE, c.relevance());
        putScore(m, BOOSTED, c.boosted());
        return content(chunk.text(), m, c.boosted());
    }

    private static @Nullable Content documentContent(String kind, StoredDocument doc, String text,
            List<StoredChunk> chunks, double relevance, double boosted) {
        Metadata m = documentMetadata(kind, doc, chunks, relevance, boosted);
        return text.isBlank() ? null : content(text, m, boosted);
    }

    private static Metadata documentMetadata(String kind, StoredDocument doc, List<StoredChunk> chunks,
            double relevance, double boosted) {
        Metadata m = common(kind, doc);
        if (!chunks.isEmpty()) {
            m.put(SOURCE_ID, chunks.stream().map(StoredChunk::sourceId).collect(Collectors.joining(",")));
            m.put(START_LINE, chunks.stream().mapToInt(StoredChunk::startLine).min().getAsInt());
            m.put(END_LINE, chunks.stream().mapToInt(StoredChunk::endLine).max().getAsInt());
        }
        putScore(m, RELEVANCE, relevance);
        putScore(m, BOOSTED, boosted);
        return m;
    }

    private static Metadata common(String kind, StoredDocument doc) {
        Metadata m = new Metadata();
        m.put(KIND, kind);
        m.put(DOCUMENT_ID, doc.id());
        m.put(PATH, doc.path());
        m.put(TITLE, doc.title());
        m.put(PROMOTION, doc.promotionLevel().name().toLowerCase(java.util.Locale.ROOT));
        if (doc.docType() != null) {
            m.put(DOC_TYPE, doc.docType());
        }
        return m;
    }

    private static void putScore(Metadata m, String key, double value) {
        if (!Double.isNaN(value)) {
            m.put(key, value);
        }
    }

    private static void add(List<Content> contents, @Nullable Content content) {
        if (content != null) {
            contents.add(content);
        }
    }

    private static void add(List<Content> contents, String text, Metadata m, double score) {
        if (!text.isBlank()) {
            contents.add(content(text, m, score));
        }
    }

    private static Content content(String text, Metadata m, double score) {
        TextSegment segment = TextSegment.from(text, m);
        return Double.isNaN(score) ? Content.from(segment) : Content.from(segment, Map.of(ContentMetadata.SCORE, score));
    }

    @Override
    public String toString() {
        return "RagKitContentRetriever[" + retriever + (store == null ? ", linked documents left out" : "") + "]";
    }

    /** Configures a {@link RagKitContentRetriever}. Not thread-safe. */
    public static final class Builder {
        private @Nullable Retriever retriever;
        private @Nullable Function<Query, Scope> scope;
        private @Nullable Function<Query, RetrievalOptions.Overrides> overrides;
        private @Nullable DocumentStore store;

        private Builder() {
        }

        /** @param retriever the RagKit retriever (required) @return this builder */
        public Builder retriever(Retriever retriever) {
            this.retriever = Objects.requireNonNull(retriever, "retriever");
            return this;
        }

        /**
         * @param scope picks who asks for each query, e.g. from {@code query.metadata().chatMemoryId()} (required,
         *              unless {@link #scope(Scope)} is used); must not return {@code null}
         * @return this builder
         */
        public Builder scope(Function<Query, Scope> scope) {
            this.scope = Objects.requireNonNull(scope, "scope");
            return this;
        }

        /**
         * @param scope the one scope every query runs in, e.g. a single-tenant application's
         * @return this builder
         */
        public Builder scope(Scope scope) {
            Objects.requireNonNull(scope, "scope");
            this.scope = query -> scope;
            return this;
        }

        /**
         * @param overrides per-query changes to the retriever's options; may return {@code null} for none
         * @return this builder
         */
        public Builder overrides(Function<Query, RetrievalOptions.@Nullable Overrides> overrides) {
            this.overrides = Objects.requireNonNull(overrides, "overrides");
            return this;
        }

        /**
         * @param store the store the retriever reads, to load the text of linked documents; without it, linked
         *              documents are left out of the contents
         * @return this builder
         */
        public Builder store(DocumentStore store) {
            this.store = Objects.requireNonNull(store, "store");
            return this;
        }

        /**
         * @return the content retriever
         * @throws IllegalStateException when the retriever or the scope is missing
         */
        public RagKitContentRetriever build() {
            if (retriever == null || scope == null) {
                throw new IllegalStateException("a RagKitContentRetriever needs retriever(..) and scope(..)");
            }
            return new RagKitContentRetriever(this);
        }
    }
}
