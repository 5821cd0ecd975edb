package dev.ragkit.cli;

import dev.ragkit.ingest.IndexListener;
import dev.ragkit.ingest.IndexProgress;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * Shows indexing progress on stderr: a bar redrawn in place on a terminal (files, chunks, tokens, rate, ETA),
 * plain lines otherwise (at most one per tenth of the files, and the last one). The bar and the ETA go by the bytes
 * of the files done ({@link IndexProgress#estimatedRemaining()}): a file's time grows with its size. The ETA takes
 * the pace of the later half of the time since the first work was done: the model's loading does not count, and
 * when a run resumes one that was killed, the files the killed run committed (found unchanged in seconds) do not
 * make the new ones look as quick.
 */
final class ProgressPrinter implements IndexListener {
    private static final int WIDTH = 24;

    private final PrintWriter err;
    private final boolean terminal;
    private int lastTenth = -1;
    /** The first event with some work done, or {@code null} before it. */
    private @Nullable IndexProgress first;
    /**
     * Events with some work done, spaced out (at most about 500 kept), from the last one at or before the middle of
     * the time since {@link #first} on: the oldest is where the pace is measured from.
     */
    private final ArrayDeque<IndexProgress> recent = new ArrayDeque<>();

    ProgressPrinter(PrintWriter err, boolean terminal) {
        this.err = err;
        this.terminal = terminal;
    }

    @Override
    public void onProgress(IndexProgress p) {
        IndexProgress since = paceFrom(p);
        String line = describe(p, since);
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

    /** @return the event to measure the pace from for {@code p}, {@code null} before any work was done */
    private @Nullable IndexProgress paceFrom(IndexProgress p) {
        if (p.workDone() <= 0) {
            return null;                            // nothing done yet, so nothing to go by
        }
        if (first == null) {
            first = p;
        }
        Duration sinceFirst = p.elapsed().minus(first.elapsed());
        Duration step = Duration.ofMillis(Math.max(250, sinceFirst.toMillis() / 512));
        if (recent.isEmpty() || p.elapsed().minus(recent.peekLast().elapsed()).compareTo(step) >= 0) {
            recent.addLast(p);
        }
        Duration middle = p.elapsed().minus(sinceFirst.dividedBy(2));
        while (recent.size() > 1) {
            IndexProgress oldest = recent.removeFirst();
            if (recent.peekFirst().elapsed().compareTo(middle) > 0) {
                recent.addFirst(oldest);             // the last one at or before the middle
                break;
            }
        }
        return recent.peekFirst();
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
