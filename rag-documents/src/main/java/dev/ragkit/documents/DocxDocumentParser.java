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
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.poi.EncryptedDocumentException;
import org.apache.poi.ooxml.POIXMLProperties;
import org.apache.poi.openxml4j.util.ZipArchiveFakeEntry;
import org.apache.poi.openxml4j.util.ZipSecureFile;
import org.apache.poi.util.RecordFormatException;
import org.apache.poi.xwpf.usermodel.IBodyElement;
import org.apache.poi.xwpf.usermodel.XWPFDocument;
import org.apache.poi.xwpf.usermodel.XWPFHyperlink;
import org.apache.poi.xwpf.usermodel.XWPFHyperlinkRun;
import org.apache.poi.xwpf.usermodel.XWPFParagraph;
import org.apache.poi.xwpf.usermodel.XWPFRun;
import org.apache.poi.xwpf.usermodel.XWPFSDT;
import org.apache.poi.xwpf.usermodel.XWPFStyle;
import org.apache.poi.xwpf.usermodel.XWPFTable;
import org.apache.poi.xwpf.usermodel.XWPFTableCell;
import org.apache.poi.xwpf.usermodel.XWPFTableRow;
import org.jspecify.annotations.Nullable;

/**
 * Word documents ({@code .docx}), on Apache POI: the body's paragraphs in order, headings (the built-in
 * {@code Heading 1} to {@code Heading 6} styles, or any style based on one of them) as the section path
 * ({@code guide.docx > Install > Linux}), list items as {@code - } lines indented by level, tables as one line per
 * row with the cells joined by {@code  | } (the last of the rows marked "repeat as header row" at a table's top is
 * followed by a {@code --- | ---} line, as a markdown table's header is, so that its rows are quoted under it), and
 * hyperlinks to local documents as links. The title is the document
 * properties' title, else the first paragraph in the {@code Title} style, else the first heading, else the file
 * name. Headers, footers, comments and footnotes are left out (they repeat on every page or stand beside the text).
 *
 * <p>Legacy {@code .doc} files are not read (they are reported as unsupported: save them as {@code .docx}); a
 * password-protected {@code .docx} is skipped as {@link SkipReason#ENCRYPTED}. POI's zip-bomb guards apply (a part
 * may expand at most 100 times its packed size, and to at most 100,000,000 bytes; both reported in RagKit's words),
 * and the extracted text counts against the source's character limit. Up to 100 MiB per file. The
 * {@link DocumentParser} with id {@code docx}; stateless and thread-safe.
 */
public final class DocxDocumentParser implements DocumentParser {
    private static final Pattern HEADING = Pattern.compile("(?i)heading\\s*([1-9])");
    /** The part POI names at the end of its zip-bomb report: "Entry: word/document.xml". */
    private static final Pattern BOMB_ENTRY = Pattern.compile("Entry: (\\S+)");
    private static final int MAX_TITLE = 120;
    private static final int MAX_STYLE_DEPTH = 10;

    /** Creates the parser. */
    public DocxDocumentParser() {
        // nothing to configure
    }

    @Override
    public String id() {
        return "docx";
    }

    @Override
    public Set<String> extensions() {
        return Set.of("docx");
    }

    @Override
    public Set<ContentSniffer.Kind> kinds() {
        return Set.of(ContentSniffer.Kind.DOCX);
    }

    @Override
    public long maxBytes() {
        return ParserMessages.MAX_BYTES;
    }

    @Override
    public ParsedDocument parse(DocumentSource source) {
        Objects.requireNonNull(source, "source");
        String path = source.path();
        try (XWPFDocument doc = new XWPFDocument(new ByteArrayInputStream(source.bytes()))) {
            return read(source, doc);
        } catch (EncryptedDocumentException e) {
            throw new DocumentSkippedException(path, SkipReason.ENCRYPTED, "it is protected with a password; save an "
                    + "unprotected copy to index it", e);
        } catch (IngestException e) {
            throw e;
        } catch (IOException | RuntimeException e) {
            String hostile = expansion(e);
            throw new IngestException(path, 0, hostile != null ? hostile : "not a readable Word document ("
                    + ParserMessages.reason(e) + "); open it in Word or LibreOffice and save it again as .docx", e);
        }
    }

    /**
     * What POI's guards against hostile zips stopped, in RagKit's words (POI's own text tells the reader to change
     * its settings or file a bug report, neither of which an indexing user can or should do): a part that expands
     * too many times its packed size, a part too large to read, too many parts. {@code null} for other failures.
     * Shared by every zip-based format (slides, spreadsheets, OpenDocument), which POI's guards protect alike.
     */
    static @Nullable String expansion(Throwable error) {
        for (Throwable e = error; e != null; e = e.getCause()) {
            String message = String.valueOf(e.getMessage());
            if (message.startsWith("Zip bomb detected")) {
                Matcher entry = BOMB_ENTRY.matcher(message);
                String part = entry.find() ? "its part " + entry.group(1).strip() : "a part of it";
                if (message.contains("ratio")) {
                    return String.format(Locale.ROOT, "the file looks like a zip bomb: %s expands more than %,d times "
                            + "its packed size (the limit); if the document is genuine, save it as PDF to index it",
                            part, Math.round(1 / ZipSecureFile.getMinInflateRatio()));
                }
                return tooLarge(ZipSecureFile.getMaxEntrySize());
            }
            if (e instanceof RecordFormatException && message.contains("maximum length")) {
                return tooLarge(ZipArchiveFakeEntry.getMaxEntrySize());
            }
            if (message.startsWith(ZipSecureFile.MAX_FILE_COUNT_MSG.substring(0, 40))) {
                return String.format(Locale.ROOT, "the file looks like a zip bomb: it holds more than %,d parts (the "
                        + "limit); if the document is genuine, save it as PDF to index it",
                        ZipSecureFile.getMaxFileCount());
            }
        }
        return null;
    }

    private static String tooLarge(long limit) {
        return String.format(Locale.ROOT, "the file is too large when expanded: a part of it unpacks to more than %,d "
                + "bytes (the limit); split the document into smaller files", limit);
    }

    private ParsedDocument read(DocumentSource source, XWPFDocument doc) {
        SectionedLines out = new SectionedLines(source);
        DocumentPaths.Links links = new DocumentPaths.Links(source.path());
        String[] styledTitle = {null};
        for (IBodyElement element : doc.getBodyElements()) {
            if (element instanceof XWPFParagraph) {
                paragraph(doc, (XWPFParagraph) element, out, links, styledTitle);
            } else if (element instanceof XWPFTable) {
                table((XWPFTable) element, out);
            } else if (element instanceof XWPFSDT) {
                out.paragraph(((XWPFSDT) element).getContent().getText());
                out.blank();
            }
        }
        if (!out.hasText()) {
            throw new DocumentSkippedException(source.path(), SkipReason.NO_TEXT_LAYER, "the document has no text "
                    + "(only images or empty paragraphs)", null);
        }
        Map<String, String> metadata = new LinkedHashMap<>();
        POIXMLProperties.CoreProperties core = doc.getProperties().getCoreProperties();
        String author = core.getCreator();
        if (author != null && !author.isBlank()) {
            metadata.put("author", author.strip());
        }
        return ParsedDocument.builder(source.path())
                .title(title(core.getTitle(), styledTitle[0], out.firstHeading(), source.path()))
                .docType("docx").metadata(metadata).links(links)
                .lines(out.lines()).sections(out.sections()).build();
    }

    private static void paragraph(XWPFDocument doc, XWPFParagraph paragraph, SectionedLines out,
            DocumentPaths.Links links, String[] styledTitle) {
        for (XWPFRun run : paragraph.getRuns()) {
            if (run instanceof XWPFHyperlinkRun) {
                XWPFHyperlink link = ((XWPFHyperlinkRun) run).getHyperlink(doc);
                if (link != null && link.getURL() != null) {
                    links.add(link.getURL());
                }
            }
        }
        String text = paragraph.getText();
        if (text == null || text.isBlank()) {
            out.blank();
            return;
        }
        String styleName = styleName(doc, paragraph.getStyleID());
        int level = headingLevel(doc, paragraph.getStyleID());
        if (level > 0) {
            out.heading(level, text);
            return;
        }
        if ("title".equalsIgnoreCase(styleName) && styledTitle[0] == null) {
            styledTitle[0] = SectionedLines.oneLine(text);
        }
        if (paragraph.getNumID() != null) {
            int depth = paragraph.getNumIlvl() == null ? 0 : Math.min(8, paragraph.getNumIlvl().intValue());
            out.paragraph("  ".repeat(depth) + "- " + SectionedLines.oneLine(text));
            return;                               // list items stay together: no blank line between them
        }
        out.blank();
        out.paragraph(text);
        out.blank();
    }

    private static void table(XWPFTable table, SectionedLines out) {
        out.blank();
        List<XWPFTableRow> rows = table.getRows();
        int headerRows = 0;                          // the rows at the top marked "repeat as header row"
        while (headerRows < rows.size() && rows.get(headerRows).isRepeatHeader()) {
            headerRows++;
        }
        for (int i = 0; i < rows.size(); i++) {
            List<String> cells = new ArrayList<>();
            for (XWPFTableCell cell : rows.get(i).getTableCells()) {
                cells.add(SectionedLines.oneLine(cell.getText()));
            }
            out.row(cells, i == headerRows - 1);
        }
        out.blank();
    }

    /**
     * The heading level of a paragraph style: {@code Heading N} by id or name, or the level of a style it is based
     * on (a custom "Chapter" style based on Heading 1 is a level-1 heading); 0 for body text.
     */
    private static int headingLevel(XWPFDocument doc, @Nullable String styleId) {
        String id = styleId;
        for (int depth = 0; id != null && depth < MAX_STYLE_DEPTH; depth++) {
            int level = level(id);
            if (level == 0) {
                level = level(styleName(doc, id));
            }
            if (level > 0) {
                return Math.min(level, 6);
            }
            XWPFStyle style = doc.getStyles() == null ? null : doc.getStyles().getStyle(id);
            id = style == null ? null : style.getBasisStyleID();
        }
        return 0;
    }

    private static int level(@Nullable String name) {
        if (name == null) {
            return 0;
        }
        Matcher matcher = HEADING.matcher(name.strip());
        return matcher.matches() ? matcher.group(1).charAt(0) - '0' : 0;
    }

    private static @Nullable String styleName(XWPFDocument doc, @Nullable String styleId) {
        if (styleId == null || doc.getStyles() == null) {
            return null;
        }
        XWPFStyle style = doc.getStyles().getStyle(styleId);
        return style == null || style.getName() == null ? null : style.getName().toLowerCase(Locale.ROOT);
    }

    private static String title(@Nullable String property, @Nullable String styled, @Nullable String heading,
            String path) {
        for (String candidate : new String[] {property, styled, heading}) {
            String title = SectionedLines.oneLine(candidate);
            if (!title.isEmpty() && title.length() <= MAX_TITLE) {
                return title;
            }
        }
        return DocumentPaths.baseName(path);
    }
}
