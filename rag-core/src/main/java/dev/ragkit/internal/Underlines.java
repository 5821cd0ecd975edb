package dev.ragkit.internal;

/**
 * Titles written over an underline, as plain-text READMEs, reStructuredText and markdown's setext headings write them
 * ({@code GNU Wget} / {@code ========}): the one rule the text parser reads sections by and the sentence splitter
 * reads headings by. Whether the line above the title is blank is the caller's to say (each reads lines its own way).
 * Stateless.
 */
public final class Underlines {

    private static final int MIN_LENGTH = 3;
    private static final int MAX_TITLE = 100;

    private Underlines() {
    }

    /**
     * @param title the line above {@code under}
     * @param under a line
     * @return the character {@code under} is a run of ({@code =}, {@code -} or {@code ~}, nothing else but white space
     *         around it, at least three long and at least half as long as the stripped title) when the title is text
     *         of at most 100 characters and not punctuation alone; else 0
     */
    public static char of(String title, String under) {
        String t = title.strip();
        String u = under.strip();
        if (t.isEmpty() || t.length() > MAX_TITLE || u.length() < MIN_LENGTH || 2 * u.length() < t.length()
                || t.chars().noneMatch(Character::isLetterOrDigit)) {
            return 0;
        }
        char c = u.charAt(0);
        return (c == '=' || c == '-' || c == '~') && u.chars().allMatch(x -> x == c) ? c : 0;
    }
}
