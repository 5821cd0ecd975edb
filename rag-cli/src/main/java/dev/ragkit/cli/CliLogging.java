package dev.ragkit.cli;

import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.logging.Formatter;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.jspecify.annotations.Nullable;

/**
 * Where the log of a command goes. Everything logs into {@code java.util.logging}: RagKit and the MCP SDK through
 * SLF4J ({@code slf4j-jdk14}), PDFBox through commons-logging (which finds SLF4J), POI through log4j-api
 * ({@code log4j-to-slf4j}), ONNX Runtime and OkHttp directly. This class replaces the root logger's handlers for the
 * time of one command:
 *
 * <ul>
 *   <li>the console (standard error) shows RagKit's own warnings and errors, one line each, without stack traces —
 *       except those of loggers whose facts the command reports itself ({@link #REPORTED}: a failed file is listed in
 *       the index report, once) — and nothing of the libraries: a PDF parser's complaint about one file is a detail;</li>
 *   <li>the details — RagKit at debug level, every library at info level, with stack traces — go to the
 *       {@code --log-file} (appended to), and with {@code RAGKIT_DEBUG} to standard error instead of the one-line
 *       warnings.</li>
 * </ul>
 *
 * <p>Without a place for details, libraries' loggers are off: their messages are not even formatted.
 */
final class CliLogging implements AutoCloseable {
    /** RagKit's loggers. */
    static final String RAGKIT = "dev.ragkit";
    /**
     * Loggers whose warnings a command reports itself, in its own words: the indexer (failed files, chunks longer
     * than the embedder reads: both in the index report) and the audit trail (a failed record is named by the
     * command). The console does not repeat them; the details keep them.
     */
    static final Set<String> REPORTED = Set.of("dev.ragkit.ingest.Indexer", "dev.ragkit.audit.AuditTrail");
    /** Held, so that the level set on it stays ({@code java.util.logging} keeps loggers weakly). */
    private static final Logger RAGKIT_LOGGER = Logger.getLogger(RAGKIT);
    private static final Formatter DETAIL = new DetailFormat();

    private final Logger root = Logger.getLogger("");
    private final Handler[] saved;
    private final Level savedRootLevel;
    private final Level savedRagkitLevel;
    private final List<Handler> installed = new ArrayList<>();

    private CliLogging() {
        this.saved = root.getHandlers();
        this.savedRootLevel = root.getLevel();
        this.savedRagkitLevel = RAGKIT_LOGGER.getLevel();
    }

    /**
     * Sends the log where a command's user wants it, until {@link #close()}.
     *
     * @param err     standard error
     * @param logFile the file the details are appended to, or {@code null}
     * @param debug   whether the details go to standard error ({@code RAGKIT_DEBUG})
     * @return the installed logging; closing it restores what was there before
     * @throws IOException when the log file cannot be opened for appending (nothing is changed then)
     */
    static CliLogging install(PrintWriter err, @Nullable Path logFile, boolean debug) throws IOException {
        Writer file = logFile == null ? null : new OutputStreamWriter(Files.newOutputStream(logFile,
                StandardOpenOption.CREATE, StandardOpenOption.APPEND, StandardOpenOption.WRITE), StandardCharsets.UTF_8);
        CliLogging logging = new CliLogging();
        for (Handler handler : logging.saved) {
            logging.root.removeHandler(handler);
        }
        logging.add(debug ? new DetailHandler(err, false) : new ConsoleHandler(err));
        if (file != null) {
            logging.add(new DetailHandler(file, true));
        }
        boolean details = debug || file != null;
        logging.root.setLevel(details ? Level.INFO : Level.OFF);
        RAGKIT_LOGGER.setLevel(details ? Level.FINE : Level.WARNING);
        return logging;
    }

    private void add(Handler handler) {
        installed.add(handler);
        root.addHandler(handler);
    }

    /** Flushes and closes the log file, and puts back the handlers and levels that were there before. */
    @Override
    public void close() {
        for (Handler handler : installed) {
            root.removeHandler(handler);
            handler.close();
        }
        for (Handler handler : saved) {
            root.addHandler(handler);
        }
        root.setLevel(savedRootLevel);
        RAGKIT_LOGGER.setLevel(savedRagkitLevel);
    }

    /** @return whether the record is RagKit's */
    private static boolean ragkit(LogRecord record) {
        String name = record.getLoggerName();
        return name != null && (name.equals(RAGKIT) || name.startsWith(RAGKIT + "."));
    }

    /** RagKit's warnings and errors, one line each, in the CLI's voice; no library's, no stack traces. */
    private static final class ConsoleHandler extends Handler {
        private final PrintWriter err;

        ConsoleHandler(PrintWriter err) {
            this.err = err;
        }

        @Override
        public void publish(LogRecord record) {
            if (record.getLevel().intValue() < Level.WARNING.intValue() || !ragkit(record)
                    || REPORTED.contains(record.getLoggerName())) {
                return;
            }
            String kind = record.getLevel().intValue() >= Level.SEVERE.intValue() ? "error" : "warning";
            err.println("ragkit: " + kind + ": " + Terminal.line(String.valueOf(DETAIL.formatMessage(record))));
            err.flush();
        }

        @Override
        public void flush() {
            err.flush();
        }

        @Override
        public void close() {
            flush();                                    // standard error stays open
        }
    }

    /** Every record at the loggers' levels, with time, level, logger and stack trace: the details. */
    private static final class DetailHandler extends Handler {
        private final Writer out;
        private final boolean closeOut;

        DetailHandler(Writer out, boolean closeOut) {
            this.out = out;
            this.closeOut = closeOut;
        }

        @Override
        public synchronized void publish(LogRecord record) {
            try {
                out.write(DETAIL.format(record));
                out.flush();
            } catch (IOException e) {
                reportError("cannot write the log", e, java.util.logging.ErrorManager.WRITE_FAILURE);
            }
        }

        @Override
        public synchronized void flush() {
            try {
                out.flush();
            } catch (IOException e) {
                reportError("cannot flush the log", e, java.util.logging.ErrorManager.FLUSH_FAILURE);
            }
        }

        @Override
        public synchronized void close() {
            flush();
            if (closeOut) {
                try {
                    out.close();
                } catch (IOException e) {
                    reportError("cannot close the log", e, java.util.logging.ErrorManager.CLOSE_FAILURE);
                }
            }
        }
    }

    /** {@code 2026-11-26T09:52:01.123Z WARN  org.apache.pdfbox.pdfparser.COSParser: message}, then the stack trace. */
    private static final class DetailFormat extends Formatter {
        @Override
        public String format(LogRecord record) {
            StringBuilder line = new StringBuilder(160).append(Instant.ofEpochMilli(record.getMillis())).append(' ')
                    .append(String.format(java.util.Locale.ROOT, "%-5s", level(record.getLevel()))).append(' ')
                    .append(record.getLoggerName()).append(": ").append(formatMessage(record))
                    .append(System.lineSeparator());
            if (record.getThrown() != null) {
                StringWriter trace = new StringWriter();
                record.getThrown().printStackTrace(new PrintWriter(trace));
                line.append(trace);
            }
            return line.toString();
        }

        /** @return SLF4J's name of the level, which slf4j-jdk14 mapped onto java.util.logging's */
        private static String level(Level level) {
            int value = level.intValue();
            if (value >= Level.SEVERE.intValue()) {
                return "ERROR";
            }
            if (value >= Level.WARNING.intValue()) {
                return "WARN";
            }
            if (value >= Level.INFO.intValue()) {
                return "INFO";
            }
            return value >= Level.FINE.intValue() ? "DEBUG" : "TRACE";
        }
    }
}
