package dev.ragkit.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import java.util.zip.ZipOutputStream;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.PDPage;
import org.apache.pdfbox.pdmodel.PDPageContentStream;
import org.apache.pdfbox.pdmodel.font.PDType1Font;
import org.apache.pdfbox.pdmodel.font.Standard14Fonts;
import org.apache.poi.xwpf.usermodel.XWPFDocument;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 24, a quiet command line: {@code ragkit index} over broken PDF and Word files, in a child JVM (the libraries
 * log to the real standard error), prints no library's stack trace and lists each failed file once, with its reason;
 * the details are in {@code --log-file} or, with {@code RAGKIT_DEBUG}, on standard error. Warnings speak the
 * command line's terms, one message per fact, and a re-index says how many indexed documents lost their files.
 */
final class QuietCliTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** A line of a Java stack trace, or the JVM's report of an uncaught exception. */
    private static final Pattern STACK_TRACE = Pattern.compile("(?m)^\\s+at [\\w.$/<>]+\\(|\\tat |Exception in |"
            + "^Caused by: ");
    /** A file name printed twice in a row: {@code a.pdf: a.pdf: …}. */
    private static final Pattern REPEATED_NAME = Pattern.compile("(\\S+\\.\\w+): \\1:");
    /** The broken files that no parser can read: each must be reported failed, once, with the reason. */
    private static final List<String> UNREADABLE = List.of("garbage.pdf", "truncated.pdf", "damaged-objects.pdf",
            "truncated.docx", "broken-xml.docx");
    /** Broken files the parsers read around (PDFBox repairs a cross-reference offset): named at most once. */
    private static final List<String> DAMAGED = List.of("bad-xref.pdf");

    @TempDir
    Path cwd;
    private final Map<String, String> env = new HashMap<>();

    @BeforeEach
    void folderOfBrokenDocuments() throws IOException {
        env.put("OLLAMA_BASE_URL", CliRun.deadServerUrl());
        Path kb = Files.createDirectories(cwd.resolve("kb"));
        Files.writeString(kb.resolve("good.md"), "# Leave\n\nParents receive sixteen weeks of paid leave.\n",
                StandardCharsets.UTF_8);
        Random random = new Random(24);
        byte[] noise = new byte[4096];
        random.nextBytes(noise);
        Files.write(kb.resolve("garbage.pdf"), concat("%PDF-1.7\n%\u00e2\u00e3\u00cf\u00d3\n1 0 obj\n<< /Type /Catalog"
                .getBytes(StandardCharsets.ISO_8859_1), noise));
        byte[] pdf = pdf();
        Files.write(kb.resolve("truncated.pdf"), Arrays.copyOf(pdf, pdf.length * 2 / 5));
        Files.write(kb.resolve("bad-xref.pdf"), breakXref(pdf));
        Files.write(kb.resolve("damaged-objects.pdf"), damageObjectStream(pdf, random));
        Files.write(kb.resolve("garbage.docx"), concat(new byte[] {'P', 'K', 3, 4, 20, 0, 0, 0, 8, 0}, noise));
        byte[] docx = docx();
        Files.write(kb.resolve("truncated.docx"), Arrays.copyOf(docx, docx.length / 2));
        Files.write(kb.resolve("broken-xml.docx"), cutDocumentXml(docx));
    }

    @Test
    void brokenPdfAndWordFiles_areListedOnceWithTheirReasons_withoutAnyLibrarysStackTrace() throws Exception {
        CliRun index = CliChild.run(env, cwd, 180, "index", "kb");

        String all = index.out() + "\n" + index.err();
        assertThat(index.code()).as(all).isZero();
        assertThat(index.out()).as(all).containsPattern("Indexed [1-3] files");
        assertNoLibraryNoise(all);
        for (String name : UNREADABLE) {
            assertThat(linesNaming(all, name)).as(all).hasSize(1);
            assertThat(linesNaming(all, name).get(0)).as(all).startsWith("  failed  " + name + ": ")
                    .matches(".*: not a readable (PDF|Word document).*");
        }
        assertThat(linesNaming(all, "garbage.docx")).as(all).hasSize(1);   // skipped: a zip, not a Word document
        assertThat(linesNaming(all, "garbage.docx").get(0)).as(all).startsWith("  skipped garbage.docx: ");
        for (String name : DAMAGED) {
            assertThat(linesNaming(all, name)).as(all).hasSizeLessThanOrEqualTo(1);
        }
        assertThat(all).as("where the details are").contains("--log-file").contains("RAGKIT_DEBUG");
    }

    @Test
    void logFile_holdsTheDetails_andTheConsoleStaysQuiet() throws Exception {
        CliRun index = CliChild.run(env, cwd, 180, "--log-file", "ragkit.log", "index", "kb");

        String all = index.out() + "\n" + index.err();
        assertThat(index.code()).as(all).isZero();
        assertNoLibraryNoise(all);
        String log = Files.readString(cwd.resolve("ragkit.log"), StandardCharsets.UTF_8);
        for (String name : UNREADABLE) {
            assertThat(log).contains(name + ": not a readable");
        }
        assertThat(log).as("the causes, with their stack traces").containsPattern("\tat org\\.apache\\.(pdfbox|poi)\\.");
        assertThat(log).contains("WARN ").contains("DEBUG ")
                .containsPattern("INFO  dev\\.ragkit\\.cli\\.RagkitCli: started ragkit index \\(version \\S+, commit ");
    }

    @Test
    void logFile_afterTheCommand_alsoWorks_andAppends() throws Exception {
        Files.writeString(cwd.resolve("earlier.log"), "an earlier run\n", StandardCharsets.UTF_8);

        CliRun index = CliRun.of(env, cwd, "index", "kb", "--log-file", "earlier.log");

        assertThat(index.code()).as(index.err()).isZero();
        String log = Files.readString(cwd.resolve("earlier.log"), StandardCharsets.UTF_8);
        assertThat(log).startsWith("an earlier run\n").contains("garbage.pdf: not a readable PDF");
        assertNoLibraryNoise(index.out() + index.err());
    }

    @Test
    void ragkitDebug_showsTheDetailsOnStandardError() throws Exception {
        env.put("RAGKIT_DEBUG", "1");

        CliRun index = CliChild.run(env, cwd, 180, "index", "kb");

        assertThat(index.code()).as(index.err()).isZero();
        assertThat(index.err()).contains("garbage.pdf: not a readable PDF").containsPattern("\tat org\\.apache\\.");
        assertThat(index.out()).doesNotContainPattern(STACK_TRACE);         // standard output stays the report
    }

    @Test
    void aLogFileThatCannotBeWritten_isAUsageError() {
        CliRun index = CliRun.of(env, cwd, "--log-file", "no-such-folder/ragkit.log", "index", "kb");

        assertThat(index.code()).isEqualTo(RagkitCli.USAGE);
        assertThat(index.err()).contains("--log-file no-such-folder/ragkit.log: cannot append to")
                .contains("(its folder does not exist); name a file in a folder you can write to")
                .contains("Try 'ragkit index --help'.");
        assertThat(cwd.resolve(".ragkit")).doesNotExist();                // nothing ran
    }

    @Test
    void chunksLongerThanTheEmbedderReads_areOneMessage_inTheCommandLinesTerms() throws Exception {
        StringBuilder text = new StringBuilder("# Long\n\n");
        for (int i = 0; i < 80; i++) {
            text.append("Sentence ").append(i).append(" explains the retention policy of archive tier ").append(i)
                    .append(" in plain words. ");
        }
        Files.writeString(cwd.resolve("kb/long.md"), text, StandardCharsets.UTF_8);

        CliRun index = CliChild.run(env, cwd, 180, "index", "kb", "--chunk-tokens", "400");

        String all = index.out() + "\n" + index.err();
        assertThat(index.code()).as(all).isZero();
        assertThat(all).doesNotContain("TokenWindowChunker").doesNotContain("maxTokens");
        Matcher fact = Pattern.compile("longer than the \\d+ tokens").matcher(all);
        int said = 0;
        while (fact.find()) {
            said++;
        }
        assertThat(said).as(all).isEqualTo(1);
        assertThat(all).contains("--chunk-tokens");
    }

    @Test
    void reindexWithoutSync_saysHowManyIndexedDocumentsLostTheirFiles_andHowToRemoveThem() throws IOException {
        Path docs = Files.createDirectories(cwd.resolve("docs"));
        for (String name : List.of("a", "b", "c", "d")) {
            Files.writeString(docs.resolve(name + ".md"), "# " + name + "\n\nThe page about " + name + ".\n",
                    StandardCharsets.UTF_8);
        }
        assertThat(CliRun.of(env, cwd, "index", "docs").code()).isZero();
        Files.delete(docs.resolve("a.md"));
        Files.delete(docs.resolve("b.md"));
        Files.delete(docs.resolve("c.md"));

        CliRun again = CliRun.of(env, cwd, "index", "docs");
        CliRun json = CliRun.of(env, cwd, "index", "docs", "--json");
        CliRun synced = CliRun.of(env, cwd, "index", "docs", "--sync");
        CliRun after = CliRun.of(env, cwd, "index", "docs");

        assertThat(again.code()).isZero();
        assertThat(again.out()).contains("3 indexed documents' files are gone")
                .contains("run again with --sync to remove them from the index");
        assertThat(JSON.readTree(json.out()).path("documentsGone").asInt()).isEqualTo(3);
        assertThat(synced.out()).contains("3 deleted").doesNotContain("files are gone");
        assertThat(after.out()).doesNotContain("gone");
        Files.delete(docs.resolve("d.md"));
        Files.writeString(docs.resolve("e.md"), "# e\n\nThe page about e.\n", StandardCharsets.UTF_8);
        assertThat(CliRun.of(env, cwd, "index", "docs").out()).contains("1 indexed document's file is gone");
    }

    private static void assertNoLibraryNoise(String output) {
        assertThat(output).doesNotContainPattern(STACK_TRACE).doesNotContain("org.apache.")
                .doesNotContainPattern(REPEATED_NAME);
    }

    /** @return the lines of {@code output} that name the file */
    private static List<String> linesNaming(String output, String name) {
        return output.lines().filter(l -> l.contains(name)).toList();
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] both = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, both, a.length, b.length);
        return both;
    }

    /** A three-page PDF written by PDFBox. */
    private static byte[] pdf() throws IOException {
        try (PDDocument pdf = new PDDocument(); ByteArrayOutputStream out = new ByteArrayOutputStream()) {
            PDType1Font font = new PDType1Font(Standard14Fonts.FontName.HELVETICA);
            for (int p = 1; p <= 3; p++) {
                PDPage page = new PDPage();
                pdf.addPage(page);
                try (PDPageContentStream content = new PDPageContentStream(pdf, page)) {
                    content.beginText();
                    content.setFont(font, 12);
                    content.newLineAtOffset(60, 700);
                    content.showText("Page " + p + " of the travel policy: book trains for trips under 500 km.");
                    content.endText();
                }
            }
            pdf.save(out);
            return out.toByteArray();
        }
    }

    /** The PDF with the offset of its cross-reference section pointing nowhere: readers must search for objects. */
    private static byte[] breakXref(byte[] pdf) {
        String text = new String(pdf, StandardCharsets.ISO_8859_1);
        int startxref = text.lastIndexOf("startxref");
        return (text.substring(0, startxref) + "startxref\n" + (pdf.length * 7 / 10) + "\n%%EOF\n")
                .getBytes(StandardCharsets.ISO_8859_1);
    }

    /**
     * The PDF (written with object streams, PDFBox's default) with the compressed data of its object stream replaced
     * by noise: PDFBox logs an error with a stack trace, then fails.
     */
    private static byte[] damageObjectStream(byte[] pdf, Random random) {
        String text = new String(pdf, StandardCharsets.ISO_8859_1);
        int objectStream = text.indexOf("/ObjStm");
        assertThat(objectStream).as("PDFBox writes an object stream").isPositive();
        int start = text.indexOf("stream", text.indexOf(">>", objectStream)) + "stream\r\n".length();
        int end = text.indexOf("endstream", start);
        byte[] damaged = pdf.clone();
        for (int i = start + 2; i < end - 3; i++) {
            damaged[i] = (byte) random.nextInt(256);
        }
        return damaged;
    }

    /** The Word document with the second half of its main part, {@code word/document.xml}, cut off. */
    private static byte[] cutDocumentXml(byte[] docx) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (ZipInputStream in = new ZipInputStream(new ByteArrayInputStream(docx));
                ZipOutputStream zip = new ZipOutputStream(out)) {
            for (ZipEntry entry; (entry = in.getNextEntry()) != null; ) {
                byte[] bytes = in.readAllBytes();
                zip.putNextEntry(new ZipEntry(entry.getName()));
                zip.write(bytes, 0, entry.getName().equals("word/document.xml") ? bytes.length / 2 : bytes.length);
                zip.closeEntry();
            }
        }
        return out.toByteArray();
    }

    /** A Word document written by POI. */
    private static byte[] docx() throws IOException {
        try (XWPFDocument doc = new XWPFDocument(); ByteArrayOutputStream out = new ByteArrayOutputStream()) {
            for (int p = 0; p < 40; p++) {
                doc.createParagraph().createRun().setText("Paragraph " + p + " of the expenses guide: keep every "
                        + "receipt and file it within thirty days of the trip.");
            }
            doc.write(out);
            return out.toByteArray();
        }
    }
}
