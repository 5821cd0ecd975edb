package dev.ragkit.documents;

import static dev.ragkit.documents.testing.OfficeWriters.paragraph;

import dev.ragkit.documents.testing.OfficeWriters;
import java.io.IOException;
import java.io.OutputStream;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.PDDocumentInformation;
import org.apache.pdfbox.pdmodel.PDPage;
import org.apache.pdfbox.pdmodel.PDPageContentStream;
import org.apache.pdfbox.pdmodel.common.PDRectangle;
import org.apache.pdfbox.pdmodel.encryption.AccessPermission;
import org.apache.pdfbox.pdmodel.encryption.StandardProtectionPolicy;
import org.apache.pdfbox.pdmodel.font.PDType1Font;
import org.apache.pdfbox.pdmodel.font.Standard14Fonts;
import org.apache.pdfbox.pdmodel.interactive.documentnavigation.destination.PDPageFitDestination;
import org.apache.pdfbox.pdmodel.interactive.documentnavigation.outline.PDDocumentOutline;
import org.apache.pdfbox.pdmodel.interactive.documentnavigation.outline.PDOutlineItem;
import org.apache.poi.xwpf.usermodel.XWPFDocument;
import org.apache.poi.xwpf.usermodel.XWPFParagraph;
import org.apache.poi.xwpf.usermodel.XWPFStyle;
import org.apache.poi.xwpf.usermodel.XWPFStyles;
import org.apache.poi.xwpf.usermodel.XWPFTable;
import org.openxmlformats.schemas.wordprocessingml.x2006.main.CTStyle;
import org.openxmlformats.schemas.wordprocessingml.x2006.main.STStyleType;

/**
 * Writes the committed test documents in {@code src/test/resources/documents} with the real libraries: PDFBox
 * for the PDFs, POI for the Word document. Run it from the module folder to regenerate them:
 * {@code mvn -q test-compile exec:java}-style, or from an IDE, with the working directory {@code rag-documents}.
 * The tests read the committed files; they never depend on this class having run.
 */
public final class DocumentFixtures {
    /** The lines of each page of {@code handbook.pdf}; page 3 is left without text (like a scanned page). */
    static final List<List<String>> HANDBOOK_PAGES = List.of(
            List.of("Employee Handbook", "Version 3, valid from 2025"),
            List.of("Annual leave", "Every employee has 28 days of paid leave a year.",
                    "Leave is requested in the HR portal two weeks ahead.",
                    "Unused days carry over until the end of March."),
            List.of(),
            List.of("Expenses", "Travel costs are refunded within 30 days.",
                    "Keep every receipt for six years.", "Meals abroad are paid at the daily rate.",
                    "Taxis need a written reason."));

    private DocumentFixtures() {
    }

    /**
     * @param args optional target folder (default {@code src/test/resources/documents})
     * @throws IOException when a file cannot be written
     */
    public static void main(String[] args) throws IOException {
        Path folder = Path.of(args.length > 0 ? args[0] : "src/test/resources/documents");
        Files.createDirectories(folder);
        handbook(folder.resolve("handbook.pdf"), null);
        handbook(folder.resolve("handbook-no-copy.pdf"), "");
        handbook(folder.resolve("handbook-locked.pdf"), "secret");
        scan(folder.resolve("scan.pdf"));
        guide(folder.resolve("guide.docx"));
        essay(folder.resolve("essay.docx"));
    }

    private static void handbook(Path file, String userPassword) throws IOException {
        try (PDDocument pdf = new PDDocument()) {
            PDType1Font font = new PDType1Font(Standard14Fonts.FontName.HELVETICA);
            for (List<String> lines : HANDBOOK_PAGES) {
                PDPage page = new PDPage(PDRectangle.A4);
                pdf.addPage(page);
                try (PDPageContentStream content = new PDPageContentStream(pdf, page)) {
                    if (lines.isEmpty()) {
                        content.addRect(50, 400, 300, 200);          // a picture, no text: as a scanned page
                        content.fill();
                        continue;
                    }
                    OfficeWriters.lines(content, font, 780, lines);
                }
            }
            PDDocumentInformation info = pdf.getDocumentInformation();
            info.setTitle("Employee Handbook");
            info.setAuthor("HR Team");
            PDDocumentOutline outline = new PDDocumentOutline();
            pdf.getDocumentCatalog().setDocumentOutline(outline);
            PDOutlineItem policies = bookmark(pdf, "Policies", 1);
            outline.addLast(policies);
            policies.addLast(bookmark(pdf, "Leave", 1));
            policies.addLast(bookmark(pdf, "Expenses", 3));
            if (userPassword != null) {
                StandardProtectionPolicy policy = new StandardProtectionPolicy("owner-secret", userPassword,
                        new AccessPermission());
                policy.setEncryptionKeyLength(128);
                pdf.protect(policy);
            }
            pdf.save(file.toFile());
        }
    }

    private static PDOutlineItem bookmark(PDDocument pdf, String title, int pageIndex) {
        PDPageFitDestination destination = new PDPageFitDestination();
        destination.setPage(pdf.getPage(pageIndex));
        PDOutlineItem item = new PDOutlineItem();
        item.setTitle(title);
        item.setDestination(destination);
        return item;
    }

    private static void scan(Path file) throws IOException {
        try (PDDocument pdf = new PDDocument()) {
            for (int i = 0; i < 2; i++) {
                PDPage page = new PDPage(PDRectangle.A4);
                pdf.addPage(page);
                try (PDPageContentStream content = new PDPageContentStream(pdf, page)) {
                    content.addRect(40, 40, 500, 700);
                    content.fill();
                }
            }
            pdf.save(file.toFile());
        }
    }

    private static void guide(Path file) throws IOException {
        try (XWPFDocument doc = new XWPFDocument()) {
            XWPFStyles styles = doc.createStyles();
            // A localised Word names its heading style "heading 1" but gives it another id.
            styles.addStyle(style("Berschrift1", "heading 1", null));
            styles.addStyle(style("Kapitel", "Chapter", "Berschrift1"));
            styles.addStyle(style("Title", "Title", null));
            doc.getProperties().getCoreProperties().setCreator("Docs Team");
            paragraph(doc, "Title", "Installation Guide");
            paragraph(doc, null, "This guide explains how to install the agent.");
            paragraph(doc, "Berschrift1", "Install");
            paragraph(doc, null, "Download the package for your system first.");
            paragraph(doc, "Heading2", "Linux");
            paragraph(doc, null, "Run the installer as root:");
            for (String step : List.of("Unpack the archive", "Run ./install.sh", "Start the service")) {
                XWPFParagraph item = paragraph(doc, null, step);
                item.setNumID(BigInteger.ONE);
            }
            XWPFTable table = doc.createTable(3, 2);
            String[][] cells = {{"Distribution", "Package"}, {"Debian", "agent.deb"}, {"Fedora", "agent.rpm"}};
            for (int r = 0; r < cells.length; r++) {
                for (int c = 0; c < cells[r].length; c++) {
                    table.getRow(r).getCell(c).setText(cells[r][c]);
                }
            }
            paragraph(doc, "Heading2", "Windows");
            paragraph(doc, null, "Double-click setup.exe and follow the wizard.");
            XWPFParagraph see = doc.createParagraph();
            see.createRun().setText("See also ");
            see.createHyperlinkRun("faq.docx").setText("the FAQ");
            see.createHyperlinkRun("https://example.com/help").setText(" and the website");
            paragraph(doc, "Kapitel", "Troubleshooting");
            paragraph(doc, null, "If the service does not start, read the log in /var/log/agent.");
            try (OutputStream out = Files.newOutputStream(file)) {
                doc.write(out);
            }
        }
    }

    /**
     * An essay whose last section, "Essay Memo", follows a "Conclusion" under "Body": an answer in it must be cited
     * with its own heading, not with the section its chunk would start in if chunks could span sections.
     */
    private static void essay(Path file) throws IOException {
        try (XWPFDocument doc = new XWPFDocument()) {
            paragraph(doc, "Heading1", "Body");
            paragraph(doc, null, "The essay compares two harbours and the way they handle their freight.");
            paragraph(doc, "Heading2", "Conclusion");
            paragraph(doc, null, "Both harbours move about the same tonnage each year.");
            paragraph(doc, null, "The northern harbour does it with half the cranes.");
            paragraph(doc, "Heading2", "Essay Memo");
            paragraph(doc, null, "The memo is due to the tutor on the last Friday of term.");
            paragraph(doc, null, "Late memos lose one grade per day.");
            try (OutputStream out = Files.newOutputStream(file)) {
                doc.write(out);
            }
        }
    }

    private static XWPFStyle style(String id, String name, String basedOn) {
        CTStyle style = CTStyle.Factory.newInstance();
        style.setStyleId(id);
        style.setType(STStyleType.PARAGRAPH);
        style.addNewName().setVal(name);
        if (basedOn != null) {
            style.addNewBasedOn().setVal(basedOn);
        }
        return new XWPFStyle(style);
    }
}
