package dev.ragkit.documents;

import dev.ragkit.error.IngestException;
import dev.ragkit.parse.ContentSniffer;
import dev.ragkit.parse.DocumentParser;
import dev.ragkit.parse.DocumentPaths;
import dev.ragkit.parse.DocumentSkippedException;
import dev.ragkit.parse.DocumentSource;
import dev.ragkit.parse.ParsedDocument;
import dev.ragkit.parse.SkipReason;
import java.awt.geom.Rectangle2D;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.apache.poi.EncryptedDocumentException;
import org.apache.poi.hslf.usermodel.HSLFSlideShow;
import org.apache.poi.poifs.filesystem.POIFSFileSystem;
import org.apache.poi.sl.usermodel.GroupShape;
import org.apache.poi.sl.usermodel.Notes;
import org.apache.poi.sl.usermodel.Placeholder;
import org.apache.poi.sl.usermodel.Shape;
import org.apache.poi.sl.usermodel.SimpleShape;
import org.apache.poi.sl.usermodel.Slide;
import org.apache.poi.sl.usermodel.SlideShow;
import org.apache.poi.sl.usermodel.TableCell;
import org.apache.poi.sl.usermodel.TableShape;
import org.apache.poi.sl.usermodel.TextShape;
import org.apache.poi.xslf.usermodel.XMLSlideShow;
import org.jspecify.annotations.Nullable;

/**
 * PowerPoint presentations, {@code .pptx} (POI's XSLF) and {@code .ppt} 97–2003 (POI's HSLF), through POI's common
 * slide model: one page per slide, so a citation names the slide ({@code deck.pptx slide 7, lines 2–4}: the
 * document's {@value ParsedDocument#PAGE_LABEL} is {@code slide}); the slide's title is the section of its lines.
 * Each slide reads as its title, then its text boxes in reading order (top to bottom, then left to right, by where
 * each box is anchored; grouped boxes in their group's place), tables as one line per row with the cells joined by
 * {@code  | }, and last the speaker notes, whose first line starts with {@code Notes: }. Slides without text give
 * no lines; pictures, charts and slide numbers are left out. The title is the document properties' title, else
 * the first slide's title, else the file name; metadata {@code slides} counts the slides.
 *
 * <p>A password-protected file is skipped as {@link SkipReason#ENCRYPTED}; a {@code .pptx} meets POI's zip-bomb
 * guards (reported as for {@code .docx}), and the text counts against the source's character limit. Up to 100 MiB
 * per file. The {@link DocumentParser} with id {@code slides}; stateless and thread-safe.
 */
public final class SlidesDocumentParser implements DocumentParser {
    private static final int MAX_TITLE = 120;
    private static final int MAX_GROUP_DEPTH = 16;

    /** Creates the parser. */
    public SlidesDocumentParser() {
        // nothing to configure
    }

    @Override
    public String id() {
        return "slides";
    }

    @Override
    public Set<String> extensions() {
        return Set.of("pptx", "ppt");
    }

    @Override
    public Set<ContentSniffer.Kind> kinds() {
        return Set.of(ContentSniffer.Kind.PPTX, ContentSniffer.Kind.OLE2);
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
                    LegacyOffice.require(path, fs, LegacyOffice.Content.POWERPOINT, "a presentation");
                    try (HSLFSlideShow show = new HSLFSlideShow(fs)) {
                        String title = show.getSlideShowImpl().getSummaryInformation() == null ? null
                                : show.getSlideShowImpl().getSummaryInformation().getTitle();
                        String author = show.getSlideShowImpl().getSummaryInformation() == null ? null
                                : show.getSlideShowImpl().getSummaryInformation().getAuthor();
                        return read(source, show, "ppt", title, author);
                    }
                }
            }
            try (XMLSlideShow show = new XMLSlideShow(new ByteArrayInputStream(source.bytes()))) {
                var core = show.getProperties().getCoreProperties();
                return read(source, show, "pptx", core.getTitle(), core.getCreator());
            }
        } catch (EncryptedDocumentException e) {
            throw LegacyOffice.encrypted(path, e);
        } catch (IngestException e) {
            throw e;
        } catch (IOException | RuntimeException e) {
            String hostile = DocxDocumentParser.expansion(e);
            throw new IngestException(path, 0, hostile != null ? hostile : "not a readable PowerPoint presentation ("
                    + ParserMessages.reason(e) + "); open it in PowerPoint or LibreOffice and save it again as "
                    + (legacy ? ".ppt" : ".pptx"), e);
        }
    }

    private ParsedDocument read(DocumentSource source, SlideShow<?, ?> show, String type, @Nullable String title,
            @Nullable String author) {
        PagedLines out = new PagedLines(source);
        String firstTitle = null;
        int number = 0;
        for (Slide<?, ?> slide : show.getSlides()) {
            number++;
            if (Thread.currentThread().isInterrupted()) {
                throw new IngestException(source.path(), 0, "interrupted at slide " + number, null);
            }
            String slideTitle = SectionedLines.oneLine(title(slide));
            String section = slideTitle.isEmpty() ? null : slideTitle;
            if (firstTitle == null && section != null) {
                firstTitle = section;
            }
            if (section != null) {
                out.add(number, section, section);
            }
            List<Shape<?, ?>> shapes = new ArrayList<>(slide.getShapes());
            boolean titleSeen = section == null;
            for (Shape<?, ?> shape : ordered(shapes)) {
                if (!titleSeen && shape instanceof TextShape
                        && section.equals(SectionedLines.oneLine(((TextShape<?, ?>) shape).getText()))) {
                    titleSeen = true;                  // the title is the slide's first line already
                    continue;
                }
                shape(shape, number, section, out, 0);
            }
            notes(slide.getNotes(), number, section, out);
        }
        if (!out.hasText()) {
            throw new DocumentSkippedException(source.path(), SkipReason.NO_TEXT_LAYER, "the presentation has no "
                    + "text (only pictures, or no slides)", null);
        }
        Map<String, String> metadata = new LinkedHashMap<>();
        metadata.put(ParsedDocument.PAGE_LABEL, "slide");
        metadata.put("slides", Integer.toString(number));
        if (author != null && !author.isBlank()) {
            metadata.put("author", author.strip());
        }
        return ParsedDocument.builder(source.path()).title(title(title, firstTitle, source.path())).docType(type)
                .metadata(metadata).lines(out.lines()).pages(out.pages()).sections(out.sections()).build();
    }

    /** The text of the title placeholder (a title slide's centred title too), else what POI calls the title. */
    private static @Nullable String title(Slide<?, ?> slide) {
        for (Shape<?, ?> shape : slide.getShapes()) {
            if (shape instanceof TextShape && shape instanceof SimpleShape) {
                Placeholder placeholder = ((SimpleShape<?, ?>) shape).getPlaceholder();
                if (placeholder == Placeholder.TITLE || placeholder == Placeholder.CENTERED_TITLE) {
                    return ((TextShape<?, ?>) shape).getText();
                }
            }
        }
        return slide.getTitle();
    }

    /** Shapes in reading order: by the top of their anchor, then by its left; shapes without one keep their place. */
    private static List<Shape<?, ?>> ordered(List<Shape<?, ?>> shapes) {
        List<Shape<?, ?>> sorted = new ArrayList<>(shapes);
        sorted.sort(Comparator.comparingDouble((Shape<?, ?> s) -> anchor(s).getY())
                .thenComparingDouble(s -> anchor(s).getX()));
        return sorted;
    }

    private static Rectangle2D anchor(Shape<?, ?> shape) {
        Rectangle2D anchor = shape.getAnchor();
        return anchor == null ? new Rectangle2D.Double() : anchor;
    }

    private static void shape(Shape<?, ?> shape, int page, @Nullable String section, PagedLines out, int depth) {
        if (shape instanceof GroupShape && depth < MAX_GROUP_DEPTH) {
            List<Shape<?, ?>> children = new ArrayList<>();
            for (Object child : (GroupShape<?, ?>) shape) {
                children.add((Shape<?, ?>) child);
            }
            for (Shape<?, ?> child : ordered(children)) {
                shape(child, page, section, out, depth + 1);
            }
        } else if (shape instanceof TableShape) {
            TableShape<?, ?> table = (TableShape<?, ?>) shape;
            out.blank(page, section);
            for (int r = 0; r < table.getNumberOfRows(); r++) {
                List<String> cells = new ArrayList<>();
                for (int c = 0; c < table.getNumberOfColumns(); c++) {
                    TableCell<?, ?> cell = table.getCell(r, c);
                    cells.add(cell == null ? "" : SectionedLines.oneLine(cell.getText()));
                }
                if (cells.stream().anyMatch(cell -> !cell.isEmpty())) {
                    out.add(page, section, String.join(" | ", cells));
                }
            }
            out.blank(page, section);
        } else if (shape instanceof TextShape && !skipped(shape)) {
            String text = ((TextShape<?, ?>) shape).getText();
            if (text != null && !text.isBlank()) {
                out.blank(page, section);
                lines(text, page, section, out, null);
                out.blank(page, section);
            }
        }
    }

    /** The title (already the slide's first line) and what a master repeats on every slide are not body text. */
    private static boolean skipped(Shape<?, ?> shape) {
        if (!(shape instanceof SimpleShape)) {
            return false;
        }
        Placeholder placeholder = ((SimpleShape<?, ?>) shape).getPlaceholder();
        return placeholder == Placeholder.TITLE || placeholder == Placeholder.CENTERED_TITLE
                || placeholder == Placeholder.SLIDE_NUMBER || placeholder == Placeholder.DATETIME
                || placeholder == Placeholder.FOOTER || placeholder == Placeholder.HEADER
                || placeholder == Placeholder.SLIDE_IMAGE;
    }

    private static void notes(@Nullable Notes<?, ?> notes, int page, @Nullable String section, PagedLines out) {
        if (notes == null) {
            return;
        }
        StringBuilder text = new StringBuilder();
        for (Shape<?, ?> shape : notes.getShapes()) {
            if (shape instanceof TextShape && !skipped(shape)) {
                String body = ((TextShape<?, ?>) shape).getText();
                if (body != null && !body.isBlank()) {
                    text.append(text.length() == 0 ? "" : "\n").append(body);
                }
            }
        }
        if (text.length() > 0) {
            out.blank(page, section);
            lines(text.toString(), page, section, out, "Notes: ");
        }
    }

    /** Adds text line by line (PowerPoint's vertical tab is a line break); the first line may get a prefix. */
    private static void lines(String text, int page, @Nullable String section, PagedLines out,
            @Nullable String prefix) {
        String first = prefix;
        for (String line : DocumentSource.lines(text.replace('\u000b', '\n'))) {
            if (line.isBlank()) {
                out.blank(page, section);
            } else {
                out.add(page, section, (first == null ? "" : first) + line.strip());
                first = null;
            }
        }
    }

    private static String title(@Nullable String property, @Nullable String firstSlide, String path) {
        for (String candidate : new String[] {property, firstSlide}) {
            String title = SectionedLines.oneLine(candidate);
            if (!title.isEmpty() && title.length() <= MAX_TITLE) {
                return title;
            }
        }
        return DocumentPaths.baseName(path);
    }
}
