package dev.ragkit.ingest;

import dev.ragkit.parse.SkipReason;

import dev.ragkit.error.IngestException;

/**
 * Observes an {@link Indexer} run: which files were indexed, skipped or failed, and how far it has come.
 * Every method does nothing by default; override the ones you need.
 *
 * <h2>Threading and order</h2>
 * <ul>
 *   <li>Every call is made on the thread that called {@link Indexer#index}, one at a time, so an implementation
 *       used by one run needs no locking. One listener shared by runs on several threads is called from each of
 *       them.</li>
 *   <li>Order: {@link #onStart} once; then the skips and failures the walk met (e.g. a hidden folder, a folder
 *       that cannot be listed); then, per file in path order, exactly one of {@link #onFileDone},
 *       {@link #onFileUnchanged}, {@link #onFileSkipped} or {@link #onFileFailed}, followed by {@link #onProgress}. One {@code onProgress}
 *       with no file done comes right after {@code onStart}, and a last one at the very end carries the same
 *       counts and elapsed time as the returned {@link IndexReport}.</li>
 *   <li>Counts in successive {@link IndexProgress} events never decrease.</li>
 *   <li>Calls are quick to make and the run waits for each; keep them short. A listener may request
 *       cancellation (through the token given to {@link Indexer#index(java.nio.file.Path,
 *       java.util.function.BooleanSupplier)}); the run stops before the next file or embedding batch.</li>
 *   <li>An exception thrown by a listener ends the run and propagates to the caller of {@code index}; documents
 *       stored before it stay stored, each one whole.</li>
 * </ul>
 */
public interface IndexListener {

    /** A listener that ignores every event. */
    IndexListener NONE = new IndexListener() {
    };

    /**
     * The walk is done and indexing begins.
     *
     * @param totalFiles how many files will be read (matching the globs and passing the safety checks)
     */
    default void onStart(int totalFiles) {
    }

    /**
     * A file was stored.
     *
     * @param path   its root-relative path with {@code /} separators, as stored
     * @param chunks how many chunks it was stored as (0 for an empty body)
     * @param tokens how many tokens those chunks hold
     */
    default void onFileDone(String path, int chunks, long tokens) {
    }

    /**
     * A file's bytes and embedder were those of its stored document, so it was not parsed or embedded again.
     *
     * @param path its root-relative path
     */
    default void onFileUnchanged(String path) {
    }

    /**
     * A file or folder was left alone (most of them unread).
     *
     * @param path   its root-relative path
     * @param reason why
     * @param detail the specifics, e.g. the size and the limit
     */
    default void onFileSkipped(String path, SkipReason reason, String detail) {
    }

    /**
     * A file (or a folder that could not be listed) failed; the run carries on with the others.
     *
     * @param path  its root-relative path
     * @param error what went wrong, naming the file and, where known, the line
     */
    default void onFileFailed(String path, IngestException error) {
    }

    /**
     * Counts after a file finished.
     *
     * @param progress files done out of the total, chunks, tokens and elapsed time so far
     */
    default void onProgress(IndexProgress progress) {
    }
}
