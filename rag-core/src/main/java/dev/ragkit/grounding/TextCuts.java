package dev.ragkit.grounding;

/** Cutting text to a length without splitting a surrogate pair. */
final class TextCuts {

    private TextCuts() {
    }

    /**
     * @param text     the text
     * @param maxChars the most {@code char}s to keep, at least 1
     * @return {@code text} when it fits, else its first {@code maxChars} chars, one fewer when the last kept char
     *         would be the first half of a surrogate pair
     */
    static String prefix(String text, int maxChars) {
        if (text.length() <= maxChars) {
            return text;
        }
        int end = maxChars;
        if (Character.isHighSurrogate(text.charAt(end - 1)) && Character.isLowSurrogate(text.charAt(end))) {
            end--;
        }
        return text.substring(0, end);
    }

    /**
     * @param text     the text
     * @param maxChars the most {@code char}s to keep before the marker
     * @return {@code text} when it fits, else its {@link #prefix} followed by {@code ...}
     */
    static String prefixWithEllipsis(String text, int maxChars) {
        return text.length() <= maxChars ? text : prefix(text, maxChars) + "...";
    }
}
