package dev.ragkit.internal;

import dev.ragkit.store.StoredDocument;
import java.text.BreakIterator;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * Cuts a passage of a document (the lines of a chunk) into sentences that keep their place: the characters and the
 * lines each one spans. Used wherever RagKit reads a passage sentence by sentence — the relevance features, the
 * extractive answer, the lines a citation points at — so that all of them agree on what a sentence is.
 *
 * <p>The passage is first cut into units that no sentence may cross: paragraphs (at blank lines), headings (a
 * markdown {@code #} line; the passage's first line when it is the last part of its section's heading path; or a
 * line of at most {@value #HEADING_WORDS} words of letters and digits that starts with a capital letter or a digit,
 * does not end like a sentence and stands alone or before a line that starts with a capital letter or digit — a
 * heading from Word, HTML or PDF; after a section number of two levels or more, {@code 2.14.}, as PDFs print one,
 * before any line), list items, fenced code lines (each line on its own; a passage a chunk boundary cut inside a
 * block starts in it), code lines outside fences (a line ending in {@code ;}, <code>{</code> or <code>}</code>: on
 * its own), comment lines (joined with comment lines only) and table rows (a markdown {@code | a | b |} line, or a
 * line whose cells the document parsers joined with {@code " | "}: each row on its own, a markdown table's header
 * row taken for a heading and named as {@link Sentence#header()} by the rows under it, its {@code |---|} line
 * dropped). Lines that render as no text are dropped: markdown link reference definitions ({@code [label]: url}),
 * mdBook rule names ({@code r[items.union.intro]}), attribute anchors ({@code {#install}}) and GitHub alert markers
 * ({@code > [!NOTE]}); so are a PDF's contents and index entries ({@code Header file libtasn1.h . . . . 4}). A
 * blockquote's lines are read without their {@code >} markers, a comment's without its decoration ({@code //}, a
 * block comment's {@code /**} and {@code *}). The lines of a unit are read as one text, and the sentence instance
 * (English rules) of {@link BreakIterator} cuts it, except after an initial or a title before a capitalised word
 * ({@code M.V. Hughes}, {@code Dr. Jones}; so {@code the U.S. Then} stays one sentence too: a name is never cut)
 * or after a time of day
 * before its zone or a bracket ({@code 4:05 p.m. UTC (9:05 a.m. PDT)}), and reference marks after a full stop ({@code
 * time.[1][2] It}, {@link ReferenceMarks}) end the sentence before them, and a "!" or "?" followed by a word in lower
 * case ends none ({@code the "Hey Ya!" video}). Source code ({@link Layout}) is read otherwise: each code line on its
 * own, comments in the language's syntax without their markers, Python docstrings as comments. Stateless and
 * thread-safe.
 */
public final class Sentences {

    /** The most words a plain line may have to be taken for a heading. */
    public static final int HEADING_WORDS = 5;
    /** The most lines of a code block, list or table {@link #introduced} hands back: a longer one is not quoted. */
    public static final int INTRODUCED_LINES = 20;

    private static final Pattern LIST_ITEM = Pattern.compile("\\s*([-*+•]|\\d{1,3}[.)])\\s+\\S.*");
    /**
     * A thematic break ({@code ---}, {@code * * *}), or a title's underline in plain text or markdown ({@code ===},
     * {@code ~~~} where it is no code fence).
     */
    private static final Pattern RULE = Pattern.compile("\\s*([-*_=~]\\s*){3,}");
    /** An editor's mode line at the top of a plain-text file, which says how to edit it: {@code -*- text -*-}. */
    private static final Pattern MODE_LINE = Pattern.compile("\\s*-\\*-.*-\\*-\\s*");
    private static final Pattern FENCE = Pattern.compile("\\s*(```|~~~).*");
    /**
     * A markdown link reference definition, which renders as nothing: {@code [label]: destination}, optionally with a
     * title in quotes or brackets, the whole line ({@code [scopes chapter]: ../names/scopes.md}).
     */
    private static final Pattern LINK_DEFINITION = Pattern.compile(
            " {0,3}\\[[^\\]]+]:[ \\t]*(<[^>]*>|\\S+)([ \\t]+(\"[^\"]*\"|'[^']*'|\\([^)]*\\)))?\\s*");
    /**
     * A line that renders as no text of its own: a rule name of an mdBook specification ({@code
     * r[items.union.intro]}, on its own line before each rule of the Rust reference), an attribute anchor
     * ({@code {#install}}), an alert's marker ({@code [!NOTE]}, {@code [!EDITION-2021]}, after the blockquote's
     * {@code >}).
     */
    private static final Pattern MARKER = Pattern.compile(
            "\\s*([\\p{L}_][\\w-]*\\[[\\w.:/-]+]|\\{#[\\w.:-]+}|\\[![\\w-]+])\\s*");
    /** A blockquote's markers at the start of a line: {@code > }, {@code > > }. */
    private static final Pattern QUOTE_MARKERS = Pattern.compile("^ {0,3}(>[ \\t]?)+", Pattern.MULTILINE);
    /** A list item's line after its first: indented, not blank. */
    private static final Pattern CONTINUED = Pattern.compile("\\s+\\S.*");
    /**
     * A comment's line in text: after {@code //}, {@code --}, {@code ;;}, {@code #!} or {@code <!--}, or a block
     * comment's {@code /*}, {@code *} or {@code *}{@code /} alone on its line. A line starting with {@code * } and text
     * is a list item, one starting with {@code **} bold text.
     */
    private static final Pattern COMMENT = Pattern.compile("\\s*(//|/\\*|\\*+/?\\s*$|--|;;|#!|<!--).*");
    /** What a line comment's line starts with: {@code // }. */
    private static final Pattern LINE_COMMENT = Pattern.compile("\\s*//+\\s?");
    /** What a block comment's line starts with: {@code /** }, {@code  * }. */
    private static final Pattern BLOCK_COMMENT = Pattern.compile("\\s*(/\\*+|\\*+(?!/))\\s?");
    /** A Python docstring's opening quotes, with a string prefix ({@code r"""}): its group 1 is the quotes. */
    private static final Pattern DOCSTRING_QUOTES = Pattern.compile("\\s*[rRuUbBfF]{0,2}(\"\"\"|''')\\s?");
    /** Three quotes, as a docstring opens and closes. */
    private static final Pattern DOCSTRING_MARKS = Pattern.compile("\"\"\"|'''");
    /** A Python docstring's closing quotes at the end of a line. */
    private static final Pattern DOCSTRING_END = Pattern.compile("\\s*(\"\"\"|''')\\s*$");
    /** A block comment's end (stars, then a slash) at the end of a line. */
    private static final Pattern BLOCK_COMMENT_END = Pattern.compile("\\s*\\*+/\\s*$");
    private static final Pattern CODE_END = Pattern.compile(".*[;{}]\\s*");
    private static final Pattern CLOSING = Pattern.compile(".*[.!?:;,\"'”’)\\]]\\s*");
    /**
     * A table row: a markdown {@code | a | b |} line, or cells a document parser joined with {@code " | "} (without
     * a backtick, so that prose quoting {@code `grep a | wc`} stays prose).
     */
    private static final Pattern TABLE_ROW = Pattern.compile("\\s*\\|.*|(?!.*`).*\\S \\| \\S.*");
    /** A markdown table's line under its header: {@code |---|:---:|}, {@code --- | ---}. */
    private static final Pattern TABLE_RULE = Pattern.compile("\\s*\\|?\\s*:?-+:?\\s*(\\|\\s*:?-+:?\\s*)+\\|?\\s*"
            + "|\\s*\\|\\s*:?-+:?\\s*\\|\\s*");
    /**
     * An entry of a table of contents or an index as PDFs print them, which says nothing of its own: a title, dots
     * leading to a page number ({@code Header file libtasn1.h . . . . . 4}).
     */
    private static final Pattern DOT_LEADER = Pattern.compile(".*?(?:\\s?\\.){4,}\\s*(?:\\d{1,4}|[ivxlc]{1,6})");
    /**
     * A line that names a term and says what it is: at most three words, a colon, then text ({@code source name: the
     * name of the type}, {@code Returns: ASN1_SUCCESS if …}). Two such lines near each other are a list.
     */
    private static final Pattern TERM_LINE = Pattern.compile(
            "\\s*[\\p{L}_][\\p{L}\\p{N}_.-]*(?: [\\p{L}\\p{N}_.-]+){0,2}:\\s+\\S");
    /** A documentation comment's block tag at the start of a line: {@code @param}, {@code @return}, {@code @throws}. */
    private static final Pattern BLOCK_TAG = Pattern.compile("@[a-z][a-zA-Z]+\\b");
    /** A section's number of two levels or more before its title, as PDFs print them: {@code 2.14. }, {@code 2.4 }. */
    private static final Pattern SECTION_NUMBER = Pattern.compile("^\\d{1,2}(?:\\.\\d{1,2})+\\.?\\s+(?=\\p{Lu})");
    private static final Pattern HEADING_TEXT = Pattern.compile("[\\p{Lu}\\p{N}][\\p{L}\\p{N} '&()-]*");

    private Sentences() {
    }

    /**
     * One sentence (or a heading, or a code line) of a passage.
     *
     * @param text      the sentence as it reads: its lines' characters without blockquote markers and a comment's
     *                  decoration ({@code //}; a block comment's {@code /**}, {@code *} and its end), lines that
     *                  render as nothing left out, joined with line breaks
     * @param start     its first character in the passage
     * @param end       the character after its last one
     * @param firstLine the passage line (0-based) it starts on
     * @param lastLine  the passage line (0-based) it ends on
     * @param heading   whether it is a heading rather than a sentence of text (a table's header row is one)
     * @param row       whether it is a table row (a unit of its own; cells apart, it holds no sentence)
     * @param code      whether it is a line of code: of a source file, or of a fenced block in text (not a line of
     *                  text that only looks like code)
     * @param header    for a row of a markdown table, the table's header row in the same passage, else {@code null}
     */
    public record Sentence(String text, int start, int end, int firstLine, int lastLine, boolean heading, boolean row,
            boolean code, @Nullable Sentence header) {

        /** @return what the sentence says read as a whole: a table row's text under its header row's, else its text */
        public String read() {
            return header == null ? text : header.text() + "\n" + text;
        }
    }

    /** What a line is, for deciding which lines may share a sentence. */
    private enum Kind {
        BLANK, HEADING, PROSE, ITEM, COMMENT, BLOCK_COMMENT,
        /** A line of source code, or of a fenced block in text. */
        CODE,
        /** A line of text outside a fenced block that looks like code (ends in {@code ;}, {@code {}, {@code }}). */
        LOOSE_CODE,
        FENCE, RULE, ROW, HEADER_ROW,
        /** A line of an HTML comment in markdown ({@code <!-- … -->}), which renders as nothing. */
        HIDDEN
    }

    /**
     * How a document's text is written, which decides what its lines can be. Text ({@link #TEXT}) is read as
     * markdown and prose; the lines of a sheet or slide ({@link #LINES}) are units of their own; in source code
     * every line is code of its own except its comments, whose lines are read together as prose without their
     * markers (a {@code #} starts a comment in Python, not a heading), and nothing is a heading, a list or a table.
     */
    public enum Layout {
        /** Markdown, Word, HTML, PDF pages: paragraphs, headings, lists, tables. */
        TEXT(null, false, false),
        /**
         * Plain text ({@link CodeLanguages#isPlainText}: {@code .txt}, {@code .log}, a file without an extension):
         * as {@link #TEXT}, except that it is not markdown: a {@code #} line is a comment or a shell prompt, not a
         * heading (its lines read together, apart from the prose around them), and {@code <!--} is text.
         */
        PLAIN(null, false, false),
        /** A sheet's rows or a slide's paragraphs ({@link PageKind#linesAreUnits()}): each line a unit. */
        LINES(null, false, false),
        /** Code whose comments are {@code //} and {@code /* … *}{@code /} (Java, C, JavaScript, Go, Rust, …). */
        C_LIKE("//", true, false),
        /** Code whose comments start with {@code #} (shell, Ruby, YAML, TOML, properties, INI). */
        HASH("#", false, false),
        /** Python: {@code #} comments, and docstrings ({@code """…"""}) read as comments. */
        PYTHON("#", false, true),
        /** SQL: {@code --} and {@code /* … *}{@code /} comments. */
        SQL("--", true, false),
        /** Data without comments to read (JSON, XML): every line code. */
        DATA(null, false, false);

        private final @Nullable String lineComment;
        /** What a line comment's line starts with: its marker, repeated, then a space. */
        private final @Nullable Pattern lineCommentMarker;
        private final boolean blockComments;
        private final boolean docstrings;

        Layout(@Nullable String lineComment, boolean blockComments, boolean docstrings) {
            this.lineComment = lineComment;
            this.lineCommentMarker = lineComment == null ? null
                    : Pattern.compile("\\s*(?:" + Pattern.quote(lineComment) + ")+\\s?");
            this.blockComments = blockComments;
            this.docstrings = docstrings;
        }

        /**
         * @param path          the document's path (its extension names a language, {@link CodeLanguages}), or
         *                      {@code null}
         * @param linesAreUnits whether its lines are units of their own ({@link PageKind#linesAreUnits()})
         * @return {@link #LINES} when they are, the code layout of the path's language, {@link #PLAIN} for a plain
         *         text file, else {@link #TEXT}
         */
        public static Layout of(@Nullable String path, boolean linesAreUnits) {
            if (linesAreUnits) {
                return LINES;
            }
            String language = path == null ? null : CodeLanguages.ofPath(path);
            if (language == null) {
                return path != null && CodeLanguages.isPlainText(path) ? PLAIN : TEXT;
            }
            switch (language) {
                case "python":
                    return PYTHON;
                case "ruby":
                case "shell":
                case "yaml":
                case "toml":
                case "properties":
                case "ini":
                    return HASH;
                case "sql":
                    return SQL;
                case "json":
                case "xml":
                    return DATA;
                default:
                    return C_LIKE;
            }
        }

        /**
         * @param document a stored document
         * @return its layout, from its path and what its pages are
         */
        public static Layout of(StoredDocument document) {
            return of(document.path(), PageKind.of(document).linesAreUnits());
        }

        /** @return whether each line is a unit of its own that no sentence crosses */
        public boolean linesAreUnits() {
            return this == LINES;
        }

        boolean code() {
            return this != TEXT && this != PLAIN && this != LINES;
        }

        /** Whether its text lines are read as markdown: {@code #} headings, HTML comments (not in plain text). */
        boolean markdown() {
            return this != PLAIN;
        }
    }

    /**
     * @param passage the text, lines separated by {@code \n}
     * @param section the heading path of the passage (e.g. {@code Body > Essay Memo}), or {@code null}
     * @return its sentences in order, read as {@link Layout#TEXT}; blank text and rules give none
     */
    public static List<Sentence> of(String passage, @Nullable String section) {
        return of(passage, section, Layout.TEXT);
    }

    /**
     * @param passage the text, lines separated by {@code \n}
     * @param section the heading path of the passage, or {@code null}
     * @param layout  how the document is written ({@link Layout#of}): where each line is a unit of its own (a
     *                sheet's rows, a slide's paragraphs), no sentence crosses a line, so that consecutive rows or
     *                bullets without full stops are never read as one sentence; in code, each code line is a unit
     *                and comments are read without their markers
     * @return its sentences in order; blank text and rules give none
     */
    public static List<Sentence> of(String passage, @Nullable String section, Layout layout) {
        Objects.requireNonNull(passage, "passage");
        Objects.requireNonNull(layout, "layout");
        boolean linesAreUnits = layout.linesAreUnits();
        List<int[]> lines = lines(passage);
        Kind[] kinds = layout.code() ? classifyCode(passage, lines, layout)
                : classify(passage, lines, lastPart(section), layout.markdown());
        int[][] shown = readable(passage, lines, kinds, layout);
        List<Sentence> out = new ArrayList<>();
        Sentence header = null;
        int i = 0;
        while (i < lines.size()) {
            Kind kind = kinds[i];
            if (kind != Kind.ROW && kind != Kind.RULE) {
                header = null;                                 // a table ends at the first line that is not a row
            }
            if (kind == Kind.BLANK || kind == Kind.RULE || kind == Kind.FENCE || kind == Kind.HIDDEN
                    || layout.code() && shown[i] == null && (kind == Kind.COMMENT || kind == Kind.BLOCK_COMMENT)) {
                i++;                                 // in code, a comment line without words parts paragraphs
                continue;
            }
            if (kind == Kind.ROW || kind == Kind.HEADER_ROW) {
                Sentence row = add(out, passage, lines, shown, lines.get(i)[0], lines.get(i)[1],
                        kind == Kind.HEADER_ROW, true, false, header);
                header = kind == Kind.HEADER_ROW ? row : header;
                i++;
                continue;
            }
            int j = i + 1;
            if (!linesAreUnits && (kind == Kind.PROSE || kind == Kind.ITEM || kind == Kind.COMMENT
                    || kind == Kind.BLOCK_COMMENT)) {
                Kind follows = kind == Kind.ITEM ? Kind.PROSE : kind;
                while (j < lines.size() && kinds[j] == follows
                        && !(layout.code() && (shown[j] == null || blockTag(passage, shown[j])))) {
                    j++;
                }
            }
            int from = lines.get(i)[0];
            int to = lines.get(j - 1)[1];
            if (kind == Kind.HEADING || kind == Kind.CODE || kind == Kind.LOOSE_CODE) {
                add(out, passage, lines, shown, from, to, kind == Kind.HEADING, false, kind == Kind.CODE, null);
            } else {
                split(out, passage, lines, shown, from, to, layout);
            }
            i = j;
        }
        return out;
    }

    /** Whether a comment's line as it reads starts with a documentation block tag: {@code @param}, {@code @return}. */
    private static boolean blockTag(String passage, int[] shown) {
        return BLOCK_TAG.matcher(passage).region(shown[0], shown[1]).lookingAt();
    }

    /**
     * What a sentence ending in a colon introduces: the fenced code block, list or table that starts on the next line
     * that is neither blank nor rendering as nothing ("Import the BOM, then add the modules you use:" and its XML). A
     * code block runs to its closing fence, a list over its items and their indented lines (blank lines and lines
     * rendering as nothing between them too), a table over its rows. Nothing when the sentence does not end its line,
     * when something else follows, when the block does not end inside the passage (a chunk boundary cut it) or when it
     * has more than {@value #INTRODUCED_LINES} lines.
     *
     * @param passage  the passage the sentence was cut from by {@link #of}
     * @param sentence one of its sentences
     * @return {@code {start, end}}: the characters of the block's lines in the passage, or {@code null}
     */
    public static int @Nullable [] introduced(String passage, Sentence sentence) {
        Objects.requireNonNull(passage, "passage");
        if (sentence.heading() || sentence.row() || !sentence.text().endsWith(":")) {
            return null;                                  // most sentences: no look at the passage
        }
        int lineEnd = passage.indexOf('\n', sentence.end());
        if (lineEnd < 0 || !passage.substring(sentence.end(), lineEnd).isBlank()) {
            return null;
        }
        List<int[]> lines = lines(passage);
        int first = sentence.lastLine() + 1;
        while (first < lines.size() && (line(passage, lines, first).isBlank()
                || rendersNothing(line(passage, lines, first)))) {
            first++;
        }
        if (first == lines.size()) {
            return null;
        }
        String opening = line(passage, lines, first);
        int last = -1;
        if (FENCE.matcher(opening).matches()) {
            String marker = opening.strip().substring(0, 3);
            for (int i = first + 1; i < lines.size() && last < 0; i++) {
                last = line(passage, lines, i).strip().startsWith(marker) ? i : -1;
            }
        } else if (TABLE_ROW.matcher(opening).matches()) {
            Kind[] kinds = classify(passage, lines, null, true);
            last = first;                                                     // its rows, its |---| line among them
            while (last + 1 < lines.size() && (kinds[last + 1] == Kind.ROW || kinds[last + 1] == Kind.HEADER_ROW
                    || TABLE_RULE.matcher(line(passage, lines, last + 1)).matches())) {
                last++;
            }
        } else if (LIST_ITEM.matcher(opening).matches()) {
            // its items and their indented lines, over blank lines and lines rendering as nothing between them
            last = first;
            for (int i = first + 1; i < lines.size(); i++) {
                String line = line(passage, lines, i);
                if (LIST_ITEM.matcher(line).matches() || CONTINUED.matcher(line).matches()) {
                    last = i;
                } else if (!line.isBlank() && !rendersNothing(line)) {
                    break;
                }
            }
        }
        return last < 0 || last - first >= INTRODUCED_LINES ? null
                : new int[] {lines.get(first)[0], lines.get(last)[1]};
    }

    /** Whether a line (outside a fenced block) renders as no text: a link definition, a rule name, an anchor. */
    private static boolean rendersNothing(String line) {
        return LINK_DEFINITION.matcher(line).matches() || MARKER.matcher(line).matches()
                || MODE_LINE.matcher(line).matches();
    }

    /** Line {@code i} of the passage as its blockquote holds it: without the {@code >} markers. */
    private static String line(String passage, List<int[]> lines, int i) {
        return unquoted(passage.substring(lines.get(i)[0], lines.get(i)[1]));
    }

    /** The lines without the blockquote markers ({@code > }) they start with. */
    private static String unquoted(String text) {
        return QUOTE_MARKERS.matcher(text).replaceAll("");
    }

    /**
     * A block of a passage as it reads when rendered: without blockquote markers, and without the lines that render
     * as no text (link reference definitions, rule names, anchors, alert markers; never inside a fenced code block).
     *
     * @param block lines of a document, such as {@link #introduced} delimits
     * @return the block as it reads, the lines {@link #renderedLines} gives joined with line breaks
     */
    public static String rendered(String block) {
        StringBuilder out = new StringBuilder(block.length());
        for (int[] line : renderedLines(block, Layout.TEXT)) {
            out.append(out.isEmpty() ? "" : "\n").append(block, line[0], line[1]);
        }
        return out.toString();
    }

    /**
     * @param text lines of a document
     * @param layout how the document is written ({@link Layout#of})
     * @return the {@code [start, end)} characters of each line of the text as it reads when rendered ({@link
     *         #rendered}): after its blockquote markers (in code: its comment markers), lines rendering as no text
     *         left out
     */
    public static List<int[]> renderedLines(String text, Layout layout) {
        List<int[]> lines = lines(text);
        List<int[]> out = new ArrayList<>(lines.size());
        Kind[] kinds = layout.code() ? classifyCode(text, lines, layout)
                : classify(text, lines, null, layout.markdown());
        for (int[] line : readable(text, lines, kinds, layout)) {
            if (line != null) {
                out.add(line);
            }
        }
        return out;
    }

    /**
     * Each line's characters as they read, {@code {start, end}} in the passage: after its blockquote markers (not in
     * code) and a comment's decoration ({@code //}, a block comment's {@code /**}, {@code *} and {@code * /}; in code
     * also the language's line comment marker and a docstring's quotes); {@code null} for a line that reads as
     * nothing (a link definition, a rule name, an anchor; a comment with no letter or digit, such as {@code /**}
     * alone or a rule of dashes). A horizontal rule stays a line.
     */
    private static int[][] readable(String passage, List<int[]> lines, Kind[] kinds, Layout layout) {
        int[][] out = new int[lines.size()][];
        for (int i = 0; i < kinds.length; i++) {
            String line = layout.code() ? passage.substring(lines.get(i)[0], lines.get(i)[1])
                    : line(passage, lines, i);
            int end = lines.get(i)[1];
            int start = end - line.length();
            if (kinds[i] == Kind.RULE && rendersNothing(line) || kinds[i] == Kind.HIDDEN) {
                continue;
            }
            if (kinds[i] == Kind.BLOCK_COMMENT || kinds[i] == Kind.COMMENT && line.strip().startsWith("//")
                    || layout.code() && (kinds[i] == Kind.COMMENT || kinds[i] == Kind.HEADING)) {
                int[] words = commentWords(line, kinds[i] == Kind.BLOCK_COMMENT, layout);
                if (words == null) {
                    continue;
                }
                end = start + words[1];
                start += words[0];
            }
            out[i] = new int[] {start, end};
        }
        return out;
    }

    /**
     * The {@code [from, to)} characters of a comment's line without its decoration and the white space around it, or
     * {@code null} when no letter or digit is left. In Python a block comment is a docstring.
     */
    private static int @Nullable [] commentWords(String line, boolean block, Layout layout) {
        boolean docstring = block && layout.docstrings;
        Pattern decoration = docstring ? DOCSTRING_QUOTES : block ? BLOCK_COMMENT
                : layout.lineCommentMarker == null ? LINE_COMMENT : layout.lineCommentMarker;
        Matcher opening = decoration.matcher(line);
        int after = opening.lookingAt() ? opening.end() : 0;
        Matcher closing = (docstring ? DOCSTRING_END : BLOCK_COMMENT_END).matcher(line);
        int before = block && closing.find(after) ? closing.start() : line.length();
        while (after < before && Character.isWhitespace(line.charAt(after))) {
            after++;
        }
        while (before > after && Character.isWhitespace(line.charAt(before - 1))) {
            before--;
        }
        return line.substring(after, before).codePoints().anyMatch(Character::isLetterOrDigit)
                ? new int[] {after, before} : null;
    }

    /** The [start, end) character range of every line. */
    private static List<int[]> lines(String passage) {
        List<int[]> lines = new ArrayList<>();
        int start = 0;
        for (int k = passage.indexOf('\n'); k >= 0; k = passage.indexOf('\n', start)) {
            lines.add(new int[] {start, k});
            start = k + 1;
        }
        lines.add(new int[] {start, passage.length()});
        return lines;
    }

    /**
     * The kind of each line of text ({@link Layout#TEXT}, or {@link Layout#PLAIN} when not {@code markdown}: then a
     * {@code #} line is a comment, not a heading, and nothing is an HTML comment).
     */
    private static Kind[] classify(String passage, List<int[]> lines, @Nullable String sectionTitle,
            boolean markdown) {
        Kind[] kinds = new Kind[lines.size()];
        boolean fenced = startsInsideAFence(passage, lines);             // a chunk cut a long code block
        boolean commented = startsInsideABlockComment(passage, lines, false);       // inside a block comment: /* … */
        boolean hidden = markdown && startsInsideAnHtmlComment(passage, lines);    // inside <!-- … -->
        for (int i = 0; i < kinds.length; i++) {
            String line = line(passage, lines, i);
            String t = line.strip();
            if ((fenced ? FENCE.matcher(line).matches() : fence(passage, lines, i)) && !hidden) {
                fenced = !fenced;
                kinds[i] = Kind.FENCE;
            } else if (fenced) {
                kinds[i] = t.isEmpty() ? Kind.BLANK : Kind.CODE;
            } else if (hidden || markdown && t.startsWith("<!--")) {
                kinds[i] = Kind.HIDDEN;
                hidden = !t.substring(hidden ? 0 : 4).contains("-->");
            } else if (t.isEmpty()) {
                kinds[i] = Kind.BLANK;
            } else if (commented || t.startsWith("/*")) {
                kinds[i] = Kind.BLOCK_COMMENT;
                commented = !t.substring(commented ? 0 : 2).contains("*/");
            } else if (t.startsWith("#") && (!markdown || t.matches("#{1,6}(\\s.*)?"))) {
                kinds[i] = markdown ? Kind.HEADING : Kind.COMMENT;
            } else if (RULE.matcher(line).matches() || TABLE_RULE.matcher(line).matches()
                    || DOT_LEADER.matcher(t).matches() || rendersNothing(line)) {
                kinds[i] = Kind.RULE;
            } else if (i == 0 && sectionTitle != null && t.equalsIgnoreCase(sectionTitle)) {
                kinds[i] = Kind.HEADING;
            } else if (TABLE_ROW.matcher(line).matches()) {
                kinds[i] = Kind.ROW;
            } else if (COMMENT.matcher(line).matches()) {
                kinds[i] = Kind.COMMENT;
            } else if (LIST_ITEM.matcher(line).matches()) {
                kinds[i] = Kind.ITEM;
            } else if (CODE_END.matcher(line).matches() && !CLOSING.matcher(t.substring(0, t.length() - 1)).matches()
                    && looksLikeCode(t)) {
                kinds[i] = Kind.LOOSE_CODE;
            } else {
                kinds[i] = Kind.PROSE;
            }
        }
        for (int i = 0; i < kinds.length; i++) {
            if (kinds[i] == Kind.PROSE
                    && (plainHeading(passage, lines, kinds, i) || underlined(passage, lines, kinds, i))) {
                kinds[i] = Kind.HEADING;
            } else if (kinds[i] == Kind.PROSE && i > 0 && line(passage, lines, i).contains("|")
                    && (kinds[i - 1] == Kind.ROW || TABLE_RULE.matcher(line(passage, lines, i - 1)).matches())) {
                kinds[i] = Kind.ROW;                // in a table, a row quoting code: "`u8` | 255"
            } else if (kinds[i] == Kind.ROW && i + 1 < kinds.length && kinds[i + 1] == Kind.RULE
                    && TABLE_RULE.matcher(line(passage, lines, i + 1)).matches()) {
                kinds[i] = Kind.HEADER_ROW;
            }
        }
        // lines naming a term and what it is, one after another ("definitions: pointer to the structure",
        // "element: pointer to the structure created." — a function's parameters in a PDF): each starts an item
        for (int i = 0; i < kinds.length; i++) {
            if (kinds[i] == Kind.PROSE && TERM_LINE.matcher(line(passage, lines, i)).lookingAt()
                    && (termNear(passage, lines, kinds, i, -1) || termNear(passage, lines, kinds, i, 1))) {
                kinds[i] = Kind.ITEM;
            }
        }
        return kinds;
    }

    /**
     * Whether another line naming a term ({@link #TERM_LINE}) stands within two lines before ({@code -1}) or after
     * ({@code 1}) line {@code i}, with only running text between them.
     */
    private static boolean termNear(String passage, List<int[]> lines, Kind[] kinds, int i, int step) {
        for (int j = i + step, n = 0; j >= 0 && j < kinds.length && n < 3; j += step, n++) {
            if (kinds[j] != Kind.PROSE && kinds[j] != Kind.ITEM) {
                return false;
            }
            if (TERM_LINE.matcher(line(passage, lines, j)).lookingAt()) {
                return true;
            }
        }
        return false;
    }

    /**
     * The lines of source code: its comments (a block comment's lines, and a Python docstring's; a line starting with
     * the language's line comment marker, not a {@code #!} line) and code lines, which are each a unit of their own.
     * The only headings are comments that label what follows: a line comment alone, of at most {@value
     * #HEADING_WORDS} words, not ending like a sentence. Nothing in code is a list item or a table row.
     */
    private static Kind[] classifyCode(String passage, List<int[]> lines, Layout layout) {
        Kind[] kinds = new Kind[lines.size()];
        boolean commented = layout.blockComments && startsInsideABlockComment(passage, lines, true);
        // the quotes that end the docstring a line is in
        String docstring = layout.docstrings ? docstringOpenBefore(passage, lines) : null;
        for (int i = 0; i < kinds.length; i++) {
            String t = passage.substring(lines.get(i)[0], lines.get(i)[1]).strip();
            Matcher quotes = layout.docstrings ? DOCSTRING_QUOTES.matcher(t) : null;
            if (t.isEmpty()) {
                kinds[i] = Kind.BLANK;
            } else if (docstring != null) {
                kinds[i] = Kind.BLOCK_COMMENT;
                docstring = t.contains(docstring) ? null : docstring;
            } else if (commented || layout.blockComments && t.startsWith("/*")) {
                kinds[i] = Kind.BLOCK_COMMENT;
                commented = !t.substring(commented ? 0 : 2).contains("*/");
            } else if (layout.lineComment != null && t.startsWith(layout.lineComment) && !t.startsWith("#!")) {
                kinds[i] = Kind.COMMENT;
            } else if (quotes != null && quotes.lookingAt()) {
                kinds[i] = Kind.BLOCK_COMMENT;
                String marks = quotes.group(1);
                docstring = t.indexOf(marks, quotes.end()) < 0 ? marks : null;
            } else {
                kinds[i] = Kind.CODE;
            }
        }
        // a comment line alone (between banner lines, too) of a few words without a sentence's end labels what
        // follows: "# Retry settings", "#   The logging record"
        for (int i = 0; i < kinds.length; i++) {
            if (kinds[i] == Kind.COMMENT && !wordyComment(passage, lines, kinds, i - 1, layout)
                    && !wordyComment(passage, lines, kinds, i + 1, layout)) {
                int[] words = commentWords(passage.substring(lines.get(i)[0], lines.get(i)[1]), false, layout);
                String text = words == null ? "" : passage.substring(lines.get(i)[0] + words[0],
                        lines.get(i)[0] + words[1]);
                if (!text.isEmpty() && text.split("\\s+").length <= HEADING_WORDS
                        && !CLOSING.matcher(text).matches()) {
                    kinds[i] = Kind.HEADING;
                }
            }
        }
        return kinds;
    }

    /** Whether line {@code i} is a line comment with a letter or digit in it. */
    private static boolean wordyComment(String passage, List<int[]> lines, Kind[] kinds, int i, Layout layout) {
        return i >= 0 && i < kinds.length && kinds[i] == Kind.COMMENT
                && commentWords(passage.substring(lines.get(i)[0], lines.get(i)[1]), false, layout) != null;
    }

    /**
     * The quotes that end a docstring the passage starts inside (a chunk cut it), or {@code null}: the first line
     * holding three quotes closes a docstring unless it starts with them right after a line ending in a colon (a
     * {@code def} or {@code class}) or as the passage's first line that is not blank.
     */
    private static @Nullable String docstringOpenBefore(String passage, List<int[]> lines) {
        String before = null;
        for (int[] line : lines) {
            String t = passage.substring(line[0], line[1]).strip();
            Matcher quotes = DOCSTRING_MARKS.matcher(t);
            if (quotes.find()) {
                boolean opens = quotes.start() == 0 || DOCSTRING_QUOTES.matcher(t).lookingAt();
                return opens && (before == null || before.endsWith(":")) ? null : quotes.group();
            }
            before = t.isEmpty() ? before : t;
        }
        return null;
    }

    /**
     * Whether the passage starts inside a fenced block (a chunk cut a block too long for it): it has an odd number of
     * fence lines, the first is bare (an opening fence often names its language), and the lines before it look more
     * like code than those after the last one (the lines before a closing fence are code, those after an opening
     * fence are).
     */
    private static boolean startsInsideAFence(String passage, List<int[]> lines) {
        int first = -1;
        int last = -1;
        int count = 0;
        for (int i = 0; i < lines.size(); i++) {
            if (fence(passage, lines, i)) {
                first = first < 0 ? i : first;
                last = i;
                count++;
            }
        }
        if (count % 2 == 0 || !line(passage, lines, first).strip().matches("(```|~~~)[`~]*")) {
            return false;
        }
        return codeShare(passage, lines, 0, first) > codeShare(passage, lines, last + 1, lines.size());
    }

    /** The share of the lines in [from, to) that are not blank and look like code; 0 when there are none. */
    private static double codeShare(String passage, List<int[]> lines, int from, int to) {
        int code = 0;
        int all = 0;
        for (int i = from; i < to; i++) {
            String line = line(passage, lines, i);
            String t = line.strip();
            if (!t.isEmpty()) {
                all++;
                boolean indented = line.startsWith("    ") || line.startsWith("\t");
                code += indented || looksLikeCode(t) || CODE_END.matcher(t).matches() || !CLOSING.matcher(t).matches()
                        && !t.matches(".*\\p{Ll}{3,}.*") ? 1 : 0;
            }
        }
        return all == 0 ? 0 : (double) code / all;
    }

    /**
     * Whether the passage starts inside an HTML comment (a chunk cut it): outside fenced blocks, a line ending in
     * {@code -->} comes before any line that opens one ({@code A --> B} in a diagram is no such line).
     */
    private static boolean startsInsideAnHtmlComment(String passage, List<int[]> lines) {
        if (!passage.contains("-->")) {
            return false;
        }
        boolean fenced = startsInsideAFence(passage, lines);
        for (int i = 0; i < lines.size(); i++) {
            String line = line(passage, lines, i);
            String t = line.strip();
            if (fence(passage, lines, i)) {
                fenced = !fenced;
            } else if (!fenced && t.contains("<!--")) {
                return false;
            } else if (!fenced && t.endsWith("-->")) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether the passage starts inside a block comment (a chunk cut it): its first line that is not blank starts with
     * {@code *}, and a line ends the comment before any line opens one. In code ({@code untilTheEnd}) also when no
     * line opens or ends one and the first starts with {@code *} and a space, as a long comment's middle does; in
     * text such lines are a markdown list.
     */
    private static boolean startsInsideABlockComment(String passage, List<int[]> lines, boolean untilTheEnd) {
        int first = 0;
        while (first < lines.size() && line(passage, lines, first).isBlank()) {
            first++;
        }
        if (first == lines.size() || !line(passage, lines, first).strip().startsWith("*")) {
            return false;
        }
        for (int i = first; i < lines.size(); i++) {
            String t = line(passage, lines, i).strip();
            if (t.startsWith("/*")) {
                return false;
            }
            if (t.endsWith("*/")) {
                return true;
            }
        }
        return untilTheEnd && line(passage, lines, first).strip().matches("\\*(\\s.*)?");
    }

    /** Code rather than prose ending in a semicolon: an operator, a call or a brace somewhere in the line. */
    private static boolean looksLikeCode(String line) {
        return line.endsWith("{") || line.endsWith("}") || line.contains("(") || line.contains("=");
    }

    /**
     * A heading without markup: a short line of letters and digits that starts like a title, standing alone or before
     * a line that starts with a capital letter or digit (a wrapped sentence goes on in lower case).
     */
    private static boolean plainHeading(String passage, List<int[]> lines, Kind[] kinds, int i) {
        String line = line(passage, lines, i).strip();
        String t = SECTION_NUMBER.matcher(line).replaceFirst("");
        boolean numbered = t.length() < line.length();
        String[] words = t.split("\\s+");
        if (!HEADING_TEXT.matcher(t).matches() || words.length > HEADING_WORDS
                || KeyTerms.STOP_WORDS.contains(words[words.length - 1].toLowerCase(Locale.ROOT))) {
            return false;                              // a title does not end in "by" or "the": a wrapped line does
        }
        if (i + 1 >= kinds.length) {
            return i > 0 && kinds[i - 1] == Kind.BLANK;          // a last line after a blank line
        }
        if (kinds[i + 1] != Kind.PROSE) {
            return kinds[i + 1] != Kind.CODE && kinds[i + 1] != Kind.LOOSE_CODE;
        }
        if (numbered) {
            return true;                     // "3.1 Invoking asn1Parser" before "asn1Parser reads a single file"
        }
        String next = line(passage, lines, i + 1).strip();
        int first = next.codePointAt(0);
        return Character.isUpperCase(first) || Character.isDigit(first);
    }

    /**
     * Whether line {@code i} opens or closes a fenced code block: {@code ```} or {@code ~~~}, but not a run of tildes
     * that underlines the line above it as a title ({@code Executive Summary} / {@code ~~~~~~~~~~~~~~~~~}, as
     * valgrind's README and reStructuredText write titles): the title line alone after a blank line, the tildes at
     * least as long as it.
     */
    private static boolean fence(String passage, List<int[]> lines, int i) {
        String line = line(passage, lines, i);
        if (!FENCE.matcher(line).matches()) {
            return false;
        }
        if (i == 0) {
            return true;
        }
        String title = line(passage, lines, i - 1);
        boolean underline = Underlines.of(title, line) == '~' && line.strip().length() >= title.strip().length()
                && !FENCE.matcher(title).matches() && (i == 1 || line(passage, lines, i - 2).isBlank());
        return !underline;
    }

    /**
     * A title written over an underline ({@code GNU Wget} / {@code ========}, {@link Underlines}): one line of text, at
     * the passage's start or after a blank line or a rule, whose next line (a rule by its look) underlines it.
     */
    private static boolean underlined(String passage, List<int[]> lines, Kind[] kinds, int i) {
        return i + 1 < kinds.length && kinds[i + 1] == Kind.RULE
                && (i == 0 || kinds[i - 1] == Kind.BLANK || kinds[i - 1] == Kind.RULE)
                && Underlines.of(line(passage, lines, i), line(passage, lines, i + 1)) != 0;
    }

    /** BreakIterator's sentences of the characters [from, to), each trimmed. */
    private static void split(List<Sentence> out, String passage, List<int[]> lines, int[][] shown, int from,
            int to, Layout layout) {
        String text = passage.substring(from, to).replace('\n', ' ');
        BreakIterator it = BreakIterator.getSentenceInstance(Locale.ENGLISH);
        it.setText(ReferenceMarks.maskAsClosers(text));         // "over time.[1][2] It": a boundary after the marks
        int start = it.first();
        for (int end = it.next(); end != BreakIterator.DONE; end = it.next()) {
            // A sentence ends before white space: "./install.sh" or "v1.2" hold no boundary.
            if (end < text.length() && !Character.isWhitespace(text.charAt(end))
                    && !Character.isWhitespace(text.charAt(end - 1))) {
                continue;
            }
            if (SentenceEnds.noEndAt(text, end)) {
                continue;
            }
            for (int glued = start + 1; glued < end; glued++) {      // "a heretic.By 1672 he", which the JDK keeps
                if (SentenceEnds.gluedAt(text, glued, true) || SentenceEnds.lineEndedAt(passage, from + glued)) {
                    addProse(out, passage, lines, shown, from + start, from + glued, layout);
                    start = glued;
                }
            }
            addProse(out, passage, lines, shown, from + start, from + end, layout);
            start = end;
        }
    }

    /** Adds a sentence of running text ({@link #add}), its markup read as text ({@link Markup#rendered}). */
    private static void addProse(List<Sentence> out, String passage, List<int[]> lines, int[][] shown, int from,
            int to, Layout layout) {
        Sentence s = add(out, passage, lines, shown, from, to, false, false, false, null);
        String text = s == null ? null : Markup.rendered(s.text(), layout);
        if (s != null && !text.equals(s.text())) {
            out.set(out.size() - 1, new Sentence(text, s.start(), s.end(), s.firstLine(), s.lastLine(), false, false,
                    false, null));
        }
    }


    /**
     * Adds the characters [from, to) as a sentence: its text as it reads ({@code shown}), its place from the first
     * character that reads to the last; unless nothing of it reads. Returns it, or {@code null}.
     */
    private static @Nullable Sentence add(List<Sentence> out, String passage, List<int[]> lines, int[][] shown,
            int from, int to, boolean heading, boolean row, boolean code, @Nullable Sentence header) {
        if (from >= to) {
            return null;
        }
        StringBuilder text = new StringBuilder(to - from);
        int start = -1;
        int end = -1;
        for (int k = lineOf(lines, from); k <= lineOf(lines, to - 1); k++) {
            int a = shown[k] == null ? to : Math.max(from, shown[k][0]);
            int b = shown[k] == null ? to : Math.min(to, shown[k][1]);
            if (a < b && !passage.substring(a, b).isBlank()) {
                text.append(text.isEmpty() ? "" : "\n").append(passage, a, b);
                start = start < 0 ? a : start;
                end = b;
            }
        }
        if (start < 0) {
            return null;                                   // nothing of it reads: a comment's "/**", a marker
        }
        while (Character.isWhitespace(passage.charAt(start))) {
            start++;
        }
        while (Character.isWhitespace(passage.charAt(end - 1))) {
            end--;
        }
        Sentence s = new Sentence(text.toString().strip(), start, end, lineOf(lines, start), lineOf(lines, end - 1),
                heading, row, code, header);
        out.add(s);
        return s;
    }

    private static int lineOf(List<int[]> lines, int offset) {
        int lo = 0;
        int hi = lines.size() - 1;
        while (lo < hi) {
            int mid = (lo + hi + 1) >>> 1;
            if (lines.get(mid)[0] <= offset) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        return lo;
    }

    private static @Nullable String lastPart(@Nullable String section) {
        if (section == null) {
            return null;
        }
        int cut = section.lastIndexOf(" > ");
        String last = (cut < 0 ? section : section.substring(cut + 3)).strip();
        return last.isEmpty() ? null : last;
    }
}
