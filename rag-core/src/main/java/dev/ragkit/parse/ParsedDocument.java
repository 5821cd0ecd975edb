package dev.ragkit.parse;

import dev.ragkit.internal.PageKind;
import dev.ragkit.store.PromotionLevel;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SortedSet;
import java.util.TreeSet;
import org.jspecify.annotations.Nullable;

/**
 * A document as read from its file: front-matter fields, the local links it makes, and every line with the
 * heading path in effect there. Immutable.
 *
 * <p>Line numbers are 1-based and refer to the file as it is on disk, front matter included, so citations
 * point at the real lines. The body — what gets chunked — is lines {@code firstBodyLine .. lines().size()}.
 *
 * @param path           the path relative to the document root, with {@code /} separators
 * @param title          from front matter, else the first {@code #} heading, else the file name
 * @param docType        front matter {@code doc_type}, or {@code null}
 * @param promotionLevel front matter {@code promotion_level}, default {@link PromotionLevel#STANDARD}
 * @param date           front matter {@code date}, or {@code null}
 * @param accessTags     front matter {@code tags} (immutable, sorted); empty means the whole tenant
 * @param owner          front matter {@code owner}, or {@code null}
 * @param summary        front matter {@code summary}, or {@code null}
 * @param metadata       every other front-matter field, scalars as text and lists or maps as JSON (immutable)
 * @param links          root-relative, normalised paths of the local documents this one links to, in order of
 *                       first appearance, without duplicates (immutable)
 * @param droppedLinks   how many links were dropped because they would leave the document root
 * @param lines          every line of the file without its terminator; line {@code n} is {@code lines.get(n-1)}
 * @param firstBodyLine  the first line after the front matter: 1 without front matter, {@code lines.size()+1}
 *                       when nothing follows it
 * @param sections       for each line (same size as {@code lines}), the heading path in effect there, e.g.
 *                       {@code Install > Linux}; {@code null} before the first heading and in front matter. A
 *                       heading line belongs to the section it opens. For code, the enclosing type or function
 * @param pages          for paged formats (PDF), the 1-based page of each line (same size as {@code lines}, never
 *                       decreasing); empty for formats without pages. Chunks never span a page, and their line
 *                       numbers count within the page (within a run of lines on one page, or without a page). A
 *                       document made of parts (an e-mail with its attachments) gives each part its own pages: a
 *                       line outside any paged part has the page {@code null}, and the page may start again (go
 *                       down) where the section changes, the section naming the part ({@code report.pdf})
 * @param structure      how the lines are marked up: {@link Structure#MARKDOWN} lets the chunker read fenced code
 *                       blocks and headings from the lines, {@link Structure#FENCED} fenced blocks only;
 *                       {@link Structure#PLAIN} takes them as they are
 * @param warnings       what a person should know about how the file was read although it was indexed — hidden
 *                       sheets skipped, a workbook cut at the character limit, pages read by OCR, attachments not
 *                       read — one sentence each, in order (immutable); the index report lists them per file
 */
public record ParsedDocument(
        String path,
        String title,
        @Nullable String docType,
        PromotionLevel promotionLevel,
        @Nullable LocalDate date,
        SortedSet<String> accessTags,
        @Nullable String owner,
        @Nullable String summary,
        Map<String, String> metadata,
        List<String> links,
        int droppedLinks,
        List<String> lines,
        int firstBodyLine,
        List<@Nullable String> sections,
        List<@Nullable Integer> pages,
        Structure structure,
        List<String> warnings) {

    /**
     * The metadata key that names what a page of a paged document is, for citations: {@code slide} (a slide deck:
     * {@code deck.pptx slide 7, lines 2–4}) or {@code sheet} (a spreadsheet: each sheet a page whose lines are its
     * rows, cited by the sheet's name as {@code budget.xlsx > Q3, rows 4–9}); absent for pages ({@code p. 12}).
     */
    public static final String PAGE_LABEL = PageKind.METADATA_KEY;

    /** How a document's lines are marked up, which tells the chunker what a line can mean. */
    public enum Structure {
        /** Markdown: fenced code blocks are kept whole where they fit, and heading lines stay with what follows. */
        MARKDOWN,
        /**
         * Text without markup but for fenced blocks ({@code ```}) around preformatted text, as the HTML parser writes
         * a {@code <pre>}: the fenced blocks are kept whole where they fit, as in markdown; headings come from the
         * sections, not from the lines.
         */
        FENCED,
        /** Text as it is (plain text, code, text extracted from PDF, Word or HTML): no markup is read from it. */
        PLAIN
    }

    /**
     * Validates and copies the arguments.
     *
     * @throws IllegalArgumentException when {@code sections} and {@code lines} differ in size, or
     *                                  {@code firstBodyLine} is outside {@code 1 .. lines.size()+1}
     */
    public ParsedDocument {
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(title, "title");
        Objects.requireNonNull(promotionLevel, "promotionLevel");
        accessTags = Collections.unmodifiableSortedSet(new TreeSet<>(Objects.requireNonNull(accessTags, "accessTags")));
        metadata = Collections.unmodifiableMap(new LinkedHashMap<>(Objects.requireNonNull(metadata, "metadata")));
        links = List.copyOf(Objects.requireNonNull(links, "links"));
        if (droppedLinks < 0) {
            throw new IllegalArgumentException("droppedLinks must not be negative, got " + droppedLinks);
        }
        lines = List.copyOf(Objects.requireNonNull(lines, "lines"));
        Objects.requireNonNull(sections, "sections");
        if (sections.size() != lines.size()) {
            throw new IllegalArgumentException("sections has " + sections.size() + " entries for " + lines.size()
                    + " lines");
        }
        sections = Collections.unmodifiableList(new ArrayList<>(sections));
        if (firstBodyLine < 1 || firstBodyLine > lines.size() + 1) {
            throw new IllegalArgumentException("firstBodyLine must be in 1.." + (lines.size() + 1) + ", got "
                    + firstBodyLine);
        }
        pages = Collections.unmodifiableList(new ArrayList<>(Objects.requireNonNull(pages, "pages")));
        if (!pages.isEmpty()) {
            if (pages.size() != lines.size()) {
                throw new IllegalArgumentException("pages has " + pages.size() + " entries for " + lines.size()
                        + " lines");
            }
            int previous = 1;
            for (int i = 0; i < pages.size(); i++) {
                Integer page = pages.get(i);
                if (page == null) {
                    continue;                          // a line outside any paged part (an e-mail's body)
                }
                boolean newPart = i > 0 && !Objects.equals(sections.get(i), sections.get(i - 1));
                if (page < 1 || page < previous && !newPart) {
                    throw new IllegalArgumentException("pages must start at 1 or more and never decrease within "
                            + "a part (a new part starts where the section changes), got " + page + " after "
                            + previous + " at line " + (i + 1));
                }
                previous = page;
            }
        }
        Objects.requireNonNull(structure, "structure");
        warnings = List.copyOf(Objects.requireNonNull(warnings, "warnings"));
    }

    /**
     * A document without warnings (the record's shape before {@link #warnings()} existed).
     *
     * @param path           the root-relative path
     * @param title          the title
     * @param docType        the document type, or {@code null}
     * @param promotionLevel the promotion level
     * @param date           the date, or {@code null}
     * @param accessTags     the access tags
     * @param owner          the owner tag, or {@code null}
     * @param summary        the summary, or {@code null}
     * @param metadata       further fields
     * @param links          local links
     * @param droppedLinks   links dropped for leaving the root
     * @param lines          every line
     * @param firstBodyLine  the first body line
     * @param sections       the heading path of each line
     * @param pages          the page of each line, or empty
     * @param structure      how the lines are marked up
     */
    public ParsedDocument(String path, String title, @Nullable String docType, PromotionLevel promotionLevel,
            @Nullable LocalDate date, SortedSet<String> accessTags, @Nullable String owner, @Nullable String summary,
            Map<String, String> metadata, List<String> links, int droppedLinks, List<String> lines,
            int firstBodyLine, List<@Nullable String> sections, List<@Nullable Integer> pages, Structure structure) {
        this(path, title, docType, promotionLevel, date, accessTags, owner, summary, metadata, links, droppedLinks,
                lines, firstBodyLine, sections, pages, structure, List.of());
    }

    /**
     * A markdown document without pages (the shape the markdown parser makes).
     *
     * @param path           the root-relative path
     * @param title          the title
     * @param docType        the document type, or {@code null}
     * @param promotionLevel the promotion level
     * @param date           the date, or {@code null}
     * @param accessTags     the access tags
     * @param owner          the owner tag, or {@code null}
     * @param summary        the summary, or {@code null}
     * @param metadata       further fields
     * @param links          local links
     * @param droppedLinks   links dropped for leaving the root
     * @param lines          every line
     * @param firstBodyLine  the first body line
     * @param sections       the heading path of each line
     */
    public ParsedDocument(String path, String title, @Nullable String docType, PromotionLevel promotionLevel,
            @Nullable LocalDate date, SortedSet<String> accessTags, @Nullable String owner, @Nullable String summary,
            Map<String, String> metadata, List<String> links, int droppedLinks, List<String> lines,
            int firstBodyLine, List<@Nullable String> sections) {
        this(path, title, docType, promotionLevel, date, accessTags, owner, summary, metadata, links, droppedLinks,
                lines, firstBodyLine, sections, List.of(), Structure.MARKDOWN);
    }

    /** @return whether the document has pages ({@link #pages()} is not empty) */
    public boolean paged() {
        return !pages.isEmpty();
    }

    /**
     * @param line a 1-based line number
     * @return its page, or {@code null} for a document without pages (or a line outside its paged parts)
     */
    public @Nullable Integer page(int line) {
        return pages.isEmpty() ? null : pages.get(line - 1);
    }

    /**
     * The heading path in effect at a line.
     *
     * @param line a 1-based line number
     * @return the section, or {@code null} before the first heading
     * @throws IndexOutOfBoundsException when the line does not exist
     */
    public @Nullable String section(int line) {
        return sections.get(line - 1);
    }

    /**
     * The text of a line.
     *
     * @param line a 1-based line number
     * @return the line without its terminator
     * @throws IndexOutOfBoundsException when the line does not exist
     */
    public String line(int line) {
        return lines.get(line - 1);
    }

    /**
     * The number of characters in the body (lines joined with {@code \n}).
     *
     * @return the body's length
     */
    public long bodyCharCount() {
        long count = 0;
        for (int i = firstBodyLine - 1; i < lines.size(); i++) {
            count += lines.get(i).length() + (i + 1 < lines.size() ? 1 : 0);
        }
        return count;
    }

    /**
     * A builder for parsers: everything but the path and the lines has a default (the title is the file name
     * without its extension, no sections, no pages, {@link Structure#PLAIN}).
     *
     * @param path the document's normalised path
     * @return a builder
     */
    public static Builder builder(String path) {
        return new Builder(path);
    }

    /** Builds a {@link ParsedDocument}; the record's constructor checks the values. Not thread-safe. */
    public static final class Builder {
        private final String path;
        private @Nullable String title;
        private @Nullable String docType;
        private PromotionLevel promotionLevel = PromotionLevel.STANDARD;
        private @Nullable LocalDate date;
        private SortedSet<String> accessTags = new TreeSet<>();
        private @Nullable String owner;
        private @Nullable String summary;
        private Map<String, String> metadata = new LinkedHashMap<>();
        private List<String> links = List.of();
        private int droppedLinks;
        private List<String> lines = List.of();
        private int firstBodyLine = 1;
        private @Nullable List<@Nullable String> sections;
        private List<@Nullable Integer> pages = List.of();
        private Structure structure = Structure.PLAIN;
        private final List<String> warnings = new ArrayList<>();

        private Builder(String path) {
            this.path = Objects.requireNonNull(path, "path");
        }

        /** @param title the title (default: the file name without its extension) @return this builder */
        public Builder title(String title) {
            this.title = Objects.requireNonNull(title, "title");
            return this;
        }

        /** @param type the document type, e.g. {@code handbook} @return this builder */
        public Builder docType(String type) {
            this.docType = Objects.requireNonNull(type, "type");
            return this;
        }

        /** @param level how the organisation marked it @return this builder */
        public Builder promotionLevel(PromotionLevel level) {
            this.promotionLevel = Objects.requireNonNull(level, "level");
            return this;
        }

        /** @param date the document's date @return this builder */
        public Builder date(LocalDate date) {
            this.date = Objects.requireNonNull(date, "date");
            return this;
        }

        /** @param tags the access tags @return this builder */
        public Builder accessTags(Collection<String> tags) {
            this.accessTags = new TreeSet<>(Objects.requireNonNull(tags, "tags"));
            return this;
        }

        /** @param owner the owner tag @return this builder */
        public Builder owner(String owner) {
            this.owner = Objects.requireNonNull(owner, "owner");
            return this;
        }

        /** @param summary a summary @return this builder */
        public Builder summary(String summary) {
            this.summary = Objects.requireNonNull(summary, "summary");
            return this;
        }

        /** @param metadata further fields (the author, a language) @return this builder */
        public Builder metadata(Map<String, String> metadata) {
            this.metadata = new LinkedHashMap<>(Objects.requireNonNull(metadata, "metadata"));
            return this;
        }

        /** @param links the local links and how many were dropped for leaving the root @return this builder */
        public Builder links(DocumentPaths.Links links) {
            this.links = links.links();
            this.droppedLinks = links.dropped();
            return this;
        }

        /** @param lines every line of the text @return this builder */
        public Builder lines(List<String> lines) {
            this.lines = List.copyOf(Objects.requireNonNull(lines, "lines"));
            return this;
        }

        /** @param line the first line of the body (after front matter; default 1) @return this builder */
        public Builder firstBodyLine(int line) {
            this.firstBodyLine = line;
            return this;
        }

        /** @param sections the section of each line (same size as the lines) @return this builder */
        public Builder sections(List<@Nullable String> sections) {
            this.sections = new ArrayList<>(Objects.requireNonNull(sections, "sections"));
            return this;
        }

        /**
         * @param pages the 1-based page of each line (same size as the lines; {@code null} for a line outside any
         *              paged part) @return this builder
         */
        public Builder pages(List<@Nullable Integer> pages) {
            this.pages = new ArrayList<>(Objects.requireNonNull(pages, "pages"));
            return this;
        }

        /** @param structure how the lines are marked up (default PLAIN) @return this builder */
        public Builder structure(Structure structure) {
            this.structure = Objects.requireNonNull(structure, "structure");
            return this;
        }

        /**
         * @param warning one sentence a person should know about how the file was read, e.g. {@code 2 hidden
         *                sheets skipped} (see {@link ParsedDocument#warnings()}) @return this builder
         */
        public Builder warning(String warning) {
            this.warnings.add(Objects.requireNonNull(warning, "warning"));
            return this;
        }

        /**
         * @return the document
         * @throws IllegalArgumentException when sections or pages do not match the lines
         */
        public ParsedDocument build() {
            List<@Nullable String> perLine = sections;
            if (perLine == null) {
                perLine = new ArrayList<>(Collections.nCopies(lines.size(), (String) null));
            }
            return new ParsedDocument(path, title != null ? title : DocumentPaths.baseName(path), docType,
                    promotionLevel, date, accessTags, owner, summary, metadata, links, droppedLinks, lines,
                    firstBodyLine, perLine, pages, structure, warnings);
        }
    }
}
