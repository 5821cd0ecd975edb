package dev.ragkit.store.lucene;

import dev.ragkit.store.StoreException;
import java.io.EOFException;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.SortedSet;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.codecs.Codec;
import org.apache.lucene.codecs.KnnVectorsFormat;
import org.apache.lucene.index.CorruptIndexException;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexFormatTooNewException;
import org.apache.lucene.index.IndexFormatTooOldException;
import org.apache.lucene.index.IndexNotFoundException;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.SegmentInfos;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.SearcherManager;
import org.apache.lucene.store.AlreadyClosedException;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.store.LockObtainFailedException;
import org.jspecify.annotations.Nullable;

/**
 * One open Lucene directory: the writer (unless read-only) with its write lock, the searcher manager, the
 * identity recorded in every commit's user data, and the translation of Lucene's failures into
 * {@link StoreException}s that say what to do. Thread-safe; writes are serialised by the store.
 */
final class LuceneIndex implements AutoCloseable {
    /** The index format this code writes; recorded in every commit. */
    static final int FORMAT = 1;
    static final String KEY_FORMAT = "ragkit.format";
    static final String KEY_DIMENSION = "ragkit.dimension";
    static final String KEY_EMBEDDER = "ragkit.embedder";
    /** How long an open waits at least for another writer's first commit (see {@code awaitCreation}). */
    static final long CREATION_WAIT_MILLIS = 2_000;
    static final String KEY_ANALYZER = "ragkit.analyzer";
    /** How the graph's vectors are encoded ({@link VectorEncoding#setting()}); absent in indexes made before it. */
    static final String KEY_VECTORS = "ragkit.vectors";
    /** Written next to the lock while a writer holds it, so that a second writer can name the holder. */
    static final String HOLDER_FILE = "ragkit-writer.txt";
    static final String LOCK_FILE = IndexWriter.WRITE_LOCK_NAME;
    static final int MAX_DIMENSION = KnnVectorsFormat.DEFAULT_MAX_DIMENSIONS;

    private final Path path;
    private final Directory directory;
    private final @Nullable IndexWriter writer;
    private final SearcherManager searchers;
    private final Map<String, String> identity;
    private final java.util.concurrent.atomic.AtomicLong written = new java.util.concurrent.atomic.AtomicLong();
    private final Object refreshing = new Object();
    private volatile long refreshed;
    private final AtomicBoolean closed = new AtomicBoolean();
    /** The extra threads that build a merged segment's graph, or {@code null} (one thread per merge). */
    private final @Nullable ExecutorService mergeExec;

    private LuceneIndex(Path path, Directory directory, @Nullable IndexWriter writer, SearcherManager searchers,
            Map<String, String> identity, @Nullable ExecutorService mergeExec) {
        this.path = path;
        this.directory = directory;
        this.writer = writer;
        this.searchers = searchers;
        this.identity = identity;
        this.mergeExec = mergeExec;
    }

    /**
     * Opens (or, for writing, creates) the index and checks it was made by the same embedder, analyzer and vector
     * encoding; {@code encoding} {@code null} follows the index (or takes the default for a new one).
     */
    static LuceneIndex open(Path path, boolean readOnly, Analyzer analyzer, String analyzerName, int dimension,
            @Nullable String embedder, long lockWaitMillis, double ramBufferMb, @Nullable VectorEncoding encoding,
            int maxConn, int beamWidth, int mergeThreads, boolean bulkIndexing) {
        Path dir = path.toAbsolutePath().normalize();
        Directory directory = null;
        IndexWriter writer = null;
        ExecutorService mergeExec = null;
        try {
            if (readOnly && !Files.isDirectory(dir)) {
                throw new StoreException("there is no index at " + dir + "; index documents first (ragkit index),"
                        + " or open the store for writing to create it", false);
            }
            if (!readOnly) {
                Files.createDirectories(dir);
            }
            IndexFolder.Contents contents = IndexFolder.inspect(dir, !readOnly);
            contents.refuseStrangers(readOnly ? "opening the index" : "opening the index for writing");
            directory = bulkIndexing ? new BulkIndexingDirectory(dir) : FSDirectory.open(dir);
            boolean exists = DirectoryReader.indexExists(directory) || awaitCreation(dir, directory, lockWaitMillis);
            if (!exists) {
                contents = IndexFolder.inspect(dir, !readOnly);        // as it is after waiting for a creator
                contents.refuseStrangers(readOnly ? "opening the index" : "opening the index for writing");
                refuseNonIndex(contents, readOnly);
            }
            Map<String, String> identity = new LinkedHashMap<>();
            if (exists) {
                identity.putAll(SegmentInfos.readLatestCommit(directory).getUserData());
                check(dir, identity, dimension, embedder, analyzerName);
                checkEncoding(dir, identity, encoding);
            } else {
                identity.put(KEY_FORMAT, Integer.toString(FORMAT));
                identity.put(KEY_ANALYZER, analyzerName);
                if (dimension > 0) {
                    identity.put(KEY_DIMENSION, Integer.toString(dimension));
                }
                if (embedder != null) {
                    identity.put(KEY_EMBEDDER, embedder);
                }
            }
            if (embedder != null && !identity.containsKey(KEY_EMBEDDER)) {
                identity.put(KEY_EMBEDDER, embedder);
            }
            // an index made before the encoding was recorded holds float vectors; a new one takes the configured
            identity.putIfAbsent(KEY_VECTORS, exists ? VectorEncoding.FLOAT32.setting()
                    : (encoding == null ? VectorFormats.DEFAULT_ENCODING : encoding).setting());
            VectorEncoding resolved = VectorEncoding.parse(identity.get(KEY_VECTORS));
            SearcherManager searchers;
            if (readOnly) {
                searchers = new SearcherManager(directory, null);
            } else {
                mergeExec = mergeThreads > 1 ? mergeThreads(mergeThreads) : null;
                writer = openWriter(dir, directory, analyzer, lockWaitMillis, ramBufferMb,
                        VectorFormats.codec(resolved, maxConn, beamWidth, mergeThreads, mergeExec));
                writeHolder(dir);
                writer.setLiveCommitData(Map.copyOf(identity).entrySet());
                if (!exists) {
                    IndexFolder.mark(dir, "created");
                    writer.commit(); // an empty index is an index: it exists on disk and reopens
                } else if (!contents.marked()) {
                    IndexFolder.mark(dir, "adopted");  // made before the marker: RagKit's, all its files Lucene's
                }
                clearStaleStaging(dir);
                searchers = new SearcherManager(writer, null);
            }
            return new LuceneIndex(dir, directory, writer, searchers, identity, mergeExec);
        } catch (IOException | RuntimeException e) {
            closeQuietly(writer);
            if (mergeExec != null) {
                mergeExec.shutdownNow();
            }
            if (writer != null) {
                deleteHolder(dir);
            }
            closeQuietly(directory);
            if (e instanceof StoreException se) {
                throw se;
            }
            throw openFailure(dir, e);
        }
    }

    /**
     * Why an open failed: a folder that Lucene cannot read and that holds nothing proven Lucene's (a user's file
     * named {@code segments_1}, say) is no index, not a damaged one; anything else as {@link #failure} says.
     */
    private static StoreException openFailure(Path dir, Exception e) {
        if (damage(e) && !IndexFolder.isMarked(dir)) {
            try {
                IndexFolder.Contents proven = IndexFolder.inspect(dir, true);
                if (!proven.indexLike()) {
                    proven.refuseStrangers("opening the index");
                    return IndexFolder.notAnIndex(dir, proven.others(), "opening the index");
                }
            } catch (StoreException notAnIndex) {
                return notAnIndex;
            } catch (IOException | RuntimeException unreadable) {
                e.addSuppressed(unreadable);
            }
        }
        return failure(dir, "opening the index", e);
    }

    /** @return whether Lucene's failure means that the files are not a readable index */
    private static boolean damage(Exception e) {
        return e instanceof CorruptIndexException || e instanceof EOFException || e instanceof NoSuchFileException
                || e instanceof IndexNotFoundException || e instanceof IndexFormatTooOldException
                || e instanceof IndexFormatTooNewException;
    }

    private static IndexWriter openWriter(Path dir, Directory directory, Analyzer analyzer, long lockWaitMillis,
            double ramBufferMb, Codec codec) throws IOException {
        return waitForLock(dir, lockWaitMillis, () -> new IndexWriter(directory, new IndexWriterConfig(analyzer)
                .setOpenMode(IndexWriterConfig.OpenMode.CREATE_OR_APPEND)
                .setCodec(codec)
                .setMergePolicy(VectorFormats.mergePolicy())
                .setRAMBufferSizeMB(ramBufferMb)
                .setCommitOnClose(false)));
    }

    /** Something that takes the write lock, or fails with {@link LockObtainFailedException} while another holds it. */
    interface LockAttempt<T> {
        T attempt() throws IOException;
    }

    /** Tries until the lock is had or {@code lockWaitMillis} passed, backing off from 20 to 250 ms. */
    static <T> T waitForLock(Path dir, long lockWaitMillis, LockAttempt<T> attempt) throws IOException {
        long deadline = System.nanoTime() + lockWaitMillis * 1_000_000L;
        long pause = 20;
        while (true) {
            try {
                return attempt.attempt();
            } catch (LockObtainFailedException e) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    throw new StoreException("another writer holds the index at " + dir + " (lock file "
                            + dir.resolve(LOCK_FILE) + "; " + holder(dir) + "). Wait until it finishes"
                            + (lockWaitMillis > 0 ? " (waited " + lockWaitMillis + " ms)" : "")
                            + ", let this store wait for the lock (lockWait / lock-wait-seconds), or open the index"
                            + " read-only to search it meanwhile. The lock is an operating-system lock: it is"
                            + " released when the holder exits, even if it crashed, so never delete the lock file",
                            e, true);
                }
                try {
                    Thread.sleep(Math.min(pause, Math.max(1, left / 1_000_000L)));
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    throw new StoreException("interrupted while waiting for the write lock of " + dir, ie, true);
                }
                pause = Math.min(pause * 2, 250);
            }
        }
    }

    /**
     * Removes what a rebuild killed midway left beside the index ({@code .<name>.rebuild}, when it carries RagKit's
     * marker, or holds nothing but a lock: killed before the marker was written). Only a writer holding the index's
     * lock calls this, and a rebuild holds that lock from start to end, so no rebuild is using it. Best effort: a
     * leftover wastes space, nothing more.
     */
    private static void clearStaleStaging(Path dir) {
        Path staging = IndexFolder.staging(dir);
        try {
            if (Files.isDirectory(staging)) {
                IndexFolder.Contents contents = IndexFolder.inspect(staging, true);
                if (contents.clearable()) {
                    IndexFolder.deleteOwn(contents);
                }
            }
        } catch (IOException | RuntimeException e) {
            // the next rebuild tries again
        }
    }

    static String holder(Path dir) {
        try {
            String text = Files.readString(dir.resolve(HOLDER_FILE), StandardCharsets.UTF_8).strip();
            return text.isEmpty() ? "holder unknown" : "held by " + text;
        } catch (IOException e) {
            return "holder unknown";
        }
    }

    static void writeHolder(Path dir) {
        String pid;
        String host;
        try {
            pid = Long.toString(ProcessHandle.current().pid());
            host = InetAddress.getLocalHost().getHostName();
        } catch (IOException | RuntimeException e) {
            pid = ManagementFactory.getRuntimeMXBean().getName();
            host = "this machine";
        }
        try {
            Files.writeString(dir.resolve(HOLDER_FILE), "process " + pid + " on " + host + " since " + Instant.now()
                    + "\n", StandardCharsets.UTF_8);
        } catch (IOException e) {
            // naming the holder is a courtesy; the lock itself is what protects the index
        }
    }

    static void deleteHolder(Path dir) {
        try {
            Files.deleteIfExists(dir.resolve(HOLDER_FILE));
        } catch (IOException e) {
            // a stale holder file is harmless: it is only read when the lock is taken
        }
    }

    /**
     * Whether an index appears while another writer is creating it: a directory with no commit yet but Lucene's
     * {@code pending_segments_N} is mid-way through its first commit (a few milliseconds). Waits for it up to the lock
     * wait, and at least {@value #CREATION_WAIT_MILLIS} ms, so that a second process neither mistakes it for foreign
     * files nor for no index.
     *
     * @return whether an index exists now
     */
    private static boolean awaitCreation(Path dir, Directory directory, long lockWaitMillis) throws IOException {
        long deadline = System.nanoTime() + Math.max(lockWaitMillis, CREATION_WAIT_MILLIS) * 1_000_000L;
        while (creating(dir) && System.nanoTime() < deadline) {
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new StoreException("interrupted while waiting for another writer to create the index at " + dir,
                        e, true);
            }
            if (DirectoryReader.indexExists(directory)) {
                return true;
            }
        }
        return DirectoryReader.indexExists(directory);
    }

    private static boolean creating(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            return false;
        }
        try (var files = Files.list(dir)) {
            return files.anyMatch(p -> p.getFileName().toString().startsWith("pending_segments"));
        }
    }

    /**
     * An open found no commit: fine for a writer when the folder is empty, or is RagKit's and holds nothing of
     * Lucene's but an interrupted first commit ({@code pending_segments_N}); anything else is refused, and a
     * {@code --rebuild} is suggested only for a folder RagKit marked as its own.
     */
    private static void refuseNonIndex(IndexFolder.Contents contents, boolean readOnly) throws IOException {
        Path dir = contents.dir();
        StoreException rebuilding = rebuilding(dir, null);
        if (rebuilding != null && (readOnly || rebuilding.isRetriable())) {
            // a rebuild is writing its first commit here (or, for a reader, stopped midway); a writer after a
            // stopped rebuild goes on as before: it clears the staging folder once it holds the lock
            throw rebuilding;
        }
        if (readOnly && !contents.marked()) {
            contents = IndexFolder.inspect(dir, true);   // names are not proof: a reader reads the headers too
            contents.refuseStrangers("opening the index");
        }
        boolean interrupted = contents.lucene().stream().allMatch(n -> n.startsWith("pending_segments"));
        if (contents.marked() && interrupted || contents.empty()) {
            if (readOnly) {
                throw new StoreException("there is no index at " + dir + " yet; index documents first (ragkit index)",
                        false);
            }
            return;
        }
        if (contents.marked()) {
            throw new StoreException("the index at " + dir + " is damaged: it holds " + IndexFolder.names(
                    contents.lucene()) + " but no complete Lucene commit. Nothing was changed. Re-index it (ragkit"
                    + " index <folder> --index " + dir + " --rebuild) or restore it from a backup", false);
        }
        if (!contents.lucene().isEmpty()) {
            SortedSet<String> all = new TreeSet<>(contents.lucene());
            all.addAll(contents.others());
            throw new StoreException("the folder " + dir + " is not a readable index: it holds " + IndexFolder.names(
                    all) + " but no complete Lucene commit, and no " + IndexFolder.MARKER + " saying RagKit made it."
                    + " Nothing was changed, and RagKit will not delete these files. If it was an index, move the"
                    + " folder away; " + IndexFolder.HOW_TO_CREATE, false);
        }
        throw IndexFolder.notAnIndex(dir, contents.others(), readOnly ? "opening the index"
                : "opening the index for writing");
    }

    /**
     * For a folder where Lucene finds no commit: throws what to say — another process is rebuilding it, it is not an
     * index, there is no index yet, it is damaged. Returns only for a writer, when the folder may become an index.
     */
    static void refuseUnopened(Path dir, boolean readOnly) throws IOException {
        IndexFolder.Contents contents = IndexFolder.inspect(dir, !readOnly);
        contents.refuseStrangers(readOnly ? "opening the index" : "opening the index for writing");
        refuseNonIndex(contents, readOnly);
        if (readOnly) {
            throw new StoreException("there is no index at " + dir + " yet; index documents first (ragkit index)",
                    false);
        }
    }

    /**
     * What to say when the folder holds no readable commit and a rebuild's staging folder, marked as RagKit's, lies
     * beside it ({@code .<name>.rebuild}): the process named in {@value #HOLDER_FILE} is rebuilding the index (its
     * first commit, or the swap, is under way: retry), or that process no longer runs (the rebuild stopped midway).
     *
     * @param cause what Lucene reported, or {@code null}
     * @return the exception, or {@code null} when no rebuild's staging folder is there
     */
    static @Nullable StoreException rebuilding(Path dir, @Nullable Exception cause) {
        Path staging = IndexFolder.staging(dir);
        if (!Files.isDirectory(staging) || !IndexFolder.isMarked(staging)) {
            return null;
        }
        Boolean running = holderRunning(dir);
        String again = "ragkit index <folder> --index " + dir + " --rebuild";
        if (Boolean.FALSE.equals(running)) {
            String who = Files.exists(dir.resolve(HOLDER_FILE)) ? holder(dir).replace("held by ", "")
                    : "the process that ran it";
            return new StoreException("a rebuild of the index at " + dir + " stopped before it swapped its new index in"
                    + " (" + who + " no longer runs; its unfinished index is in "
                    + staging + "), and the folder holds no complete index. Nothing was changed. Run the rebuild"
                    + " again (" + again + "), or restore the index from a backup", cause, false);
        }
        return new StoreException("the index at " + dir + " is being rebuilt by another process (" + holder(dir)
                + "): the new index is built in " + staging + " and swapped in whole when it is complete. Nothing"
                + " was changed. Try again when the rebuild has finished" + (running == null ? " (if no rebuild"
                + " runs any more, run it again: " + again + ")" : ""), cause, true);
    }

    /**
     * @return whether the process named in the holder file runs: {@code false} when there is no holder file or it
     *         names a process of this machine that is gone; {@code null} when that cannot be told (another machine)
     */
    private static @Nullable Boolean holderRunning(Path dir) {
        String text;
        try {
            text = Files.readString(dir.resolve(HOLDER_FILE), StandardCharsets.UTF_8).strip();
        } catch (NoSuchFileException e) {
            return false;
        } catch (IOException e) {
            return null;
        }
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("process (\\d+) on (\\S+) since .*")
                .matcher(text);
        if (!m.matches()) {
            return null;
        }
        String host;
        try {
            host = InetAddress.getLocalHost().getHostName();
        } catch (IOException | RuntimeException e) {
            return null;
        }
        if (!m.group(2).equals(host)) {
            return null;
        }
        return ProcessHandle.of(Long.parseLong(m.group(1))).map(ProcessHandle::isAlive).orElse(false);
    }

    private static void check(Path dir, Map<String, String> data, int dimension, @Nullable String embedder,
            String analyzer) {
        String format = data.get(KEY_FORMAT);
        if (format == null) {
            throw new StoreException("the Lucene index at " + dir + " was not written by RagKit (its commits carry no "
                    + KEY_FORMAT + "); RagKit neither writes into nor deletes an index it did not make. Nothing was"
                    + " changed. Point the store at a new or empty folder (ragkit: --index)", false);
        }
        int f;
        try {
            f = Integer.parseInt(format);
        } catch (NumberFormatException e) {
            f = Integer.MAX_VALUE;
        }
        if (f > FORMAT) {
            throw new StoreException("the index at " + dir + " has format " + format + ", newer than this RagKit reads ("
                    + FORMAT + "); upgrade RagKit or re-index with this version (ragkit index --rebuild)", false);
        }
        String made = describe(data.get(KEY_EMBEDDER), data.get(KEY_DIMENSION));
        String recordedEmbedder = data.get(KEY_EMBEDDER);
        if (embedder != null && recordedEmbedder != null && !embedder.equals(recordedEmbedder)) {
            throw new StoreException("the index at " + dir + " holds vectors made by " + made + ", not by '" + embedder
                    + "': vectors of two models cannot be compared. Re-index with the new model (ragkit index"
                    + " --rebuild, or delete " + dir + " and index again), or keep using '" + recordedEmbedder + "'",
                    false);
        }
        String recordedDimension = data.get(KEY_DIMENSION);
        if (dimension > 0 && recordedDimension != null && !recordedDimension.equals(Integer.toString(dimension))) {
            throw new StoreException("the index at " + dir + " holds vectors of " + recordedDimension
                    + " dimensions made by " + made + ", but this store is configured for " + dimension
                    + ". Re-index with the new model (ragkit index --rebuild, or delete " + dir
                    + " and index again), or configure dimension " + recordedDimension, false);
        }
        String recordedAnalyzer = data.get(KEY_ANALYZER);
        if (recordedAnalyzer != null && !recordedAnalyzer.equals(analyzer)) {
            throw new StoreException("the index at " + dir + " analyzes text with '" + recordedAnalyzer
                    + "', but this store is configured with '" + analyzer + "'; keyword search would miss words."
                    + " Configure language '" + recordedAnalyzer + "', or re-index (ragkit index --rebuild)", false);
        }
    }

    /**
     * Refuses a store configured with another vector encoding than the index records (an index without a record
     * holds float vectors); a store configured with none follows the index.
     */
    private static void checkEncoding(Path dir, Map<String, String> data, @Nullable VectorEncoding configured) {
        String text = data.get(KEY_VECTORS);
        VectorEncoding recorded;
        try {
            recorded = text == null ? VectorEncoding.FLOAT32 : VectorEncoding.parse(text);
        } catch (IllegalArgumentException e) {
            throw new StoreException("the index at " + dir + " records vectors '" + text + "', an encoding this"
                    + " RagKit does not know; upgrade RagKit or re-index with this version (ragkit index --rebuild)",
                    false);
        }
        if (configured != null && configured != recorded) {
            throw new StoreException("the index at " + dir + " holds " + VectorFormats.describe(recorded)
                    + " vectors, but this store is configured for " + VectorFormats.describe(configured)
                    + " vectors. Leave the setting out to follow the index (vectorEncoding / vectors), configure "
                    + recorded.setting() + ", or re-index to change the encoding (ragkit index --rebuild, or a"
                    + " LuceneDocumentStore rebuild())", false);
        }
    }

    /** How the index keeps its vectors, as recorded ({@link VectorEncoding#FLOAT32} when not recorded). */
    VectorEncoding vectorEncoding() {
        String v = identity.get(KEY_VECTORS);
        return v == null ? VectorEncoding.FLOAT32 : VectorEncoding.parse(v);
    }

    private static String describe(@Nullable String embedder, @Nullable String dimension) {
        return (embedder == null ? "an unnamed embedder" : "'" + embedder + "'")
                + (dimension == null ? "" : " (" + dimension + " dimensions)");
    }

    // ------------------------------------------------------------------------------------------------ use

    Path path() {
        return path;
    }

    boolean readOnly() {
        return writer == null;
    }

    /** The dimension recorded in the index, or 0 while no vector was stored. */
    int dimension() {
        String d = identity.get(KEY_DIMENSION);
        return d == null ? 0 : Integer.parseInt(d);
    }

    @Nullable String embedder() {
        return identity.get(KEY_EMBEDDER);
    }

    /** The writer; only for writable indexes and only under the store's write lock. */
    IndexWriter writer() {
        if (writer == null) {
            throw new StoreException("the index at " + path + " was opened read-only; open it for writing to change"
                    + " it", false);
        }
        return writer;
    }

    /** Records the dimension that the first stored vectors fixed; committed with the next commit. */
    void fixDimension(int dimension) {
        synchronized (identity) {
            identity.put(KEY_DIMENSION, Integer.toString(dimension));
            writer().setLiveCommitData(Map.copyOf(identity).entrySet());
        }
    }

    /** After a completed write: the next read refreshes first (read-your-writes without a refresh per write). */
    void changed() {
        written.incrementAndGet();
    }

    void commit() throws IOException {
        writer().commit();
    }

    IndexSearcher acquire() throws IOException {
        if (writer == null) {
            searchers.maybeRefresh(); // another process may have committed
        } else {
            long target = written.get();
            if (refreshed < target) {
                synchronized (refreshing) {
                    if (refreshed < target) {
                        searchers.maybeRefreshBlocking(); // sees every write completed before target was read
                        refreshed = target;
                    }
                }
            }
        }
        return searchers.acquire();
    }

    void release(IndexSearcher searcher) throws IOException {
        searchers.release(searcher);
    }

    @Override
    public void close() throws IOException {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        try {
            searchers.close();
            if (writer != null) {
                writer.close();
                deleteHolder(path);
            }
        } finally {
            if (mergeExec != null) {
                mergeExec.shutdownNow();
            }
            directory.close();
        }
    }

    /** @return daemon threads for merges' graph building, named for thread dumps */
    private static ExecutorService mergeThreads(int threads) {
        AtomicInteger count = new AtomicInteger();
        return Executors.newFixedThreadPool(threads, r -> {
            Thread t = new Thread(r, "ragkit-lucene-merge-" + count.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
    }

    /** Drops uncommitted changes and closes, after a failed commit. */
    void abandon() {
        if (closed.compareAndSet(false, true)) {
            closeQuietly(searchers);
            if (writer != null) {
                try {
                    writer.rollback();
                } catch (IOException | RuntimeException e) {
                    // the last commit stays as it was
                }
                deleteHolder(path);
            }
            if (mergeExec != null) {
                mergeExec.shutdownNow();
            }
            closeQuietly(directory);
        }
    }

    private static void closeQuietly(@Nullable AutoCloseable c) {
        if (c != null) {
            try {
                c.close();
            } catch (Exception e) {
                // already failing
            }
        }
    }

    /** @return how to repair a damaged index: rebuild it when RagKit marked it as its own, else move it away */
    private static String repair(Path dir) {
        return IndexFolder.isMarked(dir) ? "Restore it from a backup, or re-index it (ragkit index <folder> --index "
                + dir + " --rebuild)" : "Restore it from a backup, or move the folder away and re-index your folders"
                + " into a new one (RagKit does not delete an index folder it did not mark as its own: "
                + IndexFolder.MARKER + ")";
    }

    /** A Lucene failure as a {@link StoreException} that says what to do. */
    static StoreException failure(Path dir, String what, Exception e) {
        Objects.requireNonNull(e, "e");
        if (e instanceof StoreException se) {
            return se;
        }
        if (damage(e)) {
            StoreException rebuilding = rebuilding(dir, e);
            if (rebuilding != null) {
                return rebuilding;
            }
        }
        if (e instanceof CorruptIndexException || e instanceof EOFException || e instanceof NoSuchFileException
                || e instanceof IndexNotFoundException) {
            return new StoreException(what + " failed: the index at " + dir + " is damaged (" + e.getMessage()
                    + "). Nothing was changed. " + repair(dir), e, false);
        }
        if (e instanceof IndexFormatTooOldException || e instanceof IndexFormatTooNewException) {
            return new StoreException(what + " failed: the index at " + dir + " is damaged or was written by a Lucene"
                    + " version this RagKit cannot read (" + e.getMessage() + "). Nothing was changed. " + repair(dir),
                    e, false);
        }
        if (e instanceof AlreadyClosedException) {
            return new StoreException("this Lucene store is closed (" + dir + "); open a new one", e, false);
        }
        if (e instanceof IOException) {
            return new StoreException(what + " failed at " + dir + ": " + e + "; check free disk space and"
                    + " permissions, then retry", e, true);
        }
        return new StoreException(what + " failed at " + dir + ": " + e, e, false);
    }
}
