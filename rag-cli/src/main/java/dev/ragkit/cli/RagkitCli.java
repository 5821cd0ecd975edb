package dev.ragkit.cli;

import dev.ragkit.error.RagException;
import dev.ragkit.store.StoreException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code ragkit}: index folders of markdown, ask questions with cited answers, evaluate retrieval, check health —
 * on embedded defaults (in-process all-MiniLM-L6-v2 embeddings, the in-memory store's snapshot, Ollama when it
 * answers, an extractive fallback otherwise).
 *
 * <p>Exit codes: {@value #OK} success (for {@code ask}: the answer is cited), {@value #ERROR} error,
 * {@value #USAGE} bad usage, {@value #ROUTED} the question was routed to a human (or declined).
 */
@Command(name = "ragkit", mixinStandardHelpOptions = true, version = "ragkit 0.1.0-SNAPSHOT",
        description = "Grounded answers from your documents, or an honest hand-off to a human.",
        subcommands = {IndexCommand.class, AskCommand.class, EvalCommand.class, HealthCommand.class,
            McpCommand.class, MigrateCommand.class, ModelsCommand.class})
public final class RagkitCli implements Runnable {
    /** Success. */
    public static final int OK = 0;
    /** A failure; the message says what to do. */
    public static final int ERROR = 1;
    /** Bad command-line usage. */
    public static final int USAGE = 2;
    /** {@code ask} answered but routed the question to a human (or declined). */
    public static final int ROUTED = 3;

    private final CliContext context;

    RagkitCli(CliContext context) {
        this.context = context;
    }

    @Override
    public void run() {
        context.err.println("ragkit: name a command: index, ask, eval, health, mcp, migrate or models (ragkit --help)");
    }

    /**
     * Runs the CLI and exits with its code.
     *
     * @param args the command line
     */
    public static void main(String[] args) {
        PrintWriter out = new PrintWriter(System.out, true, StandardCharsets.UTF_8);
        PrintWriter err = new PrintWriter(System.err, true, StandardCharsets.UTF_8);
        int code = run(args, out, err, System.getenv(), Path.of("").toAbsolutePath(), System.console() != null);
        out.flush();
        err.flush();
        System.exit(code);
    }

    /**
     * Runs a command in this JVM: what {@code main} does, with every input explicit (for tests and embedding).
     *
     * @param args        the command line
     * @param out         standard output
     * @param err         standard error
     * @param env         the environment variables
     * @param cwd         the working directory relative paths resolve against
     * @param interactive whether stderr is a terminal (a live progress bar instead of lines)
     * @return the exit code
     */
    public static int run(String[] args, PrintWriter out, PrintWriter err, Map<String, String> env, Path cwd,
            boolean interactive) {
        CliContext context = new CliContext(out, err, env, cwd, interactive);
        CommandLine cli = new CommandLine(new RagkitCli(context), new CommandLine.IFactory() {
            @Override
            public <K> K create(Class<K> type) throws Exception {
                if (CliCommand.class.isAssignableFrom(type)) {
                    return type.getDeclaredConstructor(CliContext.class).newInstance(context);
                }
                return CommandLine.defaultFactory().create(type);
            }
        });
        cli.setOut(out);
        cli.setErr(err);
        cli.setExecutionExceptionHandler((e, commandLine, parsed) -> {
            if (e instanceof UsageException usage) {
                err.println("ragkit: " + Terminal.line(String.valueOf(e.getMessage())));
                usage.shown().forEach(err::println);
                err.println("Try 'ragkit " + commandLine.getCommandName() + " --help'.");
                return USAGE;
            }
            err.println("ragkit: " + Terminal.line(describe(e)));
            if (env.get("RAGKIT_DEBUG") != null) {
                e.printStackTrace(err);
            }
            return ERROR;
        });
        return cli.execute(args);
    }

    /**
     * What to tell the user about a failure: RagKit's and the JDK's checked failures carry messages that say what to
     * do; anything else is named as unexpected, never dumped as a stack trace (set {@code RAGKIT_DEBUG} for one).
     */
    static String describe(Throwable e) {
        String message = e.getMessage() == null ? "" : e.getMessage();
        if (e instanceof RagException || e instanceof StoreException || e instanceof IllegalArgumentException
                || e instanceof IllegalStateException) {
            return message;
        }
        if (e instanceof UncheckedIOException || e instanceof IOException) {
            Throwable cause = e instanceof UncheckedIOException && e.getCause() != null ? e.getCause() : e;
            return "input/output error: " + cause + "; check the paths, their permissions and the free disk space";
        }
        return "unexpected " + e.getClass().getSimpleName() + (message.isEmpty() ? "" : ": " + message)
                + " (run again with RAGKIT_DEBUG=1 for details, and please report it)";
    }
}
