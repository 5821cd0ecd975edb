package dev.ragkit.documents.testing;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.PDPage;
import org.apache.pdfbox.pdmodel.PDPageContentStream;
import org.apache.pdfbox.pdmodel.font.PDFont;
import org.apache.pdfbox.pdmodel.font.PDType1Font;
import org.apache.pdfbox.pdmodel.font.Standard14Fonts;
import org.apache.poi.xwpf.usermodel.XWPFDocument;
import org.apache.poi.xwpf.usermodel.XWPFParagraph;
import org.jspecify.annotations.Nullable;

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
                    lines(content, font, 700, lines);
                }
            }
            pdf.save(file.toFile());
        }
        return file;
    }

    /** Writes lines of text down a page from {@code top}, 12 points, 16 apart, 60 from the left edge. */
    public static void lines(PDPageContentStream content, PDFont font, float top, List<String> lines)
            throws IOException {
        content.beginText();
        content.setFont(font, 12);
        content.setLeading(16);
        content.newLineAtOffset(60, top);
        for (String line : lines) {
            content.showText(line);
            content.newLine();
        }
        content.endText();
    }

    /**
     * Adds a Word paragraph.
     *
     * @param style a paragraph style ({@code Heading1}, {@code Heading2}, ...), or {@code null} for body text
     * @return the paragraph
     */
    public static XWPFParagraph paragraph(XWPFDocument doc, @Nullable String style, String text) {
        XWPFParagraph paragraph = doc.createParagraph();
        if (style != null) {
            paragraph.setStyle(style);
        }
        paragraph.createRun().setText(text);
        return paragraph;
    }
}
