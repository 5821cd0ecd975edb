package dev.ragkit.store;

/**
 * The text given to {@link MetadataFilter#parse(String)} is not a filter. The message quotes the text, names the
 * 1-based column where parsing failed and what was expected there.
 */
public final class MetadataFilterSyntaxException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    private final String input;
    private final int column;

    /**
     * @param input   the whole filter text
     * @param column  the 1-based column where parsing failed
     * @param problem what was wrong and what was expected
     */
    public MetadataFilterSyntaxException(String input, int column, String problem) {
        super("metadata filter, column " + column + ": " + problem + "\n  " + input + "\n  "
                + " ".repeat(Math.max(0, column - 1)) + "^");
        this.input = input;
        this.column = column;
    }

    /** @return the filter text that failed to parse */
    public String input() {
        return input;
    }

    /** @return the 1-based column where parsing failed */
    public int column() {
        return column;
    }
}
