package dev.ragkit.eval;

import dev.ragkit.RagResponse;
import dev.ragkit.grounding.Action;
import dev.ragkit.grounding.Citation;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * Measures answers end to end on a {@link QaDataset}: each question goes through the whole pipeline (retrieval,
 * answerability, the answer, citations, confidence, routing) and is scored against its known answers. A known answer
 * counts as found when, lower-cased and with every run of white space made one space, it occurs in the lower-cased,
 * space-normalised answer text (answer-hit) or in the text of the lines the citations name (cited-hit); both count
 * only answers given (CITE): a routed response may carry the draft its confidence was too low for. Stateless.
 */
public final class AnswerEvaluator {

    private static final Pattern SPACE = Pattern.compile("\\s+");

    private AnswerEvaluator() {
    }

    /**
     * @param dataset   the questions
     * @param leftOut   the documents kept out of the index (see {@link QaDataset#leftOut})
     * @param ask       answers one question (the pipeline under test)
     * @param citedText the text of the lines a citation names, read from its document
     * @return the report
     */
    public static AnswerReport evaluate(QaDataset dataset, Set<String> leftOut,
            Function<QaDataset.Question, RagResponse> ask, Function<Citation, String> citedText) {
        Objects.requireNonNull(dataset, "dataset");
        Objects.requireNonNull(leftOut, "leftOut");
        Objects.requireNonNull(ask, "ask");
        Objects.requireNonNull(citedText, "citedText");
        List<AnswerReport.Outcome> outcomes = new ArrayList<>();
        for (QaDataset.Question q : dataset.questions()) {
            long start = System.nanoTime();
            RagResponse r = ask.apply(q);
            Duration latency = Duration.ofNanos(System.nanoTime() - start);
            boolean answerHit = holdsAnswer(r.answer(), q.answers());
            boolean citedHit = false;
            for (Citation c : r.citations()) {
                citedHit |= holdsAnswer(citedText.apply(c), q.answers());
            }
            outcomes.add(new AnswerReport.Outcome(q.id(), !leftOut.contains(q.document()), r.action(), answerHit,
                    citedHit, r.confidence().overall(), r.routeTo() == null ? null : r.routeTo().reason(), latency));
        }
        return report(outcomes);
    }

    /**
     * @param text    any text
     * @param answers known answers
     * @return whether the text holds one of them, case and white space aside
     */
    public static boolean holdsAnswer(String text, List<String> answers) {
        String t = normalise(text);
        for (String a : answers) {
            String n = normalise(a);
            if (!n.isEmpty() && t.contains(n)) {
                return true;
            }
        }
        return false;
    }

    private static String normalise(String text) {
        return SPACE.matcher(text.toLowerCase(Locale.ROOT)).replaceAll(" ").strip();
    }

    static AnswerReport report(List<AnswerReport.Outcome> outcomes) {
        int answerable = 0;
        int leftOut = 0;
        int answerHits = 0;
        int citedHits = 0;
        int cited = 0;
        int routed = 0;
        int leftOutRouted = 0;
        int leftOutCited = 0;
        for (AnswerReport.Outcome o : outcomes) {
            if (o.answerable()) {
                answerable++;
                answerHits += o.action() == Action.CITE && o.answerHit() ? 1 : 0;
                citedHits += o.action() == Action.CITE && o.citedHit() ? 1 : 0;
                cited += o.action() == Action.CITE ? 1 : 0;
                routed += o.action() == Action.ROUTE ? 1 : 0;
            } else {
                leftOut++;
                leftOutRouted += o.action() == Action.ROUTE ? 1 : 0;
                leftOutCited += o.action() == Action.CITE ? 1 : 0;
            }
        }
        long[] nanos = outcomes.stream().mapToLong(o -> o.latency().toNanos()).sorted().toArray();
        return new AnswerReport(answerable, leftOut, share(answerHits, answerable), share(citedHits, answerable),
                share(cited, answerable), share(routed, answerable), share(leftOutRouted, leftOut),
                share(leftOutCited, leftOut), Duration.ofNanos(RetrievalEvaluator.percentile(nanos, 50)),
                Duration.ofNanos(RetrievalEvaluator.percentile(nanos, 95)), outcomes);
    }

    private static double share(int count, int of) {
        return of == 0 ? Double.NaN : (double) count / of;
    }
}
