package dev.ragkit.benchmarks;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.PDPage;
import org.apache.pdfbox.pdmodel.PDPageContentStream;
import org.apache.pdfbox.pdmodel.common.PDRectangle;
import org.apache.pdfbox.pdmodel.font.PDType1Font;
import org.apache.pdfbox.pdmodel.font.Standard14Fonts;

/** Lines of text written as a PDF by PDFBox, for the benchmarks that parse PDFs: A4 pages, Times 10 pt. */
final class PdfPages {
    private PdfPages() {
    }

    /**
     * @param lines        the lines, each within a page's width and in characters Times can show (printable ASCII)
     * @param linesPerPage how many lines go on a page
     * @return the PDF's bytes
     */
    static byte[] write(List<String> lines, int linesPerPage) {
        try (PDDocument doc = new PDDocument(); ByteArrayOutputStream out = new ByteArrayOutputStream()) {
            PDType1Font font = new PDType1Font(Standard14Fonts.FontName.TIMES_ROMAN);
            for (int first = 0; first < lines.size(); first += linesPerPage) {
                PDPage page = new PDPage(PDRectangle.A4);
                doc.addPage(page);
                try (PDPageContentStream content = new PDPageContentStream(doc, page)) {
                    content.beginText();
                    content.setFont(font, 10);
                    content.setLeading(17);
                    content.newLineAtOffset(50, 800);
                    for (String line : lines.subList(first, Math.min(lines.size(), first + linesPerPage))) {
                        content.showText(line);
                        content.newLine();
                    }
                    content.endText();
                }
            }
            doc.save(out);
            return out.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
