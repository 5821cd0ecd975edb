package dev.ragkit.cli;

/** A command line that cannot be right, whatever the machine: the CLI prints the message and exits with 2. */
final class UsageException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    UsageException(String message) {
        super(message);
    }
}
