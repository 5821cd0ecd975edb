package dev.ragkit.documents.testing;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.PDPage;
import org.apache.pdfbox.pdmodel.PDPageContentStream;
import org.apache.pdfbox.pdmodel.font.PDType1Font;
import org.apache.pdfbox.pdmodel.font.Standard14Fonts;
import org.apache.poi.xwpf.usermodel.XWPFDocument;
import org.apache.poi.xwpf.usermodel.XWPFParagraph;

/**
 * Writes small real PDF and Word files for other modules' tests (shared through rag-documents' test-jar), with the
 * libraries rag-documents reads them with.
 */
public final class OfficeWriters {
    private OfficeWriters() {
    }

    /**
     * A PDF of text pages: one list of lines per page, Helvetica 12, top to bottom.
     *
     * @return {@code file}
     */
    public static Path pdf(Path file, List<List<String>> pages) throws IOException {
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

    /** Adds a paragraph in a Word heading style ({@code Heading1}, {@code Heading2}, ...). */
    public static void heading(XWPFDocument doc, String style, String text) {
        XWPFParagraph paragraph = doc.createParagraph();
        paragraph.setStyle(style);
        paragraph.createRun().setText(text);
    }
}
