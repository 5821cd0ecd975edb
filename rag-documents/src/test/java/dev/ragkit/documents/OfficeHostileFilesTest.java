package dev.ragkit.documents;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ragkit.error.IngestException;
import dev.ragkit.parse.DocumentParser;
import dev.ragkit.parse.DocumentSkippedException;
import dev.ragkit.parse.DocumentSource;
import dev.ragkit.ingest.IndexReport;
import dev.ragkit.ingest.Indexer;
import dev.ragkit.parse.ParsedDocument;
import dev.ragkit.parse.SkipReason;
import dev.ragkit.store.inmemory.InMemoryDocumentStore;
import dev.ragkit.testing.HashedBagOfWordsEmbedder;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.apache.poi.poifs.crypt.EncryptionInfo;
import org.apache.poi.poifs.crypt.EncryptionMode;
import org.apache.poi.poifs.crypt.Encryptor;
import org.apache.poi.poifs.filesystem.POIFSFileSystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 27: hostile slides, spreadsheets and OpenDocument files are reported, not hung — zip bombs, XML entity
 * expansion, password protection, a sheet formatted down to its millionth row — and an indexing run goes on.
 */
final class OfficeHostileFilesTest {
    private static final String CONTENT_TYPES = "<?xml version=\"1.0\" encoding=\"UTF-8\"?><Types xmlns=\"http://"
            + "schemas.openxmlformats.org/package/2006/content-types\"><Default Extension=\"rels\" ContentType=\""
            + "application/vnd.openxmlformats-package.relationships+xml\"/><Default Extension=\"xml\" ContentType=\""
            + "application/xml\"/><Override PartName=\"/xl/workbook.xml\" ContentType=\"application/vnd."
            + "openxmlformats-officedocument.spreadsheetml.sheet.main+xml\"/><Override PartName=\"/xl/worksheets/"
            + "sheet1.xml\" ContentType=\"application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"
            + "\"/></Types>";
    private static final String RELS = "<?xml version=\"1.0\" encoding=\"UTF-8\"?><Relationships xmlns=\"http://"
            + "schemas.openxmlformats.org/package/2006/relationships\"><Relationship Id=\"rId1\" Type=\"http://"
            + "schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument\" Target=\""
            + "xl/workbook.xml\"/></Relationships>";
    private static final String WORKBOOK = "<?xml version=\"1.0\" encoding=\"UTF-8\"?><workbook xmlns=\"http://"
            + "schemas.openxmlformats.org/spreadsheetml/2006/main\" xmlns:r=\"http://schemas.openxmlformats.org/"
            + "officeDocument/2006/relationships\"><sheets><sheet name=\"Data\" sheetId=\"1\" r:id=\"rId1\"/>"
            + "</sheets></workbook>";
    private static final String WORKBOOK_RELS = "<?xml version=\"1.0\" encoding=\"UTF-8\"?><Relationships xmlns="
            + "\"http://schemas.openxmlformats.org/package/2006/relationships\"><Relationship Id=\"rId1\" Type=\""
            + "http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet\" Target=\""
            + "worksheets/sheet1.xml\"/></Relationships>";
    private static final String ODF_MIME = "application/vnd.oasis.opendocument.text";

    @TempDir
    Path root;

    private interface Body {
        void write(OutputStream out) throws IOException;
    }

    /** A zip with the given small entries, and a last entry whose body is written by {@code body}. */
    private static byte[] zip(Map<String, String> entries, String last, Body body) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ZipOutputStream zip = new ZipOutputStream(bytes)) {
            for (Map.Entry<String, String> e : entries.entrySet()) {
                zip.putNextEntry(new ZipEntry(e.getKey()));
                zip.write(e.getValue().getBytes(StandardCharsets.UTF_8));
            }
            zip.putNextEntry(new ZipEntry(last));
            body.write(zip);
            zip.closeEntry();
        }
        return bytes.toByteArray();
    }

    private static Map<String, String> xlsxParts() {
        Map<String, String> parts = new TreeMap<>();
        parts.put("[Content_Types].xml", CONTENT_TYPES);
        parts.put("_rels/.rels", RELS);
        parts.put("xl/workbook.xml", WORKBOOK);
        parts.put("xl/_rels/workbook.xml.rels", WORKBOOK_RELS);
        return parts;
    }

    /** An ODF text package: the stored mimetype entry first (as the sniffer and LibreOffice expect). */
    private static byte[] odt(Body content) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ZipOutputStream zip = new ZipOutputStream(bytes)) {
            byte[] mime = ODF_MIME.getBytes(StandardCharsets.US_ASCII);
            ZipEntry entry = new ZipEntry("mimetype");
            entry.setMethod(ZipEntry.STORED);
            entry.setSize(mime.length);
            java.util.zip.CRC32 crc = new java.util.zip.CRC32();
            crc.update(mime);
            entry.setCrc(crc.getValue());
            zip.putNextEntry(entry);
            zip.write(mime);
            zip.putNextEntry(new ZipEntry("content.xml"));
            content.write(zip);
            zip.closeEntry();
        }
        return bytes.toByteArray();
    }

    private static Body spaces(String before, long count, String after) {
        return out -> {
            out.write(before.getBytes(StandardCharsets.UTF_8));
            byte[] block = new byte[1 << 16];
            java.util.Arrays.fill(block, (byte) ' ');
            for (long written = 0; written < count; written += block.length) {
                out.write(block);
            }
            out.write(after.getBytes(StandardCharsets.UTF_8));
        };
    }

    @ParameterizedTest
    @ValueSource(strings = {"bomb.pptx", "bomb.xlsx", "bomb.odt"})
    @Timeout(60)
    void aZipBomb_inAnyZipBasedFormat_isReportedAsOne(String name) throws IOException {
        Body filler = spaces("<?xml version=\"1.0\"?><x><!--", 50L << 20, "--></x>");
        byte[] bomb;
        DocumentParser parser;
        if (name.endsWith("odt")) {
            bomb = odt(filler);
            parser = new OpenDocumentParser();
        } else if (name.endsWith("xlsx")) {
            Map<String, String> parts = xlsxParts();
            parts.remove("xl/workbook.xml");
            bomb = zip(parts, "xl/workbook.xml", filler);
            parser = new SpreadsheetDocumentParser();
        } else {
            bomb = zip(Map.of("[Content_Types].xml", CONTENT_TYPES.replace("xl/workbook", "ppt/presentation"),
                    "_rels/.rels", RELS.replace("xl/workbook", "ppt/presentation")), "ppt/presentation.xml", filler);
            parser = new SlidesDocumentParser();
        }
        assertThat(bomb.length).as("50 MiB packed small").isLessThan(200_000);

        assertThatThrownBy(() -> parser.parse(DocumentSource.of(name, bomb)))
                .isInstanceOf(IngestException.class)
                .hasMessageContaining("the file looks like a zip bomb")
                .hasMessageContaining("times its packed size")
                .hasMessageNotContaining("Zip bomb detected");
    }

    @Test
    @Timeout(30)
    void entityExpansion_inAnOpenDocumentContentXml_isRefused() throws IOException {
        StringBuilder laughs = new StringBuilder("<?xml version=\"1.0\"?><!DOCTYPE x [<!ENTITY l0 \"lol\">");
        for (int i = 1; i <= 9; i++) {
            laughs.append("<!ENTITY l").append(i).append(" \"").append(("&l" + (i - 1) + ";").repeat(10))
                    .append("\">");
        }
        laughs.append("]><office:document-content xmlns:office=\"urn:oasis:names:tc:opendocument:xmlns:office:1.0\" "
                + "xmlns:text=\"urn:oasis:names:tc:opendocument:xmlns:text:1.0\"><office:body><office:text><text:p>"
                + "&l9;</text:p></office:text></office:body></office:document-content>");
        byte[] file = odt(out -> out.write(laughs.toString().getBytes(StandardCharsets.UTF_8)));

        assertThatThrownBy(() -> new OpenDocumentParser().parse(DocumentSource.of("laughs.odt", file)))
                .isInstanceOf(IngestException.class)
                .hasMessage("laughs.odt: the file's XML declares a DOCTYPE, which is refused (entity expansion and "
                        + "external entities are not allowed); open it in LibreOffice and save it again");
    }

    /** {@code budget.xlsx} encrypted with a password by POI's agile encryption, as Excel does. */
    private static byte[] encrypted(byte[] plain) throws Exception {
        try (POIFSFileSystem fs = new POIFSFileSystem()) {
            EncryptionInfo info = new EncryptionInfo(EncryptionMode.agile);
            Encryptor encryptor = info.getEncryptor();
            encryptor.confirmPassword("secret");
            try (OutputStream out = encryptor.getDataStream(fs)) {
                out.write(plain);
            }
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            fs.writeFilesystem(bytes);
            return bytes.toByteArray();
        }
    }

    @Test
    @Timeout(60)
    void encryptedOfficeFiles_areSkippedAsEncrypted_andTheRunGoesOn() throws Exception {
        byte[] xlsx = encrypted(Fixtures.bytes("budget.xlsx"));
        assertThatThrownBy(() -> new SpreadsheetDocumentParser().parse(DocumentSource.of("locked.xlsx", xlsx)))
                .isInstanceOfSatisfying(DocumentSkippedException.class,
                        e -> assertThat(e.reason()).isEqualTo(SkipReason.ENCRYPTED))
                .hasMessageContaining("save an unprotected copy");

        write("locked.xlsx", xlsx);
        write("locked.pptx", encrypted(Fixtures.bytes("deck.pptx")));
        write("locked.docx", encrypted(Fixtures.bytes("guide.docx")));
        write("deck.pptx", Fixtures.bytes("deck.pptx"));
        write("budget.xls", Fixtures.bytes("budget.xls"));
        write("memo.doc", Fixtures.bytes("memo.doc"));
        write("memo.odt", Fixtures.bytes("memo.odt"));
        write("budget.ods", Fixtures.bytes("budget.ods"));
        write("deck.odp", Fixtures.bytes("deck.odp"));
        write("renamed.doc", Fixtures.bytes("budget.xls"));

        IndexReport report = Indexer.builder().store(InMemoryDocumentStore.builder().build())
                .embedder(new HashedBagOfWordsEmbedder("hash-64", 64)).tenant("t").build().index(root);

        Map<String, String> outcome = new TreeMap<>();
        report.filesSkipped().forEach(s -> outcome.put(s.path(), s.reason().name()));
        report.filesFailed().forEach(f -> outcome.put(f.path(), "FAILED: " + f.message()));
        assertThat(outcome).containsEntry("locked.xlsx", "ENCRYPTED").containsEntry("locked.pptx", "ENCRYPTED")
                .containsEntry("locked.docx", "ENCRYPTED");
        assertThat(outcome.get("renamed.doc")).isEqualTo("FAILED: renamed.doc: not a Word document: the file holds "
                + "an Excel 97-2003 workbook; rename it to .xls to index it");
        assertThat(outcome).hasSize(4);
        assertThat(report.filesIndexed()).isEqualTo(6);
        assertThat(report.types()).containsKeys("slides", "spreadsheet", "doc", "opendocument");
    }

    @Test
    @Timeout(60)
    void aSheetWithAMillionEmptyRows_readsItsFewRows_inBoundedTimeAndMemory() throws IOException {
        String head = "<?xml version=\"1.0\" encoding=\"UTF-8\"?><worksheet xmlns=\"http://schemas.openxmlformats.org/"
                + "spreadsheetml/2006/main\"><sheetData>"
                + "<row r=\"1\"><c r=\"A1\" t=\"inlineStr\"><is><t>Item</t></is></c><c r=\"B1\" t=\"inlineStr\"><is>"
                + "<t>Count</t></is></c></row>"
                + "<row r=\"2\"><c r=\"A2\" t=\"inlineStr\"><is><t>Chairs</t></is></c><c r=\"B2\"><v>12</v></c></row>";
        Body sheet = out -> {
            out.write(head.getBytes(StandardCharsets.UTF_8));
            for (int r = 3; r <= 1_000_002; r++) {
                out.write(("<row r=\"" + r + "\" s=\"1\" customFormat=\"1\"/>").getBytes(StandardCharsets.US_ASCII));
            }
            out.write("</sheetData></worksheet>".getBytes(StandardCharsets.UTF_8));
        };
        byte[] file = zip(xlsxParts(), "xl/worksheets/sheet1.xml", sheet);
        assertThat(file.length).as("a million rows packed small").isLessThan(3_000_000);

        ParsedDocument book = new SpreadsheetDocumentParser().parse(DocumentSource.of("formatted.xlsx", file));

        assertThat(book.lines()).containsExactly("Item | Count", "Item: Chairs | Count: 12");
        assertThat(book.sections()).containsOnly("Data");
    }

    @Test
    void aWorkbookPastTheCharacterLimit_isCutThere_andTheCutIsReported() {
        ParsedDocument book = new SpreadsheetDocumentParser().parse(new DocumentSource("docs/budget.xlsx",
                Fixtures.bytes("budget.xlsx"), 60));

        assertThat(book.lines()).containsExactly("Region | Q3", "Region: North | Q3: 1200");
        assertThat(book.metadata()).containsEntry(SpreadsheetDocumentParser.CUT,
                "sheet 'Q3' was cut at row 3: the text reached the limit of 60 characters");
        assertThat(book.warnings()).contains("sheet 'Q3' was cut at row 3: the text reached the limit of 60 "
                + "characters; the rows before it are indexed (raise the character limit, or split the workbook, to "
                + "index the rest)");
    }

    private void write(String path, byte[] bytes) throws IOException {
        Files.write(root.resolve(path), bytes);
    }
}
