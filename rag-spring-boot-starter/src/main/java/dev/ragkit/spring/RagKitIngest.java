package dev.ragkit.spring;

import dev.ragkit.embedding.Embedder;
import dev.ragkit.ingest.IndexReport;
import dev.ragkit.ingest.Indexer;
import dev.ragkit.store.DocumentStore;
import dev.ragkit.store.Scope;
import dev.ragkit.store.StoredDocument;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * Keeps the store in step with the folders of {@code ragkit.ingest.paths}: indexes them when the application starts,
 * on a background thread (startup is not held up; questions asked meanwhile see what is indexed so far), then scans
 * them again every {@code ragkit.ingest.interval}. Each pass is the {@link Indexer}'s incremental, syncing run: new
 * and changed files are read and embedded, unchanged ones (same bytes, same embedder) are not, and documents whose
 * files are gone are deleted. Each folder's documents are stored under its name ({@link Indexer#defaultPathPrefix}),
 * as {@code ragkit index} stores them. A failing folder or file is reported in {@link #state()} (and the health
 * details) and the next pass tries again; it never stops the application.
 *
 * <p>Why a periodic scan rather than a file watcher: the JDK's {@code WatchService} watches one folder (not a tree),
 * polls on macOS, misses changes on network and container-mounted file systems, and drops events on overflow; a
 * scan sees every change on every file system, and with unchanged files skipped by their hash it costs a read of
 * each file per interval.
 */
public class RagKitIngest implements SmartLifecycle {
    private static final Logger LOG = LoggerFactory.getLogger(RagKitIngest.class);
    /** How many failures {@link State#failures()} lists. */
    static final int LISTED_FAILURES = 20;

    /** Where the ingest is. */
    public enum Status {
        /** No {@code ragkit.ingest.paths}: nothing is ingested. */
        OFF,
        /** Configured; the first pass has not started. */
        STARTING,
        /** A pass is running. */
        INDEXING,
        /** The last pass finished (see its failures). */
        READY,
        /** The application stopped it. */
        STOPPED
    }

    /**
     * The index state after the last pass.
     *
     * @param status          where the ingest is
     * @param paths           the folders
     * @param tenant          their documents' tenant
     * @param documents       the documents stored from the folders
     * @param chunks          their chunks
     * @param passes          how many passes finished
     * @param lastIngest      when the last pass finished, or {@code null} before the first
     * @param lastDuration    how long it took, or {@code null}
     * @param indexed         files the last pass indexed (new or changed)
     * @param unchanged       files it left as stored
     * @param deleted         documents it deleted (their files were gone)
     * @param skipped         files it skipped (unsupported type, too large, possible secrets, …)
     * @param failedFiles     files or folders that failed in the last pass
     * @param failures        the first of them, each as {@code path: why}
     */
    public record State(Status status, List<Path> paths, String tenant, int documents, long chunks, long passes,
            @Nullable Instant lastIngest, @Nullable Duration lastDuration, int indexed, int unchanged, int deleted,
            int skipped, int failedFiles, List<String> failures) {

        /** Copies the lists. */
        public State {
            paths = List.copyOf(paths);
            failures = List.copyOf(failures);
        }

        State with(Status next) {
            return new State(next, paths, tenant, documents, chunks, passes, lastIngest, lastDuration, indexed,
                    unchanged, deleted, skipped, failedFiles, failures);
        }

        /** @return the health details: status, folders, counts, the last pass and its failures */
        public Map<String, Object> details() {
            Map<String, Object> d = new LinkedHashMap<>();
            d.put("status", status.name().toLowerCase(java.util.Locale.ROOT));
            d.put("paths", paths.stream().map(Path::toString).toList());
            d.put("tenant", tenant);
            d.put("documents", documents);
            d.put("chunks", chunks);
            d.put("passes", passes);
            if (lastIngest != null) {
                d.put("lastIngest", lastIngest.toString());
                d.put("lastIngestMs", lastDuration == null ? 0 : lastDuration.toMillis());
                d.put("indexed", indexed);
                d.put("unchanged", unchanged);
                d.put("deleted", deleted);
                d.put("skipped", skipped);
                d.put("failed", failedFiles);
                d.put("failures", failures);
            }
            return d;
        }
    }

    private final DocumentStore store;
    private final List<Path> paths;
    private final String tenant;
    private final Duration interval;
    private final Map<Path, Indexer> indexers = new LinkedHashMap<>();
    private final List<String> prefixes = new ArrayList<>();
    private final Clock clock;
    private final ReentrantLock passLock = new ReentrantLock();
    private final AtomicBoolean stopping = new AtomicBoolean();
    private volatile State state;
    private volatile @Nullable ScheduledExecutorService executor;

    /**
     * @param store    where the documents go
     * @param embedder embeds them; may be {@code null} only without paths
     * @param settings {@code ragkit.ingest.*}
     * @throws IllegalArgumentException naming the property, for a folder that does not exist, two folders of the same
     *                                  name, a bad glob, or no embedder
     */
    public RagKitIngest(DocumentStore store, @Nullable Embedder embedder, RagKitProperties.Ingest settings) {
        this(store, embedder, settings, Clock.systemUTC());
    }

    RagKitIngest(DocumentStore store, @Nullable Embedder embedder, RagKitProperties.Ingest settings, Clock clock) {
        this.store = Objects.requireNonNull(store, "store");
        this.tenant = settings.getTenant();
        this.interval = settings.getInterval();
        this.clock = clock;
        List<Path> folders = new ArrayList<>();
        Map<String, Path> byPrefix = new HashMap<>();
        for (int i = 0; i < settings.getPaths().size(); i++) {
            Path folder = settings.getPaths().get(i).toAbsolutePath().normalize();
            String property = "ragkit.ingest.paths[" + i + "]";
            if (!Files.isDirectory(folder)) {
                throw new IllegalArgumentException(property + ": " + folder + " is not a folder; name an existing "
                        + "folder of documents");
            }
            String prefix = Indexer.defaultPathPrefix(folder);
            Path other = byPrefix.putIfAbsent(prefix, folder);
            if (other != null) {
                throw new IllegalArgumentException(property + ": " + folder + " and " + other + " have the same name, '"
                        + prefix + "', under which their documents are stored; rename one of them (or serve it with "
                        + "another tenant from another application)");
            }
            if (embedder == null) {
                throw new IllegalArgumentException("ragkit.ingest.paths needs an embedder: declare an Embedder bean or "
                        + "set ragkit.embedder.provider");
            }
            Indexer.Builder indexer = Indexer.builder().store(store).embedder(embedder).tenant(tenant).sync(true)
                    .pathPrefix(prefix).exclude(settings.getExclude());
            if (!settings.getInclude().isEmpty()) {
                indexer.include(settings.getInclude());
            }
            if (settings.getThreads() != null) {
                indexer.threads(settings.getThreads());
            }
            indexers.put(folder, indexer.build());
            folders.add(folder);
            prefixes.add(prefix.isEmpty() ? "" : prefix + "/");
        }
        this.paths = List.copyOf(folders);
        this.state = new State(paths.isEmpty() ? Status.OFF : Status.STARTING, paths, tenant, 0, 0, 0, null, null,
                0, 0, 0, 0, 0, List.of());
    }

    /** @return the index state after the last pass (or before the first) */
    public State state() {
        return state;
    }

    /** Starts the first pass in the background, then one every interval (unless the interval is zero). */
    @Override
    public void start() {
        if (paths.isEmpty() || executor != null) {
            return;
        }
        stopping.set(false);
        ScheduledExecutorService service = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "ragkit-ingest");
            t.setDaemon(true);
            return t;
        });
        executor = service;
        if (interval.isZero()) {
            service.execute(this::passQuietly);
        } else {
            service.scheduleWithFixedDelay(this::passQuietly, 0, interval.toMillis(), TimeUnit.MILLISECONDS);
        }
        LOG.info("ingesting {} into tenant '{}' in the background{}", paths, tenant, interval.isZero() ? ""
                : ", then every " + interval);
    }

    /** Stops scanning: a running pass stops before its next file (what it stored stays) and is waited for. */
    @Override
    public void stop() {
        ScheduledExecutorService service = executor;
        if (service == null) {
            return;
        }
        stopping.set(true);
        service.shutdown();
        try {
            if (!service.awaitTermination(30, TimeUnit.SECONDS)) {
                LOG.warn("the ingest pass did not stop within 30 s; leaving it");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        executor = null;
        state = state.with(Status.STOPPED);
    }

    @Override
    public boolean isRunning() {
        return executor != null;
    }

    /**
     * Runs a pass now, on the calling thread, after the one running (if any) finished: for an application that knows
     * its folders changed and does not want to wait for the next scan.
     *
     * @return the state after the pass
     */
    public State ingestNow() {
        pass();
        return state;
    }

    private void passQuietly() {
        try {
            pass();
        } catch (RuntimeException e) {
            // never let an exception end the schedule: the next pass tries again
            LOG.warn("ingest pass failed: {}", e.toString(), e);
        }
    }

    private void pass() {
        if (paths.isEmpty()) {
            return;
        }
        passLock.lock();
        try {
            State before = state;
            state = before.with(Status.INDEXING);
            long started = System.nanoTime();
            int indexed = 0;
            int unchanged = 0;
            int deleted = 0;
            int skipped = 0;
            int failed = 0;
            List<String> failures = new ArrayList<>();
            for (Map.Entry<Path, Indexer> folder : indexers.entrySet()) {
                if (stopping.get()) {
                    break;
                }
                try {
                    IndexReport report = folder.getValue().index(folder.getKey(), stopping::get);
                    indexed += report.filesIndexed();
                    unchanged += report.filesUnchanged();
                    deleted += report.documentsDeleted();
                    skipped += report.filesSkipped().size();
                    failed += report.filesFailed().size();
                    for (IndexReport.FailedFile f : report.filesFailed()) {
                        note(failures, folder.getKey().resolve(f.path()) + ": " + f.message());
                    }
                } catch (RuntimeException e) {
                    failed++;
                    note(failures, folder.getKey() + ": " + e.getMessage());
                    LOG.warn("ingesting {} failed: {}", folder.getKey(), e.getMessage());
                }
            }
            boolean changed = indexed > 0 || deleted > 0 || before.passes() == 0;
            int documents = before.documents();
            long chunks = before.chunks();
            if (changed) {
                List<StoredDocument> stored = stored();
                documents = stored.size();
                chunks = 0;
                Scope admin = Scope.unrestricted(tenant);
                for (StoredDocument d : stored) {
                    chunks += store.chunksWithoutEmbeddings(admin, d.id()).size();
                }
            }
            state = new State(stopping.get() ? Status.STOPPED : Status.READY, paths, tenant, documents, chunks,
                    before.passes() + 1, clock.instant(), Duration.ofNanos(System.nanoTime() - started), indexed,
                    unchanged, deleted, skipped, failed, failures);
        } finally {
            passLock.unlock();
        }
    }

    /** The tenant's documents under the folders' prefixes. */
    private List<StoredDocument> stored() {
        List<StoredDocument> mine = new ArrayList<>();
        for (StoredDocument d : store.documents(Scope.unrestricted(tenant))) {
            if (prefixes.stream().anyMatch(p -> d.path().startsWith(p))) {
                mine.add(d);
            }
        }
        return mine;
    }

    private static void note(List<String> failures, String failure) {
        if (failures.size() < LISTED_FAILURES) {
            failures.add(failure);
        }
    }
}
