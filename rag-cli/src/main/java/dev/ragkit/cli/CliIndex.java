package dev.ragkit.cli;

import dev.ragkit.error.RagException;
import dev.ragkit.ingest.Embedders;
import dev.ragkit.store.DocumentStore;
import dev.ragkit.store.Scope;
import dev.ragkit.store.StoreException;
import dev.ragkit.store.inmemory.InMemoryDocumentStore;
import dev.ragkit.store.lucene.LuceneDocumentStore;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.SortedMap;
import java.util.TreeMap;
import org.apache.lucene.store.LockObtainFailedException;
import org.jspecify.annotations.Nullable;

/**
 * Where the CLI keeps its index and how it opens it: a Lucene directory ({@value #LUCENE_DEFAULT}, the default) or
 * an in-memory store's snapshot file ({@value #SNAPSHOT_DEFAULT}, {@code --store in-memory}). An existing snapshot
 * at the old default location is still read, with a one-line hint how to move it.
 *
 * <p>Writers never lose each other's work: a Lucene directory has one writer at a time (the second
 * {@code ragkit index} waits for the first, saying so); the snapshot file is locked ({@code index.bin.lock}) from
 * loading to saving, so the second run loads what the first saved. Readers ({@code ask}, {@code health},
 * {@code mcp}) open the Lucene index read-only and never wait.
 */
final class CliIndex implements AutoCloseable {
    static final String LUCENE_DEFAULT = ".ragkit/index";
    static final String SNAPSHOT_DEFAULT = ".ragkit/index.bin";
    /** What made the vectors of an index that records no embedder: the only model the CLI had before 0.1.0. */
    static final String LEGACY_EMBEDDER = "all-minilm-l6-v2";
    /** How long a second {@code ragkit index} waits for the first to finish. */
    static final Duration WRITE_WAIT = Duration.ofMinutes(30);

    /** The kind of index. */
    enum Kind { LUCENE, SNAPSHOT }

    /** Where an index is, and of which kind. */
    record Location(Kind kind, Path path) {
        /** @return the audit file beside the index */
        Path auditFile() {
            return path.toAbsolutePath().resolveSibling("audit.jsonl");
        }

        String describe() {
            return (kind == Kind.LUCENE ? "Lucene index " : "snapshot ") + path;
        }
    }

    final Location location;
    final DocumentStore store;
    /** The name of the embedder whose vectors the index holds (or will hold). */
    final String embedder;
    private final @Nullable FileChannel lockChannel;
    private final @Nullable FileLock lock;
    private final boolean writable;
    private final CliContext context;

    private CliIndex(Location location, DocumentStore store, String embedder, @Nullable FileChannel lockChannel,
            @Nullable FileLock lock, boolean writable, CliContext context) {
        this.location = location;
        this.store = store;
        this.embedder = embedder;
        this.lockChannel = lockChannel;
        this.lock = lock;
        this.writable = writable;
        this.context = context;
    }

    /**
     * @param index the {@code --index} option, or {@code null}
     * @param store the {@code --store} option ({@code lucene} or {@code in-memory}), or {@code null}
     * @return where the index is: as named, or the default of the store named, or whichever default exists
     */
    static Location locate(CliContext context, @Nullable String index, @Nullable String store) {
        Kind kind = null;
        if (store != null) {
            switch (store.strip().toLowerCase(Locale.ROOT)) {
                case "lucene":
                    kind = Kind.LUCENE;
                    break;
                case "in-memory":
                    kind = Kind.SNAPSHOT;
                    break;
                default:
                    throw new UsageException("--store must be lucene or in-memory, got '" + Terminal.line(store) + "'");
            }
        }
        if (index != null) {
            Path path = context.resolve(index);
            if (kind == null) {
                kind = path.getFileName() != null && path.getFileName().toString().endsWith(".bin")
                        || Files.isRegularFile(path) ? Kind.SNAPSHOT : Kind.LUCENE;
            }
            return new Location(kind, path);
        }
        if (kind != null) {
            return new Location(kind, context.resolve(kind == Kind.LUCENE ? LUCENE_DEFAULT : SNAPSHOT_DEFAULT));
        }
        Path lucene = context.resolve(LUCENE_DEFAULT);
        Path snapshot = context.resolve(SNAPSHOT_DEFAULT);
        if (!Files.exists(lucene) && Files.isRegularFile(snapshot)) {
            context.err.println("ragkit: note: using the snapshot " + SNAPSHOT_DEFAULT + "; the default index is now a "
                    + "Lucene directory (" + LUCENE_DEFAULT + "/): run 'ragkit migrate' to move it, or keep it with "
                    + "--store in-memory");
            return new Location(Kind.SNAPSHOT, snapshot);
        }
        return new Location(Kind.LUCENE, lucene);
    }

    /**
     * Opens the index to add to it, creating it when absent; waits (saying so) while another run writes it.
     *
     * @param chosen the embedder asked for ({@code --embedder}, {@code RAG_EMBEDDER}), or {@code null} for the one
     *               the index was made with, else the default
     * @throws RagException when the index was made with another embedder than the one asked for
     */
    static CliIndex forWriting(CliContext context, Location location, @Nullable String chosen) {
        if (location.kind() == Kind.LUCENE) {
            IndexFile.requireWritableFolder(location.path().resolve("x"));
            String name = embedderOf(location, chosen, recordedEmbedder(location));
            LuceneDocumentStore.Builder builder = lucene(location, name)
                    .commitMode(LuceneDocumentStore.CommitMode.BATCHED);
            LuceneDocumentStore store;
            try {
                store = builder.build();
            } catch (StoreException e) {
                if (!(e.getCause() instanceof LockObtainFailedException)) {
                    throw e;                                   // not another writer: damaged, foreign, …
                }
                context.err.println("ragkit: another ragkit index is writing " + location.path() + "; waiting for it "
                        + "to finish (up to " + WRITE_WAIT.toMinutes() + " minutes)");
                context.err.flush();
                store = lucene(location, name).commitMode(LuceneDocumentStore.CommitMode.BATCHED)
                        .lockWait(WRITE_WAIT).build();
            }
            return new CliIndex(location, store, name, null, null, true, context);
        }
        Path file = location.path();
        IndexFile.requireWritableFolder(file);
        if (Files.isDirectory(file)) {
            throw new RagException("--index " + file + " is a folder, not a snapshot file; give the snapshot's path "
                    + "(default " + SNAPSHOT_DEFAULT + ") or use --store lucene");
        }
        FileChannel channel = null;
        FileLock lock = null;
        try {
            channel = FileChannel.open(file.resolveSibling(file.getFileName() + ".lock"), StandardOpenOption.CREATE,
                    StandardOpenOption.WRITE);
            lock = channel.tryLock();
            if (lock == null) {
                context.err.println("ragkit: another ragkit index is writing " + file + "; waiting for it to finish");
                context.err.flush();
                lock = channel.lock();
            }
            InMemoryDocumentStore snapshot = IndexFile.openOrCreate(file, chosen);
            return new CliIndex(location, snapshot, embedderOf(location, chosen, snapshot.embedder()), channel, lock,
                    true, context);
        } catch (IOException | OverlappingFileLockException e) {
            close(channel);
            throw new RagException("cannot lock the snapshot " + file + " for writing (" + e + "); check the folder's "
                    + "permissions", e);
        } catch (RuntimeException e) {
            close(channel);
            throw e;
        }
    }

    /**
     * Deletes an index so it can be built again: only a Lucene index's own files (a folder holding anything else is
     * refused) or a RagKit snapshot file, and only when no other process is writing it.
     *
     * @throws RagException when the location holds something that is not an index, or is being written
     */
    static void delete(Location location) {
        Path path = location.path();
        if (!Files.exists(path)) {
            return;
        }
        try {
            if (location.kind() == Kind.SNAPSHOT) {
                if (Files.isDirectory(path) || !IndexFile.isSnapshot(path)) {
                    throw new RagException(path + " is not a RagKit snapshot; --rebuild deletes only an index. "
                            + "Nothing was changed");
                }
                Files.delete(path);
                return;
            }
            if (!Files.isDirectory(path)) {
                throw new RagException(path + " is a file, not a Lucene index folder; nothing was changed");
            }
            List<Path> files;
            try (var listed = Files.list(path)) {
                files = listed.toList();
            }
            List<String> foreign = files.stream().map(f -> f.getFileName().toString())
                    .filter(n -> !(n.startsWith("segments") || n.startsWith("pending_segments") || n.startsWith("_")
                            || n.equals("write.lock") || n.equals("ragkit-writer.txt"))).toList();
            if (!foreign.isEmpty()) {
                throw new RagException(path + " holds files that are not an index's (" + (foreign.size() > 5
                        ? foreign.subList(0, 5) + ", …" : foreign) + "); --rebuild deletes only an index. Nothing "
                        + "was changed");
            }
            Path lockFile = path.resolve("write.lock");
            if (Files.exists(lockFile)) {
                try (FileChannel channel = FileChannel.open(lockFile, StandardOpenOption.WRITE)) {
                    FileLock held = channel.tryLock();
                    if (held == null) {
                        throw new RagException("another ragkit index is writing " + path + "; wait for it to finish "
                                + "before --rebuild. Nothing was changed");
                    }
                    held.release();
                }
            }
            for (Path f : files) {
                Files.deleteIfExists(f);
            }
        } catch (IOException e) {
            throw new RagException("cannot delete the index at " + path + " (" + e + "); check its permissions", e);
        }
    }

    /**
     * Opens an existing index to read it; never waits for a writer.
     *
     * @param chosen the embedder asked for, or {@code null} for the one the index was made with
     * @throws RagException when the index was made with another embedder than the one asked for
     */
    static CliIndex forReading(CliContext context, Location location, @Nullable String chosen) {
        if (!Files.exists(location.path())) {
            throw new RagException("no index at " + location.path() + "; create one with: ragkit index <folder>"
                    + " (or point to it with --index)");
        }
        if (location.kind() == Kind.LUCENE) {
            LuceneDocumentStore store = lucene(location, null).readOnly(true).build();
            try {
                return new CliIndex(location, store, embedderOf(location, chosen, store.info().embedder()), null,
                        null, false, context);
            } catch (RuntimeException e) {
                store.close();
                throw e;
            }
        }
        InMemoryDocumentStore snapshot = IndexFile.openExisting(location.path());
        String recorded = snapshot.embedder() != null ? snapshot.embedder() : LEGACY_EMBEDDER;
        return new CliIndex(location, snapshot, embedderOf(location, chosen, recorded), null, null, false, context);
    }

    /**
     * @return the embedder to use with the index: the one asked for, else the one it records, else the default
     * @throws RagException when the one asked for is not the one it records
     */
    static String embedderOf(Location location, @Nullable String chosen, @Nullable String recorded) {
        if (chosen != null && recorded != null && !chosen.equals(recorded)) {
            throw new RagException("the " + location.describe() + " holds vectors made by '" + recorded + "', not by '"
                    + chosen + "'; use --embedder " + recorded + " (or no --embedder), or index again into a new "
                    + "index with --rebuild --embedder " + chosen);
        }
        return chosen != null ? chosen : recorded != null ? recorded : Embedders.DEFAULT;
    }

    /** @return the embedder an existing Lucene index records, or {@code null} when it is new or records none */
    private static @Nullable String recordedEmbedder(Location location) {
        Path dir = location.path();
        try (var listed = Files.isDirectory(dir) ? Files.list(dir) : null) {
            if (listed == null || listed.noneMatch(f -> f.getFileName().toString().startsWith("segments"))) {
                return null;
            }
        } catch (IOException e) {
            throw new RagException("cannot read the index folder " + dir + " (" + e + "); check its permissions", e);
        }
        try (LuceneDocumentStore peek = lucene(location, null).readOnly(true).build()) {
            return peek.info().embedder();
        }
    }

    private static LuceneDocumentStore.Builder lucene(Location location, @Nullable String embedder) {
        if (Files.isRegularFile(location.path())) {
            throw new RagException("--index " + location.path() + " is a file, not a Lucene index folder; name a "
                    + "folder, or use --store in-memory for a snapshot file");
        }
        LuceneDocumentStore.Builder builder = LuceneDocumentStore.builder().directory(location.path());
        return embedder == null ? builder : builder.embedder(embedder);
    }

    /** @return documents per tenant */
    SortedMap<String, Integer> documentCounts() {
        if (store instanceof LuceneDocumentStore) {
            return ((LuceneDocumentStore) store).documentCounts();
        }
        InMemoryDocumentStore memory = (InMemoryDocumentStore) store;
        SortedMap<String, Integer> counts = new TreeMap<>();
        for (String tenant : memory.tenants()) {
            counts.put(tenant, memory.documents(Scope.unrestricted(tenant)).size());
        }
        return counts;
    }

    /** Makes what was written durable: the Lucene commit, or the snapshot saved; says so for a large index. */
    void commit() {
        if (!writable) {
            return;
        }
        if (store instanceof LuceneDocumentStore) {
            context.err.println("ragkit: committing the index to " + location.path());
            context.err.flush();
            ((LuceneDocumentStore) store).flush();
        } else {
            IndexFile.save((InMemoryDocumentStore) store, location.path());
        }
    }

    @Override
    public void close() {
        try {
            store.close();
        } finally {
            try {
                if (lock != null) {
                    lock.release();
                }
            } catch (IOException e) {
                // the channel's close releases it anyway
            }
            close(lockChannel);
        }
    }

    private static void close(@Nullable FileChannel channel) {
        if (channel != null) {
            try {
                channel.close();
            } catch (IOException e) {
                // nothing more to do
            }
        }
    }

}
