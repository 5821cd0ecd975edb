package dev.ragkit.eval;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Ranking metrics over one query's ranked corpus ids and its graded judgements.
 *
 * <p>Notation: {@code rel(d)} is the judged grade of document {@code d} (0 when unjudged); a document is
 * <em>relevant</em> when {@code rel(d) > 0}; {@code d_i} is the document at rank {@code i} (1-based). Only the
 * first occurrence of an id in a ranking counts; later repeats are ignored.
 *
 * <ul>
 *   <li><b>nDCG@k</b> = DCG@k / IDCG@k, with DCG@k = Σ_{i=1..k} g(d_i) / log2(i + 1) and IDCG@k the same
 *       sum over the judged grades sorted descending. The gain is <b>linear</b>: g(d) = rel(d) when
 *       rel(d) &gt; 0, else 0 — not 2^rel − 1. This is what trec_eval's {@code ndcg_cut} computes ("gain
 *       values are the relevance values in the qrels file", discount log2(rank + 1) since trec_eval 9), and
 *       BEIR's {@code EvaluateRetrieval.evaluate} reports pytrec_eval's {@code ndcg_cut.k}, which is that
 *       trec_eval code; so figures are comparable with BEIR/TREC figures on the same qrels. 0 when the query
 *       has no relevant document.</li>
 *   <li><b>Recall@k</b> = |{relevant documents in the top k}| / |{relevant documents}|; 0 when the query has
 *       no relevant document.</li>
 *   <li><b>MRR@k</b> (reciprocal rank) = 1 / i for the smallest i ≤ k with d_i relevant; 0 when none.</li>
 * </ul>
 * The mean of a metric is the arithmetic mean over queries ({@link #mean(Collection)}).
 */
public final class RetrievalMetrics {

    private RetrievalMetrics() {
    }

    /**
     * nDCG@k with linear gain (trec_eval {@code ndcg_cut.k}).
     *
     * @param ranked     corpus ids, best first
     * @param judgements corpus id to grade
     * @param k          the cutoff, at least 1
     * @return the value in [0, 1]
     */
    public static double ndcgAtK(List<String> ranked, Map<String, Integer> judgements, int k) {
        requireArgs(ranked, judgements, k);
        double dcg = 0;
        int rank = 0;
        for (String id : firstK(ranked, k)) {
            rank++;
            dcg += gain(judgements.get(id)) / log2(rank + 1);
        }
        List<Integer> grades = new ArrayList<>();
        for (Integer grade : judgements.values()) {
            if (grade != null && grade > 0) {
                grades.add(grade);
            }
        }
        grades.sort((a, b) -> Integer.compare(b, a));
        double ideal = 0;
        for (int i = 0; i < Math.min(k, grades.size()); i++) {
            ideal += grades.get(i) / log2(i + 2);
        }
        return ideal > 0 ? dcg / ideal : 0;
    }

    /**
     * Recall@k: the share of the relevant documents found in the top k.
     *
     * @param ranked     corpus ids, best first
     * @param judgements corpus id to grade
     * @param k          the cutoff, at least 1
     * @return the value in [0, 1]
     */
    public static double recallAtK(List<String> ranked, Map<String, Integer> judgements, int k) {
        requireArgs(ranked, judgements, k);
        long relevant = judgements.values().stream().filter(g -> g != null && g > 0).count();
        if (relevant == 0) {
            return 0;
        }
        int found = 0;
        for (String id : firstK(ranked, k)) {
            if (gain(judgements.get(id)) > 0) {
                found++;
            }
        }
        return (double) found / relevant;
    }

    /**
     * MRR@k for one query: the reciprocal rank of the first relevant document within the top k.
     *
     * @param ranked     corpus ids, best first
     * @param judgements corpus id to grade
     * @param k          the cutoff, at least 1
     * @return 1/rank, or 0 when no relevant document is in the top k
     */
    public static double reciprocalRankAtK(List<String> ranked, Map<String, Integer> judgements, int k) {
        requireArgs(ranked, judgements, k);
        int rank = 0;
        for (String id : firstK(ranked, k)) {
            rank++;
            if (gain(judgements.get(id)) > 0) {
                return 1.0 / rank;
            }
        }
        return 0;
    }

    /**
     * The arithmetic mean.
     *
     * @param values per-query values
     * @return their mean, or 0 for none
     */
    public static double mean(Collection<Double> values) {
        Objects.requireNonNull(values, "values");
        if (values.isEmpty()) {
            return 0;
        }
        double sum = 0;
        for (double v : values) {
            sum += v;
        }
        return sum / values.size();
    }

    private static double gain(Integer grade) {
        return grade != null && grade > 0 ? grade : 0;
    }

    private static double log2(double x) {
        return Math.log(x) / Math.log(2);
    }

    /** The first k distinct ids of the ranking. */
    private static List<String> firstK(List<String> ranked, int k) {
        List<String> out = new ArrayList<>(Math.min(k, ranked.size()));
        Set<String> seen = new HashSet<>();
        for (String id : ranked) {
            if (out.size() == k) {
                break;
            }
            if (seen.add(Objects.requireNonNull(id, "ranked id"))) {
                out.add(id);
            }
        }
        return out;
    }

    private static void requireArgs(List<String> ranked, Map<String, Integer> judgements, int k) {
        Objects.requireNonNull(ranked, "ranked");
        Objects.requireNonNull(judgements, "judgements");
        if (k < 1) {
            throw new IllegalArgumentException("k must be at least 1, got " + k);
        }
    }
}
