package dev.ragkit.retrieval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.ragkit.retrieval.RetrievalOptions.Fusion;
import dev.ragkit.store.SearchHit;
import dev.ragkit.store.StoredChunk;
import dev.ragkit.store.StoredDocument;
import java.util.List;
import org.junit.jupiter.api.Test;

final class ScoreFusionTest {

    private static SearchHit hit(String path, double similarity, double keyword) {
        StoredDocument d = StoredDocument.builder().tenant("t").path(path).build();
        return new SearchHit(new StoredChunk(d.id(), 0, path, null, 1, 1, 1, null, null), d, similarity, keyword);
    }

    @Test
    void fuse_vectorOnly_keepsTheCosineSoThresholdsMeanTheSame() {
        List<SearchHit> hits = List.of(hit("a", 0.8, Double.NaN), hit("b", 0.35, Double.NaN));
        assertThat(ScoreFusion.fuse(hits, Fusion.RELATIVE_SCORE, 0.5)).containsExactly(0.8, 0.35);
    }

    @Test
    void fuse_keywordOnly_dividesByTheBestScore() {
        List<SearchHit> hits = List.of(hit("a", Double.NaN, 6), hit("b", Double.NaN, 3));
        assertThat(ScoreFusion.fuse(hits, Fusion.RELATIVE_SCORE, 0.5)).containsExactly(1.0, 0.5);
    }

    @Test
    void fuse_relativeScore_minMaxNormalisesEachColumnThenWeights() {
        // similarity 0.9/0.5/0.7 -> 1/0/0.5 ; keyword 0/10/5 -> 0/1/0.5
        List<SearchHit> hits = List.of(hit("a", 0.9, 0), hit("b", 0.5, 10), hit("c", 0.7, 5));
        assertThat(ScoreFusion.fuse(hits, Fusion.RELATIVE_SCORE, 0.5)).containsExactly(new double[] {0.5, 0.5, 0.5},
                within(1e-12));
        double[] vectorHeavy = ScoreFusion.fuse(hits, Fusion.RELATIVE_SCORE, 0.8);
        assertThat(vectorHeavy[0]).isCloseTo(0.8, within(1e-12));
        assertThat(vectorHeavy[1]).isCloseTo(0.2, within(1e-12));
        assertThat(vectorHeavy[2]).isCloseTo(0.5, within(1e-12));
    }

    @Test
    void fuse_relativeScore_constantColumnCountsAsOneWhenPositive() {
        List<SearchHit> hits = List.of(hit("a", 0.6, 2), hit("b", 0.6, 2));
        assertThat(ScoreFusion.fuse(hits, Fusion.RELATIVE_SCORE, 0.5)).containsExactly(1.0, 1.0);
        List<SearchHit> noKeyword = List.of(hit("a", 0.6, 0), hit("b", 0.4, 0));
        assertThat(ScoreFusion.fuse(noKeyword, Fusion.RELATIVE_SCORE, 0.5)).containsExactly(0.5, 0.0);
    }

    @Test
    void fuse_reciprocalRank_firstInBothListsScoresOneAndNoKeywordMatchTakesNoKeywordTerm() {
        // vector ranks: a=1, b=2, c=3 ; keyword ranks: b=1, a=2, c has no match
        List<SearchHit> hits = List.of(hit("a", 0.9, 3), hit("b", 0.8, 7), hit("c", 0.7, 0));
        double[] fused = ScoreFusion.fuse(hits, Fusion.RECIPROCAL_RANK, 0.5);
        assertThat(fused[0]).isCloseTo(61 * (0.5 / 61 + 0.5 / 62), within(1e-12));
        assertThat(fused[1]).isCloseTo(61 * (0.5 / 62 + 0.5 / 61), within(1e-12));
        assertThat(fused[2]).isCloseTo(61 * (0.5 / 63), within(1e-12));
        assertThat(ScoreFusion.fuse(List.of(hit("x", 0.9, 4)), Fusion.RECIPROCAL_RANK, 0.5)).containsExactly(1.0);
    }

    @Test
    void fuse_anyInput_staysWithinZeroAndOne() {
        java.util.Random random = new java.util.Random(5);
        for (int n = 0; n < 500; n++) {
            List<SearchHit> hits = new java.util.ArrayList<>();
            for (int i = 0; i < 1 + random.nextInt(20); i++) {
                hits.add(hit("p" + i, random.nextDouble(), random.nextInt(4) == 0 ? 0 : random.nextDouble() * 20));
            }
            for (Fusion f : Fusion.values()) {
                assertThat(java.util.Arrays.stream(ScoreFusion.fuse(hits, f, random.nextDouble())).boxed())
                        .allMatch(v -> v >= 0 && v <= 1);
            }
        }
    }
}
