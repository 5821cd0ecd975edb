package dev.ragkit.embedding;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import dev.ragkit.testing.HashedBagOfWordsEmbedder;
import java.util.List;
import org.junit.jupiter.api.Test;

final class SimilarityScaleTest {

    @Test
    void of_embedderStatingItsScale_usesIt_elseMeasuresOneOnUnrelatedText() {
        SimilarityScale stated = new SimilarityScale(0.4, 0.05);
        Embedder knows = new HashedBagOfWordsEmbedder("knows", 64) {
            @Override
            public SimilarityScale similarityScale() {
                return stated;
            }
        };
        Embedder unknown = new HashedBagOfWordsEmbedder("unknown", 64);

        assertThat(SimilarityScale.of(knows)).isSameAs(stated);
        SimilarityScale measured = SimilarityScale.of(unknown);
        assertThat(measured.centre()).isBetween(-1.0, 1.0);
        assertThat(measured.spread()).isPositive();
        assertThat(measured.standardise(measured.centre() + 2 * measured.spread())).isEqualTo(2.0,
                org.assertj.core.data.Offset.offset(1e-9));
        // measured once per embedder object: retrieval and the quoted answer's check share it
        assertThat(SimilarityScale.of(unknown)).isSameAs(measured);
        assertThat(SimilarityScale.of(new HashedBagOfWordsEmbedder("unknown", 64))).isNotSameAs(measured)
                .isEqualTo(measured);
    }

    @Test
    void estimate_vectorsThatDoNotVary_giveAScaleOnWhichEverySimilarityIsNearTheCentre() {
        Embedder constant = embedding("constant", 8, text -> {
            float[] v = new float[8];
            v[0] = 1;
            return v;
        });

        SimilarityScale scale = SimilarityScale.estimate(constant);

        assertThat(scale.spread()).isEqualTo(1.0);
        assertThat(Math.abs(scale.standardise(1.0))).isLessThan(0.01);
    }

    @Test
    void estimate_embedderFindingAnswersNoNearerThanUnrelatedText_keepsTheUnrelatedTextsSpread() {
        // vectors seeded by each text's hash: answers are as far from their questions as anything else
        Embedder random = embedding("random", 32, text -> {
            java.util.Random r = new java.util.Random(text.hashCode());
            float[] v = new float[32];
            for (int j = 0; j < v.length; j++) {
                v[j] = (float) r.nextGaussian();
            }
            return v;
        });

        SimilarityScale scale = SimilarityScale.estimate(random);

        // 32 random dimensions: cosines scatter about 1/sqrt(32) around 0
        assertThat(scale.centre()).isBetween(-0.05, 0.05);
        assertThat(scale.spread()).isBetween(0.14, 0.22);
    }

    /** An embedder whose vector of each text is {@code vector}'s. */
    private static Embedder embedding(String name, int dimension, java.util.function.Function<String, float[]> vector) {
        return new HashedBagOfWordsEmbedder(name, dimension) {
            @Override
            public float[][] embed(List<String> texts) {
                return texts.stream().map(vector).toArray(float[][]::new);
            }
        };
    }

    @Test
    void constructor_outOfRange_isRejectedNamingTheValue() {
        assertThatIllegalArgumentException().isThrownBy(() -> new SimilarityScale(1.5, 0.1))
                .withMessageContaining("1.5");
        assertThatIllegalArgumentException().isThrownBy(() -> new SimilarityScale(0.1, 0))
                .withMessageContaining("spread");
        assertThatIllegalArgumentException().isThrownBy(() -> new SimilarityScale(Double.NaN, 0.1));
    }
}
