package dev.ragkit.cli;

import dev.ragkit.error.RagException;
import dev.ragkit.store.StoreException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.ScopeType;

/**
 * {@code ragkit}: index folders of markdown, ask questions with cited answers, evaluate retrieval, check health —
 * on embedded defaults (in-process all-MiniLM-L6-v2 embeddings, the in-memory store's snapshot, Ollama when it
 * answers, an extractive fallback otherwise).
 *
 * <p>Exit codes: {@value #OK} success (for {@code ask}: the answer is cited), {@value #ERROR} error,
 * {@value #USAGE} bad usage, {@value #ROUTED} the question was routed to a human (or declined).
 */
@Command(name = "ragkit", mixinStandardHelpOptions = true, versionProvider = BuildInfo.VersionProvider.class,
        description = "Grounded answers from your documents, or an honest hand-off to a human.",
        footer = "Library warnings and stack traces stay off the console: --log-file keeps them, RAGKIT_DEBUG=1 shows "
                + "them.",
        subcommands = {IndexCommand.class, AskCommand.class, EvalCommand.class, HealthCommand.class,
            McpCommand.class, MigrateCommand.class, ModelsCommand.class, ServeCommand.class})
public final class RagkitCli implements Runnable {
    /** Success. */
    public static final int OK = 0;
    /** A failure; the message says what to do. */
    public static final int ERROR = 1;
    /** Bad command-line usage. */
    public static final int USAGE = 2;
    /** {@code ask} answered but routed the question to a human (or declined). */
    public static final int ROUTED = 3;
    /** The environment variable that puts the details (log and stack traces) on standard error. */
    static final String RAGKIT_DEBUG = "RAGKIT_DEBUG";
    /** The global option naming the file the details of the log are appended to. */
    static final String LOG_FILE = "--log-file";

    /** Read from the parse result of whichever command it was given to: it is inherited by every subcommand. */
    @Option(names = LOG_FILE, paramLabel = "<file>", scope = ScopeType.INHERIT, description = "append the log's "
            + "details to this file: RagKit's debug messages and every library's (PDFBox, POI, ...) with their stack "
            + "traces; the console shows neither")
    String logFile;

    private static final Logger LOG = LoggerFactory.getLogger(RagkitCli.class);

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
        OnnxNativeCache.use(System.getenv());
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
        cli.setExecutionStrategy(parsed -> executeLogged(parsed, context));
        cli.setExecutionExceptionHandler((e, commandLine, parsed) -> {
            if (e instanceof UsageException usage) {
                err.println("ragkit: " + Terminal.line(String.valueOf(e.getMessage())));
                usage.shown().forEach(err::println);
                err.println("Try 'ragkit " + commandLine.getCommandName() + " --help'.");
                return USAGE;
            }
            err.println("ragkit: " + Terminal.line(describe(e)));
            if (debug(env)) {
                e.printStackTrace(err);
            }
            return ERROR;
        });
        return cli.execute(args);
    }

    /**
     * Runs the command the user asked for with the log sent where {@link CliLogging} says, then puts the logging
     * back; a {@code --log-file} that cannot be opened is a usage error before anything runs.
     */
    private static int executeLogged(ParseResult parsed, CliContext context) {
        String logFile = null;
        CommandLine last = parsed.commandSpec().commandLine();
        StringBuilder commands = new StringBuilder("ragkit");
        for (ParseResult command = parsed; command != null; command = command.subcommand()) {
            logFile = command.matchedOptionValue(LOG_FILE, logFile);
            last = command.commandSpec().commandLine();
            if (command != parsed) {
                commands.append(' ').append(last.getCommandName());
            }
        }
        Path file = null;
        CliLogging logging;
        try {
            file = logFile == null ? null : context.resolve(logFile);
            logging = CliLogging.install(context.err, file, debug(context.env));
        } catch (IOException | InvalidPathException e) {
            String why = e instanceof NoSuchFileException ? "its folder does not exist"
                    : e instanceof AccessDeniedException ? "permission denied"
                    : e instanceof FileSystemException && Files.isDirectory(file) ? "it is a folder" : e.getMessage();
            context.err.println("ragkit: " + LOG_FILE + " " + Terminal.line(logFile) + ": cannot append to "
                    + Terminal.line(String.valueOf(file != null ? file : logFile)) + " (" + Terminal.line(why)
                    + "); name a file in a folder you can write to");
            context.err.println("Try 'ragkit " + last.getCommandName() + " --help'.");
            return USAGE;
        }
        context.logFile = file;
        BuildInfo build = BuildInfo.current();
        // Heads each run in an appended log file; the arguments stay out (a question is the user's own text).
        LOG.info("started {} (version {}, commit {}) in {}", commands, build.version(), build.commit(), context.cwd);
        try {
            return new CommandLine.RunLast().execute(parsed);
        } finally {
            logging.close();
        }
    }

    /** @return whether {@code RAGKIT_DEBUG} is set (to anything but empty, 0 or false) */
    static boolean debug(Map<String, String> env) {
        String value = env.get(RAGKIT_DEBUG);
        return value != null && !value.isBlank() && !value.strip().equals("0")
                && !value.strip().equalsIgnoreCase("false");
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
