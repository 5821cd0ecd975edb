package dev.ragkit.cli;

import java.util.concurrent.Callable;

/** A subcommand: built with the {@link CliContext}, returns its exit code. */
abstract class CliCommand implements Callable<Integer> {
    final CliContext context;

    CliCommand(CliContext context) {
        this.context = context;
    }

    /**
     * @param value  what the user typed
     * @param option the option's name, for the message
     * @return the value, stripped
     * @throws UsageException when it is blank
     */
    static String requireText(String value, String option) {
        if (value == null || value.isBlank()) {
            throw new UsageException(option + " is blank; give a value, e.g. " + option + " acme");
        }
        return value.strip();
    }
}
