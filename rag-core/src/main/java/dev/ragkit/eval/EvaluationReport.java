package dev.ragkit.eval;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * The result of {@link RetrievalEvaluator#evaluate}: mean metrics over the judged queries, counts, latency and
 * the per-query values.
 *
 * @param queriesEvaluated how many judged queries were ranked
 * @param queriesSkipped   how many queries had no judgement in the split (not ranked)
 * @param ndcgAt10         mean nDCG@10 (linear gain, as trec_eval {@code ndcg_cut.10})
 * @param recallAt100      mean Recall@100
 * @param mrrAt10          mean reciprocal rank within the top 10
 * @param latencyP50       median time of one {@link Ranker#rank} call (nearest rank)
 * @param latencyP95       95th percentile of that time (nearest rank)
 * @param perQuery         the values of each query, in dataset order (immutable)
 */
public record EvaluationReport(
        int queriesEvaluated,
        int queriesSkipped,
        double ndcgAt10,
        double recallAt100,
        double mrrAt10,
        Duration latencyP50,
        Duration latencyP95,
        List<QueryResult> perQuery) {

    /**
     * One query's metrics.
     *
     * @param queryId     the query id
     * @param ndcgAt10    nDCG@10
     * @param recallAt100 Recall@100
     * @param mrrAt10     reciprocal rank within the top 10
     * @param latency     the time of its {@link Ranker#rank} call
     */
    public record QueryResult(String queryId, double ndcgAt10, double recallAt100, double mrrAt10, Duration latency) {
        /** Validates the arguments. */
        public QueryResult {
            Objects.requireNonNull(queryId, "queryId");
            Objects.requireNonNull(latency, "latency");
        }
    }

    /** Validates and copies the arguments. */
    public EvaluationReport {
        Objects.requireNonNull(latencyP50, "latencyP50");
        Objects.requireNonNull(latencyP95, "latencyP95");
        perQuery = List.copyOf(perQuery);
    }

    /** @return one line with the means, counts and latency; per-query values are left out */
    @Override
    public String toString() {
        return String.format(Locale.ROOT,
                "nDCG@10=%.4f Recall@100=%.4f MRR@10=%.4f queries=%d (skipped %d) latency p50=%.2f ms p95=%.2f ms",
                ndcgAt10, recallAt100, mrrAt10, queriesEvaluated, queriesSkipped,
                latencyP50.toNanos() / 1e6, latencyP95.toNanos() / 1e6);
    }
}
