package dev.ragkit.cli;

import java.util.List;

/**
 * A command line that cannot be right, whatever the machine: the CLI prints the message (escaped for the terminal,
 * on one line), then any lines shown under it, and exits with 2.
 */
final class UsageException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** Lines printed under the message as they are (e.g. a filter with a caret under the bad column). */
    private final List<String> shown;

    UsageException(String message) {
        this(message, List.of());
    }

    /**
     * @param message what is wrong and how to fix it, on one line
     * @param shown   lines printed under it, each already safe for a terminal ({@link Terminal#line})
     */
    UsageException(String message, List<String> shown) {
        super(message);
        this.shown = List.copyOf(shown);
    }

    /** @return the lines printed under the message */
    List<String> shown() {
        return shown;
    }
}
