package dev.ragkit.eval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class BeirDatasetTest {

    @TempDir
    Path dir;

    @Test
    void load_defaultSplit_readsCorpusQueriesAndGradedQrels() throws IOException {
        BeirDataset dataset = BeirDataset.load(TinyDataset.write(dir));

        assertThat(dataset.split()).isEqualTo("test");
        assertThat(dataset.corpus()).containsOnlyKeys("d1", "d2", "d3");
        assertThat(dataset.corpus().get("d1").title()).isEqualTo("Wing lift");
        assertThat(dataset.corpus().get("d3").title()).isEmpty();
        assertThat(dataset.judgements("q1")).containsExactly(Map.entry("d1", 2), Map.entry("d2", 1), Map.entry("d3", 0));
    }

    @Test
    void load_queryWithoutJudgementsInSplit_isSkippedAndCounted() throws IOException {
        BeirDataset dataset = BeirDataset.load(TinyDataset.write(dir));

        assertThat(dataset.queries()).extracting(BeirDataset.Query::id).containsExactly("q1", "q2");
        assertThat(dataset.skippedQueries()).isEqualTo(1);
        assertThat(dataset.judgements("q3")).isEmpty();
    }

    @Test
    void load_otherSplit_readsThatSplitsQrels() throws IOException {
        BeirDataset dataset = BeirDataset.load(TinyDataset.write(dir), "dev");

        assertThat(dataset.queries()).extracting(BeirDataset.Query::id).containsExactly("q3");
        assertThat(dataset.skippedQueries()).isEqualTo(2);
    }

    @Test
    void load_malformedJsonLine_namesFileAndLine() throws IOException {
        TinyDataset.write(dir);
        Files.writeString(dir.resolve("queries.jsonl"), """
                {"_id": "q1", "text": "wing lift"}
                {"_id": "q2", "text": "heat
                """);

        assertThatThrownBy(() -> BeirDataset.load(dir))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("queries.jsonl:2:")
                .hasMessageContaining("malformed JSON");
    }

    @Test
    void load_missingField_namesFileLineAndField() throws IOException {
        TinyDataset.write(dir);
        Files.writeString(dir.resolve("corpus.jsonl"), """
                {"_id": "d1", "text": "a"}
                {"_id": "d2", "text": "b"}
                {"title": "no id", "text": "c"}
                """);

        assertThatThrownBy(() -> BeirDataset.load(dir))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("corpus.jsonl:3:")
                .hasMessageContaining("'_id'");
    }

    @Test
    void load_missingFile_namesFile() throws IOException {
        TinyDataset.write(dir);
        Files.delete(dir.resolve("qrels/test.tsv"));

        assertThatThrownBy(() -> BeirDataset.load(dir))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("test.tsv")
                .hasMessageContaining("no such file");
    }

    @Test
    void load_qrelsLineMissingColumn_namesFileAndLine() throws IOException {
        TinyDataset.write(dir);
        Files.writeString(dir.resolve("qrels/test.tsv"), "query-id\tcorpus-id\tscore\nq1\td1\t2\nq2\td3\n");

        assertThatThrownBy(() -> BeirDataset.load(dir))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("test.tsv:3:")
                .hasMessageContaining("columns");
    }

    @Test
    void load_qrelsHeaderWithoutScoreColumn_namesFileAndColumn() throws IOException {
        TinyDataset.write(dir);
        Files.writeString(dir.resolve("qrels/test.tsv"), "query-id\tcorpus-id\nq1\td1\n");

        assertThatThrownBy(() -> BeirDataset.load(dir))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("test.tsv:1:")
                .hasMessageContaining("'score'");
    }

    @Test
    void load_nonIntegerScore_namesFileAndLine() throws IOException {
        TinyDataset.write(dir);
        Files.writeString(dir.resolve("qrels/test.tsv"), "query-id\tcorpus-id\tscore\nq1\td1\thigh\n");

        assertThatThrownBy(() -> BeirDataset.load(dir))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("test.tsv:2:")
                .hasMessageContaining("integer");
    }

    @Test
    void load_negativeGrade_keptAsJudgedButNotRelevant() throws IOException {
        TinyDataset.write(dir);
        Files.writeString(dir.resolve("qrels/test.tsv"), "query-id\tcorpus-id\tscore\nq1\td1\t-1\nq1\td2\t1\n");

        BeirDataset dataset = BeirDataset.load(dir);

        assertThat(dataset.judgements("q1")).containsEntry("d1", -1).containsEntry("d2", 1);
    }
}
