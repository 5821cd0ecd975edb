package dev.ragkit.grounding;

import dev.ragkit.internal.PageKind;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A source the answer cited, mapped deterministically from its {@code [SourceId: …]} to the exact chunk and
 * lines that were in the prompt.
 *
 * @param sourceId     {@code documentId:chunkIndex}
 * @param documentId   the document's id
 * @param documentName the document's title
 * @param path         the document's path relative to its root
 * @param chunkIndex   the chunk's index in its document
 * @param startLine    first line of the text that supports the statement citing it, 1-based (within the chunk's
 *                     lines; the chunk's first line when no part of it could be told to support it)
 * @param endLine      last line of that text
 * @param section      the heading path of the chunk, or {@code null} (shown as {@code N/A})
 * @param page         the page for paged sources, or {@code null} (shown as {@code N/A})
 * @param similarity   the chunk's raw cosine similarity to the question (what thresholds compare), or
 *                     {@code null} when it was not matched by vector (a critical or linked document, a keyword-only
 *                     match)
 * @param relevance    the chunk's fused relevance (vector and keyword scores combined) before boosting, in [0, 1],
 *                     or {@code null} when it was not matched
 * @param snippet      the first 200 characters of the cited text, with {@code ...} appended when cut
 * @param snippetFull  the first 1,000 characters of the cited text (for display; keep it out of logs)
 * @param pageLabel    what a page of the document is, from its {@value dev.ragkit.parse.ParsedDocument#PAGE_LABEL}
 *                     metadata: {@code slide}, {@code sheet}, or {@code null} for a page
 */
public record Citation(String sourceId, String documentId, String documentName, String path, int chunkIndex,
        int startLine, int endLine, @Nullable String section, @Nullable Integer page, @Nullable Double similarity,
        @Nullable Double relevance, String snippet, String snippetFull, @Nullable String pageLabel) {

    /** Validates the arguments. */
    public Citation {
        Objects.requireNonNull(sourceId, "sourceId");
        Objects.requireNonNull(documentId, "documentId");
        Objects.requireNonNull(documentName, "documentName");
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(snippet, "snippet");
        Objects.requireNonNull(snippetFull, "snippetFull");
    }

    /**
     * A citation whose pages, if any, are pages ({@code p. 12}).
     *
     * @param sourceId     {@code documentId:chunkIndex}
     * @param documentId   the document's id
     * @param documentName the document's title
     * @param path         the document's path
     * @param chunkIndex   the chunk's index
     * @param startLine    the first supporting line
     * @param endLine      the last supporting line
     * @param section      the section, or {@code null}
     * @param page         the page, or {@code null}
     * @param similarity   the raw cosine similarity, or {@code null}
     * @param relevance    the fused relevance, or {@code null}
     * @param snippet      the first 200 characters
     * @param snippetFull  the first 1,000 characters
     */
    public Citation(String sourceId, String documentId, String documentName, String path, int chunkIndex,
            int startLine, int endLine, @Nullable String section, @Nullable Integer page, @Nullable Double similarity,
            @Nullable Double relevance, String snippet, String snippetFull) {
        this(sourceId, documentId, documentName, path, chunkIndex, startLine, endLine, section, page, similarity,
                relevance, snippet, snippetFull, null);
    }

    /** @return the section, or {@code N/A} */
    public String sectionOrNa() {
        return section == null ? "N/A" : section;
    }

    /** @return the page number, or {@code N/A} */
    public String pageOrNa() {
        return page == null ? "N/A" : page.toString();
    }

    /**
     * @return {@code path:startLine-endLine}, or for a paged document {@code path p. 12, lines 4–9} (its line
     *         numbers count within the page); a slide deck's page is a slide ({@code deck.pptx slide 7, lines 2–4}),
     *         a spreadsheet's is a sheet, named by its section, whose lines are its rows
     *         ({@code budget.xlsx > Q3, rows 4–9})
     */
    public String location() {
        if (page == null) {
            return path + ":" + startLine + "-" + endLine;
        }
        return PageKind.of(pageLabel).location(path, page, section, startLine, endLine);
    }
}
