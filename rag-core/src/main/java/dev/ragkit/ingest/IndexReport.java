package dev.ragkit.ingest;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * What an {@link Indexer} run did.
 *
 * @param filesIndexed     files stored (including files whose body gave no chunks)
 * @param filesSkipped     files and folders left unread, with the reason, in path order (immutable)
 * @param filesFailed      files (and folders that could not be listed) that failed, in path order (immutable)
 * @param chunks           chunks stored
 * @param tokens           tokens in those chunks
 * @param documentsDeleted documents the sync mode deleted because their files are gone (0 without sync)
 * @param linksDropped     links dropped by the parser because they would leave the root, over all indexed files
 * @param linksBroken      links kept that point nowhere: no file at their target under the root (link following
 *                         skips them), over all indexed files
 * @param cancelled        whether the run was cancelled before it finished; documents already stored are whole,
 *                         and sync did not run
 * @param elapsed          how long the run took
 */
public record IndexReport(
        int filesIndexed,
        List<SkippedFile> filesSkipped,
        List<FailedFile> filesFailed,
        long chunks,
        long tokens,
        int documentsDeleted,
        long linksDropped,
        long linksBroken,
        boolean cancelled,
        Duration elapsed) {

    /**
     * Validates and copies the arguments.
     *
     * @throws IllegalArgumentException on negative counts
     */
    public IndexReport {
        filesSkipped = List.copyOf(Objects.requireNonNull(filesSkipped, "filesSkipped"));
        filesFailed = List.copyOf(Objects.requireNonNull(filesFailed, "filesFailed"));
        if (filesIndexed < 0 || chunks < 0 || tokens < 0 || documentsDeleted < 0 || linksDropped < 0
                || linksBroken < 0) {
            throw new IllegalArgumentException("report counts must not be negative");
        }
        Objects.requireNonNull(elapsed, "elapsed");
    }

    /**
     * @return {@code true} when the run finished and no file failed (skips are expected and do not count)
     */
    public boolean succeeded() {
        return !cancelled && filesFailed.isEmpty();
    }

    /**
     * A file or folder the indexer left unread.
     *
     * @param path   root-relative path with {@code /} separators
     * @param reason why
     * @param detail the specifics, for people
     */
    public record SkippedFile(String path, SkipReason reason, String detail) {
        /** Checks for nulls. */
        public SkippedFile {
            Objects.requireNonNull(path, "path");
            Objects.requireNonNull(reason, "reason");
            Objects.requireNonNull(detail, "detail");
        }
    }

    /**
     * A file (or folder) that failed.
     *
     * @param path    root-relative path with {@code /} separators
     * @param message what went wrong and, where possible, how to fix it
     */
    public record FailedFile(String path, String message) {
        /** Checks for nulls. */
        public FailedFile {
            Objects.requireNonNull(path, "path");
            Objects.requireNonNull(message, "message");
        }
    }
}
