package dev.ragkit.ingest;

import dev.ragkit.chunk.TokenWindowChunker;
import dev.ragkit.embedding.Embedder;
import dev.ragkit.parse.SkipReason;

import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * What an {@link Indexer} run did.
 *
 * @param filesIndexed     files parsed, chunked, embedded and stored (including files whose body gave no chunks)
 * @param filesUnchanged   files whose bytes and embedder were those of the stored document: not read again
 * @param filesSkipped     files and folders left alone, with the reason, in path order (immutable)
 * @param filesFailed      files (and folders that could not be listed) that failed, in path order (immutable)
 * @param filesRedacted    files indexed in this run in which secrets were redacted, with the lines, in path order
 *                         (immutable); never the secrets themselves
 * @param filesWithWarnings files indexed in this run about whose reading a person should know something — hidden
 *                         sheets skipped, a workbook cut at the character limit, pages read by OCR, attachments not
 *                         read ({@link dev.ragkit.parse.ParsedDocument#warnings()}) — with those warnings, in path order (immutable)
 * @param chunks           chunks stored
 * @param tokens           tokens in those chunks
 * @param documentsDeleted documents the sync mode deleted because their files are gone (0 without sync)
 * @param documentsGone    documents of this folder whose files are gone and that stay in the store because the run
 *                         did not sync (0 with sync, and when the run was cancelled)
 * @param linksDropped     links dropped by the parser because they would leave the root, over all indexed files
 * @param linksBroken      links kept that point nowhere: no file at their target under the root (link following
 *                         skips them), over all indexed files
 * @param types            per type (the parser id, or the extension of files no parser reads): what happened to
 *                         its files, sorted by type (immutable)
 * @param inputLimit       how the chunks stored fit the embedder's input limit
 * @param cancelled        whether the run was cancelled before it finished; documents already stored are whole,
 *                         and sync did not run
 * @param elapsed          how long the run took
 */
public record IndexReport(
        int filesIndexed,
        int filesUnchanged,
        List<SkippedFile> filesSkipped,
        List<FailedFile> filesFailed,
        List<RedactedFile> filesRedacted,
        List<WarnedFile> filesWithWarnings,
        long chunks,
        long tokens,
        int documentsDeleted,
        int documentsGone,
        long linksDropped,
        long linksBroken,
        Map<String, TypeCounts> types,
        InputLimit inputLimit,
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
        filesRedacted = List.copyOf(Objects.requireNonNull(filesRedacted, "filesRedacted"));
        filesWithWarnings = List.copyOf(Objects.requireNonNull(filesWithWarnings, "filesWithWarnings"));
        if (filesIndexed < 0 || filesUnchanged < 0 || chunks < 0 || tokens < 0 || documentsDeleted < 0
                || documentsGone < 0 || linksDropped < 0 || linksBroken < 0) {
            throw new IllegalArgumentException("report counts must not be negative");
        }
        types = Collections.unmodifiableMap(new TreeMap<>(Objects.requireNonNull(types, "types")));
        Objects.requireNonNull(inputLimit, "inputLimit");
        Objects.requireNonNull(elapsed, "elapsed");
    }

    /**
     * A report without redacted files or gone documents counted: as before {@link #filesRedacted()} and
     * {@link #documentsGone()} existed.
     *
     * @throws IllegalArgumentException on negative counts
     */
    public IndexReport(int filesIndexed, int filesUnchanged, List<SkippedFile> filesSkipped,
            List<FailedFile> filesFailed, long chunks, long tokens, int documentsDeleted, long linksDropped,
            long linksBroken, Map<String, TypeCounts> types, InputLimit inputLimit, boolean cancelled,
            Duration elapsed) {
        this(filesIndexed, filesUnchanged, filesSkipped, filesFailed, List.of(), List.of(), chunks, tokens,
                documentsDeleted, 0, linksDropped, linksBroken, types, inputLimit, cancelled, elapsed);
    }

    /**
     * A report without files with warnings: as before {@link #filesWithWarnings()} existed.
     *
     * @throws IllegalArgumentException on negative counts
     */
    public IndexReport(int filesIndexed, int filesUnchanged, List<SkippedFile> filesSkipped,
            List<FailedFile> filesFailed, List<RedactedFile> filesRedacted, long chunks, long tokens,
            int documentsDeleted, int documentsGone, long linksDropped, long linksBroken,
            Map<String, TypeCounts> types, InputLimit inputLimit, boolean cancelled, Duration elapsed) {
        this(filesIndexed, filesUnchanged, filesSkipped, filesFailed, filesRedacted, List.of(), chunks, tokens,
                documentsDeleted, documentsGone, linksDropped, linksBroken, types, inputLimit, cancelled, elapsed);
    }

    /**
     * How the chunks stored in a run fit what the embedder reads of one text ({@link Embedder#maxInputTokens()}):
     * the model truncates a longer chunk, or embeds it in parts and averages them, so the end of its text counts
     * for less or nothing in search. Counted with the embedder's own tokenizer.
     *
     * @param embedder   the embedder's name
     * @param maxTokens  the most tokens it reads, 0 when it does not say (then nothing is counted)
     * @param chunksOver chunks stored in this run that are longer
     * @param longest    the longest chunk stored in this run, in the embedder's tokens (0 when not counted)
     */
    public record InputLimit(String embedder, int maxTokens, long chunksOver, int longest) {
        /** @throws IllegalArgumentException on negative counts */
        public InputLimit {
            Objects.requireNonNull(embedder, "embedder");
            if (maxTokens < 0 || chunksOver < 0 || longest < 0) {
                throw new IllegalArgumentException("input limit counts must not be negative");
            }
        }

        /**
         * Measures texts against what {@code embedder} reads, with its own tokenizer.
         *
         * @param embedder the embedder
         * @param texts    the texts (chunks, or whole documents)
         * @return how many are longer and the longest; nothing is counted when the embedder names no limit
         */
        public static InputLimit measure(Embedder embedder, Iterable<String> texts) {
            int limit = Math.max(0, embedder.maxInputTokens());
            long over = 0;
            int longest = 0;
            if (limit > 0) {
                for (String text : texts) {
                    int tokens = embedder.inputTokens(text);
                    longest = Math.max(longest, tokens);
                    over += tokens > limit ? 1 : 0;
                }
            }
            return new InputLimit(embedder.name(), limit, over, longest);
        }

        /**
         * @param other a measurement with the same embedder
         * @return both together
         */
        public InputLimit plus(InputLimit other) {
            return new InputLimit(embedder, maxTokens, chunksOver + other.chunksOver, Math.max(longest, other.longest));
        }

        /**
         * @param chunks the chunks stored in the run
         * @return one sentence for people: how many chunks the model does not read whole, and what to do
         */
        public String describe(long chunks) {
            return chunksOver + " of " + chunks + " chunks are longer than the " + maxTokens + " tokens the embedder "
                    + embedder + " reads (the longest has " + longest + "); it does not see their ends. Use smaller "
                    + "chunks (TokenWindowChunker.maxTokens) or an embedder that reads more (bge-small-en-v1.5 "
                    + "reads 512)";
        }
    }

    /**
     * @return {@code true} when the run finished and no file failed (skips are expected and do not count)
     */
    public boolean succeeded() {
        return !cancelled && filesFailed.isEmpty();
    }

    /** @return the lines whose secrets were redacted, over all {@link #filesRedacted()} */
    public long linesRedacted() {
        return filesRedacted.stream().mapToLong(f -> f.lines().size()).sum();
    }

    /**
     * What happened to the files of one type.
     *
     * @param indexed   parsed and stored
     * @param unchanged already stored as they are
     * @param skipped   left alone (with their reasons in {@link IndexReport#filesSkipped()})
     * @param failed    failed (see {@link IndexReport#filesFailed()})
     */
    public record TypeCounts(int indexed, int unchanged, int skipped, int failed) {
        /** Checks the counts. */
        public TypeCounts {
            if (indexed < 0 || unchanged < 0 || skipped < 0 || failed < 0) {
                throw new IllegalArgumentException("type counts must not be negative");
            }
        }

        /** @return the files of this type the run met */
        public int total() {
            return indexed + unchanged + skipped + failed;
        }
    }

    /**
     * A file or folder the indexer left alone.
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
     * A file indexed with its secrets redacted: where they were and what kind, never what they were.
     *
     * @param path  root-relative path with {@code /} separators
     * @param lines the 1-based lines whose secrets were replaced, ascending (immutable)
     * @param kinds the kinds found, e.g. {@code github-token}, {@code password}, sorted (immutable)
     */
    public record RedactedFile(String path, List<Integer> lines, List<String> kinds) {
        /** Checks for nulls and copies the lists. */
        public RedactedFile {
            Objects.requireNonNull(path, "path");
            lines = List.copyOf(Objects.requireNonNull(lines, "lines"));
            kinds = List.copyOf(Objects.requireNonNull(kinds, "kinds"));
        }
    }

    /**
     * A file indexed with warnings about how it was read (it is in the index; these say what of it is not, or how
     * far to trust it).
     *
     * @param path     root-relative path with {@code /} separators
     * @param warnings one sentence each, e.g. {@code 1 hidden sheet skipped (…)}, {@code page 2 read by OCR (…)}
     *                 (immutable, not empty)
     */
    public record WarnedFile(String path, List<String> warnings) {
        /** Checks for nulls and copies the list. */
        public WarnedFile {
            Objects.requireNonNull(path, "path");
            warnings = List.copyOf(Objects.requireNonNull(warnings, "warnings"));
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
