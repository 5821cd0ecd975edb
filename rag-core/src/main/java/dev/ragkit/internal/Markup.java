package dev.ragkit.internal;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How a document's markup reads: which characters of a text render as nothing, by the way the document is written
 * ({@link Sentences.Layout}) — a markdown reference link's brackets and label, a documentation comment's inline tags
 * and HTML. {@link Sentences} reads quotes this way and citations find them the same way, so both sides agree.
 */
public final class Markup {
    /**
     * A reference-style link: {@code [text][label]} or {@code [text][]} (an image's {@code ![alt][label]}), its text
     * (group 1) holding a letter, so reference marks ({@code [1][2]}) are none; one level of brackets may stand in
     * its text ({@code [`v[0]`][]}).
     */
    private static final Pattern REFERENCE_LINK = Pattern.compile(
            "!?\\[((?:[^\\[\\]\\n]|\\[[^\\[\\]\\n]*])+)]\\[[^\\[\\]\\s]*]");
    /** An inline tag of a documentation comment that reads as its content, up to the content. */
    private static final Pattern INLINE_TAG = Pattern.compile("\\{@(code|literal|link|linkplain|value)\\s+");
    /** An HTML tag of a documentation comment that reads as nothing. */
    private static final Pattern HTML_TAG = Pattern.compile(
            "</?(?:p|em|strong|b|i|u|code|tt|var|ul|ol|li|br|pre|h[1-6]|blockquote|dl|dt|dd|sup|sub|a|table|tr|td|th)"
                    + "(?:\\s[^<>]*)?/?>", Pattern.CASE_INSENSITIVE);

    private Markup() {
    }

    /**
     * The text with the markup of its layout read as text: in {@link Sentences.Layout#TEXT} and {@link
     * Sentences.Layout#LINES}, reference links, as markdown renders them: {@code [`fs.readFile()`][]} and {@code [the
     * scopes chapter][scopes]} read {@code `fs.readFile()`} and {@code the scopes chapter} (the definitions they point
     * at are not quoted, so in an answer the brackets would stay; inline links, {@code [text](url)}, stay links); in
     * {@link Sentences.Layout#C_LIKE} code, the inline tags and HTML of documentation comments (Javadoc, JSDoc):
     * {@code {@code x}} and {@code {@literal x}} read {@code x}, {@code {@link Foo#bar()}} reads {@code Foo#bar()},
     * {@code {@link #bar}} reads {@code bar} and {@code {@link Foo the foo}} its label, and tags such as {@code <p>},
     * {@code <em>}, {@code <li>} read as nothing (not inside {@code {@code …}}); other layouts have none.
     *
     * @param text   a text of a document written in {@code layout}
     * @param layout how the document is written
     * @return the text as it reads
     */
    public static String rendered(String text, Sentences.Layout layout) {
        if (!mayHold(text, layout)) {
            return text;                        // most sentences: no mask, no copy (every retrieved chunk's sentences)
        }
        boolean[] drop = of(text, layout);
        StringBuilder out = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); i++) {
            if (!drop[i]) {
                out.append(text.charAt(i));
            }
        }
        return out.toString();
    }

    /**
     * @param text   a text of a document written in {@code layout}
     * @param layout how the document is written
     * @return for each of its characters, whether it is markup that reads as nothing ({@link #rendered})
     */
    public static boolean[] of(String text, Sentences.Layout layout) {
        if (!mayHold(text, layout)) {
            return new boolean[text.length()];
        }
        if (!layout.code()) {
            return linkSyntax(text);
        }
        boolean[] drop = new boolean[text.length()];
        boolean[] literal = new boolean[text.length()];
        Matcher tag = INLINE_TAG.matcher(text);
        int from = 0;
        while (tag.find(from)) {
            int close = closingBrace(text, tag.end());
            if (close < 0) {
                break;                                      // not closed in this text: left as written
            }
            for (int i = tag.start(); i < tag.end(); i++) {
                drop[i] = true;                             // "{@code " and its white space
            }
            if (tag.group(1).startsWith("link") || tag.group(1).equals("value")) {
                int label = labelOf(text, tag.end(), close);
                for (int i = tag.end(); i < label; i++) {
                    drop[i] = true;                         // "{@link Foo#bar(int, int) the bar}" reads "the bar"
                }
                if (label == tag.end() && text.charAt(label) == '#') {
                    drop[label] = true;                     // "{@link #estimate}" reads "estimate"
                }
            } else {
                for (int i = tag.end(); i < close; i++) {
                    literal[i] = true;                      // "{@code <p>}" reads "<p>"
                }
            }
            drop[close] = true;
            from = close + 1;
        }
        Matcher html = HTML_TAG.matcher(text);
        while (html.find()) {
            if (!literal[html.start()]) {
                for (int i = html.start(); i < html.end(); i++) {
                    drop[i] = true;
                }
            }
        }
        return drop;
    }

    /**
     * Whether the text can hold markup of its layout at all: a reference link's {@code ][} in text, a {@code {} or
     * {@code <} in C-like code; other code holds none.
     */
    private static boolean mayHold(String text, Sentences.Layout layout) {
        return !layout.code() ? text.contains("][")
                : layout == Sentences.Layout.C_LIKE && (text.indexOf('{') >= 0 || text.indexOf('<') >= 0);
    }

    /**
     * Where the label of a link's inline tag starts, its reference running from {@code from} to the first white space
     * outside parentheses; {@code from} when it has none.
     */
    private static int labelOf(String text, int from, int close) {
        int depth = 0;
        for (int i = from; i < close; i++) {
            char c = text.charAt(i);
            depth += c == '(' ? 1 : c == ')' ? -1 : 0;
            if (depth == 0 && Character.isWhitespace(c)) {
                int label = i;
                while (label < close && Character.isWhitespace(text.charAt(label))) {
                    label++;
                }
                return label < close ? label : from;
            }
        }
        return from;
    }

    /** Where the brace closing an inline tag whose content starts at {@code from} stands (nested pairs skipped). */
    private static int closingBrace(String text, int from) {
        int depth = 0;
        for (int i = from; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '{') {
                depth++;
            } else if (c == '}' && depth-- == 0) {
                return i;
            }
        }
        return -1;
    }

    /**
     * @param text a text
     * @return for each of its characters, whether it is a reference link's syntax ({@link #rendered}): its brackets
     *         and the label after its text
     */
    private static boolean[] linkSyntax(String text) {
        boolean[] drop = new boolean[text.length()];
        Matcher m = REFERENCE_LINK.matcher(text);
        int from = 0;
        while (m.find(from)) {
            if (insideCodeSpan(text, m.start()) || m.group(1).codePoints().noneMatch(Character::isLetter)) {
                from = m.start() + 1;
                continue;
            }
            drop[m.start()] = true;                                          // "[" (or "![" of an image)
            if (text.charAt(m.start()) == '!') {
                drop[m.start() + 1] = true;
            }
            for (int i = m.end(1); i < m.end(); i++) {
                drop[i] = true;                                              // "][label]"
            }
            from = m.end();
        }
        return drop;
    }

    /** Whether an odd number of backticks stands before the place on its text: it is inside a code span. */
    private static boolean insideCodeSpan(String text, int at) {
        int ticks = 0;
        for (int i = text.lastIndexOf('\n', at - 1) + 1; i < at; i++) {
            ticks += text.charAt(i) == '`' ? 1 : 0;
        }
        return ticks % 2 == 1;
    }
}
