package dev.ragkit.documents;

import dev.ragkit.parse.DocumentSource;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The lines of a document with headings, as the Word and HTML parsers build them: each heading opens a section
 * at its level (closing deeper ones), every line carries the heading path it belongs to ({@code Install > Linux}),
 * and the extracted text counts against the source's character limit as it grows. Blank runs collapse to one
 * blank line, so paragraphs stay apart without empty stretches.
 */
final class SectionedLines {
    private static final int LEVELS = 6;

    private final DocumentSource source;
    private final @Nullable String[] headings = new String[LEVELS];
    private final List<String> lines = new ArrayList<>();
    private final List<@Nullable String> sections = new ArrayList<>();
    private @Nullable String section;
    private @Nullable String firstHeading;
    private long chars;

    SectionedLines(DocumentSource source) {
        this.source = source;
    }

    /**
     * Opens a section: the heading line belongs to the section it opens.
     *
     * @param level 1..6 (values outside are clamped)
     * @param text  the heading text
     */
    void heading(int level, String text) {
        String title = oneLine(text);
        if (title.isEmpty()) {
            return;
        }
        blank();                                   // the blank line before a heading belongs to the section it ends
        int index = Math.max(1, Math.min(LEVELS, level)) - 1;
        headings[index] = title;
        for (int i = index + 1; i < LEVELS; i++) {
            headings[i] = null;
        }
        StringBuilder path = new StringBuilder();
        for (String heading : headings) {
            if (heading != null) {
                path.append(path.length() == 0 ? "" : " > ").append(heading);
            }
        }
        section = path.toString();
        if (firstHeading == null) {
            firstHeading = title;
        }
        add(title);
    }

    /** Adds a paragraph, splitting it at its line breaks; blank lines inside collapse. */
    void paragraph(String text) {
        for (String line : DocumentSource.lines(text)) {
            if (line.isBlank()) {
                blank();
            } else {
                add(line.stripTrailing());
            }
        }
    }

    /**
     * Adds a table row: its cells on one line, joined with {@code " | "}, unless all are empty. A header row (the
     * last of a table's header rows) is followed by a {@code --- | ---} line, as a markdown table's header is, so
     * that the rows under it are read, and quoted, under it.
     *
     * @param cells  the cells' text, each on one line
     * @param header whether the row heads the table (a row of {@code <th>} cells, a Word row repeated as header)
     */
    void row(List<String> cells, boolean header) {
        if (cells.stream().allMatch(String::isEmpty)) {
            return;
        }
        paragraph(String.join(" | ", cells));
        if (header && cells.size() > 1) {
            paragraph(String.join(" | ", cells.stream().map(cell -> "---").toList()));
        }
    }

    /**
     * Adds preformatted text as a fenced block, its lines as they are (blank lines inside kept, those at its edges
     * left out): a fence of backticks longer than any run of backticks that starts one of its lines, with the
     * block's language as the info string when one is known.
     *
     * @param text     the preformatted text
     * @param language its language ({@code rust}, {@code console}), or {@code null}
     */
    void fenced(String text, @Nullable String language) {
        List<String> body = new ArrayList<>(DocumentSource.lines(text));
        body.replaceAll(String::stripTrailing);
        while (!body.isEmpty() && body.get(0).isEmpty()) {
            body.remove(0);
        }
        while (!body.isEmpty() && body.get(body.size() - 1).isEmpty()) {
            body.remove(body.size() - 1);
        }
        if (body.isEmpty()) {
            return;
        }
        int longest = 2;
        for (String line : body) {
            String t = line.stripLeading();
            int run = 0;
            while (run < t.length() && t.charAt(run) == '`') {
                run++;
            }
            longest = Math.max(longest, run);
        }
        String fence = "`".repeat(longest + 1);
        blank();
        add(fence + (language == null ? "" : language));
        body.forEach(this::add);
        add(fence);
        blank();
    }

    /** Ends a block: one blank line unless the last line is blank already. */
    void blank() {
        if (!lines.isEmpty() && !lines.get(lines.size() - 1).isEmpty()) {
            add("");
        }
    }

    private void add(String line) {
        chars += line.length() + 1;
        source.requireWithinLimit(chars);
        lines.add(line);
        sections.add(section);
    }

    /** @return the lines, trailing blank lines removed */
    List<String> lines() {
        trim();
        return lines;
    }

    /** @return the section of each line, same size as {@link #lines()} */
    List<@Nullable String> sections() {
        trim();
        return sections;
    }

    /** @return the first heading's text, or {@code null} when the document has none */
    @Nullable String firstHeading() {
        return firstHeading;
    }

    /** @return whether any line holds text */
    boolean hasText() {
        return lines.stream().anyMatch(line -> !line.isBlank());
    }

    private void trim() {
        while (!lines.isEmpty() && lines.get(lines.size() - 1).isBlank()) {
            lines.remove(lines.size() - 1);
            sections.remove(sections.size() - 1);
        }
    }

    /** Text on one line: runs of white space (line breaks too) become one space. */
    static String oneLine(@Nullable String text) {
        return text == null ? "" : text.strip().replaceAll("\\s+", " ");
    }
}
