package dev.ragkit.eval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ragkit.embedding.Embedder;
import dev.ragkit.store.Scope;
import dev.ragkit.store.StoredChunk;
import dev.ragkit.store.StoredDocument;
import dev.ragkit.store.inmemory.InMemoryDocumentStore;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

final class RankerTest {

    private static final String TENANT = "t";
    private static final Scope SCOPE = Scope.of(TENANT);

    private final InMemoryDocumentStore store = InMemoryDocumentStore.builder().build();

    /** Every text maps to the same fixed query vector (1, 0). */
    private final Embedder queryEmbedder = new Embedder() {
        @Override
        public float[][] embed(List<String> texts) {
            return texts.stream().map(t -> new float[] {1f, 0f}).toArray(float[][]::new);
        }

        @Override
        public int dimension() {
            return 2;
        }

        @Override
        public String name() {
            return "fixed";
        }
    };

    @AfterEach
    void close() {
        store.close();
    }

    private void put(String path, List<String> texts, List<float[]> vectors) {
        StoredDocument doc = StoredDocument.builder().tenant(TENANT).path(path).title(path).build();
        List<StoredChunk> chunks = new java.util.ArrayList<>();
        for (int i = 0; i < texts.size(); i++) {
            chunks.add(new StoredChunk(doc.id(), i, texts.get(i), vectors.get(i), 1, i + 1, i + 1, null, null));
        }
        store.upsert(doc, chunks);
    }

    @Test
    void vector_documentWithSeveralChunks_rankedOnceByBestChunk() {
        put("a", List.of("x", "y"), List.of(new float[] {0.6f, 0.8f}, new float[] {1f, 0.1f}));
        put("b", List.of("z"), List.of(new float[] {0.8f, 0.6f}));

        assertThat(Ranker.vector(store, queryEmbedder, SCOPE).rank("anything", 10)).containsExactly("a", "b");
        assertThat(Ranker.vector(store, queryEmbedder, SCOPE).rank("anything", 1)).containsExactly("a");
    }

    @Test
    void hybrid_relativeScoreFusion_balancesVectorAndKeyword() {
        // a: cosine 1.0, no keyword match; b: cosine 0.6, strong keyword match; c: cosine 0.8, weak keyword match.
        // similarity min-max over {1.0, 0.6, 0.8}: a=1, b=0, c=0.5; BM25 min-max: a=0, b=1, c=x in (0, 1).
        // fused: a=0.5, b=0.5, c=0.25+0.5x; tie a/b broken by id.
        put("a", List.of("nothing relevant here"), List.of(new float[] {1f, 0f}));
        put("b", List.of("turbine turbine turbine blade"), List.of(new float[] {0.6f, 0.8f}));
        put("c", List.of("turbine with many other words in a long text about something else"),
                List.of(new float[] {0.8f, 0.6f}));

        List<String> ranked = Ranker.hybrid(store, queryEmbedder, SCOPE).rank("turbine blade", 10);

        assertThat(ranked).containsExactlyInAnyOrder("a", "b", "c");
        assertThat(ranked.subList(0, 2)).containsExactly("a", "b");
    }

    @Test
    void hybrid_withAReranker_ordersByTheRerankedScore() {
        put("a", List.of("nothing relevant here"), List.of(new float[] {1f, 0f}));
        put("b", List.of("turbine turbine turbine blade"), List.of(new float[] {0.6f, 0.8f}));
        put("c", List.of("turbine with many other words in a long text about something else"),
                List.of(new float[] {0.8f, 0.6f}));
        dev.ragkit.retrieval.Reranker preferC = (query, candidates) -> candidates.stream()
                .mapToDouble(chunk -> chunk.document().path().equals("c") ? 0.9 : 0.1).toArray();

        assertThat(Ranker.hybrid(store, queryEmbedder, SCOPE, preferC).rank("turbine blade", 10))
                .startsWith("c").containsExactlyInAnyOrder("a", "b", "c");
        assertThat(Ranker.hybrid(store, queryEmbedder, SCOPE, dev.ragkit.retrieval.Reranker.none())
                .rank("turbine blade", 10)).isEqualTo(Ranker.hybrid(store, queryEmbedder, SCOPE)
                .rank("turbine blade", 10));
    }

    @Test
    void keyword_noTermMatches_returnsNothing() {
        put("a", List.of("alpha beta"), List.of(new float[] {1f, 0f}));

        assertThat(Ranker.keyword(store, SCOPE).rank("gamma", 10)).isEmpty();
        assertThat(Ranker.keyword(store, SCOPE).rank("beta", 10)).containsExactly("a");
    }

    @Test
    void keyword_kBelowOne_throws() {
        assertThatThrownBy(() -> Ranker.keyword(store, SCOPE).rank("x", 0))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
