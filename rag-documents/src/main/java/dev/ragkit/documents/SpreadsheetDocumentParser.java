package dev.ragkit.documents;

import dev.ragkit.error.IngestException;
import dev.ragkit.parse.ContentSniffer;
import dev.ragkit.parse.DocumentParser;
import dev.ragkit.parse.DocumentPaths;
import dev.ragkit.parse.DocumentSkippedException;
import dev.ragkit.parse.DocumentSource;
import dev.ragkit.parse.ParsedDocument;
import dev.ragkit.parse.SkipReason;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import javax.xml.parsers.ParserConfigurationException;
import org.apache.poi.EncryptedDocumentException;
import org.apache.poi.hpsf.SummaryInformation;
import org.apache.poi.hssf.usermodel.HSSFWorkbook;
import org.apache.poi.openxml4j.exceptions.OpenXML4JException;
import org.apache.poi.openxml4j.opc.OPCPackage;
import org.apache.poi.poifs.filesystem.POIFSFileSystem;
import org.apache.poi.ss.usermodel.Cell;
import org.apache.poi.ss.usermodel.DataFormatter;
import org.apache.poi.ss.usermodel.Row;
import org.apache.poi.ss.usermodel.Sheet;
import org.apache.poi.ss.util.CellAddress;
import org.apache.poi.util.XMLHelper;
import org.apache.poi.xssf.eventusermodel.ReadOnlySharedStringsTable;
import org.apache.poi.xssf.eventusermodel.XSSFReader;
import org.apache.poi.xssf.eventusermodel.XSSFSheetXMLHandler;
import org.apache.poi.xssf.model.StylesTable;
import org.apache.poi.xssf.usermodel.XSSFComment;
import org.jspecify.annotations.Nullable;
import org.xml.sax.Attributes;
import org.xml.sax.InputSource;
import org.xml.sax.SAXException;
import org.xml.sax.XMLReader;
import org.xml.sax.helpers.DefaultHandler;

/**
 * Excel workbooks, {@code .xlsx} (read as a stream with POI's XSSF event API: a sheet's rows are never all in
 * memory, and rows without values cost nothing) and {@code .xls} 97–2003 (POI's HSSF, at most 65,536 rows a sheet).
 * Each sheet is a page and a section named after it; its line {@code n} is its row {@code n}, so a citation reads
 * {@code budget.xlsx > Q3, rows 4–9} (the document's {@value ParsedDocument#PAGE_LABEL} is {@code sheet}). The
 * first row with values is the header row when its values are words; later rows carry their headers
 * ({@code Region: North | Q3: 1200}). Cells show what Excel shows: formatted numbers and dates, and for formulas the
 * value Excel saved with the file (not the formula, which is not recalculated).
 *
 * <p>Hidden sheets are skipped and counted in the metadata key {@value #HIDDEN_SHEETS}. When the text reaches the
 * source's character limit the workbook is cut there instead of failing: the rows before are indexed, and the
 * metadata key {@value #CUT} says where it was cut. A password-protected workbook is skipped as
 * {@link SkipReason#ENCRYPTED}; an {@code .xlsx} meets POI's zip-bomb guards (reported as for {@code .docx}) and XML
 * with a DOCTYPE is refused. Up to 100 MiB per file. The {@link DocumentParser} with id {@code spreadsheet};
 * stateless and thread-safe.
 */
public final class SpreadsheetDocumentParser implements DocumentParser {
    /** The metadata key counting the hidden sheets that were skipped. */
    public static final String HIDDEN_SHEETS = "hidden_sheets";
    /** The metadata key saying where the character limit cut the workbook (absent when it was read whole). */
    public static final String CUT = "cut";
    private static final int MAX_TITLE = 120;
    private static final String RELATIONSHIPS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";

    /** Creates the parser. */
    public SpreadsheetDocumentParser() {
        // nothing to configure
    }

    @Override
    public String id() {
        return "spreadsheet";
    }

    @Override
    public Set<String> extensions() {
        return Set.of("xlsx", "xls");
    }

    @Override
    public Set<ContentSniffer.Kind> kinds() {
        return Set.of(ContentSniffer.Kind.XLSX, ContentSniffer.Kind.OLE2);
    }

    @Override
    public long maxBytes() {
        return ParserMessages.MAX_BYTES;
    }

    @Override
    public ParsedDocument parse(DocumentSource source) {
        Objects.requireNonNull(source, "source");
        String path = source.path();
        boolean legacy = LegacyOffice.isOle2(source.bytes());
        try {
            if (legacy) {
                try (POIFSFileSystem fs = LegacyOffice.open(source.bytes())) {
                    LegacyOffice.require(path, fs, LegacyOffice.Content.EXCEL, "a workbook");
                    try (HSSFWorkbook workbook = new HSSFWorkbook(fs.getRoot(), false)) {
                        return xls(source, workbook);
                    }
                }
            }
            try (OPCPackage pkg = OPCPackage.open(new ByteArrayInputStream(source.bytes()))) {
                return xlsx(source, pkg);
            }
        } catch (EncryptedDocumentException e) {
            throw LegacyOffice.encrypted(path, e);
        } catch (IngestException e) {
            throw e;
        } catch (IOException | OpenXML4JException | SAXException | ParserConfigurationException
                | RuntimeException e) {
            String hostile = DocxDocumentParser.expansion(e);
            if (hostile == null && String.valueOf(e.getMessage()).contains("DOCTYPE")) {
                hostile = "the workbook's XML declares a DOCTYPE, which is refused (entity expansion); save it again "
                        + "from Excel or LibreOffice";
            }
            throw new IngestException(path, 0, hostile != null ? hostile : "not a readable Excel workbook ("
                    + ParserMessages.reason(e) + "); open it in Excel or LibreOffice and save it again as "
                    + (legacy ? ".xls" : ".xlsx"), e);
        }
    }

    private ParsedDocument xlsx(DocumentSource source, OPCPackage pkg)
            throws IOException, OpenXML4JException, SAXException, ParserConfigurationException {
        XSSFReader reader = new XSSFReader(pkg);
        ReadOnlySharedStringsTable strings = new ReadOnlySharedStringsTable(pkg, false);
        StylesTable styles = reader.getStylesTable();
        DataFormatter formatter = new DataFormatter(Locale.ROOT);
        PagedLines out = new PagedLines(source);
        int hidden = 0;
        String cut = null;
        List<String[]> sheets = sheets(reader);
        for (int i = 0; i < sheets.size() && cut == null; i++) {
            String[] sheet = sheets.get(i);
            if (sheet[1] != null && !"visible".equals(sheet[1])) {
                hidden++;
                continue;
            }
            interrupted(source, sheet[0]);
            SheetRows rows = new SheetRows(out, i + 1, sheet[0]);
            Handler handler = new Handler(rows);
            XMLReader xml = XMLHelper.newXMLReader();
            xml.setContentHandler(new XSSFSheetXMLHandler(styles, null, strings, handler, formatter, false));
            try (InputStream in = reader.getSheet(sheet[2])) {
                xml.parse(new InputSource(in));
            } catch (Stop e) {
                // the character limit cut the sheet: SheetRows says where
            }
            cut = rows.cut();
        }
        var core = pkg.getPackageProperties();
        return document(source, out, "xlsx", core.getTitleProperty().orElse(null),
                core.getCreatorProperty().orElse(null), hidden, cut);
    }

    /** The sheets of an .xlsx in workbook order: name, state ({@code hidden}, {@code veryHidden} or null), part id. */
    private static List<String[]> sheets(XSSFReader reader)
            throws IOException, OpenXML4JException, SAXException, ParserConfigurationException {
        List<String[]> sheets = new ArrayList<>();
        XMLReader xml = XMLHelper.newXMLReader();
        xml.setContentHandler(new DefaultHandler() {
            @Override
            public void startElement(String uri, String localName, String qName, Attributes attributes) {
                if ("sheet".equals(localName)) {
                    sheets.add(new String[] {String.valueOf(attributes.getValue("name")),
                            attributes.getValue("state"), attributes.getValue(RELATIONSHIPS, "id")});
                }
            }
        });
        try (InputStream in = reader.getWorkbookData()) {
            xml.parse(new InputSource(in));
        }
        return sheets;
    }

    private ParsedDocument xls(DocumentSource source, HSSFWorkbook workbook) {
        DataFormatter formatter = new DataFormatter(Locale.ROOT);
        formatter.setUseCachedValuesForFormulaCells(true);
        PagedLines out = new PagedLines(source);
        int hidden = 0;
        String cut = null;
        for (int i = 0; i < workbook.getNumberOfSheets() && cut == null; i++) {
            if (workbook.isSheetHidden(i) || workbook.isSheetVeryHidden(i)) {
                hidden++;
                continue;
            }
            Sheet sheet = workbook.getSheetAt(i);
            interrupted(source, sheet.getSheetName());
            SheetRows rows = new SheetRows(out, i + 1, sheet.getSheetName());
            for (Row row : sheet) {
                SortedMap<Integer, String> cells = new TreeMap<>();
                for (Cell cell : row) {
                    cells.put(cell.getColumnIndex(), formatter.formatCellValue(cell));
                }
                if (!rows.row(row.getRowNum() + 1, cells)) {
                    break;
                }
            }
            cut = rows.cut();
        }
        SummaryInformation info = workbook.getSummaryInformation();
        return document(source, out, "xls", info == null ? null : info.getTitle(),
                info == null ? null : info.getAuthor(), hidden, cut);
    }

    private static void interrupted(DocumentSource source, String sheet) {
        if (Thread.currentThread().isInterrupted()) {
            throw new IngestException(source.path(), 0, "interrupted at sheet '" + sheet + "'", null);
        }
    }

    private static ParsedDocument document(DocumentSource source, PagedLines out, String type,
            @Nullable String title, @Nullable String author, int hidden, @Nullable String cut) {
        if (!out.hasText()) {
            throw new DocumentSkippedException(source.path(), SkipReason.NO_TEXT_LAYER, "the workbook has no values"
                    + (hidden > 0 ? " in its visible sheets (" + hidden + " hidden sheets are not read)" : ""), null);
        }
        Map<String, String> metadata = new LinkedHashMap<>();
        metadata.put(ParsedDocument.PAGE_LABEL, "sheet");
        if (hidden > 0) {
            metadata.put(HIDDEN_SHEETS, Integer.toString(hidden));
        }
        if (cut != null) {
            metadata.put(CUT, cut);
        }
        if (author != null && !author.isBlank()) {
            metadata.put("author", author.strip());
        }
        String name = SectionedLines.oneLine(title);
        ParsedDocument.Builder builder = ParsedDocument.builder(source.path())
                .title(!name.isEmpty() && name.length() <= MAX_TITLE ? name : DocumentPaths.baseName(source.path()))
                .docType(type).metadata(metadata).lines(out.lines()).pages(out.pages()).sections(out.sections());
        return warnings(builder, hidden, cut).build();
    }

    /**
     * Adds the report's warnings of a workbook (Excel or OpenDocument): hidden sheets skipped, the cut.
     *
     * @param builder the document
     * @param hidden  the hidden sheets skipped
     * @param cut     where the character limit cut the workbook, or {@code null}
     * @return the builder
     */
    static ParsedDocument.Builder warnings(ParsedDocument.Builder builder, int hidden, @Nullable String cut) {
        if (hidden > 0) {
            builder.warning(hidden + (hidden == 1 ? " hidden sheet" : " hidden sheets") + " skipped (hidden sheets "
                    + "are not indexed; unhide a sheet to index it)");
        }
        if (cut != null) {
            builder.warning(cut + "; the rows before it are indexed (raise the character limit, or split the "
                    + "workbook, to index the rest)");
        }
        return builder;
    }

    /** Ends the SAX parse of a sheet once the character limit cut it. */
    private static final class Stop extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Stop() {
            super("cut", null, false, false);
        }
    }

    /** Collects a row's cells from POI's sheet events and hands the row to {@link SheetRows}. */
    private static final class Handler implements XSSFSheetXMLHandler.SheetContentsHandler {
        private final SheetRows rows;
        private final SortedMap<Integer, String> cells = new TreeMap<>();
        private int nextColumn;

        Handler(SheetRows rows) {
            this.rows = rows;
        }

        @Override
        public void startRow(int rowNum) {
            cells.clear();
            nextColumn = 0;
        }

        @Override
        public void endRow(int rowNum) {
            if (!cells.isEmpty() && !rows.row(rowNum + 1, cells)) {
                throw new Stop();
            }
        }

        @Override
        public void cell(@Nullable String reference, @Nullable String value, @Nullable XSSFComment comment) {
            int column = reference == null ? nextColumn : new CellAddress(reference).getColumn();
            nextColumn = column + 1;
            if (value != null && !value.isBlank()) {
                cells.put(column, value);
            }
        }
    }
}
