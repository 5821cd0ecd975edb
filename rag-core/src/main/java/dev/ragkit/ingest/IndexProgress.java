package dev.ragkit.ingest;

import java.time.Duration;
import java.util.Objects;

/**
 * How far an {@link Indexer} run has come, as passed to {@link IndexListener#onProgress(IndexProgress)}.
 *
 * @param filesDone  files finished so far (indexed, failed, or skipped while reading), out of {@code filesTotal}
 * @param filesTotal files the walk found to index (matching the globs and passing the safety checks)
 * @param chunks     chunks stored so far
 * @param tokens     tokens in those chunks
 * @param elapsed    time since the run started
 */
public record IndexProgress(int filesDone, int filesTotal, long chunks, long tokens, Duration elapsed) {

    /**
     * Validates the arguments.
     *
     * @throws IllegalArgumentException on negative counts or {@code filesDone > filesTotal}
     */
    public IndexProgress {
        if (filesDone < 0 || filesTotal < 0 || chunks < 0 || tokens < 0) {
            throw new IllegalArgumentException("progress counts must not be negative");
        }
        if (filesDone > filesTotal) {
            throw new IllegalArgumentException("filesDone " + filesDone + " exceeds filesTotal " + filesTotal);
        }
        Objects.requireNonNull(elapsed, "elapsed");
    }

    /**
     * @return {@code filesDone / filesTotal} from 0 to 1; 1 when there is nothing to do
     */
    public double fraction() {
        return filesTotal == 0 ? 1.0 : (double) filesDone / filesTotal;
    }
}
