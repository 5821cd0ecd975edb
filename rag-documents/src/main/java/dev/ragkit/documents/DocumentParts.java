package dev.ragkit.documents;

import dev.ragkit.parse.DocumentSource;
import dev.ragkit.parse.ParsedDocument;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The lines of a document made of parts — an e-mail's body, its attachments and the messages it forwards — each
 * part under its own section prefix ({@code report.pdf}, {@code report.pdf > Results}) and with its own pages, so a
 * chunk of an attachment is cited as {@code thread.eml p. 3} in the section {@code report.pdf}. Lines outside any
 * paged part have no page; {@link ParsedDocument} lets the pages start again where the section (the part) changes.
 * Part names are made unique within the document ({@code report (2).pdf}), so two attachments never share a
 * section. The extracted text counts against the source's character limit.
 */
final class DocumentParts {
    private final DocumentSource source;
    private final List<String> lines = new ArrayList<>();
    private final List<@Nullable String> sections = new ArrayList<>();
    private final List<@Nullable Integer> pages = new ArrayList<>();
    private final Set<String> names = new HashSet<>();
    private long chars;
    /** Whether a part has fenced blocks (an HTML body's {@code <pre>}, a markdown attachment's code). */
    private boolean fenced;

    DocumentParts(DocumentSource source) {
        this.source = source;
    }

    /**
     * @param name a part's name (an attachment's file name)
     * @return the name, or the name with {@code (2)}, {@code (3)}, … before its extension when it is taken
     */
    String uniqueName(String name) {
        String unique = name;
        int dot = name.lastIndexOf('.');
        for (int n = 2; !names.add(unique); n++) {
            unique = dot > 0 ? name.substring(0, dot) + " (" + n + ")" + name.substring(dot) : name + " (" + n + ")";
        }
        return unique;
    }

    /** Adds one line without a page. */
    void line(String text, @Nullable String section) {
        add(text, section, null);
    }

    /** Adds a blank line unless the last line is blank already (or there is none). */
    void blank(@Nullable String section) {
        if (!lines.isEmpty() && !lines.get(lines.size() - 1).isBlank()) {
            add("", section, null);
        }
    }

    /**
     * Adds a parsed part: its lines, its pages, and its sections under the prefix.
     *
     * @param part   what the part's parser made
     * @param prefix the part's section (its name, or the path of names down to it), or {@code null} for the body
     */
    void append(ParsedDocument part, @Nullable String prefix) {
        fenced |= part.structure() != ParsedDocument.Structure.PLAIN;
        for (int line = part.firstBodyLine(); line <= part.lines().size(); line++) {
            String section = part.section(line);
            add(part.line(line), prefix == null ? section : section == null ? prefix : prefix + " > " + section,
                    part.page(line));
        }
    }

    private void add(String text, @Nullable String section, @Nullable Integer page) {
        chars += text.length() + 1;
        source.requireWithinLimit(chars);
        lines.add(text);
        sections.add(section);
        pages.add(page);
    }

    /** @return the characters added so far (what is left of the limit goes to the next part) */
    long chars() {
        return chars;
    }

    /** @return whether any line holds text */
    boolean hasText() {
        return lines.stream().anyMatch(line -> !line.isBlank());
    }

    /**
     * Puts the lines, sections and pages (when any part has pages) into the builder, and the structure: {@code
     * FENCED} when a part has fenced blocks (the parts' headings are sections already).
     */
    ParsedDocument.Builder into(ParsedDocument.Builder builder) {
        while (!lines.isEmpty() && lines.get(lines.size() - 1).isBlank()) {
            lines.remove(lines.size() - 1);
            sections.remove(sections.size() - 1);
            pages.remove(pages.size() - 1);
        }
        builder.lines(lines).sections(sections)
                .structure(fenced ? ParsedDocument.Structure.FENCED : ParsedDocument.Structure.PLAIN);
        if (pages.stream().anyMatch(page -> page != null)) {
            builder.pages(pages);
        }
        return builder;
    }
}
