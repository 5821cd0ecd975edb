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
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import javax.xml.XMLConstants;
import javax.xml.parsers.ParserConfigurationException;
import javax.xml.parsers.SAXParser;
import javax.xml.parsers.SAXParserFactory;
import org.apache.commons.compress.archivers.zip.ZipArchiveEntry;
import org.apache.poi.openxml4j.opc.internal.ZipHelper;
import org.apache.poi.openxml4j.util.ZipArchiveThresholdInputStream;
import org.apache.poi.openxml4j.util.ZipInputStreamZipEntrySource;
import org.jspecify.annotations.Nullable;
import org.xml.sax.Attributes;
import org.xml.sax.SAXException;
import org.xml.sax.SAXParseException;
import org.xml.sax.helpers.DefaultHandler;

/**
 * OpenDocument files from LibreOffice and others, read like their Office counterparts: a text document
 * ({@code .odt}) like {@code .docx} (headings {@code text:h} by outline level as the section path, list items as
 * {@code - } lines, tables as rows joined by {@code  | }); a spreadsheet ({@code .ods}) like {@code .xlsx} (each
 * sheet a page and a section, line {@code n} is row {@code n}, rows carry their headers, hidden sheets skipped and
 * counted, cut at the character limit); a presentation ({@code .odp}) like {@code .pptx} (one page per slide, the
 * title frame as the section, frames in reading order, notes marked {@code Notes: }). Which of the three a file is
 * comes from its {@code mimetype} entry, not its extension. Footnotes, comments and tracked deletions are left out.
 *
 * <p>The zip is opened through POI's guarded zip reader (the same zip-bomb limits as {@code .docx}, reported in the
 * same words); {@code content.xml} is read with the JDK's own SAX parser set to refuse any DOCTYPE, so neither
 * external entities nor entity expansion ("billion laughs") can be used (see the design notes for why not the ODF
 * Toolkit). The title is {@code meta.xml}'s {@code dc:title}, else the first heading or slide title, else the file
 * name. Up to 100 MiB per file. The {@link DocumentParser} with id {@code opendocument}; stateless and thread-safe.
 */
public final class OpenDocumentParser implements DocumentParser {
    private static final String TEXT = "urn:oasis:names:tc:opendocument:xmlns:text:1.0";
    private static final String TABLE = "urn:oasis:names:tc:opendocument:xmlns:table:1.0";
    private static final String DRAW = "urn:oasis:names:tc:opendocument:xmlns:drawing:1.0";
    private static final String PRESENTATION = "urn:oasis:names:tc:opendocument:xmlns:presentation:1.0";
    private static final String SVG = "urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0";
    private static final String OFFICE = "urn:oasis:names:tc:opendocument:xmlns:office:1.0";
    private static final String STYLE = "urn:oasis:names:tc:opendocument:xmlns:style:1.0";
    private static final String DC = "http://purl.org/dc/elements/1.1/";
    private static final String MIME_PREFIX = "application/vnd.oasis.opendocument.";
    private static final int MAX_TITLE = 120;
    /** Presentation frames a master repeats on every slide or notes page. */
    private static final Set<String> REPEATED = Set.of("page-number", "footer", "header", "date-time");
    private static final int MAX_REPEAT = 1000;
    private static final int MAX_COLUMNS = 16_384;

    /** Creates the parser. */
    public OpenDocumentParser() {
        // nothing to configure
    }

    @Override
    public String id() {
        return "opendocument";
    }

    @Override
    public Set<String> extensions() {
        return Set.of("odt", "ods", "odp");
    }

    @Override
    public Set<ContentSniffer.Kind> kinds() {
        return Set.of(ContentSniffer.Kind.OPENDOCUMENT);
    }

    @Override
    public long maxBytes() {
        return ParserMessages.MAX_BYTES;
    }

    @Override
    public ParsedDocument parse(DocumentSource source) {
        Objects.requireNonNull(source, "source");
        String path = source.path();
        try (ZipArchiveThresholdInputStream zip = ZipHelper.openZipStream(new ByteArrayInputStream(source.bytes()));
                ZipInputStreamZipEntrySource entries = new ZipInputStreamZipEntrySource(zip)) {
            String mime = text(entries, "mimetype");
            if (mime == null || !mime.strip().startsWith(MIME_PREFIX)) {
                throw new IngestException(path, 0, "not an OpenDocument file (no OpenDocument mimetype entry); open "
                        + "it in LibreOffice and save it again", null);
            }
            String kind = mime.strip().substring(MIME_PREFIX.length());
            Kind type = kind.startsWith("text") ? Kind.TEXT : kind.startsWith("spreadsheet") ? Kind.SHEETS
                    : kind.startsWith("presentation") ? Kind.SLIDES : null;
            if (type == null) {
                throw new DocumentSkippedException(path, SkipReason.UNSUPPORTED_TYPE, "an OpenDocument " + kind
                        + " file; only text documents, spreadsheets and presentations are read", null);
            }
            ZipArchiveEntry content = entries.getEntry("content.xml");
            if (content == null) {
                throw new IngestException(path, 0, "the OpenDocument file has no content.xml; open it in "
                        + "LibreOffice and save it again", null);
            }
            if (entries.getEntry("META-INF/manifest.xml") != null
                    && text(entries, "META-INF/manifest.xml").contains("encryption-data")) {
                throw new DocumentSkippedException(path, SkipReason.ENCRYPTED, "an OpenDocument file protected with "
                        + "a password; save an unprotected copy to index it", null);
            }
            Reader reader = new Reader(source, type);
            try (InputStream in = entries.getInputStream(content)) {
                parser().parse(in, reader);
            } catch (Stop e) {
                // the character limit cut a spreadsheet: the reader says where
            }
            String title = null;
            ZipArchiveEntry meta = entries.getEntry("meta.xml");
            if (meta != null) {
                Meta handler = new Meta();
                try (InputStream in = entries.getInputStream(meta)) {
                    parser().parse(in, handler);
                }
                title = handler.title.toString();
            }
            return reader.document(title);
        } catch (IngestException e) {
            throw e;
        } catch (IOException | SAXException | ParserConfigurationException | RuntimeException e) {
            String hostile = DocxDocumentParser.expansion(e);
            if (hostile == null && e instanceof SAXParseException && String.valueOf(e.getMessage())
                    .contains("DOCTYPE")) {
                hostile = "the file's XML declares a DOCTYPE, which is refused (entity expansion and external "
                        + "entities are not allowed); open it in LibreOffice and save it again";
            }
            throw new IngestException(path, 0, hostile != null ? hostile : "not a readable OpenDocument file ("
                    + ParserMessages.reason(e) + "); open it in LibreOffice and save it again", e);
        }
    }

    private static @Nullable String text(ZipInputStreamZipEntrySource entries, String name) throws IOException {
        ZipArchiveEntry entry = entries.getEntry(name);
        if (entry == null) {
            return null;
        }
        try (InputStream in = entries.getInputStream(entry)) {
            return new String(in.readNBytes(64 * 1024), StandardCharsets.UTF_8);
        }
    }

    /** The JDK's own SAX parser, namespace-aware, refusing DOCTYPEs and external entities outright. */
    private static SAXParser parser() throws ParserConfigurationException, SAXException {
        SAXParserFactory factory = SAXParserFactory.newDefaultInstance();
        factory.setNamespaceAware(true);
        factory.setXIncludeAware(false);
        factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
        factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        factory.setFeature("http://xml.org/sax/features/external-general-entities", false);
        factory.setFeature("http://xml.org/sax/features/external-parameter-entities", false);
        factory.setFeature("http://apache.org/xml/features/nonvalidating/load-external-dtd", false);
        return factory.newSAXParser();
    }

    private enum Kind { TEXT, SHEETS, SLIDES }

    /** Ends the parse of a spreadsheet once the character limit cut it. */
    private static final class Stop extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Stop() {
            super("cut", null, false, false);
        }
    }

    /** {@code dc:title} from {@code meta.xml}. */
    private static final class Meta extends DefaultHandler {
        private final StringBuilder title = new StringBuilder();
        private boolean inTitle;

        @Override
        public void startElement(String uri, String local, String qName, Attributes attributes) {
            inTitle = DC.equals(uri) && "title".equals(local);
        }

        @Override
        public void endElement(String uri, String local, String qName) {
            inTitle = false;
        }

        @Override
        public void characters(char[] ch, int start, int length) {
            if (inTitle && title.length() < 1000) {
                title.append(ch, start, length);
            }
        }
    }

    /** A text frame of a slide: where it is, and its lines. */
    private static final class Block {
        final double y;
        final double x;
        final @Nullable String role;
        final List<String> lines = new ArrayList<>();

        Block(double y, double x, @Nullable String role) {
            this.y = y;
            this.x = x;
            this.role = role;
        }
    }

    /** Reads {@code content.xml} of any of the three kinds into lines. */
    private static final class Reader extends DefaultHandler {
        private final DocumentSource source;
        private final Kind kind;
        private final SectionedLines text;
        private final PagedLines paged;
        /** Paragraphs being read, innermost last (a frame's paragraph may sit inside a paragraph). */
        private final Deque<StringBuilder> paragraphs = new ArrayDeque<>();
        private final Deque<Integer> headingLevels = new ArrayDeque<>();
        private final Set<String> hiddenTableStyles = new HashSet<>();
        private int skipDepth;
        private int listDepth;
        private int tableDepth;
        private @Nullable List<String> rowCells;
        private @Nullable StringBuilder cell;
        private int cellRepeat = 1;
        private @Nullable String styleName;
        // spreadsheets
        private int sheet;
        private @Nullable SheetRows rows;
        private int row;
        private int rowRepeat = 1;
        private int column;
        private final SortedMap<Integer, String> cells = new TreeMap<>();
        private int hidden;
        private @Nullable String cut;
        private boolean inBody;
        // presentations
        private int slide;
        private final List<Block> blocks = new ArrayList<>();
        private @Nullable Block block;
        private int blockDepth;
        private int depth;
        private @Nullable String firstSlideTitle;

        Reader(DocumentSource source, Kind kind) {
            this.source = source;
            this.kind = kind;
            this.text = new SectionedLines(source);
            this.paged = new PagedLines(source);
        }

        @Override
        public void startElement(String uri, String local, String qName, Attributes attributes) {
            depth++;
            if (skipDepth > 0) {
                skipDepth++;
                return;
            }
            if (STYLE.equals(uri) && "style".equals(local)) {
                styleName = attributes.getValue(STYLE, "name");
            } else if (STYLE.equals(uri) && "table-properties".equals(local) && styleName != null
                    && "false".equals(attributes.getValue(TABLE, "display"))) {
                hiddenTableStyles.add(styleName);
            }
            if (OFFICE.equals(uri) && ("text".equals(local) || "spreadsheet".equals(local)
                    || "presentation".equals(local))) {
                inBody = true;
            }
            if (!inBody) {
                return;
            }
            if (TEXT.equals(uri) && ("note".equals(local) || "tracked-changes".equals(local))
                    || OFFICE.equals(uri) && "annotation".equals(local)) {
                skipDepth = 1;
                return;
            }
            if (TEXT.equals(uri)) {
                textStart(local, attributes);
            } else if (TABLE.equals(uri)) {
                tableStart(local, attributes);
            } else if (kind == Kind.SLIDES) {
                slideStart(uri, local, attributes);
            }
        }

        private void textStart(String local, Attributes attributes) {
            switch (local) {
                case "p":
                case "h":
                    paragraphs.addLast(new StringBuilder());
                    headingLevels.addLast("h".equals(local) ? level(attributes.getValue(TEXT, "outline-level")) : 0);
                    break;
                case "list":
                    listDepth++;
                    break;
                case "s":
                    append(" ".repeat(Math.min(100, count(attributes.getValue(TEXT, "c")))));
                    break;
                case "tab":
                    append(" ");
                    break;
                case "line-break":
                    append("\n");
                    break;
                default:
                    break;
            }
        }

        private void tableStart(String local, Attributes attributes) {
            switch (local) {
                case "table":
                    tableDepth++;
                    if (kind == Kind.SHEETS && tableDepth == 1) {
                        sheet++;
                        String name = String.valueOf(attributes.getValue(TABLE, "name"));
                        String style = attributes.getValue(TABLE, "style-name");
                        if (cut != null || style != null && hiddenTableStyles.contains(style)) {
                            hidden += cut == null ? 1 : 0;
                            skipDepth = 1;
                            tableDepth--;
                            return;
                        }
                        interrupted(name);
                        rows = new SheetRows(paged, sheet, name);
                        row = 0;
                    }
                    break;
                case "table-row":
                    if (kind == Kind.SHEETS && tableDepth == 1) {
                        rowRepeat = Math.max(1, count(attributes.getValue(TABLE, "number-rows-repeated")));
                        column = 0;
                        cells.clear();
                    } else {
                        rowCells = new ArrayList<>();
                    }
                    break;
                case "table-cell":
                case "covered-table-cell":
                    cell = new StringBuilder();
                    cellRepeat = Math.max(1, count(attributes.getValue(TABLE, "number-columns-repeated")));
                    break;
                default:
                    break;
            }
        }

        private void slideStart(String uri, String local, Attributes attributes) {
            if (DRAW.equals(uri) && "page".equals(local)) {
                slide++;
                interrupted("slide " + slide);
                blocks.clear();
                return;
            }
            String role = attributes.getValue(PRESENTATION, "class");
            if (DRAW.equals(uri) && role != null && REPEATED.contains(role)) {
                skipDepth = 1;                         // what the master repeats: page number, date, footer
                return;
            }
            if (PRESENTATION.equals(uri) && "notes".equals(local)) {
                block = new Block(Double.MAX_VALUE, 0, "notes");
                blocks.add(block);
                blockDepth = depth;
                return;
            }
            if (DRAW.equals(uri) && block == null && !"g".equals(local) && attributes.getValue(SVG, "y") != null) {
                block = new Block(length(attributes.getValue(SVG, "y")), length(attributes.getValue(SVG, "x")),
                        role);
                blocks.add(block);
                blockDepth = depth;
            }
        }

        @Override
        public void endElement(String uri, String local, String qName) {
            try {
                if (skipDepth > 0) {
                    skipDepth--;
                    return;
                }
                if (!inBody) {
                    return;
                }
                if (OFFICE.equals(uri) && ("text".equals(local) || "spreadsheet".equals(local)
                        || "presentation".equals(local))) {
                    inBody = false;
                } else if (TEXT.equals(uri) && ("p".equals(local) || "h".equals(local))) {
                    paragraphEnd();
                } else if (TEXT.equals(uri) && "list".equals(local)) {
                    listDepth--;
                    if (listDepth == 0 && cell == null && block == null) {
                        text.blank();
                    }
                } else if (TABLE.equals(uri)) {
                    tableEnd(local);
                } else if (kind == Kind.SLIDES) {
                    slideEnd(uri, local);
                }
            } finally {
                depth--;
            }
        }

        private void paragraphEnd() {
            String paragraph = paragraphs.removeLast().toString();
            int level = headingLevels.removeLast();
            if (cell != null) {
                cell.append(cell.length() == 0 ? "" : " ").append(SectionedLines.oneLine(paragraph));
            } else if (block != null) {
                block.lines.addAll(DocumentSource.lines(paragraph));
            } else if (!paragraphs.isEmpty()) {
                paragraphs.peekLast().append(' ').append(paragraph);
            } else if (kind == Kind.TEXT) {
                if (paragraph.isBlank()) {
                    text.blank();
                } else if (level > 0) {
                    text.heading(level, paragraph);
                } else if (listDepth > 0) {
                    text.paragraph("  ".repeat(Math.min(8, listDepth - 1)) + "- " + SectionedLines.oneLine(paragraph));
                } else {
                    text.blank();
                    text.paragraph(paragraph);
                    text.blank();
                }
            }
        }

        private void tableEnd(String local) {
            switch (local) {
                case "table-cell":
                case "covered-table-cell":
                    String value = cell == null ? "" : cell.toString();
                    cell = null;
                    if (kind == Kind.SHEETS && tableDepth == 1) {
                        for (int i = 0; i < cellRepeat && column < MAX_COLUMNS; i++) {
                            if (!value.isBlank()) {
                                cells.put(column, value);
                            }
                            column++;
                            if (value.isBlank()) {
                                column += cellRepeat - 1;      // empty repeated columns: just move on
                                break;
                            }
                        }
                    } else if (rowCells != null) {
                        rowCells.add(SectionedLines.oneLine(value));
                    }
                    break;
                case "table-row":
                    if (kind == Kind.SHEETS && tableDepth == 1 && rows != null) {
                        int times = cells.isEmpty() ? 0 : Math.min(rowRepeat, MAX_REPEAT);
                        for (int i = 0; i < times; i++) {
                            if (!rows.row(row + i + 1, cells)) {
                                cut = rows.cut();
                                throw new Stop();
                            }
                        }
                        row += rowRepeat;
                    } else if (rowCells != null) {
                        List<String> done = rowCells;
                        rowCells = null;
                        if (done.stream().anyMatch(c -> !c.isEmpty())) {
                            String line = String.join(" | ", done);
                            if (block != null) {
                                block.lines.add(line);
                            } else if (kind == Kind.TEXT) {
                                text.paragraph(line);
                            }
                        }
                    }
                    break;
                case "table":
                    tableDepth--;
                    if (kind == Kind.TEXT && block == null) {
                        text.blank();
                    }
                    break;
                default:
                    break;
            }
        }

        private void slideEnd(String uri, String local) {
            if (block != null && depth == blockDepth) {
                block = null;
            }
            if (DRAW.equals(uri) && "page".equals(local)) {
                writeSlide();
            }
        }

        private void writeSlide() {
            String title = null;
            for (Block b : blocks) {
                if ("title".equals(b.role) && title == null) {
                    title = SectionedLines.oneLine(String.join(" ", b.lines));
                }
            }
            String section = title == null || title.isEmpty() ? null : title;
            if (section != null) {
                firstSlideTitle = firstSlideTitle == null ? section : firstSlideTitle;
                paged.add(slide, section, section);
            }
            blocks.sort(Comparator.comparingDouble((Block b) -> b.y).thenComparingDouble(b -> b.x));
            for (Block b : blocks) {
                if ("title".equals(b.role)) {
                    continue;
                }
                String prefix = "notes".equals(b.role) ? "Notes: " : null;
                boolean any = b.lines.stream().anyMatch(l -> !l.isBlank());
                if (any) {
                    paged.blank(slide, section);
                }
                for (String line : b.lines) {
                    if (!line.isBlank()) {
                        paged.add(slide, section, (prefix == null ? "" : prefix) + line.strip());
                        prefix = null;
                    }
                }
            }
            blocks.clear();
        }

        @Override
        public void characters(char[] ch, int start, int length) {
            if (skipDepth == 0 && inBody) {
                append(new String(ch, start, length));
            }
        }

        private void append(String s) {
            StringBuilder paragraph = paragraphs.peekLast();
            if (paragraph != null) {
                paragraph.append(s);
                if (paragraph.length() > source.maxChars()) {
                    source.requireWithinLimit(paragraph.length());
                }
            }
        }

        private void interrupted(String where) {
            if (Thread.currentThread().isInterrupted()) {
                throw new IngestException(source.path(), 0, "interrupted at " + where, null);
            }
        }

        ParsedDocument document(@Nullable String metaTitle) {
            Map<String, String> metadata = new LinkedHashMap<>();
            ParsedDocument.Builder builder = ParsedDocument.builder(source.path());
            String fallback;
            if (kind == Kind.TEXT) {
                if (!text.hasText()) {
                    throw new DocumentSkippedException(source.path(), SkipReason.NO_TEXT_LAYER, "the document has "
                            + "no text (only images or empty paragraphs)", null);
                }
                builder.docType("odt").lines(text.lines()).sections(text.sections());
                fallback = text.firstHeading();
            } else {
                if (!paged.hasText()) {
                    throw new DocumentSkippedException(source.path(), SkipReason.NO_TEXT_LAYER, kind == Kind.SHEETS
                            ? "the spreadsheet has no values" + (hidden > 0 ? " in its visible sheets" : "")
                            : "the presentation has no text", null);
                }
                metadata.put(ParsedDocument.PAGE_LABEL, kind == Kind.SHEETS ? "sheet" : "slide");
                if (kind == Kind.SLIDES) {
                    metadata.put("slides", Integer.toString(slide));
                }
                if (hidden > 0) {
                    metadata.put(SpreadsheetDocumentParser.HIDDEN_SHEETS, Integer.toString(hidden));
                }
                if (cut != null) {
                    metadata.put(SpreadsheetDocumentParser.CUT, cut);
                }
                builder.docType(kind == Kind.SHEETS ? "ods" : "odp").lines(paged.lines()).pages(paged.pages())
                        .sections(paged.sections());
                SpreadsheetDocumentParser.warnings(builder, hidden, cut);
                fallback = firstSlideTitle;
            }
            String title = DocumentPaths.baseName(source.path());
            for (String candidate : new String[] {metaTitle, fallback}) {
                String t = SectionedLines.oneLine(candidate);
                if (!t.isEmpty() && t.length() <= MAX_TITLE) {
                    title = t;
                    break;
                }
            }
            return builder.title(title).metadata(metadata).build();
        }

        private static int level(@Nullable String value) {
            int level = count(value);
            return Math.max(1, Math.min(6, level));
        }

        private static int count(@Nullable String value) {
            if (value == null) {
                return 1;
            }
            try {
                return Math.max(0, Integer.parseInt(value.strip()));
            } catch (NumberFormatException e) {
                return 1;
            }
        }

        /** An ODF length ({@code 2.5cm}, {@code 10mm}, {@code 1in}, {@code 72pt}) in centimetres; 0 when unreadable. */
        private static double length(@Nullable String value) {
            if (value == null) {
                return 0;
            }
            String v = value.strip().toLowerCase(Locale.ROOT);
            int unit = 0;
            while (unit < v.length() && (Character.isDigit(v.charAt(unit)) || v.charAt(unit) == '.'
                    || v.charAt(unit) == '-')) {
                unit++;
            }
            double number;
            try {
                number = Double.parseDouble(v.substring(0, unit));
            } catch (NumberFormatException e) {
                return 0;
            }
            switch (v.substring(unit)) {
                case "mm":
                    return number / 10;
                case "in":
                    return number * 2.54;
                case "pt":
                    return number * 2.54 / 72;
                case "pc":
                    return number * 2.54 / 6;
                default:
                    return number;
            }
        }
    }
}
