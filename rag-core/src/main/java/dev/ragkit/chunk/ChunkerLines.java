package dev.ragkit.chunk;

import dev.ragkit.internal.ReferenceMarks;
import dev.ragkit.internal.SentenceEnds;

/**
 * A chunker helper: the line-level markdown facts {@link TokenWindowChunker} needs — code fences, headings,
 * sentence ends — read from single lines with plain character tests (no regular expressions, no parse tree).
 */
final class ChunkerLines {

    private ChunkerLines() {
    }

    /**
     * Whether {@code line} opens a fenced code block: optional indentation, then at least three backticks or three
     * tildes; after backticks, the info string may not contain a backtick (CommonMark). Indentation is not limited
     * to three spaces, so that fences inside list items count too.
     *
     * @param line a line
     * @return the fence's length (at least 3), or 0 when the line opens no fence
     */
    static int opensFence(String line) {
        int start = indentation(line);
        if (start >= line.length()) {
            return 0;
        }
        char c = line.charAt(start);
        if (c != '`' && c != '~') {
            return 0;
        }
        int end = start;
        while (end < line.length() && line.charAt(end) == c) {
            end++;
        }
        int length = end - start;
        if (length < 3) {
            return 0;
        }
        if (c == '`' && line.indexOf('`', end) >= 0) {
            return 0;
        }
        return length;
    }

    /**
     * Whether {@code line} closes a block opened by {@code length} {@code fence} characters: optional
     * indentation, at least as many of the same character, then only whitespace.
     *
     * @param line   a line inside the block
     * @param fence  {@code `} or {@code ~}
     * @param length the opening fence's length
     * @return whether the block ends at this line
     */
    static boolean closesFence(String line, char fence, int length) {
        int start = indentation(line);
        int end = start;
        while (end < line.length() && line.charAt(end) == fence) {
            end++;
        }
        if (end - start < length) {
            return false;
        }
        for (int i = end; i < line.length(); i++) {
            if (!Character.isWhitespace(line.charAt(i))) {
                return false;
            }
        }
        return true;
    }

    /**
     * Whether {@code line} is an ATX heading: up to three spaces, one to six {@code #}, then a space, a tab or the
     * end of the line.
     *
     * @param line a line outside code blocks
     * @return whether it is a heading
     */
    static boolean isAtxHeading(String line) {
        int start = indentation(line);
        if (start > 3) {
            return false;
        }
        int end = start;
        while (end < line.length() && line.charAt(end) == '#') {
            end++;
        }
        int level = end - start;
        return level >= 1 && level <= 6 && (end == line.length() || line.charAt(end) == ' ' || line.charAt(end) == '\t');
    }

    /**
     * Whether {@code line} could underline a setext heading: up to three spaces, then only {@code =} or only
     * {@code -} characters, then optional whitespace.
     *
     * @param line a line outside code blocks
     * @return whether it is such an underline
     */
    static boolean isSetextUnderline(String line) {
        int start = indentation(line);
        if (start > 3 || start >= line.length()) {
            return false;
        }
        char c = line.charAt(start);
        if (c != '=' && c != '-') {
            return false;
        }
        int end = start;
        while (end < line.length() && line.charAt(end) == c) {
            end++;
        }
        for (int i = end; i < line.length(); i++) {
            if (!Character.isWhitespace(line.charAt(i))) {
                return false;
            }
        }
        return true;
    }

    /**
     * The end of the first sentence that ends after {@code from}: just after its terminator and any closing quotes,
     * brackets or reference marks, before the whitespace that follows (which byte-pair tokenizers attach to the next
     * word, so cutting there leaves every token of the text intact). Western terminators count only when followed by
     * whitespace or the end of the text, so {@code 3.14} and {@code e.g.x} are not sentence ends, nor is a place
     * {@link SentenceEnds#noEndAt} keeps inside a sentence ({@code Jake T. Maher}), but a sentence glued to the
     * next without a space ({@link SentenceEnds#gluedAt}: {@code a heretic.By 1672}) ends; CJK stops count anywhere.
     * The end of the text counts too.
     *
     * @param text  the text
     * @param from  where to start looking
     * @param bound look no further than this (exclusive), so that a caller that walks a huge line piece by piece
     *              stays linear
     * @return a position after {@code from}: the sentence end, or {@code text.length()} when the text ends first;
     *         -1 when neither happens before {@code bound}
     */
    static int nextSentenceBoundary(String text, int from, int bound) {
        int length = text.length();
        int stop = Math.min(length, bound);
        for (int i = from; i < stop; i++) {
            char c = text.charAt(i);
            if (!SentenceEnds.isTerminator(c)) {
                continue;
            }
            int end = i + 1;
            while (end < length) {
                int marks = ReferenceMarks.skip(text, end);       // "time.[1][2] It"
                if (marks > end) {
                    end = marks;
                } else if (SentenceEnds.isCloser(text.charAt(end)) || SentenceEnds.isTerminator(text.charAt(end))) {
                    end++;
                } else {
                    break;
                }
            }
            if (end == length || c >= 0x3000
                    || Character.isWhitespace(text.charAt(end)) && !SentenceEnds.noEndAt(text, end)
                    || SentenceEnds.gluedAt(text, end)) {
                return end;
            }
            i = end - 1;
        }
        return stop == length ? length : -1;
    }

    /**
     * The end of the next word after {@code from}: the end of the first run of non-whitespace after any leading
     * whitespace, before the whitespace that follows it.
     *
     * @param text  the text
     * @param from  where to start looking
     * @param bound look no further than this (exclusive)
     * @return a position after {@code from}: the word's end, or {@code text.length()} when the text ends first;
     *         -1 when neither happens before {@code bound}
     */
    static int nextWordBoundary(String text, int from, int bound) {
        int length = text.length();
        int stop = Math.min(length, bound);
        int i = from;
        while (i < stop && Character.isWhitespace(text.charAt(i))) {
            i++;
        }
        while (i < stop && !Character.isWhitespace(text.charAt(i))) {
            i++;
        }
        if (i < stop || stop == length) {
            return i;
        }
        return -1;
    }

    private static int indentation(String line) {
        int i = 0;
        while (i < line.length() && (line.charAt(i) == ' ' || line.charAt(i) == '\t')) {
            i++;
        }
        return i;
    }
}
