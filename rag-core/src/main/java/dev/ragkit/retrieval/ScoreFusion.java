package dev.ragkit.retrieval;

import dev.ragkit.store.SearchHit;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;

/**
 * Turns the scores of a store's hits into one relevance per hit in [0, 1].
 *
 * <ul>
 *   <li>Vector-only hits (every keyword score NaN): the relevance is the cosine similarity itself, so thresholds
 *       keep their meaning.</li>
 *   <li>Keyword-only hits (every similarity NaN): the BM25 score divided by the best BM25 score.</li>
 *   <li>Hybrid hits, {@link RetrievalOptions.Fusion#RELATIVE_SCORE}: each score min-max normalised over the hits
 *       (a constant column counts as 1 when positive, else 0), then
 *       {@code w · similarity' + (1 − w) · keyword'}.</li>
 *   <li>Hybrid hits, {@link RetrievalOptions.Fusion#RECIPROCAL_RANK}: {@code w / (60 + rankByVector) +
 *       (1 − w) / (60 + rankByKeyword)} with 1-based ranks (hits without any keyword match take no keyword
 *       term), divided by {@code 1 / 61} so that first in both lists scores 1.</li>
 * </ul>
 * Ranks break ties by source id, so the result is deterministic. Stateless and thread-safe.
 */
public final class ScoreFusion {
    /** The usual reciprocal-rank constant. */
    public static final int RRF_K = 60;

    private ScoreFusion() {
    }

    /**
     * @param hits         the store's hits
     * @param method       the fusion for hybrid hits
     * @param vectorWeight the similarity's weight in [0, 1]
     * @return one relevance in [0, 1] per hit, in the same order
     */
    public static double[] fuse(List<SearchHit> hits, RetrievalOptions.Fusion method, double vectorWeight) {
        Objects.requireNonNull(hits, "hits");
        Objects.requireNonNull(method, "method");
        if (!(vectorWeight >= 0 && vectorWeight <= 1)) {
            throw new IllegalArgumentException("vectorWeight must be in [0, 1], got " + vectorWeight);
        }
        int n = hits.size();
        double[] fused = new double[n];
        boolean anyKeyword = hits.stream().anyMatch(h -> !Double.isNaN(h.keywordScore()));
        boolean anyVector = hits.stream().anyMatch(h -> !Double.isNaN(h.similarity()));
        if (!anyKeyword) {
            for (int i = 0; i < n; i++) {
                fused[i] = hits.get(i).similarity();
            }
            return fused;
        }
        double[] keyword = hits.stream().mapToDouble(h -> Double.isNaN(h.keywordScore()) ? 0 : h.keywordScore())
                .toArray();
        if (!anyVector) {
            double max = Arrays.stream(keyword).max().orElse(0);
            for (int i = 0; i < n; i++) {
                fused[i] = max > 0 ? keyword[i] / max : 0;
            }
            return fused;
        }
        double[] vector = hits.stream().mapToDouble(SearchHit::similarity).toArray();
        if (method == RetrievalOptions.Fusion.RELATIVE_SCORE) {
            double[] v = minMax(vector);
            double[] k = minMax(keyword);
            for (int i = 0; i < n; i++) {
                fused[i] = clamp(vectorWeight * v[i] + (1 - vectorWeight) * k[i]);
            }
            return fused;
        }
        int[] vectorRank = ranks(hits, vector);
        int[] keywordRank = ranks(hits, keyword);
        for (int i = 0; i < n; i++) {
            double score = vectorWeight / (RRF_K + vectorRank[i]);
            if (keyword[i] > 0) {
                score += (1 - vectorWeight) / (RRF_K + keywordRank[i]);
            }
            fused[i] = clamp(score * (RRF_K + 1));
        }
        return fused;
    }

    private static double[] minMax(double[] scores) {
        double min = Double.POSITIVE_INFINITY;
        double max = Double.NEGATIVE_INFINITY;
        for (double s : scores) {
            min = Math.min(min, s);
            max = Math.max(max, s);
        }
        double[] normalised = new double[scores.length];
        for (int i = 0; i < scores.length; i++) {
            normalised[i] = max > min ? (scores[i] - min) / (max - min) : (max > 0 ? 1 : 0);
        }
        return normalised;
    }

    /** 1-based ranks by descending score, ties by source id. */
    private static int[] ranks(List<SearchHit> hits, double[] scores) {
        Integer[] order = new Integer[hits.size()];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        Arrays.sort(order, Comparator.<Integer>comparingDouble(i -> -scores[i])
                .thenComparing(i -> hits.get(i).sourceId()));
        int[] rank = new int[order.length];
        for (int r = 0; r < order.length; r++) {
            rank[order[r]] = r + 1;
        }
        return rank;
    }

    private static double clamp(double value) {
        return Math.max(0, Math.min(1, value));
    }
}
