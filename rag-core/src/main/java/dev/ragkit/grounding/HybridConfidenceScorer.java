package dev.ragkit.grounding;

import dev.ragkit.internal.KeyTerms;
import dev.ragkit.internal.QueryTerms;
import dev.ragkit.prompt.ContextBlock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * The default {@link ConfidenceScorer}: {@code floor(retrieval·30 + coverage·40 + selfRating/100·30)}, clamped to
 * 0–100.
 *
 * <ul>
 *   <li><b>retrieval</b> is the mean {@link ContextBlock#matchScore()} (the calibrated relevance) of the blocks that
 *       have one (critical and linked blocks were not matched and have {@code NaN}); 0 when none has one.</li>
 *   <li><b>coverage</b> is the share of the answer's key terms that also occur in the blocks' text. Key terms
 *       are the runs of {@code [a-z0-9]} in the lower-cased text, at least three characters long, that are not
 *       English stop words. {@code [SourceId: …]} markers are removed from the answer first, so the cited ids
 *       do not count as covered terms. 0 when the answer has no key terms.</li>
 *   <li><b>selfRating</b> is the model's own 0–100 rating from {@link SelfRating#prompt}. When it is
 *       unavailable the other two weights are scaled to sum to 100 ({@code 30/70} and {@code 40/70} of 100),
 *       and the explanation says so.</li>
 * </ul>
 * A tiny epsilon is added before truncating so that binary rounding ({@code 0.7·30 = 20.999…}) does not cost a
 * point.
 *
 * <p>An extractive answer ({@link Evidence#quoted()}) is made of the context's own sentences, so its coverage is 1
 * by construction, and it cannot rate itself; for it {@link #score(Evidence)} gives an estimate that the lines it
 * cites hold the answer, in which a wrong citation weighs twice a needless hand-off:
 * {@code floor(100 / (1 + e^-(a·retrieval + b·best + c·mean + d)))}, where <b>retrieval</b> is the mean calibrated
 * relevance of the blocks it quotes, and <b>best</b> and <b>mean</b> are the highest and the mean similarity of the
 * quoted sentences to the question ({@link Evidence#quoteSimilarity()}, on the embedder's scale) — {@link #QUOTED},
 * fitted on public data; without the similarities, {@link #QUOTED_WITHOUT_SIMILARITY}. Its coverage is the share of
 * the question's content words, weighted by their rarity among the blocks used, that the quoted sentences hold —
 * shown in the score and its explanation, not weighed: on the data it did not tell right quotes from wrong ones.
 * Stateless and thread-safe.
 */
final class HybridConfidenceScorer implements ConfidenceScorer {

    static final double RETRIEVAL_WEIGHT = 30;
    static final double COVERAGE_WEIGHT = 40;
    static final double SELF_RATING_WEIGHT = 30;

    private static final double EPSILON = 1e-9;

    /**
     * Weights of retrieval, of the best and of the mean similarity of the quoted sentences to the question, and the
     * bias, of an extractive answer's score: a logistic fit of whether the lines the answer cites hold the known
     * answer, over the even-numbered questions of MLQA and Quoref that passed the relevance bar, both quantized
     * in-process models, a question whose cited lines do not hold the answer (a left-out one included) weighted 2
     * (benchmarks/analysis/quote_gate.py; docs/design-notes.md, "Two checks").
     */
    static final double[] QUOTED = {5.491, 0.868, -0.519, -3.869};
    /** Weight of retrieval and the bias, fitted the same way, for an answer whose quotes' similarity is unknown. */
    static final double[] QUOTED_WITHOUT_SIMILARITY = {7.718, -2.742};


    /** Any {@code [SourceId …]} bracket, well formed or not, so no part of a cited id is taken as a term. */
    private static final Pattern MARKER = Pattern.compile("\\[\\s*SourceId\\b[^\\]]*]");


    @Override
    public ConfidenceScore score(Evidence evidence) {
        Objects.requireNonNull(evidence, "evidence");
        if (!evidence.quoted()) {
            return score(evidence.answer(), evidence.used(), evidence.selfRating());
        }
        List<ContextBlock> used = evidence.used();
        if (used.isEmpty()) {
            return ConfidenceScore.zero("No context was used, so the answer cannot be grounded: confidence 0");
        }
        Map<String, Double> matchOfDocument = new HashMap<>();
        for (ContextBlock block : used) {
            if (block.kind() == ContextBlock.Kind.RELEVANT && !Double.isNaN(block.matchScore())) {
                matchOfDocument.merge(block.document().id(), block.matchScore(), Math::max);
            }
        }
        double sum = 0;
        int quotedBlocks = 0;
        List<Set<String>> blockTerms = new ArrayList<>();
        for (ContextBlock block : used) {
            blockTerms.add(QueryTerms.inPassage(block.text()));
            double match = matchOf(block, matchOfDocument);
            if (evidence.cited().contains(block.sourceId()) && !Double.isNaN(match)) {
                sum += match;
                quotedBlocks++;
            }
        }
        double retrieval = quotedBlocks == 0 ? 0 : clamp01(sum / quotedBlocks);
        Map<String, Double> weights = QueryTerms.rarity(QueryTerms.of(evidence.question()), blockTerms);
        double coverage = QueryTerms.coverage(weights,
                QueryTerms.inPassage(MARKER.matcher(evidence.answer()).replaceAll(" ")));
        List<Double> similarity = evidence.quoteSimilarity();
        double logit;
        String formula;
        if (similarity.isEmpty()) {
            logit = QUOTED_WITHOUT_SIMILARITY[0] * retrieval + QUOTED_WITHOUT_SIMILARITY[1];
            formula = String.format(Locale.ROOT, "1 / (1 + e^-(%.2f·retrieval %.2f)) (the quoted sentences' "
                    + "similarity to the question unknown)", QUOTED_WITHOUT_SIMILARITY[0],
                    QUOTED_WITHOUT_SIMILARITY[1]);
        } else {
            double best = similarity.stream().mapToDouble(Double::doubleValue).max().orElse(0);
            double mean = similarity.stream().mapToDouble(Double::doubleValue).average().orElse(0);
            logit = QUOTED[0] * retrieval + QUOTED[1] * best + QUOTED[2] * mean + QUOTED[3];
            formula = String.format(Locale.ROOT, "1 / (1 + e^-(%.2f·retrieval + %.2f·best %.2f·mean %.2f)), best "
                    + "%.2f and mean %.2f being the similarity of the %d quoted sentences to the question on the "
                    + "embedder's scale (a best sentence that stands out from the rest answers; quotes all alike are "
                    + "more often a passage on the subject)", QUOTED[0], QUOTED[1], QUOTED[2], QUOTED[3], best, mean,
                    similarity.size());
        }
        double p = 1 / (1 + Math.exp(-logit));
        int overall = (int) Math.max(0, Math.min(100, Math.floor(p * 100 + EPSILON)));
        String why = String.format(Locale.ROOT, "extractive answer: retrieval %.3f (mean relevance of the %d quoted "
                + "blocks); question coverage %.3f (share of the question's words, weighted by rarity among the %d "
                + "blocks, that the quoted sentences hold; shown, not weighed: it did not tell right quotes from "
                + "wrong ones); a quoted answer has full answer coverage by construction and cannot rate itself, so "
                + "the score estimates that the cited lines hold the answer, a wrong citation weighing twice a "
                + "needless hand-off: %s; overall %d", retrieval, quotedBlocks, coverage, used.size(), formula,
                overall);
        return new ConfidenceScore(overall, retrieval, coverage, null, why);
    }

    /**
     * A block's relevance for a quoted answer: its own, or for a neighbour handed in around a match (a relevant block
     * retrieval did not score itself), the best match of its document's window; NaN for critical and linked blocks.
     */
    private static double matchOf(ContextBlock block, Map<String, Double> matchOfDocument) {
        if (!Double.isNaN(block.matchScore()) || block.kind() != ContextBlock.Kind.RELEVANT) {
            return block.matchScore();
        }
        return matchOfDocument.getOrDefault(block.document().id(), Double.NaN);
    }

    @Override
    public ConfidenceScore score(String answer, List<ContextBlock> used, @Nullable Integer selfRating) {
        Objects.requireNonNull(answer, "answer");
        Objects.requireNonNull(used, "used");
        if (selfRating != null && (selfRating < 0 || selfRating > 100)) {
            throw new IllegalArgumentException("selfRating must be 0-100 or null, got " + selfRating
                    + "; pass the value returned by SelfRating.parse(reply)");
        }
        if (used.isEmpty()) {
            return ConfidenceScore.zero("No context was used, so the answer cannot be grounded: confidence 0");
        }

        double matchSum = 0;
        int matched = 0;
        Set<String> contextTerms = new HashSet<>();
        for (ContextBlock block : used) {
            Objects.requireNonNull(block, "used must not contain null");
            double match = block.matchScore();
            if (!Double.isNaN(match)) {
                matchSum += match;
                matched++;
            }
            KeyTerms.addTo(block.text(), contextTerms);
        }
        double retrieval = matched == 0 ? 0 : clamp01(matchSum / matched);

        Set<String> answerTerms = KeyTerms.of(MARKER.matcher(answer).replaceAll(" "));
        int covered = 0;
        for (String term : answerTerms) {
            if (contextTerms.contains(term)) {
                covered++;
            }
        }
        double coverage = answerTerms.isEmpty() ? 0 : (double) covered / answerTerms.size();

        StringBuilder why = new StringBuilder();
        if (matched == 0) {
            why.append(String.format(Locale.ROOT, "retrieval 0 (none of the %d blocks was matched by search)",
                    used.size()));
        } else {
            why.append(String.format(Locale.ROOT, "retrieval %.3f (mean relevance of %d of %d blocks)",
                    retrieval, matched, used.size()));
        }
        why.append(answerTerms.isEmpty()
                ? "; coverage 0 (the answer has no key terms)"
                : String.format(Locale.ROOT, "; coverage %.3f (%d of %d answer key terms in the context)",
                        coverage, covered, answerTerms.size()));

        double raw;
        if (selfRating != null) {
            raw = retrieval * RETRIEVAL_WEIGHT + coverage * COVERAGE_WEIGHT
                    + selfRating / 100.0 * SELF_RATING_WEIGHT;
            why.append("; self-rating ").append(selfRating).append("/100")
                    .append(String.format(Locale.ROOT, "; weights %.0f/%.0f/%.0f",
                            RETRIEVAL_WEIGHT, COVERAGE_WEIGHT, SELF_RATING_WEIGHT));
        } else {
            double rest = RETRIEVAL_WEIGHT + COVERAGE_WEIGHT;
            double retrievalWeight = RETRIEVAL_WEIGHT / rest * 100;
            double coverageWeight = COVERAGE_WEIGHT / rest * 100;
            raw = retrieval * retrievalWeight + coverage * coverageWeight;
            why.append(String.format(Locale.ROOT, "; self-rating unavailable, so the retrieval and coverage weights"
                    + " were renormalised to %.1f/%.1f", retrievalWeight, coverageWeight));
        }
        int overall = (int) Math.max(0, Math.min(100, Math.floor(raw + EPSILON)));
        why.append("; overall ").append(overall);
        return new ConfidenceScore(overall, retrieval, coverage, selfRating, why.toString());
    }

    private static double clamp01(double value) {
        return Math.max(0, Math.min(1, value));
    }
}
