package dev.ragkit.micrometer;

import dev.ragkit.error.IngestException;
import dev.ragkit.ingest.IndexListener;
import dev.ragkit.ingest.IndexProgress;
import dev.ragkit.parse.SkipReason;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Index progress as meters: {@code ragkit.index.files} (counter by {@code result}: indexed, unchanged, skipped with
 * the reason, failed), {@code ragkit.index.chunks} (counter) and {@code ragkit.index.progress} (gauge: files done of
 * the run, 0–1). Paths are never tags. Passes every event on to the next listener.
 */
public final class MeteredIndexListener implements IndexListener {
    private final IndexListener next;
    private final MeterRegistry meters;
    private final AtomicLong total = new AtomicLong();
    private final AtomicLong done = new AtomicLong();

    /**
     * @param next   the listener to pass events to ({@link IndexListener#NONE} for none)
     * @param meters where the meters go
     */
    public MeteredIndexListener(IndexListener next, MeterRegistry meters) {
        this.next = Objects.requireNonNull(next, "next");
        this.meters = Objects.requireNonNull(meters, "meters");
        meters.gauge("ragkit.index.progress", this, l -> l.total.get() == 0 ? 0 : (double) l.done.get()
                / l.total.get());
    }

    @Override
    public void onStart(int totalFiles) {
        total.set(totalFiles);
        done.set(0);
        next.onStart(totalFiles);
    }

    @Override
    public void onFileDone(String path, int chunks, long tokens) {
        file("indexed", "none");
        Counter.builder("ragkit.index.chunks").register(meters).increment(chunks);
        next.onFileDone(path, chunks, tokens);
    }

    @Override
    public void onFileUnchanged(String path) {
        file("unchanged", "none");
        next.onFileUnchanged(path);
    }

    @Override
    public void onFileSkipped(String path, SkipReason reason, String detail) {
        file("skipped", reason.name().toLowerCase(Locale.ROOT));
        next.onFileSkipped(path, reason, detail);
    }

    @Override
    public void onFileFailed(String path, IngestException error) {
        file("failed", "none");
        next.onFileFailed(path, error);
    }

    @Override
    public void onProgress(IndexProgress progress) {
        total.set(progress.filesTotal());
        done.set(progress.filesDone());
        next.onProgress(progress);
    }

    private void file(String result, String reason) {
        Counter.builder("ragkit.index.files").tags("result", result, "reason", reason).register(meters).increment();
    }
}
