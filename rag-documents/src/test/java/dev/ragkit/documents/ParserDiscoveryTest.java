package dev.ragkit.documents;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ragkit.parse.ContentSniffer;
import dev.ragkit.parse.DocumentParser;
import dev.ragkit.parse.DocumentParsers;
import org.junit.jupiter.api.Test;

/** The module's parsers are found by ServiceLoader beside rag-core's own, by extension and by content kind. */
class ParserDiscoveryTest {
    @Test
    void standardParsersIncludePdfWordAndHtml() {
        DocumentParsers parsers = DocumentParsers.standard();

        assertThat(parsers.forPath("a/b/handbook.PDF")).get().isInstanceOf(PdfDocumentParser.class);
        assertThat(parsers.forPath("guide.docx")).get().isInstanceOf(DocxDocumentParser.class);
        assertThat(parsers.forPath("site/index.htm")).get().isInstanceOf(HtmlDocumentParser.class);
        assertThat(parsers.forPath("notes.md")).get().extracting(DocumentParser::id).isEqualTo("markdown");
        assertThat(parsers.forPath("old.doc")).get().isInstanceOf(DocDocumentParser.class);
        assertThat(parsers.forPath("deck.pptx")).get().isInstanceOf(SlidesDocumentParser.class);
        assertThat(parsers.forPath("deck.ppt")).get().isInstanceOf(SlidesDocumentParser.class);
        assertThat(parsers.forPath("budget.xlsx")).get().isInstanceOf(SpreadsheetDocumentParser.class);
        assertThat(parsers.forPath("budget.xls")).get().isInstanceOf(SpreadsheetDocumentParser.class);
        for (String name : new String[] {"memo.odt", "budget.ods", "deck.odp"}) {
            assertThat(parsers.forPath(name)).get().isInstanceOf(OpenDocumentParser.class);
        }
        assertThat(parsers.forKind(ContentSniffer.Kind.PPTX)).get().isInstanceOf(SlidesDocumentParser.class);
        assertThat(parsers.forKind(ContentSniffer.Kind.XLSX)).get().isInstanceOf(SpreadsheetDocumentParser.class);
        assertThat(parsers.forKind(ContentSniffer.Kind.OPENDOCUMENT)).get().isInstanceOf(OpenDocumentParser.class);
        assertThat(parsers.forKind(ContentSniffer.Kind.PDF)).get().isInstanceOf(PdfDocumentParser.class);
        assertThat(parsers.forKind(ContentSniffer.Kind.DOCX)).get().isInstanceOf(DocxDocumentParser.class);
        assertThat(parsers.forKind(ContentSniffer.Kind.HTML)).get().isInstanceOf(HtmlDocumentParser.class);
    }
}
