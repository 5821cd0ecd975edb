package dev.ragkit.ingest;

import dev.ragkit.internal.DocumentFiles;
import dev.ragkit.parse.DocumentSkippedException;
import dev.ragkit.parse.SkipReason;

import dev.ragkit.error.IngestException;
import dev.ragkit.store.DocumentStore;
import dev.ragkit.store.StoredDocument;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.BooleanSupplier;
import org.jspecify.annotations.Nullable;

/**
 * The files of one indexing run between reading and storing: each is read, parsed and chunked as it comes
 * ({@link #prepare}, on any thread), and their chunks are embedded together once they fill a batch, so the chunks of
 * many small files make one embedding call that the embedder can spread over every core. Only one batch is held at a
 * time: what is stored is let go. What happens to each file is reported in file order all the same: a skipped,
 * unchanged or failed file waits for the files before it.
 */
final class FileBatch {
    private final IndexRun run;
    private final DocumentStore store;
    private final DocumentIngestor ingestor;
    private final BooleanSupplier cancelRequested;
    private final @Nullable Checkpoint checkpoint;
    private final List<Pending> pending = new ArrayList<>();
    private int pendingChunks;
    private Instant lastCheckpoint;

    /**
     * What to do after a batch is stored, at most once per {@code every}: e.g. commit the store, so that a killed
     * run loses only what was stored since.
     *
     * @param every  the least time between two checkpoints
     * @param action what to do, on the indexing thread
     */
    record Checkpoint(Duration every, Runnable action) {
    }

    FileBatch(IndexRun run, DocumentStore store, DocumentIngestor ingestor, BooleanSupplier cancelRequested,
            @Nullable Checkpoint checkpoint) {
        this.run = run;
        this.store = store;
        this.ingestor = ingestor;
        this.cancelRequested = cancelRequested;
        this.checkpoint = checkpoint;
        this.lastCheckpoint = run.now();
    }

    /**
     * Takes one file, read and chunked ({@link #prepare}); embeds and stores the batch when it is full.
     *
     * @return false when cancelled
     */
    boolean add(Pending next) {
        if (next.prepared() == null && pending.isEmpty()) {
            next.report().run();
            run.fileFinished(next.candidate());
            return true;
        }
        pending.add(next);
        pendingChunks += next.prepared() == null ? 0 : next.prepared().chunks().size();
        return pendingChunks < ingestor.batchSize() || flush();
    }

    /**
     * A file read and chunked, waiting to be embedded; or what to report about a file that needs no embedding.
     *
     * @param candidate the file
     * @param prepared  its document and chunks, or {@code null} when it is unchanged, skipped or failed
     * @param report    what to report about it, in its turn (on the indexing thread)
     */
    record Pending(FolderScanner.Candidate candidate, DocumentIngestor.@Nullable Prepared prepared, Runnable report) {
    }

    /**
     * Reads one file, hashes its bytes once and, unless it is unchanged, parses and chunks it. A skipped, unchanged
     * or failed file comes back as the report to make, in its turn. Touches no count of the run (its stage timings
     * excepted), so any thread may call it.
     *
     * @param stored the file's stored version, or {@code null}
     */
    static Pending prepare(IndexRun run, DocumentIngestor ingestor, FolderScanner.Candidate candidate,
            @Nullable StoredDocument stored) {
        String path = candidate.path();
        String type = candidate.parser().id();
        try {
            long start = System.nanoTime();
            byte[] bytes = read(candidate);
            if (bytes == null) {
                return report(candidate, () -> run.skipped(new IndexReport.SkippedFile(path, SkipReason.TOO_LARGE,
                        "grew past the limit of " + candidate.maxBytes() + " bytes while being read"), type));
            }
            String sha256 = DocumentIngestor.sha256(bytes);
            run.time(IndexRun.Stage.READ, System.nanoTime() - start);
            if (ingestor.unchanged(stored, sha256)) {
                return report(candidate, () -> run.unchanged(path, type));
            }
            return new Pending(candidate, ingestor.prepare(ingestor.source(path, bytes), sha256, run::time), () -> { });
        } catch (DocumentSkippedException e) {
            return report(candidate, () -> run.skipped(new IndexReport.SkippedFile(path, e.reason(), e.detail()),
                    type));
        } catch (IngestException e) {
            return report(candidate, () -> run.failed(path, type, e));
        }
    }

    private static Pending report(FolderScanner.Candidate candidate, Runnable report) {
        return new Pending(candidate, null, report);
    }

    /**
     * Embeds the pending documents together, then stores and reports every pending file in order; a document whose
     * embedding fails is reported alone. A cancel request is honoured between files: nothing after it is stored.
     * Then, when one is due, the checkpoint.
     *
     * @return false when cancelled
     */
    boolean flush() {
        if (pending.isEmpty()) {
            return true;
        }
        List<DocumentIngestor.Prepared> documents = new ArrayList<>();
        pending.forEach(p -> {
            if (p.prepared() != null) {
                documents.add(p.prepared());
            }
        });
        long start = System.nanoTime();
        List<DocumentIngestor.Embedded> embedded = documents.isEmpty() ? List.of()
                : ingestor.embedTogether(documents, cancelRequested);
        run.time(IndexRun.Stage.EMBED, System.nanoTime() - start);
        if (embedded == null) {
            return false;
        }
        int next = 0;
        for (Pending p : pending) {
            if (cancelRequested.getAsBoolean()) {
                return false;
            }
            if (p.prepared() == null) {
                p.report().run();
            } else {
                DocumentIngestor.Embedded e = embedded.get(next++);
                String path = e.prepared().parsed().path();
                if (e.failure() != null) {
                    run.failed(path, e.prepared().parser(), e.failure());
                } else {
                    DocumentIngestor.Ingested ingested = Objects.requireNonNull(e.ingested());
                    long writing = System.nanoTime();
                    // Outside the per-file error handling: a store failure ends the run.
                    store.upsert(stamped(ingested.document()), ingested.chunks());
                    run.time(IndexRun.Stage.STORE, System.nanoTime() - writing);
                    run.indexed(path, e.prepared().parser(), ingested, brokenLinks(run.scan.realRoot,
                            e.prepared()));
                }
            }
            run.fileFinished(p.candidate());
        }
        pending.clear();
        pendingChunks = 0;
        checkpointIfDue();
        return true;
    }

    private void checkpointIfDue() {
        if (checkpoint == null) {
            return;
        }
        Instant now = run.now();
        if (Duration.between(lastCheckpoint, now).compareTo(checkpoint.every()) >= 0) {
            long start = System.nanoTime();
            checkpoint.action().run();
            run.time(IndexRun.Stage.STORE, System.nanoTime() - start);
            lastCheckpoint = run.now();
        }
    }

    /**
     * @return the document with the folder it comes from ({@link DocumentIngestor#ROOT_KEY}) and when it was indexed
     *         ({@link DocumentIngestor#INDEXED_AT_KEY}) in its metadata
     */
    private StoredDocument stamped(StoredDocument document) {
        Map<String, String> metadata = new LinkedHashMap<>(document.metadata());
        metadata.put(DocumentIngestor.ROOT_KEY, run.scan.realRoot.toString());
        metadata.put(DocumentIngestor.INDEXED_AT_KEY, run.now().truncatedTo(ChronoUnit.SECONDS).toString());
        return document.toBuilder().metadata(metadata).build();
    }

    /** Reads a candidate, checked again right before opening: the walk may be a while ago. */
    private static byte @Nullable [] read(FolderScanner.Candidate candidate) {
        try {
            BasicFileAttributes now = Files.readAttributes(candidate.file(), BasicFileAttributes.class,
                    LinkOption.NOFOLLOW_LINKS);
            if (!now.isRegularFile()) {
                throw new DocumentSkippedException(candidate.path(), SkipReason.NOT_REGULAR_FILE,
                        "no longer a regular file when it was to be read; not opened", null);
            }
            return DocumentFiles.read(candidate.file(), candidate.maxBytes());
        } catch (NoSuchFileException e) {
            throw new IngestException(candidate.path(), 0, "the file disappeared before it was read", e);
        } catch (IOException e) {
            throw new IngestException(candidate.path(), 0, "the file cannot be read: " + e, e);
        }
    }

    /** How many of a document's links have no file at their target under the root. */
    private static int brokenLinks(Path root, DocumentIngestor.Prepared prepared) {
        int broken = 0;
        for (String link : prepared.parsed().links()) {
            if (!Files.isRegularFile(root.resolve(link))) {
                broken++;
            }
        }
        return broken;
    }
}
