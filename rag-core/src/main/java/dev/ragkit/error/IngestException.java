package dev.ragkit.error;

import org.jspecify.annotations.Nullable;

/**
 * A document could not be read, parsed, chunked or embedded. It names the file and, where known, the line.
 * The indexer reports it for that file and carries on with the others.
 */
public class IngestException extends RagException {
    private static final long serialVersionUID = 1L;

    private final @Nullable String path;
    private final int line;

    /**
     * @param path    the document's path, or {@code null} when no file is involved
     * @param line    the 1-based line of the problem, or 0 when unknown
     * @param message what is wrong and how to fix it (the path and line are prepended)
     * @param cause   the underlying failure, or {@code null}
     */
    public IngestException(@Nullable String path, int line, String message, @Nullable Throwable cause) {
        super((path == null ? "" : path + (line > 0 ? ":" + line : "") + ": ") + message, cause);
        this.path = path;
        this.line = Math.max(0, line);
    }

    /**
     * @return the document's path, or {@code null}
     */
    public @Nullable String path() {
        return path;
    }

    /**
     * @return the 1-based line of the problem, or 0 when unknown
     */
    public int line() {
        return line;
    }
}
