package dev.ragkit.documents;

import dev.ragkit.parse.DocumentSource;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The lines of a paged document as the slide and spreadsheet parsers build them: every line carries its page (a
 * slide, a sheet) and its section (the slide's title, the sheet's name), and the extracted text counts against the
 * source's character limit as it grows. Blank lines at the end of a page are dropped.
 */
final class PagedLines {
    private final DocumentSource source;
    private final List<String> lines = new ArrayList<>();
    private final List<Integer> pages = new ArrayList<>();
    private final List<@Nullable String> sections = new ArrayList<>();
    private long chars;

    PagedLines(DocumentSource source) {
        this.source = source;
    }

    /**
     * Adds a line, failing when the text grows past the source's character limit.
     *
     * @param page    its 1-based page, never lower than the page of the line before
     * @param section its section, or {@code null}
     * @param line    the text, one line
     */
    void add(int page, @Nullable String section, String line) {
        chars += line.length() + 1;
        source.requireWithinLimit(chars);
        append(page, section, line);
    }

    /**
     * @param line a line to add
     * @return whether it fits under the character limit (for parsers that cut instead of failing)
     */
    boolean fits(String line) {
        return chars + line.length() + 1 <= source.maxChars();
    }

    /** @return the most characters the source allows */
    long maxChars() {
        return source.maxChars();
    }

    /** Ends a block: one blank line on the same page unless the last line is blank or of another page. */
    void blank(int page, @Nullable String section) {
        if (!lines.isEmpty() && !lines.get(lines.size() - 1).isEmpty() && pages.get(pages.size() - 1) == page) {
            add(page, section, "");
        }
    }

    private void append(int page, @Nullable String section, String line) {
        if (!pages.isEmpty() && pages.get(pages.size() - 1) != page) {
            trimBlankEnd();
        }
        lines.add(line);
        pages.add(page);
        sections.add(section);
    }

    private void trimBlankEnd() {
        while (!lines.isEmpty() && lines.get(lines.size() - 1).isBlank()) {
            int last = lines.size() - 1;
            lines.remove(last);
            pages.remove(last);
            sections.remove(last);
        }
    }

    /** @return whether any line holds text */
    boolean hasText() {
        return lines.stream().anyMatch(line -> !line.isBlank());
    }

    /** @return the lines, trailing blank lines removed */
    List<String> lines() {
        trimBlankEnd();
        return lines;
    }

    /** @return the page of each line */
    List<Integer> pages() {
        trimBlankEnd();
        return pages;
    }

    /** @return the section of each line */
    List<@Nullable String> sections() {
        trimBlankEnd();
        return sections;
    }
}
