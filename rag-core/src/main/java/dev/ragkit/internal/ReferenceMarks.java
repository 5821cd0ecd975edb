package dev.ragkit.internal;

/**
 * Reference marks that follow a sentence's full stop in encyclopaedias and notes: {@code [1]}, {@code [12]},
 * {@code [note 3]}, {@code [nb 2]}, {@code [lower-alpha 4]} (a label and a number of at most three digits),
 * {@code [a]}, {@code [^4]} (a markdown footnote), {@code [citation needed]}.
 * Written as in {@code "over time.[1][2] It is"}, they hide the sentence end from a sentence splitter that expects
 * white space or closing punctuation after the stop; the chunker and {@link Sentences} read them as part of the
 * sentence that ends before them. Stateless.
 */
public final class ReferenceMarks {

    private static final int MAX_NUMBER_DIGITS = 3;
    private static final int MAX_LABEL = 16;
    private static final String CITATION_NEEDED = "citation needed";

    private ReferenceMarks() {
    }

    /**
     * @param text the text
     * @param at   where a mark may start
     * @return the position after the run of reference marks starting at {@code at}; {@code at} when none starts there
     */
    public static int skip(String text, int at) {
        int position = at;
        for (int end = markEnd(text, position); end > position; end = markEnd(text, position)) {
            position = end;
        }
        return position;
    }

    /** The position after one mark at {@code at}, else {@code at}. */
    private static int markEnd(String text, int at) {
        int n = text.length();
        if (at >= n || text.charAt(at) != '[') {
            return at;
        }
        int i = at + 1;
        if (text.regionMatches(true, i, CITATION_NEEDED, 0, CITATION_NEEDED.length())) {
            i += CITATION_NEEDED.length();
            return i < n && text.charAt(i) == ']' ? i + 1 : at;
        }
        if (i + 1 < n && text.charAt(i) >= 'a' && text.charAt(i) <= 'z' && text.charAt(i + 1) == ']') {
            return i + 2;                                                  // [a]
        }
        if (i < n && text.charAt(i) == '^') {
            i++;                                                           // [^4]
        } else {
            i = afterLabel(text, i);                                       // [note 3], [lower-alpha 4]
        }
        int digits = 0;
        while (i < n && digits <= MAX_NUMBER_DIGITS && text.charAt(i) >= '0' && text.charAt(i) <= '9') {
            i++;
            digits++;
        }
        return digits > 0 && digits <= MAX_NUMBER_DIGITS && i < n && text.charAt(i) == ']' ? i + 1 : at;
    }

    /** After a mark's label and its space ({@code note }, {@code nb }, {@code lower-alpha }), else {@code at}. */
    private static int afterLabel(String text, int at) {
        int i = at;
        while (i < text.length() && i - at <= MAX_LABEL && (Character.isLetter(text.charAt(i))
                || i > at && text.charAt(i) == '-')) {
            i++;
        }
        return i > at && i - at <= MAX_LABEL && i < text.length() && text.charAt(i) == ' ' ? i + 1 : at;
    }

    /**
     * @param text a text
     * @return the text with every reference mark replaced by as many {@code )} characters, so that a sentence splitter
     *         reads it as closing punctuation and every other character keeps its position
     */
    public static String maskAsClosers(String text) {
        if (text.indexOf('[') < 0) {
            return text;
        }
        StringBuilder masked = null;
        for (int i = text.indexOf('['); i >= 0 && i < text.length(); i = text.indexOf('[', i + 1)) {
            int end = skip(text, i);
            if (end > i) {
                if (masked == null) {
                    masked = new StringBuilder(text);
                }
                for (int k = i; k < end; k++) {
                    masked.setCharAt(k, ')');
                }
                i = end - 1;
            }
        }
        return masked == null ? text : masked.toString();
    }
}
