package dev.ragkit.internal;

import java.util.Set;
import java.util.regex.Pattern;

/**
 * What ends a sentence, read from characters: the one set of rules that {@link Sentences} splits text by, that the
 * chunker ends its windows by, and that retrieval reads to tell whether the chunker cut a sentence between two
 * windows — a stop and what may follow it ({@link #endsSentence}), the places the JDK's sentence rules break that
 * are no end ({@link #noEndAt}), and the ends they miss ({@link #gluedAt}, {@link #lineEndedAt}). Stateless.
 */
public final class SentenceEnds {

    /**
     * The end of a text that cannot end a sentence before a capital or a digit: an initial ({@code J.},
     * {@code M.V.}), a title before a name ({@code Mr.}, {@code Dr.}, {@code St.}, also joined by a dash:
     * {@code Wrangell–St. Elias}), or an abbreviation that introduces what follows ({@code e.g. A5}, {@code c. 1500}).
     * The JDK's sentence rules break after each of them.
     */
    private static final Pattern NAME_PART = Pattern.compile(
            "(?:^|[\\s(\\[\"'“‘./\\-–—])(?:\\p{Lu}\\.|Mr\\.|Mrs\\.|Ms\\.|Dr\\.|Prof\\.|St\\.|Sr\\.|Jr\\.|Gen\\.|"
            + "Col\\.|Capt\\.|Lt\\.|Sgt\\.|Maj\\.|Adm\\.|Brig\\.|Gov\\.|Rev\\.|Hon\\.|Mt\\.|Ft\\.|e\\.g\\.|i\\.e\\.|"
            + "cf\\.|c\\.|ca\\.|vs\\.|viz\\.)$");
    /** A time of day: {@code 4:05 p.m.}, {@code 9 a.m.}. */
    private static final Pattern TIME_OF_DAY = Pattern.compile("(?:^|[\\s\\h\\d])[aApP]\\.[mM]\\.$");
    /** What follows a time of day inside a sentence: a time zone ({@code UTC}, {@code EDT}) or a bracket. */
    private static final Pattern ZONE_OR_BRACKET = Pattern.compile("(?:\\p{Lu}{2,5}\\b|\\().*", Pattern.DOTALL);
    /** An exclamation or a question inside a sentence: {@code the "Hey Ya!" video}, {@code "Why?" he asked}. */
    private static final Pattern INNER_CRY = Pattern.compile("[!?][\"'”’)\\]]*$");
    /** A closing quote or bracket that may stand between a sentence's full stop and the next one glued to it. */
    private static final String GLUED_CLOSERS = "\"”’)";
    /** Words of three letters or more whose full stop does not end a sentence before a word in lower case. */
    private static final Set<String> ABBREVIATIONS = Set.of("etc", "approx", "resp", "incl", "esp", "viz", "cca",
            "ibid", "var", "min", "max", "sec", "ref", "refs", "vol", "eds", "trans", "aka");

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

    /**
     * Whether a sentence ends at {@code end} with no space after it: a word in lower case, a full stop, "!" or "?"
     * (and a closing quote or bracket), then a capitalised word and white space — "described as a heretic.By 1672
     * he", as paragraphs joined without a space read (scraped and extracted text). Not inside a dotted name
     * ({@code java.util.List is}, {@code e.g.The}), a call ({@code list.Add(x)}) or a file name ({@code notes.Txt.md}):
     * the word before must stand alone and the one after end before white space or punctuation that ends a clause.
     * The chunker cuts windows by this rule; reading sentences to quote takes two more cases ({@link #gluedAt(String,
     * int, boolean)}).
     *
     * @param text the text
     * @param end  the place: just after the punctuation (or its closing quote), before the capital
     * @return whether a sentence ends there
     */
    public static boolean gluedAt(String text, int end) {
        return gluedAt(text, end, false);
    }

    /**
     * {@link #gluedAt(String, int)}, and with {@code quoting} also after a word in quotes or brackets ({@code known
     * as "friend".In the 1980s}) and before "A" or "I" ({@code lion preservation.A man-eating lion}). The chunker does
     * not take these two (a window cut elsewhere costs nothing, and a changed chunking would re-embed every index:
     * docs/design-notes.md); the sentences an answer quotes, read at query time, do.
     *
     * @param text    the text
     * @param end     the place: just after the punctuation (or its closing quote), before the capital
     * @param quoting whether the two cases count
     * @return whether a sentence ends there
     */
    public static boolean gluedAt(String text, int end, boolean quoting) {
        if (end < 3 || end + 2 > text.length() || !Character.isUpperCase(text.charAt(end))
                || !Character.isLowerCase(text.charAt(end + 1)) && !(quoting && oneLetterWord(text, end))) {
            return false;
        }
        int stop = beforeCloser(text, end - 1);
        if (stop < 2 || ".!?".indexOf(text.charAt(stop)) < 0) {
            return false;
        }
        int last = quoting ? beforeCloser(text, stop - 1) : stop - 1;   // "a friend".In: the quote before the stop
        int word = wordStart(text, last + 1, true);
        boolean standsAlone = word == 0 || Character.isWhitespace(text.charAt(word - 1))
                || "(\"“'‘".indexOf(text.charAt(word - 1)) >= 0;
        if (last - word < 1 || !isLowerOrDigit(text.charAt(last)) || !isLowerOrDigit(text.charAt(last - 1))
                || !standsAlone) {
            return false;
        }
        int after = end + 1;
        while (after < text.length() && Character.isLowerCase(text.charAt(after))) {
            after++;
        }
        return after == text.length() || Character.isWhitespace(text.charAt(after))
                || ",;:".indexOf(text.charAt(after)) >= 0;
    }

    /**
     * Whether a sentence ended at the end of the line before {@code at}, where the JDK's rules go on because the next
     * line starts in lower case: the line ends with a full stop after a word of at least three letters in lower case
     * that is no abbreviation ({@code etc.}). A PDF's lines read so ("… if source_name is" / "not known." / "asn1
     * print structure", the next function's name); "e.g." or "Fig." at a line's end goes on, and so does a "?" or
     * "!" ({@code "How are tenants isolated?"} / {@code quoted …}), as {@link #noEndAt} reads them.
     *
     * @param passage the text with its line breaks
     * @param at      the first character of a line
     * @return whether a sentence ends before it
     */
    static boolean lineEndedAt(String passage, int at) {
        if (at < 4 || at >= passage.length() || passage.charAt(at - 1) != '\n'
                || !Character.isLowerCase(passage.charAt(at))) {
            return false;
        }
        int stop = at - 2;
        while (stop > 0 && passage.charAt(stop) != '\n' && Character.isWhitespace(passage.charAt(stop))) {
            stop--;
        }
        stop = beforeCloser(passage, stop);
        if (stop < 3 || passage.charAt(stop) != '.') {
            return false;
        }
        int word = wordStart(passage, stop, false);
        String before = passage.substring(word, stop);
        return before.length() >= 3 && before.chars().allMatch(Character::isLowerCase)
                && (word == 0 || ".-_/".indexOf(passage.charAt(word - 1)) < 0)
                && !ABBREVIATIONS.contains(before);
    }

    /** {@code at}, or the place before it when a closing quote or bracket stands there. */
    private static int beforeCloser(String text, int at) {
        return GLUED_CLOSERS.indexOf(text.charAt(at)) >= 0 ? at - 1 : at;
    }

    /** The start of the word that ends before {@code stop}: its letters, and its digits when {@code digits}. */
    private static int wordStart(String text, int stop, boolean digits) {
        int word = stop;
        while (word > 0 && (digits ? Character.isLetterOrDigit(text.charAt(word - 1))
                : Character.isLetter(text.charAt(word - 1)))) {
            word--;
        }
        return word;
    }

    /** "A" or "I" standing alone at {@code at}: a sentence's first word that no lower-case letter follows. */
    private static boolean oneLetterWord(String text, int at) {
        char c = text.charAt(at);
        return (c == 'A' || c == 'I') && Character.isWhitespace(text.charAt(at + 1));
    }

    private static boolean isLowerOrDigit(char c) {
        return Character.isLowerCase(c) || Character.isDigit(c);
    }

    /**
     * Whether a place where the JDK's sentence rules, or a full stop before white space, end a sentence is no end by
     * RagKit's: after an initial or a title before a capitalised word or a digit ({@code M.V. Hughes}, {@code Dr.
     * Jones}, {@code (c. 1500}), after a time of day before its zone or a bracket ({@code 4:05 p.m. UTC}), or after a
     * "!" or "?" that a word in lower case goes on from ({@code the "Hey Ya!" video}). The one rule for every place
     * that cuts text into sentences: these sentences, and the chunker's cuts inside a long line.
     *
     * @param text the text
     * @param end  the place: just after the punctuation, before or after the white space that follows it
     * @return whether the text goes on in the same sentence there
     */
    public static boolean noEndAt(String text, int end) {
        int before = end;
        while (before > 0 && Character.isWhitespace(text.charAt(before - 1))) {
            before--;
        }
        int next = end;
        while (next < text.length() && Character.isWhitespace(text.charAt(next))) {
            next++;
        }
        if (next >= text.length() || before == 0) {
            return false;
        }
        // the patterns end at the punctuation; a window longer than any of them, so that "^" means the text's start
        String tail = text.substring(Math.max(0, before - 16), before);
        int following = text.codePointAt(next);
        return (Character.isUpperCase(following) || Character.isDigit(following)) && NAME_PART.matcher(tail).find()
                || TIME_OF_DAY.matcher(tail).find() && ZONE_OR_BRACKET.matcher(text).region(next, text.length())
                        .lookingAt()
                || Character.isLowerCase(following) && INNER_CRY.matcher(tail).find();
    }
}
