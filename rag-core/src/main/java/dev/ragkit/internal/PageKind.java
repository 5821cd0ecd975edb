package dev.ragkit.internal;

import dev.ragkit.store.StoredDocument;
import org.jspecify.annotations.Nullable;

/**
 * What a page of a paged document is — a page, a slide or a sheet, from the document's
 * {@code page_label} metadata — and the one place that turns a page and that label into words: the
 * prompt's header ({@code Page: 12}, {@code Slide: 7}, {@code Sheet: 1}), an extractive answer's note
 * ({@code (p. 12)}, {@code (slide 7)}, {@code (sheet Q3)}) and a citation's location
 * ({@code a.pdf p. 12, lines 4–9}, {@code deck.pptx slide 7, lines 2–4}, {@code budget.xlsx > Q3, rows 4–9}).
 * A sheet's lines are its rows and a slide's its paragraphs: each one is a unit of its own for {@link Sentences}.
 */
public enum PageKind {
    /** A page of a PDF or of an attachment. */
    PAGE("Page", "p."),
    /** A slide of a deck ({@code slide}). */
    SLIDE("Slide", "slide"),
    /** A sheet of a workbook ({@code sheet}), named by its section; its line {@code n} is row {@code n}. */
    SHEET("Sheet", "sheet");

    /** The document metadata key that holds the label ({@code slide}, {@code sheet}; absent for pages). */
    public static final String METADATA_KEY = "page_label";

    private final String header;
    private final String word;

    PageKind(String header, String word) {
        this.header = header;
        this.word = word;
    }

    /**
     * @param label the {@code page_label} metadata value, or {@code null}
     * @return {@link #SLIDE} for {@code slide}, {@link #SHEET} for {@code sheet}, else {@link #PAGE}
     */
    public static PageKind of(@Nullable String label) {
        if ("slide".equals(label)) {
            return SLIDE;
        }
        return "sheet".equals(label) ? SHEET : PAGE;
    }

    /**
     * @param document a stored document
     * @return what its pages are
     */
    public static PageKind of(StoredDocument document) {
        return of(document.metadata().get(METADATA_KEY));
    }

    /** @return the prompt header's name for the page: {@code Page}, {@code Slide} or {@code Sheet} */
    public String header() {
        return header;
    }

    /**
     * @return whether each line of a page is a unit of its own that no sentence crosses: a sheet's rows, and a
     *         slide's paragraphs (bullets, which seldom end in a full stop, and table rows); a PDF page's lines are
     *         a paragraph wrapped, so they are not
     */
    public boolean linesAreUnits() {
        return this != PAGE;
    }

    /**
     * @param page    the page's number (as written in a prompt header)
     * @param section the section of the text on it, or {@code null}
     * @return {@code p. 12}, {@code slide 7}, or {@code sheet Q3} (a sheet by its name, the section; by its number
     *         when there is none)
     */
    public String at(String page, @Nullable String section) {
        return word + " " + (this == SHEET && section != null ? section : page);
    }

    /**
     * @param path    the document's path
     * @param page    the page
     * @param section the section of the cited text, or {@code null}
     * @param start   the first cited line (within the page)
     * @param end     the last cited line
     * @return {@code a.pdf p. 12, lines 4–9}, {@code deck.pptx slide 7, lines 2–4} or
     *         {@code budget.xlsx > Q3, rows 4–9}
     */
    public String location(String path, int page, @Nullable String section, int start, int end) {
        String lines = start + "\u2013" + end;
        if (this == SHEET) {
            return path + " > " + (section == null ? "sheet " + page : section) + ", rows " + lines;
        }
        return path + " " + word + " " + page + ", lines " + lines;
    }
}
