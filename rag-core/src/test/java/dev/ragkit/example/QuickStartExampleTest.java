package dev.ragkit.example;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class QuickStartExampleTest {

    @Test
    void run_folderOfMarkdown_findsTheRightChunkWithItsSectionInEveryMode(@TempDir Path dir) throws IOException {
        Path docs = Files.createDirectories(dir.resolve("docs"));
        Files.writeString(docs.resolve("install.md"), "---\ntitle: Install\n---\n# Install\n\n## Linux\n\n"
                + "Unpack the archive and run the installer script.\n");
        Files.writeString(docs.resolve("billing.md"), "# Billing\n\nInvoices are sent monthly.\n");
        Files.createDirectories(docs.resolve(".hidden"));
        Files.writeString(docs.resolve(".hidden/secret.md"), "# Secret\n\ninstaller script secrets\n");
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();

        QuickStartExample.run(docs, List.of("installer script"), Files.createDirectories(dir.resolve("work")),
                new PrintStream(bytes, true, StandardCharsets.UTF_8));

        String output = bytes.toString(StandardCharsets.UTF_8);
        assertThat(output).contains("indexed 2 files").contains("skipped 1, failed 0");
        assertThat(output).contains("saved and reloaded a snapshot");
        assertThat(output).doesNotContain("secret.md");
        for (String mode : List.of("vector ", "keyword", "hybrid ")) {
            // a chunk never spans a change of section: the answer is lines 6-8, under "Install > Linux", first
            assertThat(output).containsPattern("(?m)^  " + mode + "  install\\.md:6-8 .* Install > Linux$");
            assertThat(output).containsPattern("(?m)^  " + mode + "  install\\.md:4-4 .* Install$");
        }
    }
}
