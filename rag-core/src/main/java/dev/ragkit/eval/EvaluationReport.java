package dev.ragkit.eval;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * The result of {@link RetrievalEvaluator#evaluate}: mean metrics over the judged queries, counts, latency and
 * the per-query values.
 *
 * @param cutoff           the cutoff k of nDCG@k and MRR@k (10 by default)
 * @param queriesEvaluated how many judged queries were ranked
 * @param queriesSkipped   how many queries had no judgement in the split (not ranked)
 * @param ndcg             mean nDCG@k (linear gain, as trec_eval {@code ndcg_cut.k})
 * @param recallAt100      mean Recall@100
 * @param mrr              mean reciprocal rank within the top k
 * @param latencyP50       median time of one {@link Ranker#rank} call (nearest rank)
 * @param latencyP95       95th percentile of that time (nearest rank)
 * @param perQuery         the values of each query, in dataset order (immutable)
 */
public record EvaluationReport(
        int cutoff,
        int queriesEvaluated,
        int queriesSkipped,
        double ndcg,
        double recallAt100,
        double mrr,
        Duration latencyP50,
        Duration latencyP95,
        List<QueryResult> perQuery) {

    /**
     * One query's metrics.
     *
     * @param queryId     the query id
     * @param ndcg        nDCG@k
     * @param recallAt100 Recall@100
     * @param mrr         reciprocal rank within the top k
     * @param latency     the time of its {@link Ranker#rank} call
     */
    public record QueryResult(String queryId, double ndcg, double recallAt100, double mrr, Duration latency) {
        /** Validates the arguments. */
        public QueryResult {
            Objects.requireNonNull(queryId, "queryId");
            Objects.requireNonNull(latency, "latency");
        }
    }

    /** Validates and copies the arguments. */
    public EvaluationReport {
        if (cutoff < 1) {
            throw new IllegalArgumentException("cutoff must be at least 1, got " + cutoff);
        }
        Objects.requireNonNull(latencyP50, "latencyP50");
        Objects.requireNonNull(latencyP95, "latencyP95");
        perQuery = List.copyOf(perQuery);
    }

    /** @return one line with the means, counts and latency; per-query values are left out */
    @Override
    public String toString() {
        return String.format(Locale.ROOT,
                "nDCG@%d=%.4f Recall@100=%.4f MRR@%d=%.4f queries=%d (skipped %d) latency p50=%.2f ms p95=%.2f ms",
                cutoff, ndcg, recallAt100, cutoff, mrr, queriesEvaluated, queriesSkipped,
                latencyP50.toNanos() / 1e6, latencyP95.toNanos() / 1e6);
    }
}
