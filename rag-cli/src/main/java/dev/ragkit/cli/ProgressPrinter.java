package dev.ragkit.cli;

import dev.ragkit.ingest.IndexListener;
import dev.ragkit.ingest.IndexProgress;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * Shows indexing progress on stderr: a bar redrawn in place on a terminal (files, chunks, tokens, rate, ETA),
 * plain lines otherwise (at most one per tenth of the files, and the last one). The bar and the ETA go by the bytes
 * of the files done ({@link IndexProgress#estimatedRemaining()}): a file's time grows with its size.
 */
final class ProgressPrinter implements IndexListener {
    private static final int WIDTH = 24;

    private final PrintWriter err;
    private final boolean terminal;
    private int lastTenth = -1;
    /** The first event with some work done, or {@code null} before it. */
    private @Nullable IndexProgress first;

    ProgressPrinter(PrintWriter err, boolean terminal) {
        this.err = err;
        this.terminal = terminal;
    }

    @Override
    public void onProgress(IndexProgress p) {
        if (first == null && p.workDone() > 0) {
            first = p;               // the pace is measured from here: the model's loading does not count
        }
        String line = describe(p, first);
        if (terminal) {
            err.print("\r" + line + "   ");
            if (p.filesDone() == p.filesTotal()) {
                err.println();
            }
            err.flush();
            return;
        }
        int tenth = p.filesTotal() == 0 ? 10 : p.filesDone() * 10 / p.filesTotal();
        if (tenth != lastTenth) {
            lastTenth = tenth;
            err.println(line);
            err.flush();
        }
    }

    static String describe(IndexProgress p) {
        return describe(p, null);
    }

    /** The line for {@code p}, its ETA at the pace since {@code since} when given. */
    static String describe(IndexProgress p, @Nullable IndexProgress since) {
        double seconds = Math.max(1e-3, p.elapsed().toNanos() / 1e9);
        int filled = (int) Math.min(WIDTH, Math.floor(p.workDone() * WIDTH));
        double rate = p.tokens() / seconds;
        return String.format(Locale.ROOT, "[%s%s] %d/%d files | %,d chunks | %,d tokens | %,.0f tokens/s | ETA %s",
                "#".repeat(filled), "-".repeat(WIDTH - filled), p.filesDone(), p.filesTotal(), p.chunks(), p.tokens(),
                rate, eta(since == null ? p.estimatedRemaining() : p.estimatedRemaining(since)));
    }

    /** @return {@code 42s}, {@code 7m05s} or {@code 2h03m}; {@code ?} before there is anything to go by */
    static String eta(@Nullable Duration remaining) {
        if (remaining == null) {
            return "?";
        }
        long s = Math.round(remaining.toMillis() / 1000.0);
        if (s < 60) {
            return s + "s";
        }
        if (s < 3600) {
            return String.format(Locale.ROOT, "%dm%02ds", s / 60, s % 60);
        }
        return String.format(Locale.ROOT, "%dh%02dm", s / 3600, s % 3600 / 60);
    }
}
