package dev.ragkit.cli;

import java.util.concurrent.Callable;

/** A subcommand: built with the {@link CliContext}, returns its exit code. */
abstract class CliCommand implements Callable<Integer> {
    final CliContext context;

    CliCommand(CliContext context) {
        this.context = context;
    }
}
