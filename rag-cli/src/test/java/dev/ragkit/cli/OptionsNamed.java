package dev.ragkit.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine;

/**
 * The options a message tells the user to type, each checked against the real command line (picocli's
 * {@code CommandSpec}): an option belongs to the command named just before it ({@code ragkit index <folder>
 * --rebuild}) unless a parenthesis, a semicolon, a comma or the end of a sentence comes between them, and otherwise to
 * the command that printed the message.
 */
final class OptionsNamed {
    private static final Pattern COMMAND = Pattern.compile("ragkit (index|ask|eval|health|mcp|migrate)\\b");
    private static final Pattern OPTION = Pattern.compile("(?<![\\w-])--[a-z][a-z0-9-]*");
    private static final Pattern BREAK = Pattern.compile("[();]|\\. |, ");

    private OptionsNamed() {
    }

    /** @return the real command line, with every subcommand */
    static CommandLine cli() {
        CliContext context = new CliContext(new PrintWriter(new StringWriter()), new PrintWriter(new StringWriter()),
                Map.of(), Path.of("").toAbsolutePath(), false);
        return new CommandLine(new RagkitCli(context), new CommandLine.IFactory() {
            @Override
            public <K> K create(Class<K> type) throws Exception {
                if (CliCommand.class.isAssignableFrom(type)) {
                    return type.getDeclaredConstructor(CliContext.class).newInstance(context);
                }
                return CommandLine.defaultFactory().create(type);
            }
        });
    }

    /**
     * @param printedBy the command that printed the message
     * @return "command --option" for every option the message names
     */
    static List<String> named(String message, String printedBy) {
        List<String> found = new ArrayList<>();
        Matcher option = OPTION.matcher(message);
        while (option.find()) {
            String command = printedBy;
            Matcher named = COMMAND.matcher(message.substring(0, option.start()));
            int end = -1;
            String last = null;
            while (named.find()) {
                end = named.end();
                last = named.group(1);
            }
            if (last != null && !BREAK.matcher(message.substring(end, option.start())).find()) {
                command = last;
            }
            found.add(command + " " + option.group());
        }
        return found;
    }

    /** Fails when the message names an option that its command does not have. */
    static void assertReal(String message, String printedBy) {
        CommandLine cli = cli();
        for (String named : named(message, printedBy)) {
            String[] parts = named.split(" ");
            CommandLine command = cli.getSubcommands().get(parts[0]);
            assertThat(command).as(named).isNotNull();
            assertThat(command.getCommandSpec().findOption(parts[1]))
                    .as("'ragkit %s' has no option %s, yet this message names it: %s", parts[0], parts[1], message)
                    .isNotNull();
        }
    }
}
