package dev.ragkit.eval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Hand-computed values. Judgements of the tiny dataset: q1: d1=2, d2=1, d3=0; q2: d3=1.
 * log2(2) = 1, log2(3) = 1.5849625, log2(4) = 2.
 */
final class RetrievalMetricsTest {

    private static final Map<String, Integer> Q1 = Map.of("d1", 2, "d2", 1, "d3", 0);
    private static final Map<String, Integer> Q2 = Map.of("d3", 1);

    @Test
    void ndcgAtK_gradedRanking_matchesHandComputedLinearGain() {
        // ranking d2, d3, d1: DCG = 1/log2(2) + 0/log2(3) + 2/log2(4) = 1 + 0 + 1 = 2
        // ideal d1, d2:       IDCG = 2/log2(2) + 1/log2(3) = 2 + 0.6309298 = 2.6309298
        // nDCG@10 = 2 / 2.6309298 = 0.7601875
        assertThat(RetrievalMetrics.ndcgAtK(List.of("d2", "d3", "d1"), Q1, 10)).isCloseTo(0.7601875, within(1e-6));
    }

    @Test
    void ndcgAtK_cutoffBelowRelevantRank_countsOnlyTopK() {
        // k = 2: DCG = 1 (d2 at rank 1), IDCG@2 = 2.6309298 -> 0.3800938
        assertThat(RetrievalMetrics.ndcgAtK(List.of("d2", "d3", "d1"), Q1, 2)).isCloseTo(0.3800938, within(1e-6));
    }

    @Test
    void ndcgAtK_idealRanking_isOne() {
        assertThat(RetrievalMetrics.ndcgAtK(List.of("d1", "d2", "d3"), Q1, 10)).isCloseTo(1.0, within(1e-12));
    }

    @Test
    void ndcgAtK_noRelevantJudged_isZero() {
        assertThat(RetrievalMetrics.ndcgAtK(List.of("d3"), Map.of("d3", 0), 10)).isZero();
    }

    @Test
    void ndcgAtK_duplicateIds_countOnce() {
        // d1 twice: the repeat is ignored, so d2 is at rank 2: DCG = 2 + 1/log2(3) = IDCG -> 1
        assertThat(RetrievalMetrics.ndcgAtK(List.of("d1", "d1", "d2"), Q1, 10)).isCloseTo(1.0, within(1e-12));
    }

    @Test
    void recallAtK_halfOfRelevantInTopK_isHalf() {
        // relevant (grade > 0): d1, d2; top 1 = d2 -> 1/2; grade-0 d3 never counts
        assertThat(RetrievalMetrics.recallAtK(List.of("d2", "d3", "d1"), Q1, 1)).isEqualTo(0.5);
        assertThat(RetrievalMetrics.recallAtK(List.of("d2", "d3", "d1"), Q1, 100)).isEqualTo(1.0);
        assertThat(RetrievalMetrics.recallAtK(List.of("d3"), Q1, 100)).isZero();
    }

    @Test
    void reciprocalRankAtK_firstRelevantAtRankThree_isOneThird() {
        assertThat(RetrievalMetrics.reciprocalRankAtK(List.of("d1", "d2", "d3"), Q2, 10)).isCloseTo(1.0 / 3, within(1e-12));
        // judged-not-relevant d3 at rank 2 is skipped for q1; d1 at rank 3
        assertThat(RetrievalMetrics.reciprocalRankAtK(List.of("x", "d3", "d1"), Q1, 10)).isCloseTo(1.0 / 3, within(1e-12));
    }

    @Test
    void reciprocalRankAtK_relevantBeyondCutoff_isZero() {
        assertThat(RetrievalMetrics.reciprocalRankAtK(List.of("d1", "d2", "d3"), Q2, 2)).isZero();
    }

    @Test
    void mean_ofValues_isArithmeticMeanAndZeroWhenEmpty() {
        assertThat(RetrievalMetrics.mean(List.of(0.5, 1.0, 0.0))).isEqualTo(0.5);
        assertThat(RetrievalMetrics.mean(List.of())).isZero();
    }
}
