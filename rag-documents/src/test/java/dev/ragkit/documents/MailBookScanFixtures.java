package dev.ragkit.documents;

import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TimeZone;
import java.util.zip.CRC32;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.apache.james.mime4j.MimeException;
import org.apache.james.mime4j.dom.Message;
import org.apache.james.mime4j.message.BasicBodyFactory;
import org.apache.james.mime4j.message.BodyPartBuilder;
import org.apache.james.mime4j.message.DefaultMessageWriter;
import org.apache.james.mime4j.message.MultipartBuilder;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.PDPage;
import org.apache.pdfbox.pdmodel.PDPageContentStream;
import org.apache.pdfbox.pdmodel.common.PDRectangle;
import org.apache.pdfbox.pdmodel.font.PDType1Font;
import org.apache.pdfbox.pdmodel.font.Standard14Fonts;
import org.apache.pdfbox.pdmodel.graphics.image.LosslessFactory;
import org.apache.pdfbox.pdmodel.graphics.image.PDImageXObject;
import org.apache.pdfbox.rendering.ImageType;
import org.apache.pdfbox.rendering.PDFRenderer;

/**
 * Writes the issue-27 test documents in {@code src/test/resources/documents} with the real libraries: the e-mails
 * with Apache James mime4j (their PDF attachment with PDFBox), the EPUB as a zip laid out as EPUB 3 says, and the
 * scanned PDF by rendering a text PDF's page to an image with PDFBox and putting that image on a page of its own.
 * Run {@link #main} with the working directory {@code rag-documents} to regenerate them; the tests read the
 * committed files and never depend on this class having run (except the hostile files, which tests build in a
 * temporary folder through the methods here).
 */
public final class MailBookScanFixtures {
    /** The text of each page of the e-mail's {@code report.pdf}; page 3 holds the answer the tests look for. */
    static final List<List<String>> REPORT_PAGES = List.of(
            List.of("Quarterly report", "Prepared by the finance team"),
            List.of("Revenue", "Revenue grew by 12 percent over the quarter."),
            List.of("Travel", "The Q3 travel budget is 42,000 euros.", "Trains are preferred over flights."));
    /** The text of the scanned page (page 2 of {@code mixed-scan.pdf}). */
    static final List<String> SCANNED_LINES = List.of("Safety rules", "Helmets are required in the workshop.",
            "Visitors sign in at the front desk.");

    private MailBookScanFixtures() {
    }

    /**
     * @param args optional target folder (default {@code src/test/resources/documents})
     * @throws IOException   when a file cannot be written
     * @throws MimeException when an address does not parse
     */
    public static void main(String[] args) throws IOException, MimeException {
        Path folder = Path.of(args.length > 0 ? args[0] : "src/test/resources/documents");
        Files.createDirectories(folder);
        Files.write(folder.resolve("thread.eml"), thread());
        Files.write(folder.resolve("newsletter.eml"), htmlOnly());
        Files.write(folder.resolve("chapters.epub"), epub(chapters(), false));
        Files.write(folder.resolve("mixed-scan.pdf"), mixedScan());
    }

    /** A PDF with one page per entry of {@code pages}, each line in 12-point Helvetica. */
    static byte[] textPdf(List<List<String>> pages, float fontSize) throws IOException {
        try (PDDocument pdf = new PDDocument()) {
            PDType1Font font = new PDType1Font(Standard14Fonts.FontName.HELVETICA);
            for (List<String> lines : pages) {
                PDPage page = new PDPage(PDRectangle.A4);
                pdf.addPage(page);
                try (PDPageContentStream content = new PDPageContentStream(pdf, page)) {
                    content.beginText();
                    content.setFont(font, fontSize);
                    content.setLeading(fontSize * 1.5f);
                    content.newLineAtOffset(60, 760);
                    for (String line : lines) {
                        content.showText(line);
                        content.newLine();
                    }
                    content.endText();
                }
            }
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            pdf.save(out);
            return out.toByteArray();
        }
    }

    /**
     * {@code thread.eml}: a plain-text body, {@code report.pdf} (3 pages), {@code notes.txt}, a forwarded message
     * (message/rfc822) with its own text, and {@code logo.png}, which no parser reads.
     */
    static byte[] thread() throws IOException, MimeException {
        BasicBodyFactory bodies = new BasicBodyFactory();
        Message forwarded = Message.Builder.of()
                .setSubject("Venue for the offsite")
                .setFrom("Dana Field <dana@example.com>")
                .setTo("alice@example.com")
                .setDate(Date.from(Instant.parse("2024-05-10T09:00:00Z")), TimeZone.getTimeZone("UTC"))
                .setBody("The offsite takes place at the lakeside hotel in Lindau.", StandardCharsets.UTF_8)
                .build();
        byte[] png = {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n', 0, 0, 0, 0};
        Message message = Message.Builder.of()
                .setSubject("Q3 budget and offsite")
                .setFrom("Alice Martin <Alice@Example.com>")
                .setTo("bob@example.com", "Carol <carol@example.com>")
                .setDate(Date.from(Instant.parse("2024-05-17T08:15:30Z")), TimeZone.getTimeZone("Europe/Berlin"))
                .setMessageId("<q3-budget@example.com>")
                .setBody(MultipartBuilder.create("mixed")
                        .addTextPart("Hello Bob,\n\nthe quarterly report is attached; see the travel page.\n\n"
                                + "Regards,\nAlice\n", StandardCharsets.UTF_8)
                        .addBodyPart(BodyPartBuilder.create()
                                .setBody(bodies.binaryBody(textPdf(REPORT_PAGES, 12)))
                                .setContentType("application/pdf")
                                .setContentTransferEncoding("base64")
                                .setContentDisposition("attachment", "report.pdf"))
                        .addBodyPart(BodyPartBuilder.create()
                                .setBody("Parking is free on Fridays.\n", "plain", StandardCharsets.UTF_8)
                                .setContentDisposition("attachment", "notes.txt"))
                        .addBodyPart(BodyPartBuilder.create()
                                .setBody(forwarded)
                                .setContentType("message/rfc822")
                                .setContentDisposition("attachment", "venue.eml"))
                        .addBodyPart(BodyPartBuilder.create()
                                .setBody(bodies.binaryBody(png))
                                .setContentType("image/png")
                                .setContentTransferEncoding("base64")
                                .setContentDisposition("attachment", "logo.png"))
                        .build())
                .build();
        return DefaultMessageWriter.asBytes(message);
    }

    /** {@code newsletter.eml}: an HTML body only (with a heading), no plain-text alternative. */
    static byte[] htmlOnly() throws IOException, MimeException {
        Message message = Message.Builder.of()
                .setSubject("Newsletter May")
                .setFrom("news@example.org")
                .setTo("team@example.com")
                .setDate(Date.from(Instant.parse("2024-05-02T07:00:00Z")), TimeZone.getTimeZone("UTC"))
                .setBody("<html><body><h1>Canteen</h1><p>The canteen opens at <b>11:30</b> from June.</p>"
                        + "<script>track()</script></body></html>", "html", StandardCharsets.UTF_8)
                .build();
        return DefaultMessageWriter.asBytes(message);
    }

    /** An e-mail with {@code count} small text attachments. */
    static byte[] manyAttachments(int count) throws IOException, MimeException {
        MultipartBuilder parts = MultipartBuilder.create("mixed").addTextPart("Many files.", StandardCharsets.UTF_8);
        for (int i = 0; i < count; i++) {
            parts.addBodyPart(BodyPartBuilder.create().setBody("file " + i + "\n", "plain", StandardCharsets.UTF_8)
                    .setContentDisposition("attachment", "f" + i + ".txt"));
        }
        return DefaultMessageWriter.asBytes(Message.Builder.of().setSubject("Many").setFrom("a@example.com")
                .setBody(parts.build()).build());
    }

    /** An e-mail that attaches a message that attaches a message … {@code depth} messages deep. */
    static byte[] nestedMessages(int depth) throws IOException, MimeException {
        Message inner = Message.Builder.of().setSubject("Level " + depth).setFrom("a@example.com")
                .setBody("innermost text", StandardCharsets.UTF_8).build();
        for (int level = depth - 1; level >= 0; level--) {
            inner = Message.Builder.of().setSubject("Level " + level).setFrom("a@example.com")
                    .setBody(MultipartBuilder.create("mixed")
                            .addTextPart("text of level " + level, StandardCharsets.UTF_8)
                            .addBodyPart(BodyPartBuilder.create().setBody(inner).setContentType("message/rfc822")
                                    .setContentDisposition("attachment", "level" + (level + 1) + ".eml"))
                            .build())
                    .build();
        }
        return DefaultMessageWriter.asBytes(inner);
    }

    /** The chapters of {@code chapters.epub}, by file name, in manifest order (the spine reverses the first two). */
    static Map<String, String> chapters() {
        Map<String, String> chapters = new LinkedHashMap<>();
        chapters.put("OEBPS/ch2.xhtml", chapter("The Harbour", "Ships leave the harbour at dawn."));
        chapters.put("OEBPS/ch1.xhtml", chapter("Arrival", "The traveller arrives in Porto on a Tuesday."));
        chapters.put("OEBPS/ch3.xhtml", chapter("Departure", "The last train to Lisbon leaves at 22:40."));
        return chapters;
    }

    private static String chapter(String title, String text) {
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<html xmlns=\"http://www.w3.org/1999/xhtml\"><head><title>"
                + title + "</title></head><body><h1>" + title + "</h1><p>" + text + "</p></body></html>\n";
    }

    /**
     * An EPUB 3 zip: the stored {@code mimetype} first, {@code META-INF/container.xml}, the package document
     * {@code OEBPS/content.opf} (spine: ch1, ch2, ch3) and the chapters.
     *
     * @param entityBomb put a "billion laughs" DTD with entity expansion into the package document
     */
    static byte[] epub(Map<String, String> chapters, boolean entityBomb) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ZipOutputStream zip = new ZipOutputStream(bytes)) {
            byte[] mimetype = "application/epub+zip".getBytes(StandardCharsets.US_ASCII);
            ZipEntry entry = new ZipEntry("mimetype");
            entry.setMethod(ZipEntry.STORED);
            entry.setSize(mimetype.length);
            CRC32 crc = new CRC32();
            crc.update(mimetype);
            entry.setCrc(crc.getValue());
            zip.putNextEntry(entry);
            zip.write(mimetype);
            zip.closeEntry();
            put(zip, "META-INF/container.xml", "<?xml version=\"1.0\"?>\n<container version=\"1.0\" "
                    + "xmlns=\"urn:oasis:names:tc:opendocument:xmlns:container\"><rootfiles><rootfile "
                    + "full-path=\"OEBPS/content.opf\" media-type=\"application/oebps-package+xml\"/></rootfiles>"
                    + "</container>\n");
            String bomb = entityBomb ? "<!DOCTYPE package [<!ENTITY a \"aaaaaaaaaa\"><!ENTITY b \"&a;&a;&a;&a;&a;"
                    + "&a;&a;&a;&a;&a;\"><!ENTITY c \"&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;\"><!ENTITY d \"&c;&c;&c;&c;&c;"
                    + "&c;&c;&c;&c;&c;\">]>\n" : "";
            put(zip, "OEBPS/content.opf", "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" + bomb
                    + "<package xmlns=\"http://www.idpf.org/2007/opf\" version=\"3.0\" unique-identifier=\"id\">"
                    + "<metadata xmlns:dc=\"http://purl.org/dc/elements/1.1/\"><dc:identifier id=\"id\">urn:x:1"
                    + "</dc:identifier><dc:title>A Journey" + (entityBomb ? " &d;" : "") + "</dc:title>"
                    + "<dc:creator>Ana Lopes</dc:creator><dc:language>en</dc:language></metadata><manifest>"
                    + "<item id=\"c2\" href=\"ch2.xhtml\" media-type=\"application/xhtml+xml\"/>"
                    + "<item id=\"c1\" href=\"ch1.xhtml\" media-type=\"application/xhtml+xml\"/>"
                    + "<item id=\"c3\" href=\"ch3.xhtml\" media-type=\"application/xhtml+xml\"/>"
                    + "</manifest><spine><itemref idref=\"c1\"/><itemref idref=\"c2\"/><itemref idref=\"c3\"/>"
                    + "</spine></package>\n");
            for (Map.Entry<String, String> chapter : chapters.entrySet()) {
                put(zip, chapter.getKey(), chapter.getValue());
            }
        }
        return bytes.toByteArray();
    }

    private static void put(ZipOutputStream zip, String name, String text) throws IOException {
        zip.putNextEntry(new ZipEntry(name));
        zip.write(text.getBytes(StandardCharsets.UTF_8));
        zip.closeEntry();
    }

    /** A PDF of one scanned page only: {@code mixed-scan.pdf}'s page 2. */
    static byte[] scanOnly() throws IOException {
        try (PDDocument mixed = org.apache.pdfbox.Loader.loadPDF(Fixtures.bytes("mixed-scan.pdf"))) {
            mixed.removePage(0);
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            mixed.save(out);
            return out.toByteArray();
        }
    }

    /**
     * {@code mixed-scan.pdf}: page 1 has a text layer; page 2 is a picture of text and nothing else — a text PDF's
     * page rendered by PDFBox to a 200 dpi black-and-white image, as a scanner would deliver it.
     */
    static byte[] mixedScan() throws IOException {
        BufferedImage picture;
        try (PDDocument text = org.apache.pdfbox.Loader.loadPDF(textPdf(List.of(SCANNED_LINES), 16))) {
            picture = new PDFRenderer(text).renderImageWithDPI(0, 200, ImageType.BINARY);
        }
        try (PDDocument pdf = new PDDocument()) {
            PDType1Font font = new PDType1Font(Standard14Fonts.FontName.HELVETICA);
            PDPage first = new PDPage(PDRectangle.A4);
            pdf.addPage(first);
            try (PDPageContentStream content = new PDPageContentStream(pdf, first)) {
                content.beginText();
                content.setFont(font, 12);
                content.newLineAtOffset(60, 760);
                content.showText("Workshop handbook: the text page comes first.");
                content.endText();
            }
            PDPage scanned = new PDPage(PDRectangle.A4);
            pdf.addPage(scanned);
            PDImageXObject image = LosslessFactory.createFromImage(pdf, picture);
            try (PDPageContentStream content = new PDPageContentStream(pdf, scanned)) {
                content.drawImage(image, 0, 0, PDRectangle.A4.getWidth(), PDRectangle.A4.getHeight());
            }
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            pdf.save(out);
            return out.toByteArray();
        }
    }
}
