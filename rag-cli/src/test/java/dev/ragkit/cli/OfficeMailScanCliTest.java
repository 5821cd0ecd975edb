package dev.ragkit.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 27 end to end: {@code ragkit index} on a folder holding a slide deck, a spreadsheet, a Word 97–2003 file, an
 * OpenDocument text, an e-mail with a PDF attachment and a PDF whose second page is a scan, then {@code ragkit ask}
 * (extractive answers, the default in-process embedder): each answer is cited with the place it sits in — the slide,
 * the sheet's row, the Word section, the attachment's page, the OCR'd page.
 *
 * <p>The files are the ones committed for {@code rag-documents}' parser tests (written by POI, LibreOffice, mime4j and
 * PDFBox; see {@code rag-documents/src/test/resources/documents/README.md}), read from that folder. The
 * {@code .doc} and the {@code .odt} there are conversions of one memo; the {@code .odt} here is LibreOffice's file
 * with the text of its paragraphs reworded in {@code content.xml}, so that each question has one document for an
 * answer. The folder is indexed once for all tests. The scanned page needs {@code tesseract}; without it that test
 * is skipped, saying how to install it.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
final class OfficeMailScanCliTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** rag-documents' committed test files. */
    private static final Path FIXTURES = Path.of(System.getProperty("basedir", "")).toAbsolutePath().getParent()
            .resolve("rag-documents/src/test/resources/documents");
    /** The memo's paragraphs and what the {@code .odt} says instead. */
    private static final Map<String, String> ODT_TEXT = odtText();

    @TempDir
    static Path cwd;
    private final Map<String, String> env = new HashMap<>();
    private JsonNode report;

    private static Map<String, String> odtText() {
        Map<String, String> text = new LinkedHashMap<>();
        text.put("This memo sets the budget rules for next year.", "These minutes record the offsite decisions.");
        text.put("Every team keeps within its quarterly amount.", "The offsite moves to Lisbon in October.");
        text.put("Trains are booked in second class.", "Hotel rooms are shared by two colleagues.");
        text.put("The head of finance approves amounts over 5000 EUR.", "The office manager books the venue.");
        return text;
    }

    @BeforeAll
    void indexTheFolder() throws IOException {
        env.put("OLLAMA_BASE_URL", CliRun.deadServerUrl());
        Path kb = Files.createDirectories(cwd.resolve("kb"));
        for (String name : List.of("deck.pptx", "budget.xlsx", "memo.doc", "thread.eml", "mixed-scan.pdf")) {
            Files.copy(FIXTURES.resolve(name), kb.resolve(name));
        }
        Files.write(kb.resolve("offsite.odt"), reworded(Files.readAllBytes(FIXTURES.resolve("memo.odt"))));

        CliRun index = run("index", "kb", "--json");
        assertThat(index.code()).as(index.out() + index.err()).isZero();
        report = JSON.readTree(index.out());
    }

    @Test
    void everyFileIsIndexedByItsOwnParser() {
        assertThat(report.path("filesIndexed").asInt()).as(report.toString()).isEqualTo(6);
        assertThat(report.path("filesFailed")).isEmpty();
        for (String type : List.of("slides", "spreadsheet", "doc", "opendocument", "email", "pdf")) {
            assertThat(report.path("types").path(type).path("indexed").asInt()).as(type).isEqualTo(1);
        }
    }

    @Test
    void theReportListsTheWarningsOfEachFile() {
        Map<String, String> warnings = new LinkedHashMap<>();
        for (JsonNode file : report.path("filesWithWarnings")) {
            warnings.put(file.path("path").asText(), file.path("warnings").toString());
        }
        assertThat(warnings).containsOnlyKeys("budget.xlsx", "mixed-scan.pdf", "thread.eml"); // paths within the folder
        assertThat(warnings.get("budget.xlsx")).contains("1 hidden sheet skipped");
        assertThat(warnings.get("thread.eml")).contains("1 attachment not read: logo.png (no parser reads .png "
                + "files)");
        assertThat(warnings.get("mixed-scan.pdf")).contains(onPath("tesseract") ? "page 2 read by OCR"
                : "page 2 scanned (no text layer) and not read: install Tesseract");
    }

    @Test
    void theConsoleReportShowsTheWarnings() throws IOException {
        Path other = Files.createDirectories(cwd.resolve("books"));
        Files.copy(FIXTURES.resolve("budget.xlsx"), other.resolve("budget.xlsx"));

        CliRun index = run("index", "books", "--index", cwd.resolve("other-index").toString());

        assertThat(index.code()).as(index.err()).isZero();
        assertThat(index.out()).contains("  warning budget.xlsx: 1 hidden sheet skipped (hidden sheets are not "
                + "indexed; unhide a sheet to index it)");
    }

    @Test
    void answerFromASlide_isCitedWithTheSlide() throws IOException {
        JsonNode answer = ask("How many engineers do we hire?");
        assertThat(answer.path("answer").asText()).contains("hire two engineers (slide 2)");
        JsonNode citation = citation(answer, "kb/deck.pptx", "hire two engineers");
        assertThat(citation.path("page").asInt()).isEqualTo(2);
        assertThat(citation.path("pageLabel").asText()).isEqualTo("slide");
        assertThat(citation.path("section").asText()).isEqualTo("Roadmap");
        assertThat(plain("How many engineers do we hire?")).contains("kb/deck.pptx slide 2, lines");
    }

    @Test
    void answerFromASheetRow_isCitedWithTheSheetAndThatRow() throws IOException {
        // A row is a few words and numbers: a question naming only its row scores below the default similarity
        // threshold of 0.3 with the default embedder, so this one is asked as a user would lower it for a workbook.
        // (A question naming the sheet's headers quotes up to three rows, and the citation spans those rows.)
        env.put("RAG_MIN_SIMILARITY_SCORE", "0.05");
        JsonNode answer;
        String plain;
        try {
            answer = ask("How much did South make?");
            plain = plain("How much did South make?");
        } finally {
            env.remove("RAG_MIN_SIMILARITY_SCORE");
        }
        assertThat(answer.path("answer").asText()).contains("Region: South | Q3: 950 (sheet Q3)");
        JsonNode citation = citation(answer, "kb/budget.xlsx", "South");
        assertThat(citation.path("pageLabel").asText()).isEqualTo("sheet");
        assertThat(citation.path("section").asText()).isEqualTo("Q3");
        assertThat(citation.path("startLine").asInt()).isEqualTo(3);               // row 3 holds South
        assertThat(citation.path("endLine").asInt()).isEqualTo(3);
        assertThat(plain).contains("kb/budget.xlsx > Q3, rows 3\u20133");
    }

    @Test
    void answerFromAnOldWordFile_isCitedWithItsSection() throws IOException {
        JsonNode citation = citation(ask("Which class are trains booked in?"), "kb/memo.doc", "second class");
        assertThat(citation.path("section").asText()).isEqualTo("Budget > Travel");
        assertThat(citation.path("page").isNull()).isTrue();
    }

    @Test
    void answerFromAnOpenDocumentText_isCitedWithItsSection() throws IOException {
        JsonNode citation = citation(ask("How are hotel rooms shared?"), "kb/offsite.odt", "Hotel rooms");
        assertThat(citation.path("section").asText()).isEqualTo("Budget > Travel");
    }

    @Test
    void answerFromAPdfAttachment_isCitedWithTheAttachmentAndItsPage() throws IOException {
        JsonNode answer = ask("How large is the travel budget for Q3 in euros?");
        JsonNode citation = citation(answer, "kb/thread.eml", "42,000 euros");
        assertThat(citation.path("section").asText()).isEqualTo("report.pdf");
        assertThat(citation.path("page").asInt()).isEqualTo(3);
        assertThat(answer.path("answer").asText()).contains("42,000 euros. (p. 3)");
        assertThat(plain("How large is the travel budget for Q3 in euros?")).contains("kb/thread.eml p. 3, lines")
                .contains("report.pdf");
    }

    @Test
    void answerFromAScannedPage_isCitedWithThePageMarkedOcr() throws IOException {
        assumeTrue(onPath("tesseract"), "tesseract is not installed, so the scanned page was not read and this test "
                + "is skipped; install it to run it (Debian or Ubuntu: apt-get install tesseract-ocr)");
        JsonNode citation = citation(ask("Where do visitors sign in?"), "kb/mixed-scan.pdf", "front desk");
        assertThat(citation.path("page").asInt()).isEqualTo(2);
        assertThat(citation.path("section").asText()).isEqualTo("(OCR)");
    }

    private JsonNode ask(String question) throws IOException {
        CliRun ask = run("ask", question, "--json");
        // Cited or routed by confidence (extractive answers over small documents may score low): both cite.
        assertThat(ask.code()).as(ask.out() + ask.err()).isIn(RagkitCli.OK, RagkitCli.ROUTED);
        return JSON.readTree(ask.out());
    }

    private String plain(String question) {
        CliRun ask = run("ask", question);
        assertThat(ask.code()).as(ask.out() + ask.err()).isIn(RagkitCli.OK, RagkitCli.ROUTED);
        return ask.out();
    }

    private static JsonNode citation(JsonNode response, String path, String text) {
        for (JsonNode citation : response.path("citations")) {
            if (citation.path("path").asText().equals(path) && citation.path("snippetFull").asText().contains(text)) {
                return citation;
            }
        }
        throw new AssertionError("no citation of " + path + " holding '" + text + "' in " + response);
    }

    private static boolean onPath(String command) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, command))) {
                return true;
            }
        }
        return false;
    }

    /** The OpenDocument file with its paragraphs reworded; every other entry as it is, {@code mimetype} stored first. */
    private static byte[] reworded(byte[] odt) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ZipInputStream in = new ZipInputStream(new java.io.ByteArrayInputStream(odt));
                ZipOutputStream out = new ZipOutputStream(bytes)) {
            for (ZipEntry entry = in.getNextEntry(); entry != null; entry = in.getNextEntry()) {
                byte[] data = in.readAllBytes();
                if (entry.getName().equals("content.xml")) {
                    String xml = new String(data, StandardCharsets.UTF_8);
                    for (Map.Entry<String, String> change : ODT_TEXT.entrySet()) {
                        assertThat(xml).contains(change.getKey());
                        xml = xml.replace(change.getKey(), change.getValue());
                    }
                    data = xml.getBytes(StandardCharsets.UTF_8);
                }
                ZipEntry copy = new ZipEntry(entry.getName());
                if (entry.getName().equals("mimetype")) {
                    CRC32 crc = new CRC32();
                    crc.update(data);
                    copy.setMethod(ZipEntry.STORED);
                    copy.setSize(data.length);
                    copy.setCompressedSize(data.length);
                    copy.setCrc(crc.getValue());
                }
                out.putNextEntry(copy);
                out.write(data);
                out.closeEntry();
            }
        }
        return bytes.toByteArray();
    }

    private CliRun run(String... args) {
        return CliRun.of(env, cwd, args);
    }
}
