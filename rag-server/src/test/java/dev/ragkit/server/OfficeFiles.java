package dev.ragkit.server;

import static dev.ragkit.documents.testing.OfficeWriters.paragraph;
import static dev.ragkit.documents.testing.OfficeWriters.pdf;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.poi.xwpf.usermodel.XWPFDocument;

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
            paragraph(doc, "Heading1", "Install");
            doc.createParagraph().createRun().setText("Check memory, disk and network before installing.");
            paragraph(doc, "Heading2", "Linux");
            doc.createParagraph().createRun().setText(LINUX);
            paragraph(doc, "Heading2", "Windows");
            doc.createParagraph().createRun().setText("On Windows run the MSI installer as an administrator.");
            doc.write(out);
        }
        return file;
    }
}
