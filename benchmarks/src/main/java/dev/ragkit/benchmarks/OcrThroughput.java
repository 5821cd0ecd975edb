package dev.ragkit.benchmarks;

import dev.ragkit.documents.PdfDocumentParser;
import dev.ragkit.parse.DocumentSource;
import dev.ragkit.parse.ParsedDocument;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import org.apache.pdfbox.Loader;
import org.apache.pdfbox.pdmodel.*;
import org.apache.pdfbox.pdmodel.common.PDRectangle;
import org.apache.pdfbox.pdmodel.font.*;
import org.apache.pdfbox.pdmodel.graphics.image.LosslessFactory;
import org.apache.pdfbox.rendering.*;

/**
 * OCR pages per second of {@link PdfDocumentParser} on a scanned PDF: N A4 pages of 40 lines of Helvetica 12, each
 * rendered by PDFBox to a 200 dpi black-and-white image and drawn as the whole page (no text layer), parsed twice
 * (the parser renders each page at 300 dpi and runs the {@code tesseract} executable on it). Needs Tesseract
 * installed. A plain main rather than JMH: one page takes seconds, and the figure wanted is a rate, not a
 * distribution. Run: {@code java -cp rag-cli/target/rag-cli-0.1.0-SNAPSHOT.jar
 * benchmarks/src/main/java/dev/ragkit/benchmarks/OcrThroughput.java 10}.
 */
public final class OcrThroughput {
    private OcrThroughput() {
    }

    /** @param a the number of pages @throws Exception on failure */
    public static void main(String[] a) throws Exception {
        int pages = Integer.parseInt(a[0]);
        ByteArrayOutputStream text = new ByteArrayOutputStream();
        try (PDDocument d = new PDDocument()) {
            PDType1Font font = new PDType1Font(Standard14Fonts.FontName.HELVETICA);
            for (int p = 0; p < pages; p++) {
                PDPage page = new PDPage(PDRectangle.A4);
                d.addPage(page);
                try (PDPageContentStream c = new PDPageContentStream(d, page)) {
                    c.beginText(); c.setFont(font, 12); c.newLineAtOffset(60, 780);
                    for (int l = 0; l < 40; l++) {
                        c.showText("Line " + l + " of page " + (p + 1) + ": the quarterly budget covers travel and training.");
                        c.newLineAtOffset(0, -18);
                    }
                    c.endText();
                }
            }
            d.save(text);
        }
        ByteArrayOutputStream scan = new ByteArrayOutputStream();
        try (PDDocument src = Loader.loadPDF(text.toByteArray()); PDDocument out = new PDDocument()) {
            PDFRenderer r = new PDFRenderer(src);
            for (int p = 0; p < pages; p++) {
                BufferedImage img = r.renderImageWithDPI(p, 200, ImageType.BINARY);
                PDPage page = new PDPage(PDRectangle.A4);
                out.addPage(page);
                try (PDPageContentStream c = new PDPageContentStream(out, page)) {
                    c.drawImage(LosslessFactory.createFromImage(out, img), 0, 0, PDRectangle.A4.getWidth(), PDRectangle.A4.getHeight());
                }
            }
            out.save(scan);
        }
        byte[] bytes = scan.toByteArray();
        PdfDocumentParser parser = PdfDocumentParser.builder().build();
        for (int round = 1; round <= 2; round++) {
            long t = System.nanoTime();
            ParsedDocument doc = parser.parse(DocumentSource.of("scan.pdf", bytes));
            double s = (System.nanoTime() - t) / 1e9;
            System.out.printf("round %d: %d scanned pages in %.1f s = %.2f pages/s (%d lines read)%n", round, pages, s, pages / s, doc.lines().size());
        }
    }
}
