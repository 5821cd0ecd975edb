package dev.ragkit.retrieval;

import dev.ragkit.store.StoredChunk;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The part of a chunk that a document's reassembled text shows for it: chunks overlap — by whole lines, or by the
 * tail of a long line — so each piece of text is shown once, by the first chunk that holds it. A document's segments joined with their separators are its
 * {@link RetrievedDocument#text()}, and each segment keeps the chunk it came from, so whole documents can be cited
 * chunk by chunk.
 *
 * @param chunk     the chunk the text comes from
 * @param text      the text of the chunk not shown by an earlier segment
 * @param startLine the first line of {@code text}, 1-based (within its page for paged documents)
 * @param endLine   the last line of {@code text}
 * @param separator what joins this segment to the previous one: empty for the first and where it continues the
 *                  same line (the next part of a long line), a newline, or a blank line where the chunks left out
 *                  blank lines or a new page begins
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
     * @return one segment per chunk that shows text not shown before, in order
     */
    public static List<DocumentSegment> of(List<StoredChunk> chunks) {
        Objects.requireNonNull(chunks, "chunks");
        List<DocumentSegment> segments = new ArrayList<>(chunks.size());
        int lastLine = 0;              // the last line shown, on lastPage
        String shown = "";             // the part of lastLine shown so far, from its start
        Integer lastPage = null;
        for (StoredChunk c : chunks) {
            boolean newPage = !segments.isEmpty() && !Objects.equals(c.page(), lastPage);
            if (newPage) {
                lastLine = 0;
                shown = "";
            }
            String[] lines = c.text().split("\n", -1);
            int line = c.startLine();
            int index = 0;
            while (index < lines.length && line < lastLine) {      // lines shown before
                index++;
                line++;
            }
            if (index == lines.length) {
                continue;
            }
            StringBuilder text = new StringBuilder();
            String separator = segments.isEmpty() ? "" : newPage || line > lastLine + 1 ? "\n\n" : "\n";
            int start = line;
            if (line == lastLine) {
                // The last line shown goes on: keep only what this chunk adds to it (its overlap was shown).
                String fresh = lines[index].substring(overlap(shown, lines[index]));
                index++;
                if (fresh.isEmpty()) {
                    if (index == lines.length) {
                        continue;
                    }
                    start = line + 1;
                } else {
                    separator = "";
                    shown += fresh;
                    text.append(fresh);
                    if (index < lines.length) {
                        text.append('\n');
                    }
                }
            }
            for (int k = index; k < lines.length; k++) {
                text.append(lines[k]);
                if (k < lines.length - 1) {
                    text.append('\n');
                }
                shown = lines[k];
            }
            segments.add(new DocumentSegment(c, text.toString(), start, c.endLine(), separator));
            lastLine = c.endLine();
            lastPage = c.page();
        }
        return segments;
    }

    /**
     * How much of {@code next} repeats the end of {@code shown}: the longest prefix of {@code next} that
     * {@code shown} ends with (an overlap taken from the tail of a line), shorter than {@code next} unless all of it
     * was shown.
     */
    private static int overlap(String shown, String next) {
        for (int k = Math.min(shown.length(), next.length()); k > 0; k--) {
            if (shown.regionMatches(shown.length() - k, next, 0, k)) {
                return k;
            }
        }
        return 0;
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
