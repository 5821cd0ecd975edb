package dev.ragkit.retrieval;

import dev.ragkit.embedding.SimilarityScale;
import dev.ragkit.store.SearchHit;
import java.util.List;
import java.util.Objects;

/**
 * The default {@link RelevanceModel}: {@code relevance = 1 / (1 + e^-(a·z + b·coverage + c·keyword + d + l))} over
 * the {@link RelevanceSignals} of each hit. The weights were fitted by logistic regression on whether a passage holds
 * the gold answer, over the candidates (best 15 by similarity and best 15 by keyword score) of questions of MLQA
 * (English) and Quoref, for the four in-process embedders together ({@code RelevanceFit} in the benchmarks module); a
 * second set is fitted without the keyword signal, for stores without a keyword index. {@code l} ({@link #LENIENCY})
 * raises the fitted odds so that the bar errs towards passing a question on to the answer's own check. How, and what
 * it measures on held-out
 * questions: docs/design-notes.md, "Relevance that means the same on every embedder". Stateless and thread-safe.
 */
final class CalibratedRelevance implements RelevanceModel {

    /** Weights of z, coverage and keyword, and the bias, with a keyword index. */
    static final double[] WITH_KEYWORDS = {0.486, 2.479, 0.974, -4.972};
    /** Weights of z and coverage, and the bias, for hits without keyword scores. */
    static final double[] WITHOUT_KEYWORDS = {0.494, 3.301, 0, -4.743};
    /**
     * Added to the fitted bias: the odds that a hit holds the answer, multiplied by 1.71, so that the bar of 0.3
     * admits a hit the fit puts at 0.2 or more — a lenient first check, because the quoted answer's confidence is a
     * second one ({@code ln(0.3/0.7) - ln(0.2/0.8)}; docs/design-notes.md, "Two checks").
     */
    static final double LENIENCY = 0.539;

    private final SimilarityScale scale;

    CalibratedRelevance(SimilarityScale scale) {
        this.scale = Objects.requireNonNull(scale, "scale");
    }

    @Override
    public double[] relevance(String query, List<SearchHit> hits, RetrievalOptions options) {
        RelevanceSignals signals = RelevanceSignals.of(query, hits, scale);
        double[] w = signals.keywords() ? WITH_KEYWORDS : WITHOUT_KEYWORDS;
        double[] out = new double[hits.size()];
        for (int i = 0; i < out.length; i++) {
            double[] s = signals.of(i);
            out[i] = 1 / (1 + Math.exp(-(w[0] * s[0] + w[1] * s[1] + w[2] * s[2] + w[3] + LENIENCY)));
        }
        return out;
    }

    @Override
    public String toString() {
        return "CalibratedRelevance[" + scale + "]";
    }
}
