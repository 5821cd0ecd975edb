package dev.ragkit.benchmarks;

import dev.langchain4j.data.embedding.Embedding;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.langchain4j.model.output.Response;
import dev.langchain4j.rag.content.retriever.EmbeddingStoreContentRetriever;
import dev.langchain4j.rag.query.Query;
import dev.langchain4j.store.embedding.inmemory.InMemoryEmbeddingStore;
import dev.ragkit.embedding.Embedder;
import dev.ragkit.embedding.SimilarityScale;
import dev.ragkit.retrieval.RetrievalOptions;
import dev.ragkit.retrieval.Retriever;
import dev.ragkit.store.PromotionLevel;
import dev.ragkit.store.Scope;
import dev.ragkit.store.StoredChunk;
import dev.ragkit.store.StoredDocument;
import dev.ragkit.store.inmemory.InMemoryDocumentStore;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The whole retrieval pipeline on 50,000 chunks of 384 dimensions (5,000 documents of 10 chunks, seeded
 * random unit vectors and seeded word texts, 10 % of the documents important and 0.1 % critical, each document
 * linking to three others), query embedding excluded (the embedder returns a precomputed vector):
 * <ul>
 *   <li>{@link Impl#RAGKIT}: {@code Retriever} with {@link RetrievalOptions#chunkQa()} (hybrid on, relative-score
 *       fusion, threshold 0.3 — lowered to 0 here so that every stage has work — boosts, dedup, per-document cap,
 *       top 5);</li>
 *   <li>{@link Impl#RAGKIT_KNOWLEDGE_BASE}: {@link RetrievalOptions#knowledgeBase()} with threshold 0: document
 *       roll-up, critical injection and link following at depth 2 on top;</li>
 *   <li>{@link Impl#LANGCHAIN4J}: LangChain4j's {@code EmbeddingStoreContentRetriever} over its
 *       {@code InMemoryEmbeddingStore} with the same vectors, top 5, vector only — less work (no keyword search,
 *       boosts, dedup or links), shown as the reference point.</li>
 * </ul>
 * Mode {@code SampleTime} reports percentiles; the target is RagKit's p50 under 10 ms.
 *
 * <pre>{@code
 * mvn -B -q -pl benchmarks -am package -DskipTests
 * java -jar benchmarks/target/benchmarks.jar RetrievalBenchmark -jvmArgsAppend "--add-modules jdk.incubator.vector"
 * }</pre>
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 4, time = 2)
@Measurement(iterations = 6, time = 2)
@Fork(value = 1, jvmArgs = {"-Xms4g", "-Xmx4g"})
@org.openjdk.jmh.annotations.State(org.openjdk.jmh.annotations.Scope.Thread)
public class RetrievalBenchmark {

    /** The implementations compared. */
    public enum Impl {
        /** RagKit, chunk question-answering profile. */
        RAGKIT,
        /** RagKit, knowledge-base profile (documents, critical, links). */
        RAGKIT_KNOWLEDGE_BASE,
        /** LangChain4j's vector-only content retriever. */
        LANGCHAIN4J
    }

    static final int DOCUMENTS = 5_000;
    static final int CHUNKS_PER_DOCUMENT = 10;
    static final int DIMENSION = 384;
    static final int QUERIES = 64;

    /** Which implementation retrieves. */
    @Param
    public @Nullable Impl impl;

    private final Scope scope = Scope.of("bench");
    private List<String> queries = List.of();
    private @Nullable Retriever retriever;
    private @Nullable EmbeddingStoreContentRetriever peer;
    private int cursor;

    /** Fills the store and builds the retriever. */
    @Setup
    public void setUp() {
        Random random = new Random(7);
        float[] corpus = VectorFixtures.corpus(DOCUMENTS * CHUNKS_PER_DOCUMENT, DIMENSION);
        float[][] queryVectors = VectorFixtures.queries(QUERIES, DIMENSION);
        String[] vocabulary = new String[2_000];
        for (int i = 0; i < vocabulary.length; i++) {
            vocabulary[i] = "w" + Integer.toString(i * 7919 % 100_000, 36);
        }
        Map<String, float[]> vectorsByQuery = new HashMap<>();
        List<String> texts = new ArrayList<>();
        for (int q = 0; q < QUERIES; q++) {
            String text = vocabulary[random.nextInt(200)] + " " + vocabulary[random.nextInt(2_000)] + " question " + q;
            texts.add(text);
            vectorsByQuery.put(text, queryVectors[q]);
        }
        queries = List.copyOf(texts);
        Impl which = Objects.requireNonNull(impl, "impl");
        if (which == Impl.LANGCHAIN4J) {
            InMemoryEmbeddingStore<TextSegment> store = new InMemoryEmbeddingStore<>();
            List<Embedding> embeddings = new ArrayList<>();
            List<TextSegment> segments = new ArrayList<>();
            for (int row = 0; row < DOCUMENTS * CHUNKS_PER_DOCUMENT; row++) {
                float[] v = new float[DIMENSION];
                System.arraycopy(corpus, row * DIMENSION, v, 0, DIMENSION);
                embeddings.add(Embedding.from(v));
                segments.add(TextSegment.from(chunkText(random, vocabulary)));
            }
            store.addAll(embeddings, segments);
            peer = EmbeddingStoreContentRetriever.builder().embeddingStore(store)
                    .embeddingModel(new PrecomputedModel(vectorsByQuery)).maxResults(5).minScore(0.0).build();
            return;
        }
        InMemoryDocumentStore store = InMemoryDocumentStore.builder().dimension(DIMENSION).build();
        for (int d = 0; d < DOCUMENTS; d++) {
            PromotionLevel level = d % 1000 == 0 ? PromotionLevel.CRITICAL
                    : d % 10 == 0 ? PromotionLevel.IMPORTANT : PromotionLevel.STANDARD;
            StoredDocument document = StoredDocument.builder().tenant("bench").path("doc-" + d + ".md")
                    .promotionLevel(level).links(List.of("doc-" + (d * 31 + 1) % DOCUMENTS + ".md",
                            "doc-" + (d * 17 + 3) % DOCUMENTS + ".md", "doc-" + (d + 1) % DOCUMENTS + ".md"))
                    .build();
            List<StoredChunk> chunks = new ArrayList<>();
            for (int i = 0; i < CHUNKS_PER_DOCUMENT; i++) {
                int row = d * CHUNKS_PER_DOCUMENT + i;
                float[] v = new float[DIMENSION];
                System.arraycopy(corpus, row * DIMENSION, v, 0, DIMENSION);
                chunks.add(new StoredChunk(document.id(), i, chunkText(random, vocabulary), v, 120, i * 10 + 1,
                        i * 10 + 10, "Section " + i, null));
            }
            store.upsert(document, chunks);
        }
        RetrievalOptions options = which == Impl.RAGKIT
                ? RetrievalOptions.chunkQa().toBuilder().minRelevance(0).build()
                : RetrievalOptions.knowledgeBase().toBuilder().minRelevance(0).build();
        retriever = Retriever.builder().store(store).embedder(new PrecomputedEmbedder(vectorsByQuery))
                .queryCacheSize(0).options(options).build();
    }

    /**
     * One retrieval for the next query of the pool.
     *
     * @return the result, so it is not optimised away
     */
    @Benchmark
    public Object retrieve() {
        String query = queries.get(cursor++ & (QUERIES - 1));
        Retriever r = retriever;
        return r != null ? r.retrieve(query, scope) : Objects.requireNonNull(peer).retrieve(Query.from(query));
    }

    static String chunkText(Random random, String[] vocabulary) {
        StringBuilder text = new StringBuilder();
        for (int w = 0; w < 90; w++) {
            // skewed: frequent words are common, the tail is rare
            int index = (int) Math.min(vocabulary.length - 1, Math.abs(random.nextGaussian()) * 300);
            text.append(vocabulary[index]).append(' ');
        }
        return text.toString();
    }

    /** Returns the precomputed vector of each known query: embedding cost excluded. */
    static final class PrecomputedEmbedder implements Embedder {
        private final Map<String, float[]> vectors;

        PrecomputedEmbedder(Map<String, float[]> vectors) {
            this.vectors = vectors;
        }

        @Override
        public float[][] embed(List<String> texts) {
            float[][] out = new float[texts.size()][];
            for (int i = 0; i < out.length; i++) {
                out[i] = Objects.requireNonNull(vectors.get(texts.get(i)), "unknown query");
            }
            return out;
        }

        @Override
        public int dimension() {
            return DIMENSION;
        }

        @Override
        public String name() {
            return "precomputed";
        }

        /** Independent random unit vectors: their cosines centre on 0 with a spread of 1/√d. */
        @Override
        public SimilarityScale similarityScale() {
            return new SimilarityScale(0, 1 / Math.sqrt(DIMENSION));
        }
    }

    /** The same for LangChain4j. */
    static final class PrecomputedModel implements EmbeddingModel {
        private final Map<String, float[]> vectors;

        PrecomputedModel(Map<String, float[]> vectors) {
            this.vectors = vectors;
        }

        @Override
        public Response<List<Embedding>> embedAll(List<TextSegment> segments) {
            List<Embedding> out = new ArrayList<>();
            for (TextSegment s : segments) {
                out.add(Embedding.from(Objects.requireNonNull(vectors.get(s.text()), "unknown query")));
            }
            return Response.from(out);
        }

        @Override
        public int dimension() {
            return DIMENSION;
        }
    }
}
