package dev.ragkit.cli;

import dev.ragkit.ingest.IndexListener;
import dev.ragkit.ingest.IndexProgress;
import java.io.PrintWriter;
import java.util.Locale;

/**
 * Shows indexing progress on stderr: a bar redrawn in place on a terminal (files, chunks, tokens, rate, ETA),
 * plain lines otherwise (at most one per tenth of the files, and the last one).
 */
final class ProgressPrinter implements IndexListener {
    private static final int WIDTH = 24;

    private final PrintWriter err;
    private final boolean terminal;
    private int lastTenth = -1;

    ProgressPrinter(PrintWriter err, boolean terminal) {
        this.err = err;
        this.terminal = terminal;
    }

    @Override
    public void onProgress(IndexProgress p) {
        String line = describe(p);
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
        double seconds = Math.max(1e-3, p.elapsed().toNanos() / 1e9);
        int filled = p.filesTotal() == 0 ? WIDTH : p.filesDone() * WIDTH / p.filesTotal();
        double rate = p.tokens() / seconds;
        long eta = p.filesDone() == 0 || p.filesDone() == p.filesTotal() ? 0
                : Math.round(seconds * (p.filesTotal() - p.filesDone()) / p.filesDone());
        return String.format(Locale.ROOT, "[%s%s] %d/%d files | %,d chunks | %,d tokens | %,.0f tokens/s | ETA %ds",
                "#".repeat(filled), "-".repeat(WIDTH - filled), p.filesDone(), p.filesTotal(), p.chunks(), p.tokens(),
                rate, eta);
    }
}
