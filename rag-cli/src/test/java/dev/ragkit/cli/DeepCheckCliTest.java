package dev.ragkit.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ragkit health --deep} (issue 28): a byte flipped inside a segment's data file goes unnoticed by
 * {@code ask} and {@code health}, and the deep check finds it, names the documents to re-index, changes nothing,
 * and drops the damaged segment only when asked; documents it cannot name mean a rebuild.
 */
final class DeepCheckCliTest {
    @TempDir
    Path cwd;
    private final Map<String, String> env = new HashMap<>();

    @BeforeEach
    void documents() throws IOException {
        env.put("OLLAMA_BASE_URL", CliRun.deadServerUrl());
        CliRun.write(cwd, "docs/vpn.md", "# VPN setup\n\nThe VPN client connects to gateway two with the modern"
                + " profile.\n");
        CliRun.write(cwd, "docs/mail.md", "# Mail\n\nThe mail client connects to the mail gateway over IMAP.\n");
        CliRun.write(cwd, "notes/printing.md", "# Printing\n\nPrinters on the third floor take badge release"
                + " jobs.\n");
    }

    private CliRun run(String... args) {
        return CliRun.of(env, cwd, args);
    }

    private Path index() {
        return cwd.resolve(".ragkit/index");
    }

    /** Two folders, each indexed by its own run: two segments. */
    private void twoFolders() {
        assertThat(run("index", "docs").code()).isZero();
        assertThat(run("index", "notes").code()).isZero();
    }

    @Test
    void deep_cleanIndex_saysCleanAndExitsZero() {
        twoFolders();

        CliRun deep = run("health", "--deep");

        assertThat(deep.code()).as(deep.out() + deep.err()).isZero();
        assertThat(deep.out()).contains("deep:    clean").contains("3 documents").doesNotContain("DAMAGED");
    }

    @Test
    void deep_byteFlippedInAVectorFile_namesTheSegmentsDocumentsChangesNothingAndDropsOnlyWhenAsked()
            throws IOException {
        twoFolders();
        String segment = IndexDamage.segmentHolding(index(), "docs/vpn.md");
        String file = IndexDamage.flip(index(), segment, "vec");
        Map<String, String> before = IndexSafetyCliTest.contents(index());
        String docs = cwd.resolve("docs").toRealPath().toString();

        CliRun ask = run("ask", "How does the VPN client connect?");
        CliRun health = run("health");
        CliRun deep = run("health", "--deep");

        assertThat(ask.code()).as("ask does not notice: " + ask.err()).isNotEqualTo(RagkitCli.ERROR);
        assertThat(health.code()).as("health does not notice").isZero();
        assertThat(deep.code()).as(deep.out() + deep.err()).isEqualTo(RagkitCli.ERROR);
        assertThat(deep.out()).contains("DAMAGED").contains("segment " + segment).contains("checksum")
                .contains(file).contains("docs/mail.md, docs/vpn.md").contains("folder " + docs)
                .doesNotContain("printing.md").contains("Nothing was changed")
                .contains("ragkit health --deep --drop-damaged").contains("ragkit index " + docs);
        OptionsNamed.assertReal(deep.out(), "health");
        assertThat(withoutLock(IndexSafetyCliTest.contents(index()))).isEqualTo(withoutLock(before));

        CliRun drop = run("health", "--deep", "--drop-damaged");

        assertThat(drop.code()).isEqualTo(RagkitCli.ERROR);
        assertThat(drop.out()).contains("Dropped the damaged segments").contains("ragkit index " + docs);
        OptionsNamed.assertReal(drop.out(), "health");
        assertThat(run("health").out()).contains("default=1");
        assertThat(run("health", "--deep").code()).isZero();
        assertThat(run("index", "docs").code()).isZero();
        CliRun whole = run("health", "--deep");
        assertThat(whole.code()).as(whole.out()).isZero();
        assertThat(run("health").out()).contains("default=3");
    }

    @Test
    void deep_segmentWhoseDocumentsCannotBeRead_saysRebuildAndDropsNothing() throws IOException {
        twoFolders();
        String segment = IndexDamage.segmentHolding(index(), "docs/vpn.md");
        IndexDamage.flip(index(), segment, "fnm");          // the field names: Lucene cannot open the segment
        Map<String, String> before = IndexSafetyCliTest.contents(index());

        CliRun deep = run("health", "--deep");
        CliRun drop = run("health", "--deep", "--drop-damaged");

        for (CliRun r : java.util.List.of(deep, drop)) {
            assertThat(r.code()).as(r.out() + r.err()).isEqualTo(RagkitCli.ERROR);
            assertThat(r.out()).contains("DAMAGED").contains("segment " + segment)
                    .contains("its documents cannot be read").contains("Nothing was changed")
                    .contains("--rebuild").doesNotContain("Dropped").doesNotContain("\tat ");
            OptionsNamed.assertReal(r.out(), "health");
        }
        assertThat(withoutLock(IndexSafetyCliTest.contents(index()))).isEqualTo(withoutLock(before));
        CliRun rebuilt = run("index", "docs", "--rebuild");
        assertThat(rebuilt.code()).as(rebuilt.err()).isZero();
        assertThat(run("health", "--deep").out()).contains("deep:    clean");
    }

    @Test
    void dropDamaged_withoutDeep_isAUsageError() {
        twoFolders();

        CliRun r = run("health", "--drop-damaged");

        assertThat(r.code()).isEqualTo(RagkitCli.USAGE);
        assertThat(r.err()).contains("--deep");
    }

    @Test
    void deep_snapshot_saysItsChecksumIsVerifiedOnEveryLoad() {
        assertThat(run("index", "docs", "--store", "in-memory").code()).isZero();

        CliRun deep = run("health", "--deep", "--store", "in-memory");

        assertThat(deep.code()).isZero();
        assertThat(deep.out()).contains("deep:    clean").contains("CRC-32C");
    }

    private static Map<String, String> withoutLock(Map<String, String> files) {
        Map<String, String> copy = new HashMap<>(files);
        copy.remove("write.lock");
        copy.remove("ragkit-writer.txt");
        return copy;
    }
}
