package dev.ragkit.ingest;

import dev.ragkit.internal.Futures;
import dev.ragkit.store.StoredDocument;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiFunction;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * The files of a run, read and chunked in order, a bounded way ahead of the indexing thread: with {@code threads}
 * of 1, each on the indexing thread when it is asked for; with more, on {@code threads − 1} worker threads of this
 * run while the indexing thread embeds and stores, at most {@value #MAX_FILES_AHEAD} files and
 * {@value #MAX_BYTES_AHEAD} bytes ahead (always at least one file). Stored versions are looked up a block of
 * {@value #LOOKUP_BLOCK} paths at a time, as the reading reaches them, so neither the files' texts nor their stored
 * documents are ever all in memory.
 */
final class ReadAhead implements AutoCloseable {
    /** The most files read ahead of the one being stored. */
    static final int MAX_FILES_AHEAD = 64;
    /** The most bytes (of the files' sizes) read ahead of the one being stored. */
    static final long MAX_BYTES_AHEAD = 64L << 20;
    /** Paths per stored-document lookup. */
    static final int LOOKUP_BLOCK = 1000;

    private final List<FolderScanner.Candidate> candidates;
    private final Function<List<FolderScanner.Candidate>, Map<String, StoredDocument>> lookup;
    private final BiFunction<FolderScanner.Candidate, @Nullable StoredDocument, FileBatch.Pending> prepare;
    private final @Nullable ExecutorService workers;
    private final ArrayDeque<Ahead> ahead = new ArrayDeque<>();
    private final Map<String, StoredDocument> stored = new HashMap<>();
    private int submitted;
    private int taken;
    private int lookedUp;
    private long bytesAhead;

    private record Ahead(FolderScanner.Candidate candidate, Future<FileBatch.Pending> pending) {
    }

    /**
     * @param candidates the files, in order
     * @param lookup     the stored versions of some files, by root-relative path (called on the indexing thread)
     * @param prepare    reads and chunks one file (called on any thread)
     * @param threads    the threads that may work on the run, the indexing thread included; at least 1
     */
    ReadAhead(List<FolderScanner.Candidate> candidates,
            Function<List<FolderScanner.Candidate>, Map<String, StoredDocument>> lookup,
            BiFunction<FolderScanner.Candidate, @Nullable StoredDocument, FileBatch.Pending> prepare, int threads) {
        this.candidates = candidates;
        this.lookup = lookup;
        this.prepare = prepare;
        AtomicInteger n = new AtomicInteger();
        this.workers = threads <= 1 ? null : Executors.newFixedThreadPool(threads - 1, r -> {
            Thread t = new Thread(r, "ragkit-index-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
    }

    boolean hasNext() {
        return taken < candidates.size();
    }

    /** @return the next file, read and chunked (waiting for it when a worker is at it) */
    FileBatch.Pending next() {
        if (workers == null) {
            FolderScanner.Candidate candidate = candidates.get(taken++);
            return prepare.apply(candidate, storedOf(candidate));
        }
        fill();
        Ahead next = ahead.poll();
        taken++;
        bytesAhead -= next.candidate().size();
        FileBatch.Pending pending = get(next.pending());
        fill();
        return pending;
    }

    private void fill() {
        ExecutorService pool = workers;
        while (pool != null && submitted < candidates.size() && (ahead.isEmpty()
                || ahead.size() < MAX_FILES_AHEAD && bytesAhead < MAX_BYTES_AHEAD)) {
            FolderScanner.Candidate candidate = candidates.get(submitted++);
            StoredDocument before = storedOf(candidate);
            ahead.add(new Ahead(candidate, pool.submit(() -> prepare.apply(candidate, before))));
            bytesAhead += candidate.size();
        }
    }

    private @Nullable StoredDocument storedOf(FolderScanner.Candidate candidate) {
        int at = workers == null ? taken - 1 : submitted - 1;
        if (at >= lookedUp) {
            stored.clear();
            int to = Math.min(candidates.size(), lookedUp + LOOKUP_BLOCK);
            stored.putAll(lookup.apply(candidates.subList(lookedUp, to)));
            lookedUp = to;
        }
        return stored.remove(candidate.path());
    }

    private static FileBatch.Pending get(Future<FileBatch.Pending> future) {
        try {
            return future.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CancellationException("interrupted while waiting for a file to be read");
        } catch (ExecutionException e) {
            throw Futures.unwrap(e);
        }
    }

    /** Stops the workers; files read ahead and not taken are dropped. */
    @Override
    public void close() {
        if (workers != null) {
            workers.shutdownNow();
        }
    }
}
