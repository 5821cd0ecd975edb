package dev.ragkit.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The destructive commands of issue 28, each as a user runs it: {@code --rebuild} never deletes what is not the
 * index's own, checks everything before it touches the index and swaps the new index in whole (in a child JVM, also
 * when killed, and while another process reads); {@code --sync} deletes only documents whose files are gone; two
 * folders of the same name never overwrite each other; a run that indexed nothing while files failed exits 1.
 */
final class IndexSafetyCliTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** User files that Lucene would take for its own by their names (and one it would not). */
    static final Map<String, String> USER_FILES = userFiles();

    @TempDir
    Path cwd;
    private final Map<String, String> env = new HashMap<>();

    static Map<String, String> userFiles() {
        Map<String, String> files = new LinkedHashMap<>();
        files.put("_config.yml", "title: my site\ntheme: minima\n");
        files.put("_notes.md", "# Notes\n\nmine, not the index's\n");
        files.put("_draft.docx", "a draft, kept as bytes");
        files.put("segments-plan.txt", "how we plan the customer segments\n");
        files.put("notes.txt", "plain notes\n");
        return files;
    }

    @BeforeEach
    void documents() throws IOException {
        env.put("OLLAMA_BASE_URL", CliRun.deadServerUrl());
        write("docs/vpn.md", "# VPN setup\n\nThe VPN client connects to gateway two with the modern profile.\n");
        write("docs/mail.md", "# Mail\n\nThe mail client connects to the mail gateway over IMAP.\n");
        write("docs/printing.md", "# Printing\n\nPrinters on the third floor take badge release jobs.\n");
    }

    private void write(String path, String content) throws IOException {
        CliRun.write(cwd, path, content);
    }

    private void writeAll(String folder, Map<String, String> files) throws IOException {
        for (Map.Entry<String, String> f : files.entrySet()) {
            write(folder + "/" + f.getKey(), f.getValue());
        }
    }

    private CliRun run(String... args) {
        return CliRun.of(env, cwd, args);
    }

    /** @return every file under {@code folder} with its bytes as text, by relative path */
    static Map<String, String> contents(Path folder) throws IOException {
        Map<String, String> all = new TreeMap<>();
        if (!Files.exists(folder)) {
            return all;
        }
        try (Stream<Path> files = Files.walk(folder)) {
            for (Path f : files.filter(Files::isRegularFile).toList()) {
                all.put(folder.relativize(f).toString(),
                        new String(Files.readAllBytes(f), StandardCharsets.ISO_8859_1));
            }
        }
        return all;
    }

    private JsonNode indexJson(String... args) throws IOException {
        CliRun r = run(Stream.concat(Stream.of("index"), Stream.concat(Stream.of(args), Stream.of("--json")))
                .toArray(String[]::new));
        assertThat(r.code()).as(r.err()).isZero();
        return JSON.readTree(r.out());
    }

    private String health(String... args) {
        CliRun h = run(Stream.concat(Stream.of("health"), Stream.of(args)).toArray(String[]::new));
        return h.out() + h.err();
    }

    // ------------------------------------------------------------------------------------------- never delete

    @Test
    void rebuild_folderOfUserFilesThatIsNotAnIndex_refusesWithoutRecommendingARebuildAndDeletesNothing()
            throws IOException {
        Map<String, String> likeLucenes = new LinkedHashMap<>(USER_FILES);
        likeLucenes.remove("notes.txt");
        writeAll("jekyll", likeLucenes);                // every name one Lucene would take for its own
        writeAll("site", USER_FILES);

        for (String folder : List.of("jekyll", "site")) {
            Map<String, String> before = contents(cwd.resolve(folder));

            CliRun rebuild = run("index", "docs", "--index", folder, "--rebuild");
            CliRun index = run("index", "docs", "--index", folder);
            CliRun ask = run("ask", "vpn?", "--index", folder);

            for (CliRun r : List.of(rebuild, index, ask)) {
                assertThat(r.code()).as(r.err()).isEqualTo(RagkitCli.ERROR);
                assertThat(r.err()).as(folder).contains("Nothing was changed").doesNotContain("--rebuild")
                        .doesNotContain("\tat ");
            }
            assertThat(contents(cwd.resolve(folder))).as(folder).isEqualTo(before);
            assertThat(cwd.resolve("." + folder + ".rebuild")).doesNotExist();
        }
    }

    @Test
    void rebuild_indexWithUserFilesInsideAndBesideIt_replacesOnlyTheIndexsOwnFiles() throws IOException {
        assertThat(run("index", "docs").code()).isZero();
        writeAll(".ragkit", USER_FILES);                                           // beside the index folder
        write(".ragkit/index/notes.txt", "my notes inside the index folder\n");   // inside, named unlike Lucene's
        Map<String, String> userFiles = new TreeMap<>(contents(cwd.resolve(".ragkit")));
        userFiles.keySet().removeIf(p -> p.startsWith("index/") && !p.equals("index/notes.txt")
                || p.equals("audit.jsonl"));
        write("docs/new.md", "# New\n\nA new page about the cafeteria menu.\n");

        CliRun rebuilt = run("index", "docs", "--rebuild");

        assertThat(rebuilt.code()).as(rebuilt.err()).isZero();
        Map<String, String> after = contents(cwd.resolve(".ragkit"));
        userFiles.forEach((path, content) -> assertThat(after).as(path).containsEntry(path, content));
        assertThat(health()).contains("default=4");
        assertThat(cwd.resolve(".ragkit/.index.rebuild")).doesNotExist();
    }

    @Test
    void index_indexFolderHoldingUserFilesNamedLikeLucenes_refusesToWriteAndKeepsThem() throws IOException {
        assertThat(run("index", "docs").code()).isZero();
        write(".ragkit/index/_notes.md", "# my notes\n");
        write(".ragkit/index/_config.yml", "title: x\n");

        for (CliRun r : List.of(run("index", "docs"), run("index", "docs", "--rebuild"))) {
            assertThat(r.code()).as(r.err()).isEqualTo(RagkitCli.ERROR);
            assertThat(r.err()).contains("_notes.md").contains("_config.yml").contains("Move them out of");
        }
        assertThat(Files.readString(cwd.resolve(".ragkit/index/_notes.md"))).isEqualTo("# my notes\n");
        assertThat(Files.readString(cwd.resolve(".ragkit/index/_config.yml"))).isEqualTo("title: x\n");
        assertThat(health()).contains("default=3");          // readers are not bothered by them
    }

    @Test
    void rebuild_snapshotPathNamingAUserFile_refusesAndKeepsIt() throws IOException {
        write("notes.bin", "not a snapshot");

        CliRun refused = run("index", "docs", "--store", "in-memory", "--index", "notes.bin", "--rebuild");

        assertThat(refused.code()).isEqualTo(RagkitCli.ERROR);
        assertThat(refused.err()).contains("not a RagKit snapshot").doesNotContain("--rebuild");
        assertThat(Files.readString(cwd.resolve("notes.bin"))).isEqualTo("not a snapshot");
    }

    // -------------------------------------------------------------------------------------- everything first

    @Test
    void rebuild_badOptionOrBrokenEmbedder_failsBeforeTheIndexIsTouched() throws IOException {
        for (String store : List.of("lucene", "in-memory")) {
            assertThat(run("index", "docs", "--store", store).code()).isZero();
            Path index = cwd.resolve(store.equals("lucene") ? ".ragkit/index" : ".ragkit/index.bin");
            Map<String, String> before = contents(index);
            List<List<String>> bad = List.of(List.of("--embedder", "bogus-model"), List.of("--chunk-tokens", "5"),
                    List.of("--prefix", "../etc"), List.of("--include", "[unclosed"));
            for (List<String> options : bad) {
                List<String> args = new ArrayList<>(List.of("index", "docs", "--store", store, "--rebuild"));
                args.addAll(options);
                CliRun r = run(args.toArray(String[]::new));
                assertThat(r.code()).as(store + " " + options + ": " + r.err()).isEqualTo(RagkitCli.USAGE);
                assertThat(contents(index)).as(store + " " + options).isEqualTo(before);
            }
            CliRun unreachable = run("index", "docs", "--store", store, "--rebuild", "--embedder",
                    "ollama:nomic-embed-text");
            assertThat(unreachable.code()).as(unreachable.err()).isEqualTo(RagkitCli.ERROR);
            assertThat(unreachable.err()).contains("does not work").contains("Nothing was changed");
            assertThat(contents(index)).as(store + " unreachable embedder").isEqualTo(before);
            assertThat(health("--store", store)).contains("default=3");
        }
    }

    @Test
    void rebuild_aFileFails_keepsTheOldIndexAndExitsOne() throws IOException {
        assertThat(run("index", "docs").code()).isZero();
        write("docs/broken.md", "---\ntitle: [unclosed\n---\nbody\n");

        CliRun r = run("index", "docs", "--rebuild");

        assertThat(r.code()).isEqualTo(RagkitCli.ERROR);
        assertThat(r.out()).contains("failed  broken.md");
        assertThat(r.err()).contains("not swapped in").contains("--exclude");
        assertThat(health()).contains("default=3");
        assertThat(run("index", "docs", "--rebuild", "--exclude", "broken.md").code()).isZero();
    }

    // ------------------------------------------------------------------------------ a second process, kill -9

    @Test
    void rebuild_killedMidway_leavesTheOldIndexWholeAndTheNextRunCleansUp() throws Exception {
        assertThat(run("index", "docs").code()).isZero();
        writeAll(".ragkit", USER_FILES);
        Map<String, String> index = contents(cwd.resolve(".ragkit/index"));
        writeMany("big", 300);

        try (CliChild rebuild = CliChild.start(env, cwd, "index", "big", "--rebuild")) {
            assertThat(rebuild.awaitErr("building a new index in", 120)).as(rebuild.err()).isTrue();
            rebuild.kill();
            assertThat(rebuild.err()).doesNotContain("replaced the index");
        }

        Map<String, String> after = contents(cwd.resolve(".ragkit/index"));
        after.remove("ragkit-writer.txt");            // who held the lock, left by the killed process
        index.remove("ragkit-writer.txt");
        assertThat(after).isEqualTo(index);
        assertThat(health()).contains("default=3");
        assertThat(contents(cwd.resolve(".ragkit"))).containsAllEntriesOf(USER_FILES);
        CliRun again = run("index", "docs");
        assertThat(again.code()).as(again.err()).isZero();
        assertThat(cwd.resolve(".ragkit/.index.rebuild")).doesNotExist();
    }

    @Test
    void rebuild_inAnotherProcess_readersSeeTheOldIndexOrTheNewOneNeverADamagedOrEmptyOne() throws Exception {
        assertThat(run("index", "docs").code()).isZero();
        writeMany("big", 300);
        int reads = 0;

        try (CliChild rebuild = CliChild.start(env, cwd, "index", "big", "--rebuild", "--tenant", "big")) {
            while (rebuild.alive() || reads == 0) {
                CliRun h = run("health");
                assertThat(h.code()).as(h.err()).isZero();
                assertThat(h.out() + h.err()).doesNotContain("damaged").containsAnyOf("default=3", "big=300");
                reads++;
            }
            assertThat(rebuild.exitCode(180)).as(rebuild.err()).isZero();
        }
        assertThat(health()).contains("big=300").doesNotContain("default=");
        assertThat(reads).isPositive();
    }

    private void writeMany(String folder, int count) throws IOException {
        String[] topics = {"badge", "parking", "laptop", "travel", "expense", "holiday", "printer", "network"};
        for (int i = 0; i < count; i++) {
            String topic = topics[i % topics.length];
            write(folder + "/" + topic + "-" + i + ".md", "# " + topic + " " + i + "\n\nThe " + topic + " policy, "
                    + "part " + i + ", says what to do when the " + topic + " request number " + i + " is late, who "
                    + "approves it, and where the form lives.\n");
        }
    }

    // --------------------------------------------------------------------------------------------------- sync

    @Test
    void sync_includeThatLeavesFilesOut_deletesNothingButGoneFiles() throws IOException {
        assertThat(run("index", "docs").code()).isZero();

        JsonNode synced = indexJson("docs", "--sync", "--include", "**/vpn.md");

        assertThat(synced.path("documentsDeleted").asInt()).isZero();
        assertThat(health()).contains("default=3");
        Files.delete(cwd.resolve("docs/mail.md"));
        assertThat(indexJson("docs", "--sync", "--exclude", "**/printing.md").path("documentsDeleted").asInt())
                .isEqualTo(1);
        assertThat(health()).contains("default=2");
    }

    // ----------------------------------------------------------------------------------- same-named folders

    @Test
    void index_twoFoldersOfTheSameNameInOneTenant_secondIsRefusedWithThePrefixFix() throws IOException {
        write("x/docs/install.md", "# Install\n\nInstall the x agent with the x installer.\n");
        write("x/docs/only-x.md", "# Only x\n\nThis page exists only in x.\n");
        write("y/docs/install.md", "# Install\n\nInstall the y agent from the y portal.\n");
        assertThat(run("index", "x/docs", "--sync").code()).isZero();

        CliRun clash = run("index", "y/docs", "--sync");

        assertThat(clash.code()).isEqualTo(RagkitCli.ERROR);
        assertThat(clash.err()).contains(cwd.resolve("x/docs").toRealPath().toString()).contains("--prefix y-docs");
        assertThat(health()).contains("default=2");
        assertThat(run("ask", "How do I install the agent?", "--json").out()).contains("x installer")
                .doesNotContain("y portal");
        assertThat(run("index", "y/docs", "--sync", "--prefix", "y-docs").code()).isZero();
        assertThat(run("index", "x/docs", "--sync").code()).isZero();
        assertThat(health()).contains("default=3");
    }

    // -------------------------------------------------------------------------------------------- exit codes

    @Test
    void index_nothingIndexedAndFilesFailed_exitsOne() throws IOException {
        CliRun r = run("index", "docs", "--embedder", "ollama:nomic-embed-text");

        assertThat(r.code()).as(r.err()).isEqualTo(RagkitCli.ERROR);
        assertThat(r.out()).contains("Indexed 0 files").contains("3 failed");
        assertThat(r.err()).contains("nothing was indexed");
        assertThat(run("index", "docs").code()).as("the index records the embedder").isEqualTo(RagkitCli.ERROR);
        assertThat(run("index", "docs", "--rebuild").code()).as("rebuilt with the default embedder").isZero();
    }
}
