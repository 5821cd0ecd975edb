package dev.ragkit.documents;

import java.awt.Rectangle;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
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
import org.apache.poi.xslf.usermodel.XSLFNotes;
import org.apache.poi.xslf.usermodel.XSLFSlide;
import org.apache.poi.xslf.usermodel.XSLFSlideLayout;
import org.apache.poi.xslf.usermodel.XSLFTable;
import org.apache.poi.xslf.usermodel.XSLFTableRow;
import org.apache.poi.xslf.usermodel.XSLFTextBox;
import org.apache.poi.xslf.usermodel.XSLFTextShape;
import org.apache.poi.xssf.usermodel.XSSFWorkbook;
import org.apache.poi.xwpf.usermodel.XWPFDocument;
import org.apache.poi.xwpf.usermodel.XWPFParagraph;
import org.apache.poi.xwpf.usermodel.XWPFStyle;
import org.apache.poi.xwpf.usermodel.XWPFStyles;
import org.openxmlformats.schemas.wordprocessingml.x2006.main.CTStyle;
import org.openxmlformats.schemas.wordprocessingml.x2006.main.STStyleType;

/**
 * Writes the committed slide, spreadsheet and old-Word test documents in {@code src/test/resources/documents} with
 * the real libraries: POI's XSLF and HSLF for {@code deck.pptx} and {@code deck.ppt}, XSSF and HSSF for
 * {@code budget.xlsx} and {@code budget.xls}; {@code memo.doc} and the OpenDocument files ({@code memo.odt},
 * {@code budget.ods}, {@code deck.odp}) are LibreOffice's conversions ({@code soffice --headless --convert-to}) of
 * POI-written {@code .docx}, {@code .xlsx} and {@code .pptx} files (POI cannot write a {@code .doc} from scratch).
 * Run it from the {@code rag-documents} folder with the test class path; LibreOffice must be installed for the
 * conversions. The tests read the committed files; they never depend on this class having run.
 */
public final class OfficeFixtures {
    private OfficeFixtures() {
    }

    /**
     * @param args optional target folder (default {@code src/test/resources/documents})
     * @throws Exception when a file cannot be written or converted
     */
    public static void main(String[] args) throws Exception {
        Path folder = Path.of(args.length > 0 ? args[0] : "src/test/resources/documents");
        Files.createDirectories(folder);
        pptx(folder.resolve("deck.pptx"));
        ppt(folder.resolve("deck.ppt"));
        workbook(new XSSFWorkbook(), folder.resolve("budget.xlsx"));
        workbook(new HSSFWorkbook(), folder.resolve("budget.xls"));
        Path work = Files.createTempDirectory("ragkit-fixtures");
        memo(work.resolve("memo.docx"));
        convert(work.resolve("memo.docx"), "doc", folder);
        convert(work.resolve("memo.docx"), "odt", folder);
        convert(folder.resolve("budget.xlsx"), "ods", folder);
        convert(folder.resolve("deck.pptx"), "odp", folder);
    }

    /**
     * Three slides: a title slide; "Roadmap" with a text box on the right written before one on the left and one
     * below both, plus speaker notes; "Budget" with a 3×2 table.
     */
    static void pptx(Path file) throws IOException {
        try (XMLSlideShow show = new XMLSlideShow()) {
            show.getProperties().getCoreProperties().setCreator("Planning Team");
            XSLFSlideLayout titleLayout = show.getSlideMasters().get(0).getLayout(SlideLayout.TITLE);
            XSLFSlideLayout titleOnly = show.getSlideMasters().get(0).getLayout(SlideLayout.TITLE_ONLY);

            XSLFSlide first = show.createSlide(titleLayout);
            first.getPlaceholder(0).setText("Quarterly Review");
            first.getPlaceholder(1).setText("Planning Team, autumn");

            XSLFSlide roadmap = show.createSlide(titleOnly);
            roadmap.getPlaceholder(0).setText("Roadmap");
            box(roadmap, 380, 150, "Right column: ship the mobile app");
            box(roadmap, 40, 150, "Left column: finish the API");
            box(roadmap, 40, 300, "Below both: hire two engineers");
            XSLFNotes notes = show.getNotesSlide(roadmap);
            for (XSLFTextShape shape : notes.getPlaceholders()) {
                if (shape.getTextType() == org.apache.poi.sl.usermodel.Placeholder.BODY) {
                    shape.setText("Mention the hiring freeze ends in March");
                }
            }

            XSLFSlide budget = show.createSlide(titleOnly);
            budget.getPlaceholder(0).setText("Budget");
            XSLFTable table = budget.createTable();
            table.setAnchor(new Rectangle(40, 150, 500, 120));
            for (List<String> cells : List.of(List.of("Team", "Amount"), List.of("Mobile", "120000"),
                    List.of("API", "80000"))) {
                XSLFTableRow row = table.addRow();
                for (String cell : cells) {
                    row.addCell().setText(cell);
                }
            }
            write(file, show::write);
        }
    }

    private static void box(XSLFSlide slide, int x, int y, String text) {
        XSLFTextBox box = slide.createTextBox();
        box.setAnchor(new Rectangle(x, y, 300, 60));
        box.setText(text);
    }

    /** Two slides with titles and text boxes, the second box of slide 2 written before the first (reading order). */
    static void ppt(Path file) throws IOException {
        try (HSLFSlideShow show = new HSLFSlideShow()) {
            HSLFSlide first = show.createSlide();
            first.addTitle().setText("Safety Briefing");
            legacyBox(first, 40, 200, "Exits are at both ends of the hall");
            HSLFSlide second = show.createSlide();
            second.addTitle().setText("First Aid");
            legacyBox(second, 40, 300, "The defibrillator hangs by the lift");
            legacyBox(second, 40, 200, "First aiders wear green vests");
            write(file, show::write);
        }
    }

    private static void legacyBox(HSLFSlide slide, int x, int y, String text) {
        HSLFTextBox box = new HSLFTextBox();
        box.setAnchor(new Rectangle(x, y, 400, 50));
        box.setText(text);
        slide.addShape(box);
    }

    /**
     * Sheets {@code Q3} (a header row, rows 2–4 of data, an empty row 5, a total row 6 whose amount is a formula),
     * {@code Secret} (hidden) and {@code Notes} (values without a header row, starting at row 3).
     */
    static void workbook(Workbook workbook, Path file) throws IOException {
        try (workbook) {
            Sheet q3 = workbook.createSheet("Q3");
            row(q3, 0, "Region", "Q3");
            row(q3, 1, "North", 1200);
            row(q3, 2, "South", 950);
            row(q3, 3, "East", 700);
            Row total = q3.createRow(5);
            total.createCell(0).setCellValue("Total");
            total.createCell(1).setCellFormula("SUM(B2:B4)");
            Sheet secret = workbook.createSheet("Secret");
            row(secret, 0, "Salary", "Name");
            row(secret, 1, 99999, "Alice");
            workbook.setSheetHidden(1, true);
            Sheet notes = workbook.createSheet("Notes");
            row(notes, 2, 42, "the answer");
            workbook.getCreationHelper().createFormulaEvaluator().evaluateAll();   // cache the formula's value
            write(file, workbook::write);
        }
    }

    private static void row(Sheet sheet, int index, Object... values) {
        Row row = sheet.createRow(index);
        for (int i = 0; i < values.length; i++) {
            if (values[i] instanceof Number) {
                row.createCell(i).setCellValue(((Number) values[i]).doubleValue());
            } else {
                row.createCell(i).setCellValue(String.valueOf(values[i]));
            }
        }
    }

    /** A memo with a title, heading 1 "Budget", heading 2 "Travel", a list, a table and body paragraphs. */
    static void memo(Path file) throws IOException {
        try (XWPFDocument doc = new XWPFDocument()) {
            XWPFStyles styles = doc.createStyles();
            for (int level = 1; level <= 2; level++) {
                CTStyle style = CTStyle.Factory.newInstance();
                style.setStyleId("Heading" + level);
                style.setType(STStyleType.PARAGRAPH);
                style.addNewName().setVal("heading " + level);
                style.addNewPPr().addNewOutlineLvl().setVal(java.math.BigInteger.valueOf(level - 1));
                styles.addStyle(new XWPFStyle(style));
            }
            doc.getProperties().getCoreProperties().setTitle("Budget Memo");
            doc.getProperties().getCoreProperties().setCreator("Finance");
            paragraph(doc, null, "This memo sets the budget rules for next year.");
            paragraph(doc, "Heading1", "Budget");
            paragraph(doc, null, "Every team keeps within its quarterly amount.");
            paragraph(doc, "Heading2", "Travel");
            paragraph(doc, null, "Trains are booked in second class.");
            var table = doc.createTable(2, 2);
            table.getRow(0).getCell(0).setText("Trip");
            table.getRow(0).getCell(1).setText("Limit");
            table.getRow(1).getCell(0).setText("Berlin");
            table.getRow(1).getCell(1).setText("400 EUR");
            paragraph(doc, "Heading1", "Approvals");
            paragraph(doc, null, "The head of finance approves amounts over 5000 EUR.");
            write(file, doc::write);
        }
    }

    private static void paragraph(XWPFDocument doc, String style, String text) {
        XWPFParagraph paragraph = doc.createParagraph();
        if (style != null) {
            paragraph.setStyle(style);
        }
        paragraph.createRun().setText(text);
    }

    /** Converts with LibreOffice; the result lands in {@code folder} under the same base name. */
    private static void convert(Path file, String format, Path folder) throws IOException, InterruptedException {
        Process process = new ProcessBuilder("soffice", "--headless", "--convert-to", format, "--outdir",
                folder.toString(), file.toString()).inheritIO().start();
        if (!process.waitFor(120, TimeUnit.SECONDS) || process.exitValue() != 0) {
            throw new IOException("LibreOffice could not convert " + file + " to " + format);
        }
    }

    private interface Writer {
        void write(OutputStream out) throws IOException;
    }

    private static void write(Path file, Writer writer) throws IOException {
        try (OutputStream out = Files.newOutputStream(file)) {
            writer.write(out);
        }
    }
}
