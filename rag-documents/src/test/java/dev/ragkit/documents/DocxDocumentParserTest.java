package dev.ragkit.documents;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ragkit.error.IngestException;
import dev.ragkit.parse.DocumentSource;
import dev.ragkit.parse.ParsedDocument;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import java.util.zip.ZipOutputStream;
import org.apache.poi.xwpf.usermodel.XWPFDocument;
import org.apache.poi.xwpf.usermodel.XWPFTable;
import org.junit.jupiter.api.Test;

class DocxDocumentParserTest {
    private final DocxDocumentParser parser = new DocxDocumentParser();

    @Test
    void headingsByStyleNameIdOrBasisMakeTheSectionPath() {
        ParsedDocument doc = parser.parse(Fixtures.source("guide.docx"));

        assertThat(section(doc, "Download the package")).isEqualTo("Install");
        assertThat(section(doc, "Run the installer")).isEqualTo("Install > Linux");
        assertThat(section(doc, "Double-click setup.exe")).isEqualTo("Install > Windows");
        assertThat(section(doc, "read the log")).isEqualTo("Troubleshooting");      // "Chapter", based on heading 1
        assertThat(section(doc, "This guide explains")).isNull();
        assertThat(doc.title()).isEqualTo("Installation Guide");
        assertThat(doc.metadata()).containsEntry("author", "Docs Team");
        assertThat(doc.docType()).isEqualTo("docx");
        assertThat(doc.paged()).isFalse();
    }

    @Test
    void listsAndTablesReadAsLines() {
        ParsedDocument doc = parser.parse(Fixtures.source("guide.docx"));

        assertThat(doc.lines()).containsSubsequence("- Unpack the archive", "- Run ./install.sh",
                "- Start the service");
        assertThat(doc.lines()).containsSubsequence("Distribution | Package", "Debian | agent.deb",
                "Fedora | agent.rpm");
        assertThat(section(doc, "Debian | agent.deb")).isEqualTo("Install > Linux");
        int first = doc.lines().indexOf("- Unpack the archive");
        assertThat(doc.lines().get(first + 1)).isEqualTo("- Run ./install.sh");     // items stay together
    }

    @Test
    void aRowRepeatedAsHeader_isFollowedByARuleLine_soItsRowsAreReadUnderIt() throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (XWPFDocument word = new XWPFDocument()) {
            XWPFTable headed = word.createTable(3, 2);
            fill(headed, "Setting", "Default", "Timeout", "30 s", "Retries", "3");
            headed.getRow(0).setRepeatHeader(true);
            word.createParagraph().createRun().setText("Between the tables.");
            fill(word.createTable(2, 2), "Debian", "agent.deb", "Fedora", "agent.rpm");    // no header row marked
            word.write(bytes);
        }

        ParsedDocument doc = parser.parse(DocumentSource.of("docs/limits.docx", bytes.toByteArray()));

        assertThat(doc.lines()).containsSubsequence("Setting | Default", "--- | ---", "Timeout | 30 s", "Retries | 3",
                "Debian | agent.deb", "Fedora | agent.rpm");
        assertThat(doc.lines().stream().filter("--- | ---"::equals)).hasSize(1);
        assertThat(parser.parse(Fixtures.source("guide.docx")).lines()).doesNotContain("--- | ---");  // none marked
    }

    private static void fill(XWPFTable table, String... cells) {
        for (int i = 0; i < cells.length; i++) {
            table.getRow(i / 2).getCell(i % 2).setText(cells[i]);
        }
    }

    @Test
    void localHyperlinksBecomeLinks() {
        ParsedDocument doc = parser.parse(Fixtures.source("guide.docx"));

        assertThat(doc.links()).containsExactly("docs/faq.docx");
        assertThat(doc.lines()).anyMatch(line -> line.contains("See also the FAQ"));
    }

    @Test
    void notAWordDocumentFailsWithAFix() throws IOException {
        ByteArrayOutputStream zip = new ByteArrayOutputStream();
        try (ZipOutputStream out = new ZipOutputStream(zip)) {
            out.putNextEntry(new ZipEntry("notes.txt"));
            out.write("a zip, not a docx".getBytes(StandardCharsets.UTF_8));
        }
        for (DocumentSource source : new DocumentSource[] {DocumentSource.of("a/zip.docx", zip.toByteArray()),
                DocumentSource.of("a/empty.docx", new byte[0]),
                DocumentSource.of("a/text.docx", "plain text".getBytes(StandardCharsets.UTF_8))}) {
            assertThatThrownBy(() -> parser.parse(source)).as(source.path()).isInstanceOf(IngestException.class)
                    .hasMessageContaining(source.path()).hasMessageContaining("save it again as .docx");
        }
    }

    @Test
    void aBrokenMainPart_failsWithTheReason_withoutJavaClassNames() throws IOException {
        ByteArrayOutputStream cut = new ByteArrayOutputStream();
        try (ZipInputStream in = new ZipInputStream(new ByteArrayInputStream(Fixtures.bytes("guide.docx")));
                ZipOutputStream out = new ZipOutputStream(cut)) {
            for (ZipEntry entry; (entry = in.getNextEntry()) != null; ) {
                byte[] bytes = in.readAllBytes();
                out.putNextEntry(new ZipEntry(entry.getName()));
                out.write(bytes, 0, entry.getName().equals("word/document.xml") ? bytes.length / 2 : bytes.length);
            }
        }

        assertThatThrownBy(() -> parser.parse(DocumentSource.of("a/cut.docx", cut.toByteArray())))
                .isInstanceOf(IngestException.class)
                .hasMessageStartingWith("a/cut.docx: not a readable Word document (")
                .hasMessageContaining("XML document structures must start and end")   // XMLBeans' reason, as it is
                .hasMessageNotContaining("org.apache").hasMessageNotContaining("Exception:");
    }

    private static String section(ParsedDocument doc, String text) {
        for (int i = 0; i < doc.lines().size(); i++) {
            if (doc.lines().get(i).contains(text)) {
                return doc.sections().get(i);
            }
        }
        throw new AssertionError("no line with " + text + " in " + doc.lines());
    }
}
