package dev.ragkit.documents;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.ragkit.parse.DocumentSkippedException;
import dev.ragkit.parse.DocumentSource;
import dev.ragkit.parse.ParsedDocument;
import dev.ragkit.parse.SkipReason;
import dev.ragkit.chunk.TextChunk;
import dev.ragkit.chunk.TokenWindowChunker;
import dev.ragkit.tokens.TokenCounters;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/**
 * Scanned PDF pages: recognised by tesseract when it is installed (marked as OCR in the section and the metadata),
 * next to the text pages of the same file; without it the scan is skipped with the hint to install it.
 */
final class PdfOcrTest {
    private static void assumeTesseract() {
        assumeTrue(TesseractOcr.onPath() != null, "tesseract is not installed, so the OCR tests are skipped; "
                + "install it to run them (Debian or Ubuntu: apt-get install tesseract-ocr tesseract-ocr-eng)");
    }

    @Test
    void parse_mixedTextAndScannedPages_readsBothAndMarksTheScanAsOcr() {
        assumeTesseract();
        ParsedDocument doc = new PdfDocumentParser().parse(Fixtures.source("mixed-scan.pdf"));

        assertThat(doc.lines().get(0)).isEqualTo("Workshop handbook: the text page comes first.");
        assertThat(doc.page(1)).isEqualTo(1);
        assertThat(doc.section(1)).isNull();
        String scanned = String.join("\n", doc.lines().subList(1, doc.lines().size())).toLowerCase(Locale.ROOT);
        for (String line : MailBookScanFixtures.SCANNED_LINES) {
            assertThat(scanned).contains(line.toLowerCase(Locale.ROOT));
        }
        assertThat(doc.pages().subList(1, doc.lines().size())).containsOnly(2);
        assertThat(doc.sections().subList(1, doc.lines().size())).containsOnly(PdfDocumentParser.OCR_MARK);
        assertThat(doc.metadata()).containsEntry(PdfDocumentParser.OCR_PAGES, "2")
                .containsEntry("ocr_language", "eng").doesNotContainKey(PdfDocumentParser.PAGES_WITHOUT_TEXT);
        assertThat(doc.warnings()).containsExactly("page 2 read by OCR (tesseract, language eng): the text is "
                + "recognised, not extracted, and may hold errors");

        List<TextChunk> chunks = TokenWindowChunker.builder().counter(TokenCounters.jtokkit()).build().chunk(doc);
        TextChunk helmets = chunks.stream().filter(c -> c.text().contains("Helmets")).findFirst().orElseThrow();
        assertThat(helmets.page()).isEqualTo(2);
        assertThat(helmets.section()).isEqualTo("(OCR)");
    }

    @Test
    void parse_scanWithoutTesseract_isSkippedWithTheHintToInstallIt() {
        PdfDocumentParser withoutOcr = PdfDocumentParser.builder().ocr(false).build();
        byte[] onlyTheScan = Fixtures.bytes("mixed-scan.pdf");

        ParsedDocument mixed = withoutOcr.parse(DocumentSource.of("mixed.pdf", onlyTheScan));
        assertThat(mixed.metadata()).containsEntry(PdfDocumentParser.PAGES_WITHOUT_TEXT, "2")
                .doesNotContainKey(PdfDocumentParser.OCR_PAGES);
        assertThat(mixed.warnings()).singleElement().asString().startsWith("page 2 scanned (no text layer) and not "
                + "read: install Tesseract");
        assertThat(withoutOcr.ocrAvailable()).isFalse();
    }

    @Test
    void parse_scanOnlyWithoutTesseract_isSkippedSayingInstallTesseract() throws Exception {
        byte[] scanOnly = MailBookScanFixtures.scanOnly();

        assertThatThrownBy(() -> PdfDocumentParser.builder().ocr(false).build()
                .parse(DocumentSource.of("scan-only.pdf", scanOnly)))
                .isInstanceOfSatisfying(DocumentSkippedException.class,
                        e -> assertThat(e.reason()).isEqualTo(SkipReason.NO_TEXT_LAYER))
                .hasMessageContaining("apt-get install tesseract-ocr");
    }

    @Test
    void parse_missingLanguage_failsNamingThePackage() throws Exception {
        assumeTesseract();
        PdfDocumentParser klingon = PdfDocumentParser.builder().ocrLanguage("tlh").ocrTimeout(Duration.ofSeconds(30))
                .build();

        assertThatThrownBy(() -> klingon.parse(DocumentSource.of("scan-only.pdf", MailBookScanFixtures.scanOnly())))
                .hasMessageContaining("tesseract-ocr-tlh");
    }

    @Test
    void builder_badLanguage_isRejectedAtOnce() {
        assertThatThrownBy(() -> PdfDocumentParser.builder().ocrLanguage("eng; rm -rf"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("deu+eng");
    }
}
