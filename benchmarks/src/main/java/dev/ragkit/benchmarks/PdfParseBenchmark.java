package dev.ragkit.benchmarks;

import dev.langchain4j.data.document.parser.apache.pdfbox.ApachePdfBoxDocumentParser;
import dev.ragkit.documents.PdfDocumentParser;
import dev.ragkit.parse.DocumentSource;
import dev.ragkit.parse.ParsedDocument;
import java.io.ByteArrayInputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
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
 * Parsing one {@value #PAGES}-page PDF (written by PDFBox at set-up: 45 lines of prose per page, about 3,300
 * characters a page) into text:
 * <ul>
 *   <li>{@link Impl#RAGKIT}: {@code PdfDocumentParser} — text page by page, each line tagged with its page, the
 *       outline read;</li>
 *   <li>{@link Impl#LANGCHAIN4J}: LangChain4j's {@code ApachePdfBoxDocumentParser} — the whole text in one string,
 *       without pages, on the same PDFBox 3.</li>
 * </ul>
 * Pages per second = {@value #PAGES} / (seconds per operation). Run from the repository root:
 * <pre>{@code
 * mvn -B -q -pl benchmarks -am package -DskipTests
 * java -jar benchmarks/target/benchmarks.jar PdfParseBenchmark
 * }</pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class PdfParseBenchmark {
    static final int PAGES = 50;
    private static final int LINES_PER_PAGE = 45;

    /** The implementation measured. */
    public enum Impl { RAGKIT, LANGCHAIN4J }

    @Param
    Impl impl;

    private byte[] pdf;
    private final PdfDocumentParser ragkit = new PdfDocumentParser();
    private final ApachePdfBoxDocumentParser langchain4j = new ApachePdfBoxDocumentParser();

    /** Writes the PDF and checks both parsers read all of it. */
    @Setup
    public void setUp() {
        pdf = write();
        int ours = ragkit.parse(DocumentSource.of("bench.pdf", pdf)).pages().get(PAGES * LINES_PER_PAGE - 1);
        int theirs = langchain4j.parse(new ByteArrayInputStream(pdf)).text().length();
        System.out.printf(Locale.ROOT, "%n%d bytes, %d pages; RagKit's last line is on page %d, LangChain4j read %,d "
                + "characters%n", pdf.length, PAGES, ours, theirs);
    }

    /** @return the parsed document (RagKit) or text (LangChain4j) */
    @Benchmark
    public Object parse() {
        if (impl == Impl.RAGKIT) {
            ParsedDocument doc = ragkit.parse(DocumentSource.of("bench.pdf", pdf));
            return doc.lines();
        }
        return langchain4j.parse(new ByteArrayInputStream(pdf)).text();
    }

    private static byte[] write() {
        String[] words = ("the policy applies to every employee who travels abroad for work and keeps receipts "
                + "for meals hotels taxis and trains which are refunded within thirty days of the request").split(" ");
        List<String> lines = new ArrayList<>();
        int w = 0;
        for (int l = 0; l < PAGES * LINES_PER_PAGE; l++) {
            StringBuilder line = new StringBuilder("Line ").append(l % LINES_PER_PAGE + 1).append(':');
            for (int k = 0; k < 13; k++) {
                line.append(' ').append(words[w++ % words.length]);
            }
            lines.add(line.append('.').toString());
        }
        return PdfPages.write(lines, LINES_PER_PAGE);
    }
}
