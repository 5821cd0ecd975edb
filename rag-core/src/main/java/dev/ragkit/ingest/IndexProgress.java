package dev.ragkit.ingest;

import java.time.Duration;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * How far an {@link Indexer} run has come, as passed to {@link IndexListener#onProgress(IndexProgress)}.
 *
 * @param filesDone  files finished so far (indexed, unchanged, failed, or skipped while reading), out of
 *                   {@code filesTotal}
 * @param filesTotal files the walk found to index (matching the globs and passing the safety checks)
 * @param chunks     chunks stored so far
 * @param tokens     tokens in those chunks
 * @param elapsed    time since the run started, by the indexer's clock
 * @param bytesDone  the sizes of the files done so far, as the walk found them
 * @param bytesTotal the sizes of all {@code filesTotal} files, as the walk found them
 */
public record IndexProgress(int filesDone, int filesTotal, long chunks, long tokens, Duration elapsed,
        long bytesDone, long bytesTotal) {

    /**
     * Validates the arguments.
     *
     * @throws IllegalArgumentException on negative counts, {@code filesDone > filesTotal} or
     *                                  {@code bytesDone > bytesTotal}
     */
    public IndexProgress {
        if (filesDone < 0 || filesTotal < 0 || chunks < 0 || tokens < 0 || bytesDone < 0 || bytesTotal < 0) {
            throw new IllegalArgumentException("progress counts must not be negative");
        }
        if (filesDone > filesTotal) {
            throw new IllegalArgumentException("filesDone " + filesDone + " exceeds filesTotal " + filesTotal);
        }
        if (bytesDone > bytesTotal) {
            throw new IllegalArgumentException("bytesDone " + bytesDone + " exceeds bytesTotal " + bytesTotal);
        }
        Objects.requireNonNull(elapsed, "elapsed");
    }

    /**
     * Progress without file sizes: {@link #estimatedRemaining()} then goes by files.
     *
     * @param filesDone  files finished so far
     * @param filesTotal files to index
     * @param chunks     chunks stored so far
     * @param tokens     tokens in those chunks
     * @param elapsed    time since the run started
     */
    public IndexProgress(int filesDone, int filesTotal, long chunks, long tokens, Duration elapsed) {
        this(filesDone, filesTotal, chunks, tokens, elapsed, 0, 0);
    }

    /**
     * @return {@code filesDone / filesTotal} from 0 to 1; 1 when there is nothing to do
     */
    public double fraction() {
        return filesTotal == 0 ? 1.0 : (double) filesDone / filesTotal;
    }

    /**
     * The share of the work done, from 0 to 1: by bytes, since the time a file takes (parsing, chunking, and above
     * all embedding) grows with its size, so that a folder of files of very different sizes does not mislead; by
     * files when the sizes are unknown (all zero).
     *
     * @return the share done; 1 when there is nothing to do
     */
    public double workDone() {
        if (filesDone == filesTotal) {
            return 1.0;
        }
        return bytesTotal == 0 ? fraction() : (double) bytesDone / bytesTotal;
    }

    /**
     * The time still to go, at the pace so far: {@code elapsed × (1 − done) / done} with the done share of
     * {@link #workDone()}. Steadier as the run goes on; within a quarter of the truth once a few percent are done
     * when files of each size are spread through the folder.
     *
     * @return the estimate; {@link Duration#ZERO} when everything is done; {@code null} before anything is
     */
    public @Nullable Duration estimatedRemaining() {
        double done = workDone();
        if (done >= 1.0) {
            return Duration.ZERO;
        }
        if (done <= 0.0) {
            return null;
        }
        return Duration.ofNanos(Math.round(elapsed.toNanos() * (1.0 - done) / done));
    }

    /**
     * The time still to go at the pace since {@code since}, an earlier event of the same run: what a run costs once
     * (loading the embedding model on its first call, warming up) then does not count against the rest. A progress
     * display takes the first event with some work done as {@code since}.
     *
     * @param since an earlier progress of this run
     * @return the estimate; {@link #estimatedRemaining()} while nothing was done since {@code since}
     */
    public @Nullable Duration estimatedRemaining(IndexProgress since) {
        Objects.requireNonNull(since, "since");
        double done = workDone();
        double before = since.workDone();
        long nanos = elapsed.toNanos() - since.elapsed().toNanos();
        if (done >= 1.0 || done <= before || nanos <= 0) {
            return estimatedRemaining();
        }
        return Duration.ofNanos(Math.round(nanos * (1.0 - done) / (done - before)));
    }
}
