package dev.ragkit.documents;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ragkit.error.IngestException;
import dev.ragkit.parse.DocumentSkippedException;
import dev.ragkit.parse.DocumentSource;
import dev.ragkit.parse.ParsedDocument;
import dev.ragkit.parse.SkipReason;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class PdfDocumentParserTest {
    private final PdfDocumentParser parser = new PdfDocumentParser();

    @Test
    void everyLineKnowsItsPageAndPagesWithoutTextAreListed() {
        ParsedDocument doc = parser.parse(Fixtures.source("handbook.pdf"));

        assertThat(doc.paged()).isTrue();
        assertThat(doc.structure()).isEqualTo(ParsedDocument.Structure.PLAIN);
        List<String> expected = new ArrayList<>();
        List<Integer> pages = new ArrayList<>();
        for (int page = 0; page < DocumentFixtures.HANDBOOK_PAGES.size(); page++) {
            for (String line : DocumentFixtures.HANDBOOK_PAGES.get(page)) {
                expected.add(line);
                pages.add(page + 1);
            }
        }
        assertThat(doc.lines()).map(String::strip).containsExactlyElementsOf(expected);
        assertThat(doc.pages()).containsExactlyElementsOf(pages);
        assertThat(doc.pages()).doesNotContain(3);
        assertThat(doc.metadata()).containsEntry("pages", "4")
                .containsEntry(PdfDocumentParser.PAGES_WITHOUT_TEXT, "3").containsEntry("author", "HR Team");
        assertThat(doc.title()).isEqualTo("Employee Handbook");
        assertThat(doc.docType()).isEqualTo("pdf");
    }

    @Test
    void bookmarksBecomeSectionsFromTheirPageOn() {
        ParsedDocument doc = parser.parse(Fixtures.source("handbook.pdf"));

        int leave = doc.lines().indexOf(doc.lines().stream().filter(l -> l.contains("28 days")).findFirst()
                .orElseThrow());
        int taxis = doc.lines().indexOf(doc.lines().stream().filter(l -> l.contains("Taxis")).findFirst()
                .orElseThrow());
        assertThat(doc.sections().get(0)).isNull();                       // page 1 comes before any bookmark
        assertThat(doc.sections().get(leave)).isEqualTo("Policies > Leave");
        assertThat(doc.sections().get(taxis)).isEqualTo("Policies > Expenses");
    }

    @Test
    void anEmptyUserPasswordOpensAndAnyOtherIsSkippedAsEncrypted() {
        ParsedDocument open = parser.parse(Fixtures.source("handbook-no-copy.pdf"));
        assertThat(open.lines()).anyMatch(line -> line.contains("28 days of paid leave"));

        assertThatThrownBy(() -> parser.parse(Fixtures.source("handbook-locked.pdf")))
                .isInstanceOfSatisfying(DocumentSkippedException.class,
                        e -> assertThat(e.reason()).isEqualTo(SkipReason.ENCRYPTED))
                .hasMessageContaining("password");
    }

    @Test
    void aPdfWithoutAnyTextLayerIsSkippedNotIndexedEmpty() {
        assertThatThrownBy(() -> parser.parse(Fixtures.source("scan.pdf")))
                .isInstanceOfSatisfying(DocumentSkippedException.class,
                        e -> assertThat(e.reason()).isEqualTo(SkipReason.NO_TEXT_LAYER))
                .hasMessageContaining("none of its 2 pages").hasMessageContaining("OCR");
    }

    @Test
    void damagedFilesFailWithTheirPathAndAFix() {
        byte[] whole = Fixtures.bytes("handbook.pdf");
        DocumentSource truncated = DocumentSource.of("docs/cut.pdf", Arrays.copyOf(whole, whole.length / 3));
        DocumentSource empty = DocumentSource.of("docs/empty.pdf", new byte[0]);
        DocumentSource garbage = DocumentSource.of("docs/garbage.pdf",
                "%PDF-1.7\nthis is not a PDF body at all\n%%EOF".getBytes(StandardCharsets.US_ASCII));

        for (DocumentSource source : List.of(truncated, empty, garbage)) {
            assertThatThrownBy(() -> parser.parse(source))
                    .as(source.path())
                    .isInstanceOfAny(IngestException.class, DocumentSkippedException.class)
                    .hasMessageContaining(source.path());
        }
        assertThatThrownBy(() -> parser.parse(empty)).isInstanceOf(IngestException.class)
                .hasMessageContaining("save it again");
    }

    @Test
    void aBrokenCrossReferenceTableIsRepairedOrReported() {
        String pdf = new String(Fixtures.bytes("handbook.pdf"), StandardCharsets.ISO_8859_1);
        int xref = pdf.lastIndexOf("startxref");
        String broken = pdf.substring(0, xref) + "startxref\n99999999\n%%EOF\n";      // points past the end
        ParsedDocument doc = parser.parse(DocumentSource.of("docs/broken.pdf",
                broken.getBytes(StandardCharsets.ISO_8859_1)));

        assertThat(doc.lines()).anyMatch(line -> line.contains("Taxis need a written reason."));
        assertThat(doc.pages()).contains(4);
    }

    @Test
    void textBeyondTheCharacterLimitFails() {
        DocumentSource source = new DocumentSource("docs/handbook.pdf", Fixtures.bytes("handbook.pdf"), 100);

        assertThatThrownBy(() -> parser.parse(source)).isInstanceOf(IngestException.class)
                .hasMessageContaining("more than 100 characters");
    }
}
