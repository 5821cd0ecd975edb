package dev.ragkit.documents;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ragkit.error.IngestException;
import dev.ragkit.parse.ContentSniffer;
import dev.ragkit.parse.DocumentParsers;
import dev.ragkit.parse.DocumentSource;
import dev.ragkit.parse.ParsedDocument;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;

/** EPUB: chapters in spine order as sections, the package's metadata, and hostile books refused with the reason. */
final class EpubDocumentParserTest {
    private final EpubDocumentParser parser = new EpubDocumentParser();

    @Test
    void parse_book_chaptersInSpineOrderAsSections() {
        ParsedDocument doc = parser.parse(Fixtures.source("chapters.epub"));

        assertThat(doc.title()).isEqualTo("A Journey");
        assertThat(doc.docType()).isEqualTo("epub");
        assertThat(doc.metadata()).containsEntry("author", "Ana Lopes").containsEntry("language", "en");
        int arrival = doc.lines().indexOf("The traveller arrives in Porto on a Tuesday.");
        int harbour = doc.lines().indexOf("Ships leave the harbour at dawn.");
        int departure = doc.lines().indexOf("The last train to Lisbon leaves at 22:40.");
        assertThat(arrival).isNotNegative().isLessThan(harbour);          // the spine's order, not the manifest's
        assertThat(harbour).isLessThan(departure);
        assertThat(doc.section(arrival + 1)).isEqualTo("Arrival");
        assertThat(doc.section(harbour + 1)).isEqualTo("The Harbour");
        assertThat(doc.section(departure + 1)).isEqualTo("Departure");
        assertThat(doc.paged()).isFalse();
    }

    @Test
    void sniffer_and_registry_sendEpubBytesToThisParser() {
        byte[] book = Fixtures.bytes("chapters.epub");

        assertThat(ContentSniffer.sniff(book)).isEqualTo(ContentSniffer.Kind.EPUB);
        assertThat(DocumentParsers.standard().forKind(ContentSniffer.Kind.EPUB)).get()
                .isInstanceOf(EpubDocumentParser.class);
        assertThat(DocumentParsers.standard().forPath("books/Journey.EPUB")).get()
                .isInstanceOf(EpubDocumentParser.class);
    }

    @Test
    void parse_entityExpansionInThePackage_isRefusedSayingWhy() throws Exception {
        DocumentSource source = DocumentSource.of("laughs.epub",
                MailBookScanFixtures.epub(MailBookScanFixtures.chapters(), true));

        assertThatThrownBy(() -> parser.parse(source)).isInstanceOf(IngestException.class)
                .hasMessageStartingWith("laughs.epub: ")
                .hasMessageContaining("declares a DTD");
    }

    @Test
    void parse_zipBomb_isRefusedSayingWhy() throws Exception {
        // a chapter of 300 MB of spaces packs to about 300 KB: far more than 100 times its packed size
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        byte[] spaces = new byte[1024 * 1024];
        Arrays.fill(spaces, (byte) ' ');
        try (ZipOutputStream zip = new ZipOutputStream(bytes)) {
            zip.putNextEntry(new ZipEntry("OEBPS/big.xhtml"));
            for (int i = 0; i < 300; i++) {
                zip.write(spaces);
            }
            zip.closeEntry();
        }
        DocumentSource source = DocumentSource.of("bomb.epub", bytes.toByteArray());

        assertThatThrownBy(() -> parser.parse(source)).isInstanceOf(IngestException.class)
                .hasMessageContaining("looks like a zip bomb")
                .hasMessageContaining("times its packed size");
    }

    @Test
    void parse_noContainer_failsWithTheFix() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ZipOutputStream zip = new ZipOutputStream(bytes)) {
            zip.putNextEntry(new ZipEntry("chapter.xhtml"));
            zip.write("<p>hi</p>".getBytes(StandardCharsets.UTF_8));
            zip.closeEntry();
        }

        assertThatThrownBy(() -> parser.parse(DocumentSource.of("x.epub", bytes.toByteArray())))
                .isInstanceOf(IngestException.class).hasMessageContaining("no META-INF/container.xml");
    }
}
