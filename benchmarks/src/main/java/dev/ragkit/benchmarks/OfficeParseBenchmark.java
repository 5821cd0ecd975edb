package dev.ragkit.benchmarks;

import dev.langchain4j.data.document.parser.apache.poi.ApachePoiDocumentParser;
import dev.ragkit.documents.DocDocumentParser;
import dev.ragkit.documents.SlidesDocumentParser;
import dev.ragkit.documents.SpreadsheetDocumentParser;
import dev.ragkit.parse.DocumentParser;
import dev.ragkit.parse.DocumentSource;
import java.awt.Rectangle;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.apache.poi.hslf.usermodel.HSLFSlide;
import org.apache.poi.hslf.usermodel.HSLFSlideShow;
import org.apache.poi.hslf.usermodel.HSLFTextBox;
import org.apache.poi.hssf.usermodel.HSSFWorkbook;
import org.apache.poi.ss.usermodel.Row;
import org.apache.poi.ss.usermodel.Sheet;
import org.apache.poi.ss.usermodel.Workbook;
import org.apache.poi.xslf.usermodel.SlideLayout;
import org.apache.poi.xslf.usermodel.XMLSlideShow;
import org.apache.poi.xslf.usermodel.XSLFSlide;
import org.apache.poi.xslf.usermodel.XSLFSlideLayout;
import org.apache.poi.xslf.usermodel.XSLFTextBox;
import org.apache.poi.xssf.usermodel.XSSFWorkbook;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Parsing the Office formats of issue 27, RagKit against LangChain4j's Apache POI parser on the same bytes and the
 * same POI 5.5.1 in the same run:
 * <ul>
 *   <li>{@link Impl#RAGKIT}: {@code SlidesDocumentParser}, {@code SpreadsheetDocumentParser},
 *       {@code DocDocumentParser} — a page per slide or sheet, rows with their headers, sections, line by line;</li>
 *   <li>{@link Impl#LANGCHAIN4J}: {@code ApachePoiDocumentParser} — POI's text extractor, the whole text as one
 *       string.</li>
 * </ul>
 * The files are written by POI at set-up: {@code PPTX} {@value #SLIDES} slides of a title and four text boxes,
 * {@code PPT} the same in the legacy format, {@code XLSX} and {@code XLS} one sheet of a header row and
 * {@value #ROWS} rows of five cells; {@code DOC} is {@code memo.doc} of rag-documents' test files (POI cannot write
 * a {@code .doc}; LibreOffice's, a page). Run from the repository root:
 * <pre>{@code
 * mvn -B -q -pl benchmarks -am package -DskipTests
 * java -jar benchmarks/target/benchmarks.jar OfficeParseBenchmark
 * }</pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
@Fork(1)
public class OfficeParseBenchmark {
    static final int SLIDES = 50;
    static final int ROWS = 5_000;

    /** The implementation measured. */
    public enum Impl { RAGKIT, LANGCHAIN4J }

    /** The format parsed. */
    public enum Format { PPTX, PPT, XLSX, XLS, DOC }

    @Param
    Format format;

    @Param
    Impl impl;

    private byte[] bytes;
    private String name;
    private DocumentParser ragkit;
    private final ApachePoiDocumentParser langchain4j = new ApachePoiDocumentParser();

    /** Writes the file and checks both parsers read it. */
    @Setup
    public void setUp() {
        name = "bench." + format.name().toLowerCase(Locale.ROOT);
        switch (format) {
            case PPTX -> {
                bytes = pptx();
                ragkit = new SlidesDocumentParser();
            }
            case PPT -> {
                bytes = ppt();
                ragkit = new SlidesDocumentParser();
            }
            case XLSX -> {
                bytes = workbook(new XSSFWorkbook());
                ragkit = new SpreadsheetDocumentParser();
            }
            case XLS -> {
                bytes = workbook(new HSSFWorkbook());
                ragkit = new SpreadsheetDocumentParser();
            }
            default -> {
                bytes = memoDoc();
                ragkit = new DocDocumentParser();
            }
        }
        int ours = ragkit.parse(DocumentSource.of(name, bytes)).lines().size();
        int theirs = langchain4j.parse(new ByteArrayInputStream(bytes)).text().length();
        System.out.printf(Locale.ROOT, "%n%s: %,d bytes; RagKit read %,d lines, LangChain4j %,d characters%n", name,
                bytes.length, ours, theirs);
    }

    /** @return the lines (RagKit) or the text (LangChain4j) */
    @Benchmark
    public Object parse() {
        if (impl == Impl.RAGKIT) {
            return ragkit.parse(DocumentSource.of(name, bytes)).lines();
        }
        return langchain4j.parse(new ByteArrayInputStream(bytes)).text();
    }

    private static String sentence(int n) {
        return "Item " + n + ": the team ships the release after review and keeps the notes for the audit";
    }

    private static byte[] pptx() {
        try (XMLSlideShow show = new XMLSlideShow(); ByteArrayOutputStream out = new ByteArrayOutputStream()) {
            XSLFSlideLayout titleOnly = show.getSlideMasters().get(0).getLayout(SlideLayout.TITLE_ONLY);
            for (int s = 0; s < SLIDES; s++) {
                XSLFSlide slide = show.createSlide(titleOnly);
                slide.getPlaceholder(0).setText("Slide " + (s + 1) + " of the quarterly review");
                for (int b = 0; b < 4; b++) {
                    XSLFTextBox box = slide.createTextBox();
                    box.setAnchor(new Rectangle(40 + (b % 2) * 340, 150 + (b / 2) * 150, 300, 120));
                    box.setText(sentence(s * 4 + b));
                }
            }
            show.write(out);
            return out.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static byte[] ppt() {
        try (HSLFSlideShow show = new HSLFSlideShow(); ByteArrayOutputStream out = new ByteArrayOutputStream()) {
            for (int s = 0; s < SLIDES; s++) {
                HSLFSlide slide = show.createSlide();
                slide.addTitle().setText("Slide " + (s + 1) + " of the quarterly review");
                for (int b = 0; b < 4; b++) {
                    HSLFTextBox box = new HSLFTextBox();
                    box.setAnchor(new Rectangle(40 + (b % 2) * 340, 150 + (b / 2) * 150, 300, 120));
                    box.setText(sentence(s * 4 + b));
                    slide.addShape(box);
                }
            }
            show.write(out);
            return out.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static byte[] workbook(Workbook workbook) {
        try (workbook; ByteArrayOutputStream out = new ByteArrayOutputStream()) {
            Sheet sheet = workbook.createSheet("Data");
            String[] headers = {"Region", "Product", "Quarter", "Amount", "Owner"};
            Row header = sheet.createRow(0);
            for (int c = 0; c < headers.length; c++) {
                header.createCell(c).setCellValue(headers[c]);
            }
            for (int r = 1; r <= ROWS; r++) {
                Row row = sheet.createRow(r);
                row.createCell(0).setCellValue(r % 2 == 0 ? "North" : "South");
                row.createCell(1).setCellValue("Product " + (r % 37));
                row.createCell(2).setCellValue("Q" + (1 + r % 4));
                row.createCell(3).setCellValue(100.0 + r);
                row.createCell(4).setCellValue("owner" + (r % 11) + "@example.com");
            }
            workbook.write(out);
            return out.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static byte[] memoDoc() {
        for (String dir : new String[] {"rag-documents", "../rag-documents"}) {
            Path file = Path.of(dir, "src/test/resources/documents/memo.doc");
            if (Files.isRegularFile(file)) {
                try {
                    return Files.readAllBytes(file);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
        }
        throw new IllegalStateException("run from the repository root: rag-documents/src/test/resources/documents/"
                + "memo.doc is the .doc this benchmark parses");
    }
}
