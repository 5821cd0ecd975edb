package dev.ragkit.store;

import java.util.List;
import java.util.Objects;
import java.util.function.UnaryOperator;

/**
 * The text given to {@link MetadataFilter#parse(String)} is not a filter, or a filter beyond the parser's limits
 * ({@link MetadataFilter#MAX_NESTING}, {@link MetadataFilter#MAX_CONDITIONS}). The message names the 1-based
 * column where parsing failed and what was expected there, then shows the text with a caret under that column:
 *
 * <pre>
 * metadata filter, column 9: expected a value after '&gt;='
 *   year &gt;= and
 *           ^
 * </pre>
 *
 * <p>Line breaks and other control characters of the text are shown as blanks, so the caret stays under its
 * column; a text longer than {@value #CONTEXT} characters either side of the column is cut there, with
 * {@code ...}. An application printing the error somewhere else (a terminal that must not see control characters,
 * an HTML page) builds the same lines from {@link #problem()} and {@link #diagram(UnaryOperator)}.
 */
public final class MetadataFilterSyntaxException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    /** How many characters of the filter the diagram shows at most on either side of the column. */
    public static final int CONTEXT = 60;

    private static final String CUT = "...";

    private final String input;
    private final int column;
    private final String problem;

    /**
     * @param input   the whole filter text
     * @param column  the 1-based column where parsing failed
     * @param problem what was wrong and what was expected
     */
    public MetadataFilterSyntaxException(String input, int column, String problem) {
        super(message(Objects.requireNonNull(input, "input"), column, Objects.requireNonNull(problem, "problem")));
        this.input = input;
        this.column = column;
        this.problem = problem;
    }

    private static String message(String input, int column, String problem) {
        return "metadata filter, column " + column + ": " + problem + "\n"
                + String.join("\n", diagram(input, column, MetadataFilterSyntaxException::blankControls));
    }

    /** @return the filter text that failed to parse */
    public String input() {
        return input;
    }

    /** @return the 1-based column where parsing failed */
    public int column() {
        return column;
    }

    /** @return what was wrong and what was expected, without the column and the diagram */
    public String problem() {
        return problem;
    }

    /**
     * The two lines under the message: the filter text (around the column, each line indented by two blanks) and
     * a caret under the column.
     *
     * @param show how a piece of the filter text is written, e.g. with control characters escaped for a terminal;
     *             the caret is placed after what it writes for the text before the column
     * @return the text line and the caret line, without line breaks of their own
     */
    public List<String> diagram(UnaryOperator<String> show) {
        return diagram(input, column, Objects.requireNonNull(show, "show"));
    }

    private static List<String> diagram(String input, int column, UnaryOperator<String> show) {
        int at = Math.max(0, Math.min(column - 1, input.length()));
        int from = Math.max(0, at - CONTEXT);
        int to = Math.min(input.length(), at + CONTEXT);
        if (from > 0 && Character.isLowSurrogate(input.charAt(from))) {
            from--;
        }
        if (to < input.length() && Character.isLowSurrogate(input.charAt(to))) {
            to++;
        }
        String before = (from > 0 ? CUT : "") + show.apply(input.substring(from, at));
        String after = show.apply(input.substring(at, to)) + (to < input.length() ? CUT : "");
        return List.of("  " + before + after, "  " + " ".repeat(before.codePointCount(0, before.length())) + "^");
    }

    /** Control characters (line breaks, tabs, escapes) as one blank each: the caret keeps its column. */
    private static String blankControls(String text) {
        StringBuilder out = new StringBuilder(text.length());
        text.chars().forEach(c -> out.append(Character.isISOControl(c) ? ' ' : (char) c));
        return out.toString();
    }
}
