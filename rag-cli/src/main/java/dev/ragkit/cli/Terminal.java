package dev.ragkit.cli;

/**
 * Makes text safe to print on a terminal: a file name or a document can hold line breaks, escape sequences and
 * bidirectional controls, which would otherwise forge output lines (a fake {@code Action: CITE}), move the cursor,
 * recolour the screen or reorder what the reader sees. Such characters are written as visible escapes
 * ({@code \n}, {@code \e}, {@code \u202E}).
 */
final class Terminal {

    private Terminal() {
    }

    /**
     * For text printed on one line (a path, a section, a snippet, a message): every control character, line break
     * and bidirectional control escaped.
     *
     * @param text any text
     * @return the text with nothing that acts on the terminal
     */
    static String line(String text) {
        return escape(text, false);
    }

    /**
     * For text printed as it is, on several lines (an answer): line breaks and tabs kept, every other control
     * character and bidirectional control escaped.
     *
     * @param text any text
     * @return the text with nothing but line breaks and tabs that acts on the terminal
     */
    static String text(String text) {
        return escape(text, true);
    }

    private static String escape(String text, boolean keepLines) {
        StringBuilder out = null;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            String replacement = keepLines && (c == '\n' || c == '\t') ? null : replacement(c);
            if (replacement == null) {
                if (out != null) {
                    out.append(c);
                }
                continue;
            }
            if (out == null) {
                out = new StringBuilder(text.length() + 16).append(text, 0, i);
            }
            out.append(replacement);
        }
        return out == null ? text : out.toString();
    }

    /** @return how to show {@code c}, or {@code null} when it is shown as it is */
    private static String replacement(char c) {
        switch (c) {
            case '\n':
                return "\\n";
            case '\r':
                return "\\r";
            case '\t':
                return "\\t";
            case '\u001B':
                return "\\e";
            default:
                break;
        }
        boolean control = c < 0x20 || c == 0x7F || (c >= 0x80 && c <= 0x9F);
        boolean bidi = c == '\u061C' || c == '\u200E' || c == '\u200F' || (c >= '\u202A' && c <= '\u202E')
                || (c >= '\u2066' && c <= '\u2069');
        boolean separator = c == '\u2028' || c == '\u2029';
        return control || bidi || separator ? String.format("\\u%04X", (int) c) : null;
    }
}
