package dev.ragkit.cli;

import dev.ragkit.error.RagException;
import dev.ragkit.embedding.Embedders;
import dev.ragkit.store.DocumentStore;
import dev.ragkit.store.Scope;
import dev.ragkit.store.StoreException;
import dev.ragkit.store.inmemory.InMemoryDocumentStore;
import dev.ragkit.store.lucene.LuceneDocumentStore;
import dev.ragkit.store.lucene.LuceneRebuild;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
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
    /** The snapshot's lock file, holding its lock (closing the channel releases it); {@code null} for Lucene. */
    private final @Nullable FileChannel lockChannel;
    private final boolean writable;
    private final CliContext context;
    /** The rebuild this index is, for a Lucene {@code --rebuild}; {@code null} otherwise. */
    private final @Nullable LuceneRebuild rebuild;

    private CliIndex(Location location, DocumentStore store, String embedder, @Nullable FileChannel lockChannel,
            boolean writable, CliContext context) {
        this(location, store, embedder, lockChannel, writable, context, null);
    }

    private CliIndex(Location location, DocumentStore store, String embedder, @Nullable FileChannel lockChannel,
            boolean writable, CliContext context, @Nullable LuceneRebuild rebuild) {
        this.location = location;
        this.store = store;
        this.embedder = embedder;
        this.lockChannel = lockChannel;
        this.writable = writable;
        this.context = context;
        this.rebuild = rebuild;
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
            LuceneDocumentStore.Builder builder = writing(location, name);
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
                store = writing(location, name).lockWait(WRITE_WAIT).build();
            }
            return new CliIndex(location, store, name, null, true, context);
        }
        Path file = location.path();
        requireSnapshotPath(file);
        FileChannel channel = lockSnapshot(context, file);
        try {
            InMemoryDocumentStore snapshot = IndexFile.openOrCreate(file, chosen);
            return new CliIndex(location, snapshot, embedderOf(location, chosen, snapshot.embedder()), channel,
                    true, context);
        } catch (RuntimeException e) {
            close(channel);
            throw e;
        }
    }

    /**
     * Starts rebuilding the index: a new, empty index of the given embedder, built beside the old one and swapped in
     * whole by {@link #commit()}; {@link #close()} without a commit discards it and leaves the old index as it was.
     * A Lucene index is rebuilt in a staging folder beside it ({@link LuceneRebuild}); a snapshot is rebuilt in memory
     * and saved over the old file atomically. Only an index RagKit can prove is its own is replaced: a Lucene folder
     * RagKit marked or a readable RagKit index, or a file with the snapshot signature; anything else is refused
     * unchanged. Waits (saying so) while another run writes the index.
     *
     * @param embedder the embedder of the new index
     * @throws RagException when the location is not an index RagKit may replace
     */
    static CliIndex forRebuilding(CliContext context, Location location, String embedder) {
        if (location.kind() == Kind.LUCENE) {
            IndexFile.requireWritableFolder(location.path());
            LuceneRebuild rebuild;
            try {
                rebuild = writing(location, embedder).rebuild();
            } catch (StoreException e) {
                if (!(e.getCause() instanceof LockObtainFailedException)) {
                    throw e;
                }
                context.err.println("ragkit: another ragkit index is writing " + location.path() + "; waiting for it "
                        + "to finish (up to " + WRITE_WAIT.toMinutes() + " minutes)");
                context.err.flush();
                rebuild = writing(location, embedder).lockWait(WRITE_WAIT).rebuild();
            }
            return new CliIndex(location, rebuild.store(), embedder, null, true, context, rebuild);
        }
        Path file = location.path();
        requireSnapshotPath(file);
        FileChannel channel = lockSnapshot(context, file);
        try {
            if (Files.exists(file) && !IndexFile.isSnapshot(file)) {
                throw new RagException(file + " is not a RagKit snapshot (it does not start with the signature"
                        + " RagKit writes), and a rebuild replaces only a snapshot RagKit wrote. Nothing was changed."
                        + " Name the snapshot's path with --index, or a new file");
            }
            InMemoryDocumentStore fresh = InMemoryDocumentStore.builder().embedder(embedder).build();
            return new CliIndex(location, fresh, embedder, channel, true, context);
        } catch (RuntimeException e) {
            close(channel);
            throw e;
        }
    }

    /** @return where a rebuild builds the new index until it is swapped in */
    Path staging() {
        return rebuild != null ? rebuild.stagingDirectory() : location.path();
    }

    private static void requireSnapshotPath(Path file) {
        IndexFile.requireWritableFolder(file);
        if (Files.isDirectory(file)) {
            throw new RagException("--index " + file + " is a folder, not a snapshot file; give the snapshot's path "
                    + "(default " + SNAPSHOT_DEFAULT + ") or use --store lucene");
        }
    }

    /**
     * Locks the snapshot for writing ({@code <file>.lock}, an operating-system lock), waiting (saying so) while
     * another run holds it.
     */
    private static FileChannel lockSnapshot(CliContext context, Path file) {
        FileChannel channel = null;
        try {
            channel = FileChannel.open(file.resolveSibling(file.getFileName() + ".lock"), StandardOpenOption.CREATE,
                    StandardOpenOption.WRITE);
            FileLock lock = channel.tryLock();
            if (lock == null) {
                context.err.println("ragkit: another ragkit index is writing " + file + "; waiting for it to finish");
                context.err.flush();
                channel.lock();
            }
            return channel;
        } catch (IOException | OverlappingFileLockException e) {
            close(channel);
            throw new RagException("cannot lock the snapshot " + file + " for writing (" + e + "); check the folder's "
                    + "permissions", e);
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
                        false, context);
            } catch (RuntimeException e) {
                store.close();
                throw e;
            }
        }
        InMemoryDocumentStore snapshot = IndexFile.openExisting(location.path());
        String recorded = snapshot.embedder() != null ? snapshot.embedder() : LEGACY_EMBEDDER;
        return new CliIndex(location, snapshot, embedderOf(location, chosen, recorded), null, false, context);
    }

    /**
     * @return the embedder to use with the index: the one asked for, else the one it records, else the default
     * @throws RagException when the one asked for is not the one it records
     */
    static String embedderOf(Location location, @Nullable String chosen, @Nullable String recorded) {
        if (chosen != null && recorded != null && !chosen.equals(recorded)) {
            CliContext.requireKnownEmbedder(chosen);        // never suggest re-indexing with a name that is none
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

    /**
     * The store of a run that writes in bulk ({@code index}, {@code migrate}): batched commits, and files read
     * without memory maps, so that what merges read is not counted in the run's resident memory.
     */
    private static LuceneDocumentStore.Builder writing(Location location, String embedder) {
        return lucene(location, embedder).commitMode(LuceneDocumentStore.CommitMode.BATCHED).bulkIndexing(true);
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
        if (rebuild != null) {
            context.err.println("ragkit: swapping the rebuilt index into " + location.path());
            context.err.flush();
            rebuild.replace();
        } else if (store instanceof LuceneDocumentStore) {
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
            if (rebuild != null) {
                rebuild.close();                 // discards the new index unless it was swapped in
            } else {
                store.close();
            }
        } finally {
            close(lockChannel);                  // releases the snapshot's lock
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
