package dev.ragkit.internal;

/**
 * What ends a sentence, read from characters: the chunker decides where a window may end by it, and retrieval
 * decides by the same rule whether the chunker cut a sentence between two windows. Stateless.
 */
public final class SentenceEnds {

    private SentenceEnds() {
    }

    /**
     * Whether {@code text} ends a sentence: its last non-whitespace characters are {@code . ! ?}, an ellipsis or
     * an ideographic or full-width stop, optionally followed by closing quotes, brackets, emphasis marks or reference
     * marks ({@code [1]}, {@link ReferenceMarks}). A colon or semicolon ends no sentence.
     *
     * @param text a line or the end of a chunk
     * @return whether it ends with a sentence end
     */
    public static boolean endsSentence(String text) {
        int i = text.length() - 1;
        while (i >= 0 && Character.isWhitespace(text.charAt(i))) {
            i--;
        }
        while (i >= 0 && isCloser(text.charAt(i))) {
            if (text.charAt(i) == ']') {                           // "... time.[1]"
                int open = text.lastIndexOf('[', i);
                if (open >= 0 && ReferenceMarks.skip(text, open) == i + 1) {
                    i = open;
                }
            }
            i--;
        }
        return i >= 0 && isTerminator(text.charAt(i));
    }

    /**
     * @param c a character
     * @return whether it is a sentence's full stop or mark: {@code . ! ?}, an ellipsis, an ideographic or full-width
     *         stop, exclamation or question mark
     */
    public static boolean isTerminator(char c) {
        return c == '.' || c == '!' || c == '?' || c == '\u2026' || c == '\u3002' || c == '\uFF01' || c == '\uFF1F'
                || c == '\uFF0E';
    }

    /**
     * @param c a character
     * @return whether it may follow a sentence's stop and still belong to it: a closing quote or bracket, or an
     *         emphasis or code mark
     */
    public static boolean isCloser(char c) {
        return c == '"' || c == '\'' || c == ')' || c == ']' || c == '*' || c == '_' || c == '`' || c == '\u201D'
                || c == '\u2019' || c == '\u300D' || c == '\u300F' || c == '\uFF09';
    }
}
