package dev.ragkit.eval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import dev.ragkit.grounding.Action;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class QaDatasetTest {
    @TempDir
    Path dir;

    private QaDataset set(int documents, String questions) throws IOException {
        Files.createDirectories(dir.resolve("documents"));
        for (int i = 0; i < documents; i++) {
            Files.writeString(dir.resolve("documents/d" + i + ".md"), "# D" + i + "\n\nText " + i + ".\n");
        }
        Files.writeString(dir.resolve("questions.jsonl"), questions);
        return QaDataset.load(dir);
    }

    @Test
    void load_readsQuestionsAndLeavesOutTheSameDocumentsEveryTime() throws IOException {
        QaDataset set = set(6, "{\"id\":\"1\",\"question\":\"Q?\",\"answers\":[\"Text 0\"],\"document\":\"d0.md\"}\n\n"
                + "{\"id\":\"2\",\"question\":\"R?\",\"answers\":[\"a\",\"b\"],\"document\":\"d1.md\"}\n");

        assertThat(set.questions()).extracting(QaDataset.Question::id).containsExactly("1", "2");
        assertThat(set.questions().get(1).answers()).containsExactly("a", "b");
        assertThat(set.documentPaths()).hasSize(6);
        Set<String> third = set.leftOut(1.0 / 3);
        assertThat(third).hasSize(2).isEqualTo(QaDataset.load(dir).leftOut(1.0 / 3));
        assertThat(set.leftOut(0.5)).containsAll(third);               // a larger share leaves out the same and more
        assertThat(set.leftOut(0)).isEmpty();
        assertThat(set.leftOut(0.01)).hasSize(1);
    }

    @Test
    void load_badInput_failsNamingTheFileLineAndTheFix() throws IOException {
        assertThatIllegalArgumentException().isThrownBy(() -> set(1, "{not json\n"))
                .withMessageContaining("questions.jsonl line 1 is not JSON");
        assertThatIllegalArgumentException().isThrownBy(() -> set(1, "{\"id\":\"1\",\"question\":\" \","
                + "\"answers\":[\"x\"],\"document\":\"d0.md\"}\n")).withMessageContaining("\"question\" is missing");
        assertThatIllegalArgumentException().isThrownBy(() -> set(1, "{\"id\":\"1\",\"question\":\"Q\","
                + "\"answers\":[],\"document\":\"d0.md\"}\n")).withMessageContaining("no answer");
        assertThatIllegalArgumentException().isThrownBy(() -> set(1, "{\"id\":\"1\",\"question\":\"Q\","
                + "\"answers\":[\"x\"],\"document\":\"nope.md\"}\n")).withMessageContaining("'nope.md' is not in");
        assertThatIllegalArgumentException().isThrownBy(() -> QaDataset.load(dir.resolve("missing")))
                .withMessageContaining("needs documents/ and questions.jsonl");
        assertThatIllegalArgumentException().isThrownBy(() -> set(1, "{\"id\":\"1\",\"question\":\"Q\","
                + "\"answers\":[\"x\"],\"document\":\"d0.md\"}\n").leftOut(1)).withMessageContaining("[0, 1)");
    }

    @Test
    void holdsAnswer_ignoresCaseAndWhiteSpaceButNotWords() {
        assertThat(AnswerEvaluator.holdsAnswer("The ferry leaves\n every  FORTY minutes.",
                List.of("every forty minutes"))).isTrue();
        assertThat(AnswerEvaluator.holdsAnswer("every fourty minutes", List.of("every forty minutes"))).isFalse();
        assertThat(AnswerEvaluator.holdsAnswer("anything", List.of(" "))).isFalse();
    }

    @Test
    void report_countsAnswerableAndLeftOutQuestionsApart() {
        List<AnswerReport.Outcome> outcomes = List.of(
                new AnswerReport.Outcome("1", true, Action.CITE, true, true, 80, null, Duration.ofMillis(4)),
                new AnswerReport.Outcome("2", true, Action.CITE, true, false, 70, null, Duration.ofMillis(6)),
                new AnswerReport.Outcome("3", true, Action.ROUTE, true, true, 20, "low", Duration.ofMillis(2)),
                new AnswerReport.Outcome("4", false, Action.ROUTE, false, false, 0, "none", Duration.ofMillis(1)),
                new AnswerReport.Outcome("5", false, Action.CITE, false, false, 65, null, Duration.ofMillis(9)),
                // left out, but another document states its answer: cited from lines that hold it
                new AnswerReport.Outcome("6", false, Action.CITE, true, true, 75, null, Duration.ofMillis(3)),
                new AnswerReport.Outcome("7", false, Action.ROUTE, false, true, 40, "low", Duration.ofMillis(7)));

        AnswerReport r = AnswerEvaluator.report(outcomes);

        assertThat(r.answerable()).isEqualTo(3);
        assertThat(r.answerHit()).isEqualTo(2 / 3.0);             // a routed draft does not count
        assertThat(r.citedHit()).isEqualTo(1 / 3.0);              // nor a routed answer's lines
        assertThat(r.cited()).isEqualTo(2 / 3.0);
        assertThat(r.routed()).isEqualTo(1 / 3.0);
        assertThat(r.leftOut()).isEqualTo(4);
        assertThat(r.leftOutRouted()).isEqualTo(0.5);
        assertThat(r.leftOutCited()).isEqualTo(0.5);
        assertThat(r.leftOutCitedHit()).isEqualTo(0.25);          // a routed question's lines do not count
        assertThat(AnswerEvaluator.report(outcomes.subList(0, 3)).leftOutCitedHit()).isNaN();
        assertThat(r.latencyP50()).isEqualTo(Duration.ofMillis(4));
        assertThat(r.latencyP95()).isEqualTo(Duration.ofMillis(9));
    }
}
