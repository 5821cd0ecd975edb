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
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The CLI's index: Lucene by default, a snapshot with --store in-memory, the old snapshot still read and migrated,
 * empty indexes, damaged ones, --rebuild, --filter, and two ragkit index processes at once losing nothing.
 */
final class CliIndexTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path cwd;
    private final Map<String, String> env = new HashMap<>();


    @BeforeEach
    void documents() throws IOException {
        env.put("OLLAMA_BASE_URL", CliRun.deadServerUrl());
        write("docs/vpn-2019.md", "---\ntitle: VPN (old)\nyear: 2019\nproduct: vpn\n---\n# VPN setup\n\n"
                + "The VPN client connects to gateway one with the legacy profile.\n");
        write("docs/vpn-2025.md", "---\ntitle: VPN\nyear: 2025\nproduct: vpn\n---\n# VPN setup\n\n"
                + "The VPN client connects to gateway two with the modern profile.\n");
        write("docs/mail.md", "---\ntitle: Mail\nyear: 2025\nproduct: mail\n---\n# Mail\n\n"
                + "The mail client connects to the mail gateway over IMAP.\n");
        write("team-b/b.md", "# Team B\n\nTeam B deploys on Fridays.\n");
    }

    private void write(String path, String content) throws IOException {
        CliRun.write(cwd, path, content);
    }

    private CliRun run(String... args) {
        return CliRun.of(env, cwd, args);
    }

    private JsonNode ask(String... args) throws IOException {
        List<String> all = new ArrayList<>(List.of("ask"));
        all.addAll(List.of(args));
        all.add("--json");
        CliRun r = run(all.toArray(String[]::new));
        assertThat(r.code()).as(r.err()).isIn(RagkitCli.OK, RagkitCli.ROUTED);
        return JSON.readTree(r.out());
    }

    @Test
    void theDefaultIndexIsLuceneAndTheSnapshotIsAChoice() throws IOException {
        assertThat(run("index", "docs").code()).isZero();
        assertThat(cwd.resolve(".ragkit/index")).isDirectory();
        assertThat(ask("How does the VPN client connect?").path("sources").toString()).contains("docs/vpn");

        CliRun snapshot = run("index", "docs", "--store", "in-memory");
        assertThat(snapshot.out()).contains("snapshot " + cwd.resolve(".ragkit/index.bin"));
        assertThat(ask("How does the VPN client connect?", "--store", "in-memory").path("sources").toString())
                .contains("docs/vpn");
        assertThat(run("index", "docs", "--store", "elastic").code()).isEqualTo(RagkitCli.USAGE);
    }

    @Test
    void anOldSnapshotIsReadWithAHintAndMigrated() throws IOException {
        assertThat(run("index", "docs", "--store", "in-memory").code()).isZero();

        CliRun old = run("ask", "How does the VPN client connect?");
        assertThat(old.err()).contains("ragkit migrate");
        assertThat(old.out()).contains("docs/vpn");

        CliRun migrate = run("migrate");
        assertThat(migrate.code()).as(migrate.err()).isZero();
        assertThat(migrate.out()).contains("Migrated 3 documents");
        CliRun after = run("ask", "How does the VPN client connect?");
        assertThat(after.err()).doesNotContain("ragkit migrate");
        assertThat(after.out()).contains("docs/vpn");
        CliRun health = run("health");
        assertThat(health.out()).contains("Lucene index").contains("3 documents {default=3}");
    }

    @Test
    void metadataFiltersNarrowTheSearch() throws IOException {
        assertThat(run("index", "docs").code()).isZero();

        JsonNode recent = ask("How does the VPN client connect?", "--filter", "year>=2024 and product=vpn");
        assertThat(recent.path("sources")).isNotEmpty();
        assertThat(recent.path("sources").toString()).contains("docs/vpn-2025.md").doesNotContain("vpn-2019")
                .doesNotContain("mail.md");

        CliRun bad = run("ask", "vpn?", "--filter", "year >= and");
        assertThat(bad.code()).isEqualTo(RagkitCli.USAGE);
        assertThat(bad.err()).contains("--filter").contains("column");
    }

    @Test
    void anEmptyIndexIsAnIndex() throws IOException {
        write("images/logo.png", "\u0089PNG");
        for (String store : List.of("lucene", "in-memory")) {
            CliRun index = run("index", "images", "--store", store);
            assertThat(index.code()).as(index.err()).isZero();
            CliRun ask = run("ask", "anything?", "--store", store);
            assertThat(ask.code()).as(store + ": " + ask.err()).isEqualTo(RagkitCli.ROUTED);
            assertThat(run("index", "docs", "--store", store).code()).as(store).isZero();
        }
    }

    @Test
    void aDamagedIndexIsReportedInOneLineAndNeverOverwritten() throws IOException {
        write(".ragkit/index/segments_1", "not a lucene commit");
        byte[] before = Files.readAllBytes(cwd.resolve(".ragkit/index/segments_1"));

        CliRun ask = run("ask", "vpn?");
        CliRun index = run("index", "docs");
        CliRun rebuild = run("index", "docs", "--rebuild");

        for (CliRun r : List.of(ask, index, rebuild)) {
            assertThat(r.code()).isEqualTo(RagkitCli.ERROR);
            assertThat(r.err()).doesNotContain("\tat ").contains("Nothing was changed").doesNotContain("--rebuild");
        }
        assertThat(Files.readAllBytes(cwd.resolve(".ragkit/index/segments_1"))).isEqualTo(before);

        write("notes/keep.txt", "mine");
        CliRun refused = run("index", "docs", "--rebuild", "--index", "notes");
        assertThat(refused.code()).isEqualTo(RagkitCli.ERROR);
        assertThat(refused.err()).contains("not an index RagKit made").doesNotContain("--rebuild");
        assertThat(cwd.resolve("notes/keep.txt")).exists();
    }

    @Test
    void aDamagedIndexRagKitMade_isReportedWithTheRebuildThatRepairsIt() throws IOException {
        assertThat(run("index", "docs").code()).isZero();
        try (var files = Files.list(cwd.resolve(".ragkit/index"))) {
            for (Path f : files.filter(p -> p.getFileName().toString().startsWith("segments_")).toList()) {
                byte[] bytes = Files.readAllBytes(f);
                bytes[bytes.length - 1] ^= 0x5a;                  // the checksum no longer matches
                Files.write(f, bytes);
            }
        }

        CliRun ask = run("ask", "vpn?");
        assertThat(ask.code()).isEqualTo(RagkitCli.ERROR);
        assertThat(ask.err()).contains("damaged").contains("--rebuild").doesNotContain("\tat ");

        CliRun rebuilt = run("index", "docs", "--rebuild");
        assertThat(rebuilt.code()).as(rebuilt.err()).isZero();
        assertThat(rebuilt.err()).contains("replaced the index");
        assertThat(ask("How does the VPN client connect?").path("sources").toString()).contains("docs/vpn");
    }

    @Test
    void twoIndexProcessesAtOnce_bothLand_forLuceneAndForTheSnapshot() throws Exception {
        for (String store : List.of("lucene", "in-memory")) {
            Process a = child("index", "docs", "--tenant", "alpha", "--store", store);
            Process b = child("index", "team-b", "--tenant", "beta", "--store", store);
            assertThat(a.waitFor(180, TimeUnit.SECONDS)).isTrue();
            assertThat(b.waitFor(180, TimeUnit.SECONDS)).isTrue();
            String errors = new String(a.getErrorStream().readAllBytes(), StandardCharsets.UTF_8)
                    + new String(b.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(a.exitValue()).as(errors).isZero();
            assertThat(b.exitValue()).as(errors).isZero();

            CliRun health = run("health", "--store", store);
            assertThat(health.out()).as(store).contains("alpha=3").contains("beta=1");
        }
    }

    private Process child(String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "-cp", System.getProperty("java.class.path"), "dev.ragkit.cli.RagkitCli"));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command).directory(cwd.toFile());
        builder.environment().putAll(env);
        builder.redirectOutput(ProcessBuilder.Redirect.DISCARD);
        return builder.start();
    }
}
