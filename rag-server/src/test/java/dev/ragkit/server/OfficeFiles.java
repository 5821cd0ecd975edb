package dev.ragkit.server;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.PDPage;
import org.apache.pdfbox.pdmodel.PDPageContentStream;
import org.apache.pdfbox.pdmodel.font.PDType1Font;
import org.apache.pdfbox.pdmodel.font.Standard14Fonts;
import org.apache.poi.xwpf.usermodel.XWPFDocument;
import org.apache.poi.xwpf.usermodel.XWPFParagraph;

/** Real Word and PDF files for the tests, written with POI and PDFBox (what rag-documents reads them with). */
final class OfficeFiles {
    /** The sentence on the third page of {@link #handbook}. */
    static final String LEAVE = "Parents receive sixteen weeks of paid parental leave.";
    /** The sentence in the Linux section of {@link #guide}. */
    static final String LINUX = "On Linux the agent installs with the apt package agentd.";

    private OfficeFiles() {
    }

    /** A three-page PDF: a welcome, working hours, and parental leave on page 3. */
    static Path handbook(Path dir) throws IOException {
        return pdf(dir.resolve("hr-handbook.pdf"), List.of(
                List.of("Welcome to the company.", "This handbook explains our policies."),
                List.of("Working hours are flexible between seven and seven."),
                List.of("Parental leave", LEAVE, "Apply for parental leave in the HR portal.")));
    }

    /** A Word file with headings: an install guide whose Linux section names the package. */
    static Path guide(Path dir) throws IOException {
        Path file = dir.resolve("guide.docx");
        try (XWPFDocument doc = new XWPFDocument(); OutputStream out = Files.newOutputStream(file)) {
            doc.createParagraph().createRun().setText("Agent guide");
            heading(doc, "Heading1", "Install");
            doc.createParagraph().createRun().setText("Check memory, disk and network before installing.");
            heading(doc, "Heading2", "Linux");
            doc.createParagraph().createRun().setText(LINUX);
            heading(doc, "Heading2", "Windows");
            doc.createParagraph().createRun().setText("On Windows run the MSI installer as an administrator.");
            doc.write(out);
        }
        return file;
    }

    private static void heading(XWPFDocument doc, String style, String text) {
        XWPFParagraph paragraph = doc.createParagraph();
        paragraph.setStyle(style);
        paragraph.createRun().setText(text);
    }

    private static Path pdf(Path file, List<List<String>> pages) throws IOException {
        try (PDDocument pdf = new PDDocument()) {
            PDType1Font font = new PDType1Font(Standard14Fonts.FontName.HELVETICA);
            for (List<String> lines : pages) {
                PDPage page = new PDPage();
                pdf.addPage(page);
                try (PDPageContentStream content = new PDPageContentStream(pdf, page)) {
                    content.beginText();
                    content.setFont(font, 12);
                    content.setLeading(16);
                    content.newLineAtOffset(60, 700);
                    for (String line : lines) {
                        content.showText(line);
                        content.newLine();
                    }
                    content.endText();
                }
            }
            pdf.save(file.toFile());
        }
        return file;
    }
}
