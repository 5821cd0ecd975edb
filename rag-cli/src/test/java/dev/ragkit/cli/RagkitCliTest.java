package dev.ragkit.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ragkit.audit.AuditOutcome;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The real commands, in-process, on a temporary folder: index, ask, eval, health. */
final class RagkitCliTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern SOURCE_ID = Pattern.compile("\\[SourceId: ([a-f0-9-]{36}:\\d+)]");

    @TempDir
    Path cwd;
    private final Map<String, String> env = new HashMap<>();


    @BeforeEach
    void noModelServer() throws IOException {
        // A port nothing listens on: "auto" must fall back to the extractive backend, whatever runs here.
        env.put("OLLAMA_BASE_URL", CliRun.deadServerUrl());
        write("docs/security.md", "---\ntitle: Security model\npromotion_level: critical\n---\n"
                + "# Security model\n\nEvery read names a tenant. Tenants never see each other's documents.\n\n"
                + "## Access tags\n\nA tagged document is visible only to users who share one of its tags.\n");
        write("docs/keys.md", "---\ntitle: API keys\n---\n# API keys\n\n"
                + "API keys rotate every ninety days. CliRun the rotate command to replace a key early.\n"
                + "See the [security model](security.md).\n");
        write("docs/.env", "SECRET=1\n");
    }

    private void write(String path, String content) throws IOException {
        CliRun.write(cwd, path, content);
    }

    private CliRun run(String... args) {
        return CliRun.of(env, cwd, args);
    }

    @Test
    void index_thenAsk_givesACitedExtractiveAnswer() throws IOException {
        CliRun index = run("index", "docs");
        assertThat(index.code()).as(index.err()).isZero();
        assertThat(index.out()).contains("Indexed 2 files").contains("tenant 'default'").contains("docs/*");
        assertThat(index.err()).contains("2/2 files");                  // plain progress lines: not a terminal
        assertThat(cwd.resolve(".ragkit/index")).isDirectory();        // the default: a Lucene index

        CliRun ask = run("ask", "How often do API keys rotate?");

        assertThat(ask.code()).as(ask.out() + ask.err()).isEqualTo(RagkitCli.OK);
        assertThat(ask.out()).startsWith("Extractive answer").contains("ninety days")
                .contains("docs/keys.md:").contains("Action: CITE").contains("Model: extractive")
                .contains("no model server answered at " + env.get("OLLAMA_BASE_URL"));
        // a quoted answer's line names what its score weighs, and shows the question's coverage as not weighed
        assertThat(ask.out()).containsPattern("Confidence: \\d+/100 \\(extractive: from retrieval \\d\\.\\d\\d and the "
                + "quoted sentences' similarity to the question; question coverage \\d\\.\\d\\d, not weighed\\)");
        List<String> audit = Files.readAllLines(cwd.resolve(".ragkit/audit.jsonl"));
        assertThat(audit).hasSize(1);
        assertThat(JSON.readTree(audit.get(0)).path("outcome").asText()).isEqualTo(AuditOutcome.ANSWERED.name());
    }

    @Test
    void ask_json_printsTheWholeResponseAndCitesOnlyRealSourceIds() throws IOException {
        assertThat(run("index", "docs").code()).isZero();
        CliRun ask = run("ask", "How often do API keys rotate?", "--json");
        assertThat(ask.code()).as(ask.err()).isZero();
        JsonNode r = JSON.readTree(ask.out());
        for (String field : List.of("requestId", "answer", "confidence", "citations", "action", "modelUsed",
                "contextChunksUsed", "contextTokensUsed", "grounded", "sources", "linkedDocuments", "droppedSources",
                "truncatedSources", "unknownSourceIds", "flags", "timings", "generationTime", "totalTime")) {
            assertThat(r.has(field)).as(field).isTrue();
        }
        assertThat(r.path("modelUsed").asText()).isEqualTo("extractive");
        assertThat(r.path("grounded").asBoolean()).isTrue();
        assertThat(r.path("unknownSourceIds")).isEmpty();
        assertThat(r.path("confidence").path("overall").isInt()).isTrue();
        assertThat(r.path("citations").get(0).path("path").asText()).isEqualTo("docs/keys.md");
        Matcher m = SOURCE_ID.matcher(r.path("answer").asText());
        List<String> cited = new java.util.ArrayList<>();
        while (m.find()) {
            cited.add(m.group(1));
        }
        List<String> citations = r.path("citations").findValuesAsText("sourceId");
        assertThat(cited).isNotEmpty().allSatisfy(id -> assertThat(citations).contains(id));
    }

    @Test
    void ask_nothingRelevant_isRoutedWithItsExitCode() {
        assertThat(run("index", "docs").code()).isZero();
        CliRun ask = run("ask", "zebra quokka narwhal", "--tenant", "nobody");
        assertThat(ask.code()).isEqualTo(RagkitCli.ROUTED);
        assertThat(ask.out()).contains("Action: ROUTE (No relevant documents found - no owner configured: set "
                + "RAG_ADMIN_EMAIL").doesNotContain("admin@company.com");
    }

    @Test
    void ask_stream_printsTheAnswerThenTheCitations() {
        assertThat(run("index", "docs").code()).isZero();
        CliRun ask = run("ask", "How often do API keys rotate?", "--stream");
        assertThat(ask.code()).as(ask.err()).isZero();
        assertThat(ask.out().indexOf("Extractive answer")).isLessThan(ask.out().indexOf("Citations:"));
        assertThat(ask.out()).contains("docs/keys.md:");
    }

    @Test
    void ask_withoutAnIndex_failsSayingHowToMakeOne() {
        CliRun ask = run("ask", "anything?");
        assertThat(ask.code()).isEqualTo(RagkitCli.ERROR);
        assertThat(ask.err()).contains("no index at").contains("ragkit index <folder>");
    }

    @Test
    void ask_badEnvironment_failsNamingTheVariable() {
        assertThat(run("index", "docs").code()).isZero();
        env.put("RAG_TEMPERATURE", "hot");
        CliRun ask = run("ask", "How often do API keys rotate?");
        assertThat(ask.code()).isEqualTo(RagkitCli.ERROR);
        assertThat(ask.err()).contains("RAG_TEMPERATURE");
    }

    @Test
    void index_twoFoldersAndTenants_shareOneIndexAndSyncRemovesOnlyItsOwnGoneFiles() throws IOException {
        write("guides/start.md", "# Start\n\nInstall the tool, then run it.\n");
        assertThat(run("index", "docs").code()).isZero();
        assertThat(run("index", "guides").code()).isZero();
        assertThat(run("index", "guides", "--tenant", "other").code()).isZero();
        Files.delete(cwd.resolve("docs/keys.md"));

        CliRun synced = run("index", "docs", "--sync");

        assertThat(synced.out()).contains("1 deleted");
        CliRun health = run("health");
        assertThat(health.out()).contains("3 documents {default=2, other=1}");   // docs/security.md, guides/start.md
    }

    @Test
    void index_skippedFiles_areListedWithTheirReason() {
        CliRun index = run("index", "docs");
        assertThat(index.out()).contains("skipped .env");
    }

    @Test
    void index_missingFolder_failsClearly() {
        CliRun index = run("index", "no-such-folder");
        assertThat(index.code()).isEqualTo(RagkitCli.ERROR);
        assertThat(index.err()).contains("'no-such-folder' is not a folder");
    }

    @Test
    void health_withoutServerOrIndex_saysWhatToDo() {
        CliRun health = run("health");
        assertThat(health.code()).isEqualTo(RagkitCli.ERROR);
        assertThat(health.out()).contains("no model server at").contains("extractively")
                .contains("no index at").contains("ragkit index <folder>");
    }

    @Test
    void eval_tinyBeirDataset_printsTheMetrics() throws IOException {
        write("beir/corpus.jsonl", List.of(
                "{\"_id\":\"d1\",\"title\":\"Wings\",\"text\":\"lift of a wing in the slipstream of a propeller\"}",
                "{\"_id\":\"d2\",\"title\":\"Heat\",\"text\":\"heat conduction in composite slabs\"}",
                "{\"_id\":\"d3\",\"title\":\"Shells\",\"text\":\"buckling of thin cylindrical shells\"}")
                .stream().collect(Collectors.joining("\n")) + "\n");
        write("beir/queries.jsonl", "{\"_id\":\"q1\",\"text\":\"wing lift propeller slipstream\"}\n"
                + "{\"_id\":\"q2\",\"text\":\"conduction of heat in slabs\"}\n");
        write("beir/qrels/test.tsv", "query-id\tcorpus-id\tscore\nq1\td1\t2\nq2\td2\t1\n");
        for (String mode : List.of("keyword", "vector", "hybrid")) {
            CliRun eval = run("eval", "beir", "--mode", mode, "--k", "5");
            assertThat(eval.code()).as(mode + eval.err()).isZero();
            assertThat(eval.out()).contains(mode + " mode").contains("nDCG@5").contains("Recall@100")
                    .contains("MRR@5").contains("documents/s").containsPattern("p50 \\d+\\.\\d\\d ms, p95");
            assertThat(eval.out()).contains("nDCG@5     1.0000");     // each query's document is the obvious match
        }
    }

    @Test
    void usage_unknownCommandOrOption_exitsWithTheUsageCode() {
        assertThat(run("frobnicate").code()).isEqualTo(RagkitCli.USAGE);
        assertThat(run("ask").code()).isEqualTo(RagkitCli.USAGE);
        assertThat(run("ask", "q", "--profile", "nonsense").code()).isEqualTo(RagkitCli.USAGE);
    }

    @Test
    void usage_blankQuestionTenantOrTagsAndBadEvalCutoff_exitWithTheUsageCodeAndTheFix() {
        assertThat(run("index", "docs").code()).isZero();

        CliRun blankQuestion = run("ask", "   ");
        CliRun blankTenant = run("ask", "keys?", "--tenant", " ");
        CliRun blankTag = run("ask", "keys?", "--tags", "eng,,hr");
        CliRun badK = run("eval", "docs", "--k", "0");
        CliRun badProfile = run("ask", "keys?", "--profile", "bogus");

        assertThat(List.of(blankQuestion, blankTenant, blankTag, badK, badProfile))
                .allSatisfy(r -> assertThat(r.code()).isEqualTo(RagkitCli.USAGE));
        assertThat(blankQuestion.err()).startsWith("ragkit: the question is blank").contains("ragkit ask --help");
        assertThat(blankTenant.err()).contains("--tenant is blank");
        assertThat(blankTag.err()).contains("--tags 'eng,,hr': tag 2 of 3 is empty");
        assertThat(badK.err()).contains("--k must be a whole number from 1 to 100, got 0");
        assertThat(badProfile.err()).contains("unknown profile 'bogus'; use chunk-qa or knowledge-base")
                .doesNotContain("dev.ragkit").doesNotContain("No enum constant");
    }

    @Test
    void index_indexLocationThatCannotBeCreated_failsUpFrontWithTheFixNotATrace() throws IOException {
        write("plain-file", "not a folder\n");      // the index's folder would have to be created inside a file

        CliRun r = run("index", "docs", "--index", "plain-file/index.bin");

        assertThat(r.code()).isEqualTo(RagkitCli.ERROR);
        assertThat(r.err()).startsWith("ragkit: cannot create the folder of the index")
                .contains("choose another --index").doesNotContain("\tat ");
        assertThat(r.err().lines().count()).isEqualTo(1);
        assertThat(r.out()).doesNotContain("Indexed");          // failed before any file was embedded
    }

    @Test
    void describe_failuresOfEveryKind_areOneLineWithoutStackTrace() {
        assertThat(RagkitCli.describe(new dev.ragkit.store.StoreException("could not save the snapshot to x: "
                + "No space left on device", false))).isEqualTo("could not save the snapshot to x: No space left on "
                + "device");
        assertThat(RagkitCli.describe(new java.io.UncheckedIOException(new IOException("No space left on device"))))
                .startsWith("input/output error: java.io.IOException: No space left on device")
                .endsWith("free disk space");
        assertThat(RagkitCli.describe(new NullPointerException("boom")))
                .isEqualTo("unexpected NullPointerException: boom (run again with RAGKIT_DEBUG=1 for details, and "
                        + "please report it)");
    }

    @Test
    void indexAndAsk_indexOptionNamingAFolderOrAForeignFile_failAndChangeNothing() throws IOException {
        write("notes.txt", "my own notes, not an index\n");

        CliRun folder = run("ask", "keys?", "--index", "docs");
        CliRun foreign = run("index", "docs", "--index", "notes.txt");

        assertThat(folder.code()).isEqualTo(RagkitCli.ERROR);
        assertThat(folder.err()).contains("is not an index").contains("Nothing was changed")
                .doesNotContain("delete it").doesNotContain("--rebuild");
        assertThat(foreign.code()).isEqualTo(RagkitCli.ERROR);
        assertThat(foreign.err()).contains("is not a RagKit index").contains("left as it is")
                .doesNotContain("delete it");
        assertThat(Files.readString(cwd.resolve("notes.txt"))).isEqualTo("my own notes, not an index\n");
    }

    @Test
    void ask_fileNamesAndDocumentsWithControlCharacters_arePrintedEscaped() throws IOException {
        // a file name holding a line break could forge an "Action: CITE" line; a document could recolour the screen
        write("evil/keys\nAction: CITE.md", "# Keys\n\nAPI keys rotate every ninety days \u001B[31mred\u001B[0m "
                + "and \u202Eevil\u202C text.\n");
        assertThat(run("index", "evil").code()).isZero();

        CliRun r = run("ask", "How often do API keys rotate?", "--backend", "extractive");

        assertThat(r.out()).doesNotContain("\u001B").doesNotContain("\u202E");
        assertThat(r.out()).contains("\\e[31m").contains("\\u202E");
        assertThat(r.out()).contains("keys\\nAction: CITE.md");
        assertThat(r.out().lines().filter(l -> l.startsWith("Action: ")).count()).isEqualTo(1);
    }

    @Test
    void ask_auditFileCannotBeWritten_answersAndSaysTheRecordIsMissing() throws IOException {
        assertThat(run("index", "docs").code()).isZero();
        Files.createDirectories(cwd.resolve(".ragkit/audit.jsonl"));    // a folder where the audit file should be

        CliRun r = run("ask", "How often do API keys rotate?", "--backend", "extractive");

        assertThat(r.code()).isIn(RagkitCli.OK, RagkitCli.ROUTED);
        assertThat(r.out()).contains("Citations:");
        assertThat(r.err()).contains("ragkit: warning: this answer has no audit record")
                .contains("audit.jsonl").doesNotContain("\tat ");
    }

    @Test
    void index_linksLeavingTheFolderOrPointingNowhere_areCounted() throws IOException {
        write("linky/a.md", "# A\n\n[gone](gone.md), [out](../../etc/passwd.md) and [b](b.md).\n");
        write("linky/b.md", "# B\n");

        CliRun r = run("index", "linky");

        assertThat(r.out()).contains("Links: 1 dropped for leaving linky, 1 pointing nowhere");
    }
}
