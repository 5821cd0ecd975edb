package dev.ragkit.retrieval;

import dev.ragkit.store.StoredChunk;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The part of a chunk that a document's reassembled text shows for it: chunks overlap, so each line is shown once,
 * by the first chunk that holds it. A document's segments joined with their separators are its
 * {@link RetrievedDocument#text()}, and each segment keeps the chunk it came from, so whole documents can be cited
 * chunk by chunk.
 *
 * @param chunk     the chunk the text comes from
 * @param text      the lines of the chunk not shown by an earlier segment
 * @param startLine the first line of {@code text}, 1-based
 * @param endLine   the last line of {@code text}
 * @param separator what joins this segment to the previous one: empty for the first, a space between two parts of
 *                  one long line, a newline, or a blank line where the chunks left out blank lines
 */
public record DocumentSegment(StoredChunk chunk, String text, int startLine, int endLine, String separator) {

    /** Validates the arguments. */
    public DocumentSegment {
        Objects.requireNonNull(chunk, "chunk");
        Objects.requireNonNull(text, "text");
        Objects.requireNonNull(separator, "separator");
        if (startLine < chunk.startLine() || endLine > chunk.endLine() || endLine < startLine) {
            throw new IllegalArgumentException("segment lines " + startLine + "-" + endLine
                    + " are not within chunk " + chunk.sourceId());
        }
    }

    /**
     * Splits a document's chunks into non-overlapping segments.
     *
     * @param chunks the document's chunks in index order
     * @return one segment per chunk that shows at least one line not shown before, in order
     */
    public static List<DocumentSegment> of(List<StoredChunk> chunks) {
        Objects.requireNonNull(chunks, "chunks");
        List<DocumentSegment> segments = new ArrayList<>(chunks.size());
        int lastEnd = 0;
        boolean lastWasPart = false;
        for (StoredChunk c : chunks) {
            String[] lines = c.text().split("\n", -1);
            boolean part = c.startLine() == c.endLine() && lines.length == 1;
            if (part && lastWasPart && c.startLine() == lastEnd) {
                segments.add(new DocumentSegment(c, c.text(), c.startLine(), c.endLine(), " "));
                continue;
            }
            int skip = Math.max(0, lastEnd - c.startLine() + 1);
            if (skip >= lines.length) {
                lastWasPart = part;
                continue;
            }
            String separator = segments.isEmpty() ? "" : c.startLine() + skip > lastEnd + 1 ? "\n\n" : "\n";
            String text = skip == 0 ? c.text() : String.join("\n", List.of(lines).subList(skip, lines.length));
            int start = Math.min(c.startLine() + skip, c.endLine());
            segments.add(new DocumentSegment(c, text, start, c.endLine(), separator));
            lastEnd = Math.max(lastEnd, c.endLine());
            lastWasPart = part;
        }
        return segments;
    }

    /**
     * @param segments segments from {@link #of(List)}
     * @return their texts joined with their separators: the document's text
     */
    public static String join(List<DocumentSegment> segments) {
        StringBuilder text = new StringBuilder();
        for (DocumentSegment s : segments) {
            text.append(s.separator()).append(s.text());
        }
        return text.toString();
    }
}
