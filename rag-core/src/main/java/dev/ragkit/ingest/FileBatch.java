package dev.ragkit.ingest;

import dev.ragkit.internal.DocumentFiles;
import dev.ragkit.parse.DocumentSkippedException;
import dev.ragkit.parse.DocumentSource;
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
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.BooleanSupplier;
import org.jspecify.annotations.Nullable;

/**
 * The files of one indexing run between reading and storing: each is read, parsed and chunked as it comes, and
 * their chunks are embedded together once they fill a batch, so the chunks of many small files make one embedding
 * call that the embedder can spread over every core. What happens to each file is reported in file order all the
 * same: a skipped, unchanged or failed file waits for the files before it.
 */
final class FileBatch {
    private final IndexRun run;
    private final DocumentStore store;
    private final DocumentIngestor ingestor;
    private final IndexListener listener;
    private final BooleanSupplier cancelRequested;
    private final long started;
    private final List<Pending> pending = new ArrayList<>();
    private int pendingChunks;

    FileBatch(IndexRun run, DocumentStore store, DocumentIngestor ingestor, IndexListener listener,
            BooleanSupplier cancelRequested, long started) {
        this.run = run;
        this.store = store;
        this.ingestor = ingestor;
        this.listener = listener;
        this.cancelRequested = cancelRequested;
        this.started = started;
    }

    /**
     * Reads and chunks one file; embeds and stores the batch when it is full.
     *
     * @param stored the file's stored version, or {@code null}
     * @return false when cancelled
     */
    boolean add(FolderScanner.Candidate candidate, @Nullable StoredDocument stored) {
        Pending next = prepareFile(candidate, stored);
        if (next.prepared() == null && pending.isEmpty()) {
            next.report().run();
            run.done++;
            listener.onProgress(run.progress(started));
            return true;
        }
        pending.add(next);
        pendingChunks += next.prepared() == null ? 0 : next.prepared().chunks().size();
        return pendingChunks < ingestor.batchSize() || flush();
    }

    /** A file read and chunked, waiting to be embedded; or what to report about a file that needs no embedding. */
    record Pending(DocumentIngestor.@Nullable Prepared prepared, Runnable report) {
    }

    /**
     * Reads one file and, unless it is unchanged, parses and chunks it. A skipped, unchanged or failed file comes
     * back as the report to make, in its turn.
     */
    private Pending prepareFile(FolderScanner.Candidate candidate, @Nullable StoredDocument stored) {
        String path = candidate.path();
        String type = candidate.parser().id();
        try {
            byte[] bytes = read(candidate);
            if (bytes == null) {
                return report(() -> run.skipped(new IndexReport.SkippedFile(path, SkipReason.TOO_LARGE, "grew past "
                        + "the limit of " + candidate.maxBytes() + " bytes while being read"), type));
            }
            if (ingestor.unchanged(stored, DocumentIngestor.sha256(bytes))) {
                return report(() -> run.unchanged(path, type));
            }
            return new Pending(ingestor.prepare(new DocumentSource(path, bytes, DocumentSource.DEFAULT_MAX_CHARS)),
                    () -> { });
        } catch (DocumentSkippedException e) {
            return report(() -> run.skipped(new IndexReport.SkippedFile(path, e.reason(), e.detail()), type));
        } catch (IngestException e) {
            return report(() -> run.failed(path, type, e));
        }
    }

    private static Pending report(Runnable report) {
        return new Pending(null, report);
    }

    /**
     * Embeds the pending documents together, then stores and reports every pending file in order; a document whose
     * embedding fails is reported alone. A cancel request is honoured between files: nothing after it is stored.
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
        List<DocumentIngestor.Embedded> embedded = documents.isEmpty() ? List.of()
                : ingestor.embedTogether(documents, cancelRequested);
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
                    // Outside the per-file error handling: a store failure ends the run.
                    store.upsert(withRoot(ingested.document()), ingested.chunks());
                    run.indexed(path, e.prepared().parser(), ingested, brokenLinks(run.scan.realRoot,
                            e.prepared()));
                }
            }
            run.done++;
            listener.onProgress(run.progress(started));
        }
        pending.clear();
        pendingChunks = 0;
        return true;
    }

    /** @return the document with the folder it comes from in its metadata ({@link DocumentIngestor#ROOT_KEY}) */
    private StoredDocument withRoot(StoredDocument document) {
        Map<String, String> metadata = new LinkedHashMap<>(document.metadata());
        metadata.put(DocumentIngestor.ROOT_KEY, run.scan.realRoot.toString());
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
