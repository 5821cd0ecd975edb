package dev.ragkit.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ragkit eval} on a question-answering set: the answers measured end to end (answer-hit, cited-hit, CITE and
 * ROUTE) on the small set in {@code src/test/resources/qa-set}, a third of its documents left out of the index.
 */
final class AnswerEvalCliTest {
    private static final Path SET = Path.of("src/test/resources/qa-set");

    @TempDir
    Path cwd;
    private final Map<String, String> env = new HashMap<>();

    @BeforeEach
    void copyTheSet() throws IOException {
        env.put("OLLAMA_BASE_URL", CliRun.deadServerUrl());
        try (Stream<Path> files = Files.walk(SET)) {
            for (Path f : files.filter(Files::isRegularFile).toList()) {
                CliRun.write(cwd, "qa-set/" + SET.relativize(f).toString().replace('\\', '/'), Files.readString(f));
            }
        }
    }

    private CliRun run(String... args) {
        return CliRun.of(env, cwd, args);
    }

    @Test
    void eval_questionAnsweringSet_answersIndexedQuestionsAndRoutesTheLeftOutOnes() throws IOException {
        CliRun eval = run("eval", "qa-set", "--leave-out", "0.34", "--details", "details.jsonl");

        assertThat(eval.code()).as(eval.err()).isZero();
        assertThat(eval.out()).contains("6 documents, 18 questions", "all-minilm-l6-v2-q embeddings",
                "chunks of 126 tokens (embedder:all-minilm-l6-v2-q)", "indexed     4 documents (2 left out)",
                "answerable  12 questions", "left out    6 questions");
        List<JsonNode> details = new ArrayList<>();
        ObjectMapper json = new ObjectMapper();
        for (String line : Files.readAllLines(cwd.resolve("details.jsonl"))) {
            details.add(json.readTree(line));
        }
        assertThat(details).hasSize(18);
        List<JsonNode> leftOut = details.stream().filter(d -> !d.get("answerable").asBoolean()).toList();
        List<JsonNode> answerable = details.stream().filter(d -> d.get("answerable").asBoolean()).toList();
        assertThat(leftOut).hasSize(6).allSatisfy(d -> {
            assertThat(d.get("action").asText()).isEqualTo("ROUTE");
            assertThat(d.get("reason").asText()).contains("does not mention");
        });
        // a clear, small set: every answerable question is cited with its answer in the answer and the cited lines
        assertThat(answerable).hasSize(12).allSatisfy(d -> {
            assertThat(d.get("action").asText()).as(d.toString()).isEqualTo("CITE");
            assertThat(d.get("answerHit").asBoolean()).as(d.toString()).isTrue();
            assertThat(d.get("citedHit").asBoolean()).as(d.toString()).isTrue();
        });
        assertThat(eval.out()).contains("answer-hit 1.000, cited-hit 1.000, CITE 1.000, ROUTE 0.000")
                .contains("ROUTE 1.000, CITE 0.000 (0.000 with a known answer in the cited lines)");
    }

    /**
     * What {@code eval} measures is what a user gets: the kept documents indexed with {@code ragkit index} and each
     * question asked with {@code ragkit ask --json} (the path {@code rag_query} shares) give the same action, confidence,
     * answer, route reason and cited lines as {@code eval}'s details.
     */
    @Test
    void eval_answersAsIndexAndAskDo() throws IOException {
        CliRun eval = run("eval", "qa-set", "--leave-out", "0.34", "--details", "details.jsonl");
        assertThat(eval.code()).as(eval.err()).isZero();
        ObjectMapper json = new ObjectMapper();
        List<JsonNode> details = new ArrayList<>();
        for (String line : Files.readAllLines(cwd.resolve("details.jsonl"))) {
            details.add(json.readTree(line));
        }
        Set<String> leftOut = details.stream().filter(d -> !d.get("answerable").asBoolean())
                .map(d -> d.get("document").asText()).collect(Collectors.toSet());
        assertThat(leftOut).hasSize(2);
        try (Stream<Path> files = Files.list(cwd.resolve("qa-set/documents"))) {
            for (Path f : files.filter(f -> !leftOut.contains(f.getFileName().toString())).toList()) {
                CliRun.write(cwd, "kept/" + f.getFileName(), Files.readString(f));
            }
        }
        CliRun index = run("index", "kept", "--index", "idx");
        assertThat(index.code()).as(index.err()).isZero();

        for (JsonNode d : details) {
            CliRun ask = run("ask", d.get("question").asText(), "--index", "idx", "--backend", "extractive", "--json");
            String q = d.get("question").asText();
            boolean routed = d.get("action").asText().equals("ROUTE");
            assertThat(ask.code()).as(q + ask.err()).isEqualTo(routed ? RagkitCli.ROUTED : RagkitCli.OK);
            JsonNode r = json.readTree(ask.out());
            assertThat(r.get("action").asText()).as(q).isEqualTo(d.get("action").asText());
            assertThat(r.get("confidence").get("overall").asInt()).as(q).isEqualTo(d.get("confidence").asInt());
            assertThat(withoutSourceIds(r.get("answer").asText())).as(q)
                    .isEqualTo(withoutSourceIds(d.get("answer").asText()));
            String reason = r.path("routeTo").path("reason").asText(null);
            assertThat(reason).as(q).isEqualTo(d.get("reason").asText(null));
            List<String> cited = new ArrayList<>();
            r.get("citations").forEach(c -> cited.add(Path.of(c.get("path").asText()).getFileName() + ":"
                    + c.get("startLine").asInt() + "-" + c.get("endLine").asInt()));
            List<String> evalCited = new ArrayList<>();
            d.get("citations").forEach(c -> evalCited.add(c.asText().replaceFirst(" > .*", "")
                    .replaceFirst("^.*/", "")));
            assertThat(cited).as(q).isEqualTo(evalCited);
        }
    }

    private static String withoutSourceIds(String answer) {
        return answer.replaceAll("\\[SourceId: [^\\]]+]", "[SourceId]");
    }

    @Test
    void eval_badSetOrShare_isAUsageErrorSayingWhatIsWrong() throws IOException {
        CliRun.write(cwd, "broken/documents/a.md", "# A\n\nText.\n");
        CliRun.write(cwd, "broken/questions.jsonl", "{\"id\": \"1\", \"question\": \"Q?\", \"answers\": [\"x\"], "
                + "\"document\": \"missing.md\"}\n");

        CliRun broken = run("eval", "broken");
        CliRun share = run("eval", "qa-set", "--leave-out", "1");

        assertThat(broken.code()).isEqualTo(RagkitCli.USAGE);
        assertThat(broken.err()).contains("document 'missing.md' is not in");
        assertThat(share.code()).isEqualTo(RagkitCli.USAGE);
        assertThat(share.err()).contains("--leave-out must be a share from 0");
    }
}
