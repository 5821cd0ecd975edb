package dev.ragkit.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the CLI says about indexes (issue 28): a folder that is no index is never told to rebuild; an unknown
 * embedder is reported as unknown before anything about the index; every option {@code migrate} suggests exists;
 * a reader during another process's rebuild is told to retry, not that the index is damaged.
 */
final class IndexMessagesCliTest {
    @TempDir
    Path cwd;
    private final Map<String, String> env = new HashMap<>();

    @BeforeEach
    void documents() throws IOException {
        env.put("OLLAMA_BASE_URL", CliRun.deadServerUrl());
        CliRun.write(cwd, "docs/vpn.md", "# VPN setup\n\nThe VPN client connects to gateway two.\n");
        CliRun.write(cwd, "docs/mail.md", "# Mail\n\nThe mail client connects over IMAP.\n");
    }

    private CliRun run(String... args) {
        return CliRun.of(env, cwd, args);
    }

    private CliRun run(Map<String, String> extra, String... args) {
        Map<String, String> all = new HashMap<>(env);
        all.putAll(extra);
        return CliRun.of(all, cwd, args);
    }

    // ------------------------------------------------------------------------------------ not an index

    @Test
    void aFolderThatIsNoIndex_isSaidToBeNoneWithHowToCreateOne_neverToRebuildNorDamaged() throws IOException {
        CliRun.write(cwd, "tmp-like/report.pdf.part", "half a download");
        CliRun.write(cwd, "tmp-like/hsperfdata_me/4711", "jvm");
        CliRun.write(cwd, "lucene-names/segments_1", "my own notes, named like Lucene's commit\n");
        CliRun.write(cwd, "lucene-names/_0.cfs", "my own notes, named like a Lucene segment\n");
        CliRun.write(cwd, "pending/pending_segments_2", "not Lucene's either\n");

        for (String folder : List.of("tmp-like", "lucene-names", "pending")) {
            Map<String, String> before = IndexSafetyCliTest.contents(cwd.resolve(folder));
            List<CliRun> runs = List.of(run("ask", "vpn?", "--index", folder), run("health", "--index", folder),
                    run("health", "--deep", "--index", folder), run("index", "docs", "--index", folder));
            for (CliRun r : runs) {
                assertThat(r.code()).as(folder + ": " + r.err()).isEqualTo(RagkitCli.ERROR);
                assertThat(r.err()).as(folder).contains("is not an index (not a RagKit index")
                        .contains("ragkit index <folder of documents> --index <new folder>")
                        .doesNotContain("--rebuild").doesNotContain("damaged").doesNotContain("\tat ");
                OptionsNamed.assertReal(r.err(), "ask");
            }
            assertThat(IndexSafetyCliTest.contents(cwd.resolve(folder))).as(folder).isEqualTo(before);
        }
    }

    // --------------------------------------------------------------------------------- unknown embedder

    @Test
    void anUnknownEmbedderOnAnExistingIndex_isReportedUnknownWithTheKnownNames_beforeAnySuggestionAboutTheIndex() {
        for (String store : List.of("lucene", "in-memory")) {
            assertThat(run("index", "docs", "--store", store).code()).isZero();
            List<List<String>> commands = List.of(List.of("ask", "vpn?"), List.of("index", "docs"), List.of("mcp"),
                    List.of("index", "docs", "--rebuild"));
            for (List<String> command : commands) {
                List<String> flag = new ArrayList<>(command);
                flag.addAll(List.of("--store", store, "--embedder", "bogus-model"));
                List<String> plain = new ArrayList<>(command);
                plain.addAll(List.of("--store", store));
                for (CliRun r : List.of(run(flag.toArray(String[]::new)),
                        run(Map.of("RAG_EMBEDDER", "bogus-model"), plain.toArray(String[]::new)))) {
                    String what = store + " " + command;
                    assertThat(r.code()).as(what + ": " + r.err()).isEqualTo(RagkitCli.USAGE);
                    assertThat(r.err()).as(what).contains("no embedder named 'bogus-model'")
                            .contains("all-minilm-l6-v2").contains("bge-small-en-v1.5").contains("ollama:<model>")
                            .doesNotContain("--rebuild").doesNotContain("holds vectors made by");
                }
            }
        }
    }

    // --------------------------------------------------------------------------------------- migrate

    @Test
    void migrate_everyOptionItsMessagesNameIsARealOptionOfTheCommandNamed() throws IOException {
        assertThat(run("index", "docs", "--store", "in-memory").code()).isZero();        // .ragkit/index.bin
        CliRun.write(cwd, "folder-snapshot/x", "x");
        CliRun.write(cwd, "notes.bin", "not a snapshot");
        byte[] damaged = Files.readAllBytes(cwd.resolve(".ragkit/index.bin"));
        damaged[damaged.length / 2] ^= (byte) 0xFF;
        Files.write(cwd.resolve("damaged.bin"), damaged);
        CliRun.write(cwd, "a-file", "a file where the index should go");
        CliRun.write(cwd, "my-folder/notes.txt", "my notes");
        assertThat(run("index", "docs", "--index", "full").code()).isZero();
        assertThat(run("index", "docs", "--index", "other-embedder", "--embedder", "bge-small-en-v1.5-q",
                "--exclude", "**").code()).isZero();

        List<List<String>> failing = List.of(
                List.of("--from", "missing.bin"),
                List.of("--from", "folder-snapshot"),
                List.of("--from", "notes.bin"),
                List.of("--from", "damaged.bin", "--to", "new"),
                List.of("--to", "a-file"),
                List.of("--to", "a-file/index"),
                List.of("--to", "my-folder"),
                List.of("--to", "full"),
                List.of("--to", "other-embedder"));
        for (List<String> options : failing) {
            List<String> args = new ArrayList<>(List.of("migrate"));
            args.addAll(options);
            CliRun r = run(args.toArray(String[]::new));
            assertThat(r.code()).as(options + ": " + r.err()).isEqualTo(RagkitCli.ERROR);
            assertThat(r.err()).as(options.toString()).startsWith("ragkit: ").doesNotContain("\tat ");
            OptionsNamed.assertReal(r.err(), "migrate");
        }
        assertThat(Files.readString(cwd.resolve("my-folder/notes.txt"))).isEqualTo("my notes");
        CliRun done = run("migrate", "--to", "new");
        assertThat(done.code()).as(done.err()).isZero();
        OptionsNamed.assertReal(done.out() + done.err(), "migrate");
        assertThat(run("health", "--index", "new").out()).contains("default=2");
    }

    @Test
    void optionsNamed_attributesOptionsToTheCommandNamedBeforeThem() {
        assertThat(OptionsNamed.named("migrate into a new folder (--to), or run ragkit index <folder> --index x"
                + " --rebuild; or point to it with --index", "migrate"))
                .containsExactly("migrate --to", "index --index", "index --rebuild", "migrate --index");
    }

    // ---------------------------------------------------------------------------- during a rebuild

    /** The folder as a rebuild of a new index leaves it while it swaps: segment files, no commit, staging beside. */
    private Path midSwap(long pid) throws IOException {
        assertThat(run("index", "docs", "--index", "x").code()).isZero();
        Path dir = cwd.resolve("x");
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : files.filter(f -> f.getFileName().toString().startsWith("segments_")).toList()) {
                Files.delete(f);
            }
        }
        assertThat(run("index", "docs", "--index", ".x.rebuild").code()).isZero();   // the staging index
        Files.writeString(dir.resolve("ragkit-writer.txt"), "process " + pid + " on "
                + InetAddress.getLocalHost().getHostName() + " since " + Instant.now() + "\n", StandardCharsets.UTF_8);
        return dir;
    }

    @Test
    void aReaderDuringTheSwapOfARebuild_isToldTheIndexIsBeingRebuiltAndToRetry() throws IOException {
        midSwap(ProcessHandle.current().pid());

        for (CliRun r : List.of(run("ask", "vpn?", "--index", "x"), run("health", "--index", "x"),
                run("health", "--deep", "--index", "x"))) {
            assertThat(r.code()).as(r.err()).isEqualTo(RagkitCli.ERROR);
            assertThat(r.err()).contains("is being rebuilt by another process").contains("Try again")
                    .doesNotContain("damaged").doesNotContain("no index");
        }
    }

    @Test
    void aReaderAfterARebuildWasKilledMidSwap_isToldToRunTheRebuildAgain() throws Exception {
        Process gone = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-version").redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        gone.waitFor();
        midSwap(gone.pid());

        CliRun ask = run("ask", "vpn?", "--index", "x");

        assertThat(ask.code()).isEqualTo(RagkitCli.ERROR);
        assertThat(ask.err()).contains("stopped before it swapped").contains("--rebuild")
                .doesNotContain("being rebuilt");
        OptionsNamed.assertReal(ask.err(), "ask");
        CliRun again = run("index", "docs", "--index", "x", "--rebuild");
        assertThat(again.code()).as(again.err()).isZero();
        assertThat(run("health", "--index", "x").out()).contains("default=2");
    }

    @Test
    void readersWhileAnotherProcessRebuildsANewIndex_areToldToRetryUntilItIsSwappedIn() throws Exception {
        String[] topics = {"badge", "parking", "laptop", "travel", "expense", "holiday", "printer", "network"};
        for (int i = 0; i < 200; i++) {
            String topic = topics[i % topics.length];
            CliRun.write(cwd, "big/" + topic + "-" + i + ".md", "# " + topic + " " + i + "\n\nThe " + topic
                    + " policy, part " + i + ", says who approves request " + i + " and where the form lives.\n");
        }
        int rebuilding = 0;
        int answered = 0;
        try (CliChild rebuild = CliChild.start(env, cwd, "index", "big", "--index", "fresh", "--rebuild")) {
            assertThat(rebuild.awaitErr("building a new index in", 120)).as(rebuild.err()).isTrue();
            while (rebuild.alive()) {
                for (CliRun r : List.of(run("health", "--index", "fresh"), run("ask", "badge?", "--index", "fresh"))) {
                    String said = r.out() + r.err();
                    assertThat(said).doesNotContain("damaged").doesNotContain("no index").doesNotContain("\tat ");
                    if (r.code() == RagkitCli.ERROR) {
                        assertThat(r.err()).contains("is being rebuilt by another process").contains("Try again");
                        rebuilding++;
                    } else {
                        answered++;
                    }
                }
            }
            assertThat(rebuild.exitCode(180)).as(rebuild.err()).isZero();
        }
        assertThat(rebuilding).as("reads while the new index was built").isPositive();
        assertThat(run("health", "--index", "fresh").out()).contains("default=200");
        assertThat(answered + rebuilding).isPositive();
    }
}
