package dev.ragkit.cli;

import static dev.ragkit.documents.testing.OfficeWriters.paragraph;
import static dev.ragkit.documents.testing.OfficeWriters.pdf;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.poi.xwpf.usermodel.XWPFDocument;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ragkit index} on a folder of mixed documents — a PDF written by PDFBox, a Word document written by POI,
 * an HTML page, a text file, Java source, a broken Word 97 file and an image — then {@code ask}: the answers cite the
 * PDF's page and the Word document's section, every type is counted, and the files no parser reads are listed.
 */
final class MixedDocumentsCliTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path cwd;
    private final Map<String, String> env = new HashMap<>();

    @BeforeEach
    void folderOfMixedDocuments() throws IOException {
        env.put("OLLAMA_BASE_URL", CliRun.deadServerUrl());
        Path kb = Files.createDirectories(cwd.resolve("kb"));
        pdf(kb.resolve("hr-handbook.pdf"), List.of(
                List.of("Welcome to the company.", "This handbook explains our policies."),
                List.of("Working hours are flexible between seven and seven."),
                List.of("Parental leave", "Parents receive sixteen weeks of paid parental leave.",
                        "Apply for parental leave in the HR portal.")));
        try (XWPFDocument doc = new XWPFDocument(); OutputStream out = Files.newOutputStream(kb.resolve("guide.docx"))) {
            // Sections long enough that the chunks start inside them (a chunk's section is its first line's).
            doc.createParagraph().createRun().setText("Agent guide");
            paragraph(doc, "Heading1", "Install");
            filler(doc, "Before installing, check the requirements of release %d: memory, disk and network.", 8);
            paragraph(doc, "Heading2", "Linux");
            filler(doc, "Kernel %d and newer are tested; older kernels may work without support.", 8);
            doc.createParagraph().createRun().setText("On Linux the agent installs with the apt package agentd.");
            paragraph(doc, "Heading2", "Windows");
            filler(doc, "Windows Server %d needs the latest cumulative update before setup.", 8);
            doc.createParagraph().createRun().setText("On Windows run the MSI installer as an administrator.");
            doc.write(out);
        }
        Files.writeString(kb.resolve("status.html"), "<html><head><title>Status</title><script>x()</script></head>"
                + "<body><nav>menu</nav><main><h1>Status page</h1><p>The status page is refreshed every "
                + "five minutes.</p></main></body></html>", StandardCharsets.UTF_8);
        Files.writeString(kb.resolve("notes.txt"), "# not a heading\nThe backup runs nightly at two.\n",
                StandardCharsets.UTF_8);
        Files.writeString(kb.resolve("Retry.java"), "package demo;\n\n/** Retries. */\npublic final class Retry {\n"
                + "    /** Waits between attempts with exponential backoff. */\n"
                + "    public static long backoffMillis(int attempt) {\n        return 100L << attempt;\n    }\n}\n",
                StandardCharsets.UTF_8);
        Files.write(kb.resolve("old.doc"), new byte[] {(byte) 0xD0, (byte) 0xCF, 0x11, (byte) 0xE0, (byte) 0xA1,
                (byte) 0xB1, 0x1A, (byte) 0xE1, 0, 0, 0, 0});
        Files.write(kb.resolve("logo.png"), new byte[] {(byte) 0x89, 'P', 'N', 'G', 0, 0, 0});
    }

    @Test
    void indexThenAsk_citesThePdfPageAndTheWordSection() throws IOException {
        CliRun index = run("index", "kb", "--json");
        assertThat(index.code()).as(index.err()).isZero();
        JsonNode report = JSON.readTree(index.out());
        assertThat(report.path("filesIndexed").asInt()).isEqualTo(5);
        for (String type : List.of("pdf", "docx", "html", "text", "code")) {
            assertThat(report.path("types").path(type).path("indexed").asInt()).as(type).isEqualTo(1);
        }
        // Since issue 27 a .doc has a parser: twelve bytes of an OLE2 header are a broken Word file, not a skip.
        assertThat(report.path("filesSkipped").toString()).contains("logo.png").doesNotContain("old.doc");
        assertThat(report.path("filesFailed").toString()).contains("old.doc");
        assertThat(report.path("types").path("doc").path("failed").asInt()).isEqualTo(1);

        JsonNode pdf = ask("How many weeks of parental leave do parents get?");
        JsonNode pdfCitation = citation(pdf, "kb/hr-handbook.pdf", "sixteen weeks");
        assertThat(pdfCitation.path("page").asInt()).isEqualTo(3);
        assertThat(pdfCitation.path("startLine").asInt()).isBetween(1, 3);   // lines count within page 3
        assertThat(pdfCitation.path("endLine").asInt()).isLessThanOrEqualTo(3);

        JsonNode word = ask("How does the agent install on Linux?");
        assertThat(citation(word, "kb/guide.docx", "apt package").path("section").asText())
                .isEqualTo("Install > Linux");
        assertThat(word.path("answer").asText()).contains("apt package agentd")
                .doesNotContain("- Install [");                                 // a heading answers nothing

        CliRun text = run("ask", "When does the backup run?");
        assertThat(text.out()).contains("kb/notes.txt:");
        CliRun plain = run("ask", "Parental leave weeks");
        assertThat(plain.out()).contains("kb/hr-handbook.pdf p. 3, lines");
    }

    @Test
    void reindexingUnchangedFilesReadsNothingAgain() throws IOException {
        assertThat(run("index", "kb").code()).isZero();

        CliRun again = run("index", "kb", "--json");

        JsonNode report = JSON.readTree(again.out());
        assertThat(report.path("filesIndexed").asInt()).isZero();
        assertThat(report.path("filesUnchanged").asInt()).isEqualTo(5);
    }

    private JsonNode ask(String question) throws IOException {
        CliRun ask = run("ask", question, "--json");
        // Cited or routed by confidence (extractive answers over tiny documents score low): both carry citations.
        assertThat(ask.code()).as(ask.out() + ask.err()).isIn(RagkitCli.OK, RagkitCli.ROUTED);
        return JSON.readTree(ask.out());
    }

    private static JsonNode citation(JsonNode response, String path, String text) {
        for (JsonNode citation : response.path("citations")) {
            if (citation.path("path").asText().equals(path) && citation.path("snippetFull").asText().contains(text)) {
                return citation;
            }
        }
        throw new AssertionError("no citation of " + path + " in " + response.path("citations"));
    }

    private static void filler(XWPFDocument doc, String sentence, int paragraphs) {
        for (int p = 0; p < paragraphs; p++) {
            StringBuilder text = new StringBuilder();
            for (int s = 0; s < 4; s++) {
                text.append(String.format(java.util.Locale.ROOT, sentence, 2000 + p * 4 + s)).append(' ');
            }
            doc.createParagraph().createRun().setText(text.toString().strip());
        }
    }


    private CliRun run(String... args) {
        return CliRun.of(env, cwd, args);
    }
}
