package dev.ragkit.chunk;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A piece of a document's body, before embedding.
 *
 * @param index      the chunk's position in its document, from 0
 * @param text       the chunk's text: a contiguous piece of the document from inside {@code startLine} to the end of
 *                   {@code endLine} — its lines joined with {@code \n}, possibly starting inside the first one
 *                   (overlap taken from a long line), or a part of one line when that line alone exceeds the window
 * @param tokenCount the text's exact token count under the chunker's {@code TokenCounter}
 * @param startLine  the first line, 1-based, inclusive; counted within the page for paged documents
 * @param endLine    the last line, 1-based, inclusive; counted within the page for paged documents
 * @param section    the heading path at {@code startLine}, or {@code null}
 * @param page       the page every line of the chunk is on, for paged documents; otherwise {@code null}
 */
public record TextChunk(int index, String text, int tokenCount, int startLine, int endLine, @Nullable String section,
        @Nullable Integer page) {

    /**
     * Validates the arguments.
     *
     * @throws IllegalArgumentException on a negative index or count, or a bad line range
     */
    public TextChunk {
        Objects.requireNonNull(text, "text");
        if (index < 0 || tokenCount < 0) {
            throw new IllegalArgumentException("index and tokenCount must not be negative");
        }
        if (startLine < 1 || endLine < startLine) {
            throw new IllegalArgumentException("bad line range " + startLine + "-" + endLine);
        }
        if (page != null && page < 1) {
            throw new IllegalArgumentException("page must be at least 1, got " + page);
        }
    }

    /**
     * A chunk of a document without pages.
     *
     * @param index      its position
     * @param text       its text
     * @param tokenCount its exact token count
     * @param startLine  its first line
     * @param endLine    its last line
     * @param section    its section, or {@code null}
     */
    public TextChunk(int index, String text, int tokenCount, int startLine, int endLine, @Nullable String section) {
        this(index, text, tokenCount, startLine, endLine, section, null);
    }
}
