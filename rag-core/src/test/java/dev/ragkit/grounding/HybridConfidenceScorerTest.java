package dev.ragkit.grounding;

import static dev.ragkit.grounding.Blocks.block;
import static dev.ragkit.grounding.Blocks.critical;
import static dev.ragkit.grounding.Blocks.document;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.within;

import dev.ragkit.prompt.ContextBlock;
import dev.ragkit.store.StoredDocument;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

final class HybridConfidenceScorerTest {

    private final ConfidenceScorer scorer = ConfidenceScorer.standard();
    private final StoredDocument doc = document("hr/leave.md", "hr");
    private final StoredDocument other = document("hr/holidays.md", "hr");

    /** Context terms: managers, approve, vacation, requests, portal. */
    private static final String CONTEXT = "Managers approve vacation requests in the portal.";
    /** Answer terms: vacation, requests, require, manager, approval; two of them (vacation, requests) in CONTEXT. */
    private static final String ANSWER = "Vacation requests require manager approval.";

    private ContextBlock matched(double similarity, String text) {
        return block(doc, 0, text, similarity, similarity);
    }


    // ------------------------------------------------------------------------------------------- quoted answers

    @Test
    void score_quotedAnswer_isTheProbabilityItsLinesHoldTheAnswer_andShowsHowMuchOfTheQuestionTheyHold() {
        ContextBlock leave = block(doc, 0, "Annual leave is 25 days. The office is closed at Christmas.", 0.7, 0.7);
        String onPoint = "- Annual leave is 25 days. [SourceId: " + leave.sourceId() + "]";
        String offPoint = "- The office is closed at Christmas. [SourceId: " + leave.sourceId() + "]";
        String question = "How many days of annual leave are there?";

        ConfidenceScore good = scorer.score(new ConfidenceScorer.Evidence(question, onPoint, List.of(leave),
                List.of(leave.sourceId()), null, true));
        ConfidenceScore poor = scorer.score(new ConfidenceScorer.Evidence(question, offPoint, List.of(leave),
                List.of(leave.sourceId()), null, true));

        // both quote the context word for word, so the specification's coverage would be 1 for both
        assertThat(scorer.score(offPoint, List.of(leave), null).coverage()).isEqualTo(1.0);
        assertThat(good.coverage()).isEqualTo(1.0);
        assertThat(poor.coverage()).isZero();
        assertThat(good.retrieval()).isEqualTo(0.7);
        assertThat(good.selfRating()).isNull();
        assertThat(good.explanation()).startsWith("extractive answer: retrieval 0.700").contains("question coverage 1.000")
                .contains("cannot rate itself").endsWith("overall " + good.overall());
        double p = 1 / (1 + Math.exp(-(HybridConfidenceScorer.QUOTED_WITHOUT_SIMILARITY[0] * 0.7
                + HybridConfidenceScorer.QUOTED_WITHOUT_SIMILARITY[1])));
        assertThat(good.overall()).isEqualTo((int) Math.floor(p * 100 + 1e-9));
        // a quote from a block with no relevance of its own and no match beside it has nothing to rest on
        ContextBlock alone = block(other, 1, "Annual leave is 25 days.", Double.NaN, Double.NaN);
        ConfidenceScore unmatched = scorer.score(new ConfidenceScorer.Evidence(question, "- Annual leave is 25 days. "
                + "[SourceId: " + alone.sourceId() + "]", List.of(leave, alone), List.of(alone.sourceId()),
                null, true));
        assertThat(unmatched.retrieval()).isZero();
        assertThat(unmatched.overall()).isLessThan(good.overall()).isLessThan(60);
    }

    @Test
    void score_quotedAnswer_whoseBestSentenceStandsOut_isTrusted_whileQuotesAllAlikeAreRouted() {
        // the same retrieval; what differs is how near the quoted sentences are to the question (embedder's scale)
        ContextBlock leave = block(doc, 0, "Annual leave is 25 days. The office is closed at Christmas.", 0.5, 0.5);
        String answer = "- Annual leave is 25 days. [SourceId: " + leave.sourceId() + "]\n- The office is closed at "
                + "Christmas. [SourceId: " + leave.sourceId() + "]";
        String question = "How many days of annual leave are there?";

        ConfidenceScore standsOut = scorer.score(new ConfidenceScorer.Evidence(question, answer, List.of(leave),
                List.of(leave.sourceId()), null, true, List.of(6.0, 2.0)));
        ConfidenceScore allAlike = scorer.score(new ConfidenceScorer.Evidence(question, answer, List.of(leave),
                List.of(leave.sourceId()), null, true, List.of(3.0, 3.0)));
        ConfidenceScore unknown = scorer.score(new ConfidenceScorer.Evidence(question, answer, List.of(leave),
                List.of(leave.sourceId()), null, true));

        double[] w = HybridConfidenceScorer.QUOTED;
        double p = 1 / (1 + Math.exp(-(w[0] * 0.5 + w[1] * 6 + w[2] * 4 + w[3])));
        assertThat(standsOut.overall()).isEqualTo((int) Math.floor(p * 100 + 1e-9)).isGreaterThanOrEqualTo(60);
        assertThat(allAlike.overall()).isLessThan(60);
        assertThat(standsOut.explanation()).contains("best 6.00 and mean 4.00 being the similarity of the 2 quoted "
                + "sentences to the question");
        assertThat(unknown.explanation()).contains("similarity to the question unknown");
    }

    @Test
    void score_quotedAnswer_fromANeighbourOfAMatch_restsOnThatMatch() {
        // retrieval hands the chunks before and after a match in with it; they were not scored themselves
        ContextBlock match = block(doc, 3, "The leave policy applies to all staff.", 0.7, 0.7);
        ContextBlock neighbour = block(doc, 4, "Annual leave is 25 days.", Double.NaN, Double.NaN);
        ContextBlock critical = critical(other, 0, "Annual leave is 25 days.");
        String question = "How many days of annual leave are there?";

        ConfidenceScore fromNeighbour = scorer.score(new ConfidenceScorer.Evidence(question, "- Annual leave is 25 "
                + "days. [SourceId: " + neighbour.sourceId() + "]", List.of(match, neighbour, critical),
                List.of(neighbour.sourceId()), null, true));
        ConfidenceScore fromCritical = scorer.score(new ConfidenceScorer.Evidence(question, "- Annual leave is 25 "
                + "days. [SourceId: " + critical.sourceId() + "]", List.of(match, neighbour, critical),
                List.of(critical.sourceId()), null, true));

        assertThat(fromNeighbour.retrieval()).isEqualTo(0.7);
        assertThat(fromNeighbour.explanation()).contains("mean relevance of the 1 quoted blocks");
        assertThat(fromCritical.retrieval()).isZero();
    }

    @Test
    void score_modelAnswerEvidence_keepsTheSpecificationFormula() {
        ContextBlock block = matched(0.5, CONTEXT);

        ConfidenceScore viaEvidence = scorer.score(new ConfidenceScorer.Evidence("Who approves vacation?", ANSWER,
                List.of(block), List.of(block.sourceId()), 50, false));

        assertThat(viaEvidence).isEqualTo(scorer.score(ANSWER, List.of(block), 50));
        // retrieval·30 + coverage·40 + selfRating·0.3 = 0.5·30 + 0.4·40 + 50·0.3 = 46
        assertThat(viaEvidence.overall()).isEqualTo(46);
    }

    // ----------------------------------------------------------------------------------------------------- coverage

    @Test
    void score_partialOverlap_coverageIsShareOfAnswerTermsInContext() {
        ConfidenceScore score = scorer.score(ANSWER, List.of(matched(0.5, CONTEXT)), 50);

        assertThat(score.coverage()).isEqualTo(2.0 / 5);
    }

    @Test
    void score_fullOverlapIgnoringCaseAndStopWords_coverageOne() {
        ConfidenceScore score = scorer.score("The PORTAL is where managers approve them.",
                List.of(matched(0.5, CONTEXT)), 50);

        assertThat(score.coverage()).isEqualTo(1.0);
    }

    @Test
    void score_answerWithSourceIdMarkers_markersNotCountedAsTerms() {
        ContextBlock block = matched(0.5, "Refunds take five working days.");
        String answer = "Refunds take five working days [SourceId: " + block.sourceId() + "]"
                + " [SourceId: " + block.sourceId() + ", " + doc.id() + ":12]";

        ConfidenceScore score = scorer.score(answer, List.of(block), 50);

        assertThat(score.coverage()).isEqualTo(1.0);
    }

    @Test
    void score_malformedMarker_alsoStripped() {
        ContextBlock block = matched(0.5, "Refunds take five working days.");

        ConfidenceScore score = scorer.score("Refunds take five working days [SourceId: ABCDEF123-99]",
                List.of(block), 50);

        assertThat(score.coverage()).isEqualTo(1.0);
    }

    @Test
    void score_contextTermsFromEveryBlockText_joined() {
        List<ContextBlock> used = List.of(matched(0.5, "Vacation requests"), matched(0.5, "require manager approval"));

        assertThat(scorer.score(ANSWER, used, 50).coverage()).isEqualTo(1.0);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "   ", "It is to be.", "[SourceId: " + "0123abcd-0000-4000-8000-00000000beef:0]"})
    void score_answerWithoutKeyTerms_coverageZero(String answer) {
        ConfidenceScore score = scorer.score(answer, List.of(matched(0.9, CONTEXT)), 100);

        assertThat(score.coverage()).isZero();
        assertThat(score.explanation()).contains("no key terms");
        // 0.9·30 + 0 + 30 = 57
        assertThat(score.overall()).isEqualTo(57);
    }

    // ------------------------------------------------------------------------------------------------- zero context

    @Test
    void score_noContextBlocks_zeroWithReason() {
        ConfidenceScore score = scorer.score(ANSWER, List.of(), 95);

        assertThat(score.overall()).isZero();
        assertThat(score.retrieval()).isZero();
        assertThat(score.coverage()).isZero();
        assertThat(score.selfRating()).isNull();
        assertThat(score.explanation()).contains("No context");
    }

    // ---------------------------------------------------------------------------------------------------- retrieval

    @Test
    void score_retrieval_meanOfMatchScoresIgnoringUnmatchedBlocks() {
        List<ContextBlock> used = List.of(matched(0.8, CONTEXT), critical(doc, 3, CONTEXT), matched(0.4, CONTEXT));

        ConfidenceScore score = scorer.score(ANSWER, used, 50);

        assertThat(score.retrieval()).isCloseTo(0.6, within(1e-12));
        assertThat(score.explanation()).contains("2 of 3 blocks");
    }

    @Test
    void score_keywordOnlyHit_usesRelevanceAsMatchScore() {
        ContextBlock keywordOnly = block(doc, 1, CONTEXT, Double.NaN, 0.5);

        assertThat(scorer.score(ANSWER, List.of(keywordOnly, matched(0.9, CONTEXT)), 50).retrieval())
                .isCloseTo(0.7, within(1e-12));
    }

    @Test
    void score_noBlockMatched_retrievalZeroAndExplained() {
        ConfidenceScore score = scorer.score(ANSWER, List.of(critical(doc, 0, CONTEXT)), 80);

        assertThat(score.retrieval()).isZero();
        assertThat(score.explanation()).contains("none of the 1 blocks was matched");
        // 0 + 0.4·40 + 0.8·30 = 16 + 24 = 40
        assertThat(score.overall()).isEqualTo(40);
    }

    // ------------------------------------------------------------------------------------------------------ weights

    @Test
    void score_allThreeSignals_weighted30_40_30AndTruncated() {
        // retrieval 0.7 (mean of 0.8 and 0.6), coverage 2/5 = 0.4, self-rating 90:
        // 0.7·30 + 0.4·40 + 0.9·30 = 21 + 16 + 27 = 64
        ConfidenceScore score = scorer.score(ANSWER, List.of(matched(0.8, CONTEXT), matched(0.6, CONTEXT)), 90);

        assertThat(score.overall()).isEqualTo(64);
        assertThat(score.selfRating()).isEqualTo(90);
        assertThat(score.selfRatingAvailable()).isTrue();
        assertThat(score.explanation()).doesNotContain("renormalised");
    }

    @Test
    void score_fractionalTotal_truncatedNotRounded() {
        // 0.55·30 + 0.4·40 + 0.30·30 = 16.5 + 16 + 9 = 41.5 -> 41 (rounding would give 42)
        assertThat(scorer.score(ANSWER, List.of(matched(0.55, CONTEXT)), 30).overall()).isEqualTo(41);
        // 0.59·30 + 0.4·40 + 0.90·30 = 17.7 + 16 + 27 = 60.7 -> 60 (rounding would give 61)
        assertThat(scorer.score(ANSWER, List.of(matched(0.59, CONTEXT)), 90).overall()).isEqualTo(60);
    }

    @Test
    void score_binaryRoundingJustBelowAnInteger_stillCountsThePoint() {
        // 0.02·30 + 0.18·30 = 6 exactly, but 5.999999999999999 in doubles; coverage 0
        assertThat(scorer.score("", List.of(matched(0.02, CONTEXT)), 18).overall()).isEqualTo(6);
        // renormalised: 0.7·30/70·100 = 30 exactly, but 29.999999999999996 in doubles
        assertThat(scorer.score("", List.of(matched(0.7, CONTEXT)), null).overall()).isEqualTo(30);
    }

    @Test
    void score_selfRatingUnavailable_weightsRenormalisedAndExplained() {
        // retrieval 0.7, coverage 0.4: 0.7·30/70·100 + 0.4·40/70·100 = 30 + 22.857… = 52.857… → 52
        ConfidenceScore score = scorer.score(ANSWER, List.of(matched(0.8, CONTEXT), matched(0.6, CONTEXT)), null);

        assertThat(score.overall()).isEqualTo(52);
        assertThat(score.selfRating()).isNull();
        assertThat(score.selfRatingAvailable()).isFalse();
        assertThat(score.explanation()).contains("self-rating unavailable").contains("renormalised")
                .contains("42.9/57.1");
    }

    @Test
    void score_selfRatingUnavailableAndPerfectSignals_reaches100() {
        ConfidenceScore score = scorer.score("vacation requests", List.of(matched(1.0, CONTEXT)), null);

        assertThat(score.overall()).isEqualTo(100);
    }

    @Test
    void score_everythingPerfect_100() {
        assertThat(scorer.score("vacation requests", List.of(matched(1.0, CONTEXT)), 100).overall())
                .isEqualTo(100);
    }

    @Test
    void score_matchScoresOutsideUnitRange_clamped() {
        ConfidenceScore high = scorer.score("vacation requests", List.of(matched(1.7, CONTEXT)), 100);
        ConfidenceScore low = scorer.score("unrelated words", List.of(matched(-0.4, CONTEXT)), 0);

        assertThat(high.retrieval()).isEqualTo(1.0);
        assertThat(high.overall()).isEqualTo(100);
        assertThat(low.retrieval()).isZero();
        assertThat(low.overall()).isZero();
    }

    @ParameterizedTest
    @ValueSource(ints = {-1, 101})
    void score_selfRatingOutOfRange_rejected(int selfRating) {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> scorer.score(ANSWER, List.of(matched(0.5, CONTEXT)), selfRating))
                .withMessageContaining("SelfRating.parse(reply)");
    }
}
