package dev.ragkit.store.inmemory.example;

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
    void run_folderOfMarkdown_findsTheRightParagraphInEveryMode(@TempDir Path dir) throws IOException {
        Path docs = Files.createDirectories(dir.resolve("docs"));
        Files.writeString(docs.resolve("install.md"), "# Install\n\nDownload the archive.\n\n"
                + "Unpack the archive and run the installer script.\n");
        Files.writeString(docs.resolve("billing.md"), "# Billing\n\nInvoices are sent monthly.\n");
        Files.createDirectories(docs.resolve(".hidden"));
        Files.writeString(docs.resolve(".hidden/secret.md"), "# Secret\n\ninstaller script secrets\n");
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();

        QuickStartExample.run(docs, List.of("installer script"), Files.createDirectories(dir.resolve("work")),
                new PrintStream(bytes, true, StandardCharsets.UTF_8));

        String output = bytes.toString(StandardCharsets.UTF_8);
        assertThat(output).contains("indexed 2 markdown files (5 paragraphs)");
        assertThat(output).contains("saved and reloaded a snapshot");
        assertThat(output).doesNotContain("secret");
        for (String mode : List.of("vector ", "keyword", "hybrid ")) {
            // each mode's best hit is the paragraph on lines 5-5 of install.md
            assertThat(output).containsPattern("(?m)^  " + mode + "  install\\.md:5-5 ");
        }
    }
}
