package dev.ragkit.micrometer;

import dev.ragkit.error.IngestException;
import dev.ragkit.ingest.IndexListener;
import dev.ragkit.ingest.IndexProgress;
import dev.ragkit.parse.SkipReason;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Collections;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.WeakHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Index progress as meters: {@code ragkit.index.files} (counter by {@code result}: indexed, unchanged, skipped with
 * the reason, failed), {@code ragkit.index.chunks} (counter) and {@code ragkit.index.progress} (gauge: files done of
 * the latest run on the registry, 0–1; it keeps its value after the run and its listener are gone). Paths are never
 * tags. Passes every event on to the next listener.
 */
public final class MeteredIndexListener implements IndexListener {

    /**
     * Each registry's progress, which its gauge reads. A gauge only holds its state weakly unless told otherwise, so a
     * gauge on the listener itself read NaN once an indexer and its listener were collected; the registry key is weak,
     * so a registry that is dropped takes its entry with it.
     */
    private static final Map<MeterRegistry, Progress> PROGRESS = Collections.synchronizedMap(new WeakHashMap<>());

    private final IndexListener next;
    private final MeterRegistry meters;
    private final Progress progress;

    /** Files done and files in the run. */
    private static final class Progress {
        final AtomicLong total = new AtomicLong();
        final AtomicLong done = new AtomicLong();

        double fraction() {
            long t = total.get();
            return t == 0 ? 0 : (double) done.get() / t;
        }
    }

    /**
     * @param next   the listener to pass events to ({@link IndexListener#NONE} for none)
     * @param meters where the meters go
     */
    public MeteredIndexListener(IndexListener next, MeterRegistry meters) {
        this.next = Objects.requireNonNull(next, "next");
        this.meters = Objects.requireNonNull(meters, "meters");
        this.progress = PROGRESS.computeIfAbsent(meters, registry -> {
            Progress p = new Progress();
            Gauge.builder("ragkit.index.progress", p, Progress::fraction).strongReference(true).register(registry);
            return p;
        });
    }

    @Override
    public void onStart(int totalFiles) {
        progress.total.set(totalFiles);
        progress.done.set(0);
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
        this.progress.total.set(progress.filesTotal());
        this.progress.done.set(progress.filesDone());
        next.onProgress(progress);
    }

    private void file(String result, String reason) {
        Counter.builder("ragkit.index.files").tags("result", result, "reason", reason).register(meters).increment();
    }
}
