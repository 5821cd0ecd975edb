package dev.ragkit.documents;

import dev.ragkit.error.IngestException;
import dev.ragkit.parse.ContentSniffer;
import dev.ragkit.parse.DocumentParser;
import dev.ragkit.parse.DocumentPaths;
import dev.ragkit.parse.DocumentSkippedException;
import dev.ragkit.parse.DocumentSource;
import dev.ragkit.parse.ParsedDocument;
import dev.ragkit.parse.SkipReason;
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
import org.apache.poi.hpsf.SummaryInformation;
import org.apache.poi.hwpf.HWPFDocument;
import org.apache.poi.hwpf.model.StyleDescription;
import org.apache.poi.hwpf.usermodel.Paragraph;
import org.apache.poi.hwpf.usermodel.Range;
import org.apache.poi.poifs.filesystem.POIFSFileSystem;
import org.jspecify.annotations.Nullable;

/**
 * Word 97–2003 documents ({@code .doc}), on POI's HWPF, read like {@code .docx}: paragraphs in order, paragraphs in
 * the built-in {@code heading 1} to {@code heading 9} styles (levels beyond 6 count as 6) as the section path
 * ({@code memo.doc > Budget > Travel}), list items as {@code - } lines indented by level, tables as one line per row
 * with the cells joined by {@code  | }; field codes are replaced by their results. The title is the summary
 * information's title, else the first {@code Title} paragraph, else the first heading, else the file name.
 *
 * <p>A password-protected file is skipped as {@link SkipReason#ENCRYPTED}; Word 6 and Word 95 files, which HWPF does
 * not read, fail with the fix (save them as {@code .docx}). The text counts against the source's character limit.
 * Up to 100 MiB per file. The {@link DocumentParser} with id {@code doc}; stateless and thread-safe.
 */
public final class DocDocumentParser implements DocumentParser {
    private static final Pattern HEADING = Pattern.compile("(?i)heading\\s*([1-9])");
    private static final int MAX_TITLE = 120;
    private static final char CELL_MARK = '\u0007';

    /** Creates the parser. */
    public DocDocumentParser() {
        // nothing to configure
    }

    @Override
    public String id() {
        return "doc";
    }

    @Override
    public Set<String> extensions() {
        return Set.of("doc");
    }

    @Override
    public Set<ContentSniffer.Kind> kinds() {
        return Set.of(ContentSniffer.Kind.OLE2);
    }

    @Override
    public long maxBytes() {
        return ParserMessages.MAX_BYTES;
    }

    @Override
    public ParsedDocument parse(DocumentSource source) {
        Objects.requireNonNull(source, "source");
        String path = source.path();
        if (!LegacyOffice.isOle2(source.bytes())) {
            throw new IngestException(path, 0, "not a Word 97-2003 document (it does not start like one); if it "
                    + "is another format, give it that format's extension", null);
        }
        try (POIFSFileSystem fs = LegacyOffice.open(source.bytes())) {
            LegacyOffice.require(path, fs, LegacyOffice.Content.WORD, "a Word document");
            try (HWPFDocument doc = new HWPFDocument(fs)) {
                return read(source, doc);
            }
        } catch (EncryptedDocumentException e) {
            throw LegacyOffice.encrypted(path, e);
        } catch (IngestException e) {
            throw e;
        } catch (IOException | RuntimeException e) {
            String reason = ParserMessages.reason(e);
            throw new IngestException(path, 0, "not a readable Word 97-2003 document (" + reason + "); open it in "
                    + "Word or LibreOffice and save it as .docx", e);
        }
    }

    private ParsedDocument read(DocumentSource source, HWPFDocument doc) {
        SectionedLines out = new SectionedLines(source);
        Range range = doc.getRange();
        String styledTitle = null;
        List<String> cells = new ArrayList<>();
        boolean cellClosed = true;
        boolean inTable = false;               // a cell of several paragraphs ends at its cell mark
        for (int i = 0; i < range.numParagraphs(); i++) {
            if (i % 1000 == 0 && Thread.currentThread().isInterrupted()) {
                throw new IngestException(source.path(), 0, "interrupted at paragraph " + i, null);
            }
            Paragraph paragraph = range.getParagraph(i);
            String text = clean(paragraph.text());
            if (paragraph.isInTable()) {
                if (paragraph.isTableRowEnd()) {
                    if (cells.stream().anyMatch(cell -> !cell.isEmpty())) {
                        out.paragraph(String.join(" | ", cells));
                    }
                    cells.clear();
                } else {
                    if (!inTable) {
                        out.blank();
                        inTable = true;
                    }
                    boolean endsCell = paragraph.text().indexOf(CELL_MARK) >= 0;
                    String cell = SectionedLines.oneLine(text);
                    if (!cells.isEmpty() && !cellClosed) {
                        String open = cells.remove(cells.size() - 1);
                        cell = SectionedLines.oneLine(open + " " + cell);
                    }
                    cells.add(cell);
                    cellClosed = endsCell;
                }
                continue;
            }
            if (!cells.isEmpty()) {
                out.paragraph(String.join(" | ", cells));
                cells.clear();
            }
            if (inTable) {
                out.blank();
                inTable = false;
            }
            cellClosed = true;
            if (text.isBlank()) {
                out.blank();
                continue;
            }
            String style = styleName(doc, paragraph);
            int level = level(style);
            if (level > 0) {
                out.heading(level, text);
                continue;
            }
            if ("title".equals(style) && styledTitle == null) {
                styledTitle = SectionedLines.oneLine(text);
            }
            if (paragraph.isInList()) {
                int depth = Math.max(0, Math.min(8, paragraph.getIlvl()));
                out.paragraph("  ".repeat(depth) + "- " + SectionedLines.oneLine(text));
                continue;
            }
            out.blank();
            out.paragraph(text);
            out.blank();
        }
        if (!cells.isEmpty()) {
            out.paragraph(String.join(" | ", cells));
        }
        if (!out.hasText()) {
            throw new DocumentSkippedException(source.path(), SkipReason.NO_TEXT_LAYER, "the document has no text "
                    + "(only images or empty paragraphs)", null);
        }
        Map<String, String> metadata = new LinkedHashMap<>();
        SummaryInformation info = doc.getSummaryInformation();
        if (info != null && info.getAuthor() != null && !info.getAuthor().isBlank()) {
            metadata.put("author", info.getAuthor().strip());
        }
        return ParsedDocument.builder(source.path())
                .title(title(info == null ? null : info.getTitle(), styledTitle, out.firstHeading(), source.path()))
                .docType("doc").metadata(metadata).lines(out.lines()).sections(out.sections()).build();
    }

    /** A paragraph's text without field codes, cell marks and Word's control characters; line breaks kept. */
    private static String clean(String text) {
        String stripped = Range.stripFields(text);
        StringBuilder out = new StringBuilder(stripped.length());
        for (int i = 0; i < stripped.length(); i++) {
            char c = stripped.charAt(i);
            if (c == '\u000b' || c == '\r' || c == '\n') {
                out.append('\n');                    // vertical tab: a manual line break
            } else if (c == '\t') {
                out.append(' ');
            } else if (c >= ' ') {
                out.append(c == '\u00a0' ? ' ' : c);
            }
        }
        return out.toString().strip();
    }

    private static @Nullable String styleName(HWPFDocument doc, Paragraph paragraph) {
        if (doc.getStyleSheet() == null) {
            return null;
        }
        StyleDescription style = doc.getStyleSheet().getStyleDescription(paragraph.getStyleIndex());
        return style == null || style.getName() == null ? null : style.getName().strip().toLowerCase(Locale.ROOT);
    }

    private static int level(@Nullable String style) {
        if (style == null) {
            return 0;
        }
        Matcher matcher = HEADING.matcher(style);
        return matcher.matches() ? Math.min(6, matcher.group(1).charAt(0) - '0') : 0;
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
