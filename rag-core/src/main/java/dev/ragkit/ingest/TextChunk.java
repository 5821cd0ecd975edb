package dev.ragkit.ingest;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A piece of a document's body, before embedding.
 *
 * @param index      the chunk's position in its document, from 0
 * @param text       the chunk's text: its lines joined with {@code \n}, or a part of one line when that line
 *                   alone exceeds the window
 * @param tokenCount the text's exact token count under the chunker's {@code TokenCounter}
 * @param startLine  the first line, 1-based, inclusive
 * @param endLine    the last line, 1-based, inclusive
 * @param section    the heading path at {@code startLine}, or {@code null}
 */
public record TextChunk(int index, String text, int tokenCount, int startLine, int endLine, @Nullable String section) {

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
    }
}
