package dev.ragkit.eval;

import dev.ragkit.grounding.Action;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The result of {@link AnswerEvaluator#evaluate}: how often answers hold the known answer, how often the cited lines
 * do, and how often questions are cited or handed to a person — separately for questions whose document was indexed
 * (answerable) and questions whose document was left out (their answers are nowhere in the index).
 *
 * @param answerable       questions whose document was indexed
 * @param leftOut          questions whose document was left out
 * @param answerHit        share of answerable questions answered with CITE whose answer text holds a known answer
 * @param citedHit         share of answerable questions answered with CITE whose cited lines hold a known answer
 * @param cited            share of answerable questions answered with CITE
 * @param routed           share of answerable questions routed to a person
 * @param leftOutRouted    share of left-out questions routed to a person (the honest outcome)
 * @param leftOutCited     share of left-out questions answered with CITE: an answer from documents that were not
 *                         written to hold it (some of these cite lines that state the answer all the same; see
 *                         {@link #leftOutCitedHit()})
 * @param latencyP50       median time to answer (nearest rank)
 * @param latencyP95       95th percentile
 * @param perQuestion      each question's outcome, in dataset order (immutable)
 */
public record AnswerReport(int answerable, int leftOut, double answerHit, double citedHit, double cited,
        double routed, double leftOutRouted, double leftOutCited, Duration latencyP50, Duration latencyP95,
        List<Outcome> perQuestion) {

    /**
     * One question's outcome.
     *
     * @param id         the question's id
     * @param answerable whether its document was indexed
     * @param action     what the pipeline did
     * @param answerHit  whether the answer text holds a known answer
     * @param citedHit   whether the lines the citations name hold a known answer (whatever the action)
     * @param confidence the confidence 0–100
     * @param reason     why it was not cited (the route's reason), or {@code null}
     * @param latency    the time to answer
     */
    public record Outcome(String id, boolean answerable, Action action, boolean answerHit, boolean citedHit,
            int confidence, @Nullable String reason, Duration latency) {
        /** Validates the arguments. */
        public Outcome {
            Objects.requireNonNull(id, "id");
            Objects.requireNonNull(action, "action");
            Objects.requireNonNull(latency, "latency");
        }
    }

    /** Validates and copies the arguments. */
    public AnswerReport {
        Objects.requireNonNull(latencyP50, "latencyP50");
        Objects.requireNonNull(latencyP95, "latencyP95");
        perQuestion = List.copyOf(perQuestion);
    }

    /**
     * The left-out questions that were cited from lines holding a known answer: another indexed document states the
     * answer too (sets whose documents repeat facts, such as many passages on one subject, have such questions).
     * These are part of {@link #leftOutCited()}; the rest of it are answers the index does not support.
     *
     * @return their share of the left-out questions; {@code NaN} when no question was left out
     */
    public double leftOutCitedHit() {
        long hits = perQuestion.stream().filter(o -> !o.answerable() && o.action() == Action.CITE && o.citedHit())
                .count();
        return leftOut == 0 ? Double.NaN : (double) hits / leftOut;
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "answerable %d: answer-hit %.3f, cited-hit %.3f, CITE %.3f, ROUTE %.3f;"
                + " left out %d: ROUTE %.3f, CITE %.3f; latency p50 %.1f ms, p95 %.1f ms", answerable, answerHit,
                citedHit, cited, routed, leftOut, leftOutRouted, leftOutCited, latencyP50.toNanos() / 1e6,
                latencyP95.toNanos() / 1e6);
    }
}
