package dev.ragkit.store.lucene;

import dev.ragkit.store.StoreException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;
import java.util.SortedSet;
import java.util.TreeSet;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.SegmentInfos;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.store.FilterDirectory;
import org.apache.lucene.store.Lock;
import org.jspecify.annotations.Nullable;

/**
 * A new index built beside an existing one and put in its place whole, so that a rebuild that fails or is killed
 * leaves the old index as it was, and readers never see anything but the old index or the new one.
 *
 * <pre>{@code
 * try (LuceneRebuild rebuild = LuceneDocumentStore.builder().directory(Path.of(".ragkit/index"))
 *         .embedder("bge-small-en-v1.5").commitMode(LuceneDocumentStore.CommitMode.BATCHED).rebuild()) {
 *     indexEverything(rebuild.store());   // an empty store in .ragkit/.index.rebuild
 *     rebuild.replace();                  // without it, close() discards the new index: the old one stays
 * }
 * }</pre>
 *
 * <h2>What it replaces</h2>
 * Only an index RagKit can prove is its own: a folder with RagKit's marker ({@code ragkit-index.txt}), or a readable
 * Lucene index whose commits RagKit wrote (an index from before the marker; it is adopted and marked), or an empty or
 * absent folder. A folder with other content and no marker, someone else's Lucene index, or a folder holding files
 * named like Lucene's own that are not Lucene's ({@code _config.yml}, {@code segments-plan.txt}) is refused with a
 * {@link StoreException} before anything is written. Other files in the index folder ({@code notes.txt}) are left as
 * they are.
 *
 * <h2>How the swap works</h2>
 * The index's write lock is taken first and held to the end, so no other writer changes the index meanwhile (a
 * second writer waits, or fails naming this process). The new index is written into a staging folder beside the
 * index, {@code .<name>.rebuild}, marked as RagKit's. {@link #replace()} commits it, then opens a Lucene writer on
 * the index in create mode and adds the staged segments ({@code IndexWriter.addIndexes}); the one Lucene commit that
 * follows is the swap. Before it, every reader sees the old index; after it, the new one; Lucene deletes the old
 * commit's files once nothing refers to them (readers holding them open keep reading them). A kill at any moment
 * before that commit leaves the old commit whole (the copied segment files are unreferenced; the next writer deletes
 * them). The staging folder is then deleted; one left by a killed rebuild is deleted by the next writer of the index.
 * An index too damaged for Lucene to read its commits is replaced by deleting its commits first (nothing readable is
 * lost that way).
 *
 * <p>Not thread-safe; one rebuild per index at a time (the lock sees to it across processes).
 */
public final class LuceneRebuild implements AutoCloseable {
    private final Path dir;
    private final Path staging;
    private final FSDirectory directory;
    private final Lock lock;
    private final LuceneDocumentStore store;
    private boolean replaced;
    private boolean closed;

    private LuceneRebuild(Path dir, Path staging, FSDirectory directory, Lock lock, LuceneDocumentStore store) {
        this.dir = dir;
        this.staging = staging;
        this.directory = directory;
        this.lock = lock;
        this.store = store;
    }

    /** Checks the index folder, takes its lock, and opens an empty store in the staging folder. */
    static LuceneRebuild start(LuceneDocumentStore.Builder builder, Path path, long lockWaitMillis) {
        Path dir = path.toAbsolutePath().normalize();
        if (dir.getParent() == null) {
            throw new StoreException("cannot rebuild an index at the root of the file system (" + dir + "); choose a"
                    + " folder for it", false);
        }
        if (Files.exists(dir) && !Files.isDirectory(dir)) {
            throw new StoreException(dir + " is a file, not an index folder; nothing was changed. Name the index's"
                    + " folder", false);
        }
        FSDirectory directory = null;
        Lock lock = null;
        try {
            requireReplaceable(IndexFolder.inspect(dir, true));
            Files.createDirectories(dir);
            directory = FSDirectory.open(dir);
            FSDirectory locking = directory;
            lock = LuceneIndex.waitForLock(dir, lockWaitMillis, () -> locking.obtainLock(IndexWriter.WRITE_LOCK_NAME));
            LuceneIndex.writeHolder(dir);
            IndexFolder.Contents now = IndexFolder.inspect(dir, true);   // as it is now that no one else writes
            requireReplaceable(now);
            if (!now.marked()) {
                IndexFolder.mark(dir, now.committed() ? "adopted" : "created");
            }
            Path staging = IndexFolder.staging(dir);
            clear(staging);
            LuceneDocumentStore store = builder.copyFor(staging).build();
            return new LuceneRebuild(dir, staging, directory, lock, store);
        } catch (IOException | RuntimeException e) {
            if (lock != null) {
                LuceneIndex.deleteHolder(dir);
            }
            closeQuietly(lock);
            closeQuietly(directory);
            throw e instanceof StoreException se ? se : LuceneIndex.failure(dir, "starting the rebuild", e);
        }
    }

    /** @throws StoreException when the folder is not provably an index RagKit may replace */
    private static void requireReplaceable(IndexFolder.Contents contents) throws IOException {
        Path dir = contents.dir();
        if (!contents.exists()) {
            return;
        }
        contents.refuseStrangers("rebuilding the index");
        if (contents.marked() || contents.empty()) {
            return;
        }
        if (contents.committed()) {
            try (FSDirectory existing = FSDirectory.open(dir)) {
                if (SegmentInfos.readLatestCommit(existing).getUserData().containsKey(LuceneIndex.KEY_FORMAT)) {
                    return;                             // RagKit's, from before the marker: adopted
                }
            }
            throw new StoreException("the Lucene index at " + dir + " was not written by RagKit; a rebuild replaces"
                    + " only an index RagKit made. Nothing was changed. Point the index (ragkit --index) at a new or"
                    + " empty folder", false);
        }
        throw new StoreException("the folder " + dir + " is not an index RagKit made: it holds " + IndexFolder.names(
                all(contents)) + " and no " + IndexFolder.MARKER + ", and a rebuild deletes only what it can prove"
                + " is the index's own. Nothing was changed. Point the index (ragkit --index) at an index, or at a new"
                + " or empty folder", false);
    }

    private static SortedSet<String> all(IndexFolder.Contents contents) {
        SortedSet<String> all = new TreeSet<>(contents.lucene());
        all.addAll(contents.others());
        return all;
    }

    /** Removes what an earlier, killed rebuild left in the staging folder; refuses a folder RagKit did not make. */
    private static void clear(Path staging) throws IOException {
        IndexFolder.Contents contents = IndexFolder.inspect(staging, true);
        if (!contents.exists()) {
            return;
        }
        if (!contents.clearable()) {
            throw new StoreException("a rebuild stages the new index in " + staging + ", but that folder holds "
                    + IndexFolder.names(all(contents)) + " and was not made by RagKit. Nothing was changed. Move it"
                    + " away, then rebuild again", false);
        }
        IndexFolder.deleteOwn(contents);
    }

    /** @return the index being rebuilt */
    public Path directory() {
        return dir;
    }

    /** @return the folder beside it where the new index is built */
    public Path stagingDirectory() {
        return staging;
    }

    /** @return the new, initially empty store to fill; it lives in {@link #stagingDirectory()} until replaced */
    public LuceneDocumentStore store() {
        return store;
    }

    /**
     * Commits the new index and puts it in the old one's place with one Lucene commit (see the class description);
     * the store is closed. Calling it again does nothing.
     *
     * @throws StoreException when the new index cannot be committed or swapped in; the old index is then unchanged
     */
    public void replace() {
        if (replaced) {
            return;
        }
        if (closed) {
            throw new StoreException("this rebuild of " + dir + " is closed; start a new one", false);
        }
        store.close();
        try (FSDirectory staged = FSDirectory.open(staging)) {
            Map<String, String> identity = SegmentInfos.readLatestCommit(staged).getUserData();
            IndexFolder.Contents now = IndexFolder.inspect(dir, true);
            now.refuseStrangers("replacing the index");
            if (!now.committed() && !now.lucene().isEmpty()) {
                IndexFolder.deleteCommits(now);      // damaged beyond Lucene's reading: nothing readable to keep
            }
            IndexWriter writer = new IndexWriter(new HeldLock(directory, lock), new IndexWriterConfig()
                    .setOpenMode(IndexWriterConfig.OpenMode.CREATE).setCommitOnClose(false));
            try {
                writer.addIndexes(staged);
                writer.setLiveCommitData(identity.entrySet());
                writer.commit();
                writer.close();
            } catch (IOException | RuntimeException e) {
                try {
                    writer.rollback();
                } catch (IOException | RuntimeException suppressed) {
                    e.addSuppressed(suppressed);
                }
                throw e;
            }
        } catch (IOException | RuntimeException e) {
            if (e instanceof StoreException se) {
                throw se;
            }
            throw new StoreException("the rebuilt index could not be swapped into " + dir + " (" + e + "); the index"
                    + " there is as it was. Check free disk space and permissions, then rebuild again", e, true);
        }
        replaced = true;
        discardStaging();
    }

    /** Discards the new index unless it was {@linkplain #replace() swapped in}, and releases the index's lock. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            if (!replaced) {
                try {
                    store.close();
                } catch (RuntimeException e) {
                    // discarded anyway
                }
                discardStaging();
            }
        } finally {
            LuceneIndex.deleteHolder(dir);
            closeQuietly(lock);
            closeQuietly(directory);
        }
    }

    private void discardStaging() {
        try {
            IndexFolder.Contents contents = IndexFolder.inspect(staging, true);
            if (contents.marked() && contents.strangers().isEmpty()) {
                IndexFolder.deleteOwn(contents);
            }
        } catch (IOException | RuntimeException e) {
            // the next writer of the index deletes it
        }
    }

    @Override
    public String toString() {
        return "LuceneRebuild[" + dir + " from " + staging + (replaced ? ", replaced" : "") + "]";
    }

    private static void closeQuietly(@Nullable AutoCloseable c) {
        if (c != null) {
            try {
                c.close();
            } catch (Exception e) {
                // nothing more to do
            }
        }
    }

    /** The index's directory with the write lock this rebuild already holds, lent to the swapping writer. */
    private static final class HeldLock extends FilterDirectory {
        private final Lock held;

        HeldLock(Directory in, Lock held) {
            super(in);
            this.held = Objects.requireNonNull(held, "held");
        }

        @Override
        public Lock obtainLock(String name) throws IOException {
            if (!name.equals(IndexWriter.WRITE_LOCK_NAME)) {
                return super.obtainLock(name);
            }
            return new Lock() {
                @Override
                public void close() {
                    // the rebuild releases it when it closes
                }

                @Override
                public void ensureValid() throws IOException {
                    held.ensureValid();
                }
            };
        }

        @Override
        public void close() {
            // the rebuild closes the directory
        }
    }
}
