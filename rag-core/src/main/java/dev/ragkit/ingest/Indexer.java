package dev.ragkit.ingest;

import dev.ragkit.chunk.Chunker;
import dev.ragkit.chunk.TokenWindowChunker;
import dev.ragkit.embedding.CachingEmbedder;
import dev.ragkit.embedding.Embedder;
import dev.ragkit.parse.DocumentParser;
import dev.ragkit.parse.DocumentParsers;
import dev.ragkit.parse.DocumentPaths;

import dev.ragkit.audit.AuditFailurePolicy;
import dev.ragkit.audit.AuditOperation;
import dev.ragkit.audit.AuditOutcome;
import dev.ragkit.audit.AuditRecord;
import dev.ragkit.audit.AuditSink;
import dev.ragkit.audit.QueryRedaction;
import dev.ragkit.audit.AuditTrail;
import dev.ragkit.error.IngestException;
import dev.ragkit.internal.SetOnce;
import dev.ragkit.store.DocumentStore;
import dev.ragkit.store.Scope;
import dev.ragkit.store.StoredDocument;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import java.util.function.BooleanSupplier;
import java.util.regex.PatternSyntaxException;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Indexes a folder of documents into a {@link DocumentStore}: a {@link FolderScanner} walks it, a
 * {@link DocumentIngestor} turns each file into a document with embedded chunks, and the store takes each document
 * whole.
 *
 * <pre>{@code
 * Indexer indexer = Indexer.builder()
 *         .store(store)
 *         .embedder(CachingEmbedder.of(myEmbedder))
 *         .tenant("default")
 *         .exclude("**}{@code /drafts/**")              // every supported type is read unless excluded
 *         .sync(true)                                 // also delete documents whose files are gone
 *         .build();
 * IndexReport report = indexer.index(Path.of("docs"));
 * report.filesFailed().forEach(f -> System.err.println(f.path() + ": " + f.message()));
 * }</pre>
 *
 * <h2>What is read</h2>
 * Every file some {@link DocumentParser} reads ({@link DocumentParsers#standard()}: markdown, text and code in
 * {@code rag-core}; PDF, Word and HTML with {@code rag-documents} on the class path) whose root-relative path matches
 * an {@linkplain Builder#include(Collection) include glob} (default {@code **}{@code /*}) and no
 * {@linkplain Builder#exclude(Collection) exclude glob}. Every other file is listed in
 * {@link IndexReport#filesSkipped()} with its reason, and so are, never read: names that may hold secrets
 * ({@code .env*}, {@code *.pem}, {@code *.key}), hidden files and folders, files larger than their parser's limit
 * ({@link DocumentParser#maxBytes()}, or {@link Builder#maxFileBytes(long)} for all), symbolic links leaving the root
 * or looping, and what is not a regular file. Reading decides the rest: a document whose bytes no parser reads,
 * that is encrypted, has no text layer, or whose text is mostly secrets is skipped with that reason; one that cannot
 * be parsed, chunked or embedded fails. Files are opened without following a link at their last step.
 *
 * <h2>Secrets inside documents</h2>
 * A secret in a document that is otherwise worth indexing — a GitHub or Slack token, an AWS key, a
 * {@code password=} line, a private key block pasted into a runbook — is replaced where it stands by
 * {@code [REDACTED: <kind>]} before chunking, so it never reaches the embedder, the store or an answer, and the rest
 * of the document is indexed with its line numbers unchanged (see {@link DocumentIngestor}).
 * {@link IndexReport#filesRedacted()} names the files and lines, never the secrets, and so do the log and the audit
 * record's counts. {@link Builder#redactSecrets(boolean) redactSecrets(false)} turns it off.
 *
 * <h2>Incremental</h2>
 * A file whose bytes and embedder are those of its stored document (its SHA-256 and the embedder's name are kept in
 * the document's metadata) is not parsed, chunked or embedded again; the report counts it as unchanged.
 *
 * <h2>Failures, sync, audit</h2>
 * A file that fails is reported and the run goes on; its earlier version, if any, stays. A failure of the store
 * itself ends the run and propagates; documents stored before it stay whole. With {@link Builder#sync(boolean)
 * sync(true)}, after a finished run, the tenant's documents (under the path prefix) whose files are gone are deleted:
 * files the walk did not meet at all. A file the include/exclude globs leave out, of a type no parser reads, or
 * skipped or failed for any other reason still exists, and its document stays. Without sync, those documents stay
 * and the report counts them ({@link IndexReport#documentsGone()}). With an
 * {@link Builder#auditSink(AuditSink) audit sink}, each run writes one
 * {@link AuditOperation#INDEX} record: tenant, folder, counts, outcome and latency.
 *
 * <h2>One folder per prefix</h2>
 * Every stored document records the folder it was indexed from ({@link DocumentIngestor#ROOT_KEY}, its real path).
 * Before reading anything, a run refuses with an {@link IngestException} when the tenant holds documents under the
 * path prefix that were indexed from another folder that still exists: two folders both named {@code docs} would
 * otherwise overwrite each other, and a sync of one would delete the other's documents. The fix is a path prefix of
 * its own for the second folder. A folder that was moved or deleted no longer claims its prefix, and documents that
 * record no folder (indexed before folders were recorded) belong to whichever folder indexes their prefix.
 *
 * <h2>Memory, threads, restarts</h2>
 * A run streams: files are read, parsed and chunked a bounded way ahead, their chunks embedded in batches of
 * {@link Builder#batchSize(int)} texts and each batch's documents stored before the next batch is read, so memory
 * does not grow with the folder (only the walk's list of paths and the report's lists of skipped and failed files
 * do). The calling thread embeds and stores; {@link Builder#threads(int)} bounds the threads that read ahead.
 * Each stored document records when it was indexed ({@link DocumentIngestor#INDEXED_AT_KEY}, by the
 * {@link Builder#clock(Clock) clock}). With a store that makes writes durable in batches, a
 * {@link Builder#checkpoint(Duration, Runnable) checkpoint} commits them as the run goes: a run killed at any point
 * loses only the documents stored since the last checkpoint, and the next run skips the files committed before
 * (incremental re-indexing) and carries on with the rest.
 *
 * <h2>Cancellation</h2>
 * {@link #index(Path, BooleanSupplier)} checks its token before each folder, file and embedding batch; once it
 * answers {@code true} the run stops, the file in progress is not stored, and the report says
 * {@link IndexReport#cancelled()}. Listener calls are made on the calling thread. Parses run on their own daemon
 * thread, within the ingestor's time limit. An {@code Indexer} is immutable and thread-safe.
 */
public final class Indexer {

    /** The default include glob: every file (the parsers decide what can be read). */
    public static final List<String> DEFAULT_INCLUDE = List.of("**/*");

    /** The largest {@code maxFileBytes} accepted: a file is read into one array. */
    public static final long MAX_FILE_BYTES_LIMIT = Integer.MAX_VALUE - 64;

    /** The metadata key under which front matter {@code summary} is stored. */
    public static final String SUMMARY_KEY = DocumentIngestor.SUMMARY_KEY;

    /** The default of {@link Builder#threads(int)}: the number of cores. */
    public static final int DEFAULT_THREADS = Math.max(1, Runtime.getRuntime().availableProcessors());

    private static final Logger LOG = LoggerFactory.getLogger(Indexer.class);

    private final Builder settings;
    private final DocumentStore store;
    private final DocumentIngestor ingestor;
    private final FolderScanner scanner;
    private final IndexListener listener;
    private final boolean sync;
    private final boolean incremental;
    private final int threads;
    private final FileBatch.@Nullable Checkpoint checkpoint;
    private final @Nullable AuditTrail audit;
    private final Clock clock;

    private Indexer(Builder b, DocumentStore store, DocumentIngestor ingestor) {
        this.settings = b.copy();
        this.store = store;
        this.ingestor = ingestor;
        this.scanner = new FolderScanner(b.include, b.exclude, ingestor.parsers(), b.maxFileBytes);
        this.listener = b.listener;
        this.sync = b.sync;
        this.incremental = b.incremental;
        this.threads = b.threads;
        this.checkpoint = b.checkpointAction == null ? null
                : new FileBatch.Checkpoint(b.checkpointEvery, b.checkpointAction);
        this.audit = b.auditSink == null ? null : new AuditTrail(b.auditSink, b.auditFailurePolicy);
        this.clock = b.clock;
    }

    /** @return a builder; store, embedder and tenant must be set */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * The path prefix a folder's documents get by default in the CLI ({@code ragkit index}) and the Spring Boot
     * starter ({@code ragkit.ingest.paths}): the folder's own name, so that the same files get the same stored paths
     * from any working directory, and several folders can share a tenant.
     *
     * @param root a folder
     * @return its name, e.g. {@code docs} for {@code /srv/app/docs}; empty for a file-system root
     */
    public static String defaultPathPrefix(Path root) {
        Path name = Objects.requireNonNull(root, "root").toAbsolutePath().normalize().getFileName();
        return name == null ? "" : name.toString();
    }

    /** @return a builder holding this indexer's settings */
    public Builder toBuilder() {
        return settings.copy();
    }

    /** @return the ingestor that turns each file into a document (for documents that come from elsewhere) */
    public DocumentIngestor ingestor() {
        return ingestor;
    }

    /**
     * Indexes every readable file under {@code root}; see the class description.
     *
     * @param root the folder holding the documents
     * @return what was indexed, left unchanged, skipped, failed and deleted
     * @throws IngestException when {@code root} does not exist, is not a folder or cannot be listed
     * @throws dev.ragkit.store.StoreException when the store fails (documents stored before stay whole)
     */
    public IndexReport index(Path root) {
        return index(root, () -> false);
    }

    /**
     * Indexes every readable file under {@code root}, stopping early once {@code cancelRequested} answers
     * {@code true} (asked before each folder, file and embedding batch, on the calling thread).
     *
     * @param root            the folder holding the documents
     * @param cancelRequested asked whether to stop
     * @return what was done; {@link IndexReport#cancelled()} when stopped early
     * @throws IngestException when {@code root} does not exist, is not a folder or cannot be listed
     * @throws dev.ragkit.store.StoreException when the store fails (documents stored before stay whole)
     */
    public IndexReport index(Path root, BooleanSupplier cancelRequested) {
        Objects.requireNonNull(root, "root");
        Objects.requireNonNull(cancelRequested, "cancelRequested");
        Instant at = clock.instant();
        try {
            IndexReport report = run(root, cancelRequested, at);
            audit(at, root, report, null);
            return report;
        } catch (RuntimeException | Error e) {
            audit(at, root, null, e);
            throw e;
        }
    }

    private IndexReport run(Path root, BooleanSupplier cancelRequested, Instant started) {
        FolderScanner.Scan scan = scanner.scan(root, cancelRequested);
        claimPrefix(scan.realRoot);
        IndexRun run = new IndexRun(scan, listener, ingestor.embedder(), clock, started);
        listener.onStart(run.filesTotal());
        for (IndexReport.SkippedFile s : scan.skipped) {
            run.skipped(s, typeOf(s.path()));
        }
        for (FolderScanner.Failure f : scan.failed) {
            run.failed(f.report().path(), "folder", f.error());
        }
        listener.onProgress(run.progress());
        boolean cancelled = scan.cancelled || !indexFiles(scan, run, cancelRequested);
        List<StoredDocument> gone = cancelled ? List.of() : gone(scan);
        int deleted = sync ? delete(gone) : 0;
        IndexReport report = run.finish(deleted, sync ? 0 : gone.size(), cancelled);
        // a run that changed nothing (a periodic rescan of an unchanged folder) is not worth a line at INFO
        boolean nothing = report.filesIndexed() == 0 && deleted == 0 && report.filesFailed().isEmpty() && !cancelled;
        String line = "indexed {} of {} files under {} into tenant '{}': {} unchanged, {} chunks, {} skipped, {} failed,"
                + " {} deleted, {} secret lines redacted in {} files{} in {} ms ({} threads; time by stage, summed "
                + "over threads: {})";
        Object[] values = {report.filesIndexed(), run.filesTotal(), scan.realRoot, ingestor.tenant(),
                report.filesUnchanged(), report.chunks(), report.filesSkipped().size(), report.filesFailed().size(),
                deleted, report.linesRedacted(), report.filesRedacted().size(), cancelled ? ", cancelled" : "",
                report.elapsed().toMillis(), threads, run.stages()};
        if (nothing) {
            LOG.debug(line, values);
        } else {
            LOG.info(line, values);
        }
        return report;
    }

    /**
     * Reads, chunks, embeds and stores the walk's files, one bounded batch at a time, reading ahead on the run's
     * other threads.
     *
     * @return false when cancelled
     */
    private boolean indexFiles(FolderScanner.Scan scan, IndexRun run, BooleanSupplier cancelRequested) {
        FileBatch batch = new FileBatch(run, store, ingestor, cancelRequested, checkpoint);
        try (ReadAhead files = new ReadAhead(scan.candidates, this::storedDocuments,
                (candidate, stored) -> FileBatch.prepare(run, ingestor, candidate, stored), threads)) {
            while (files.hasNext()) {
                if (cancelRequested.getAsBoolean() || !batch.add(files.next())) {
                    return false;
                }
            }
        }
        return batch.flush();
    }

    /** The stored documents of some candidates, by root-relative path, in one lookup; none when not incremental. */
    private Map<String, StoredDocument> storedDocuments(List<FolderScanner.Candidate> candidates) {
        if (!incremental) {
            return Map.of();
        }
        List<String> paths = new ArrayList<>(candidates.size());
        candidates.forEach(c -> paths.add(ingestor.storedPath(c.path())));
        Map<String, StoredDocument> byPath = new HashMap<>();
        String prefix = ingestor.pathPrefix();
        for (StoredDocument d : store.findByPaths(Scope.unrestricted(ingestor.tenant()), paths)) {
            byPath.put(d.path().substring(prefix.length()), d);
        }
        return byPath;
    }

    /**
     * Makes sure the path prefix is this root's: the tenant's documents under it were indexed from this folder, from
     * none recorded (indexed before roots were), or from a folder that no longer exists (moved or deleted).
     *
     * @throws IngestException naming the other folder and the fix, when another existing folder holds the prefix
     */
    private void claimPrefix(Path realRoot) {
        String root = realRoot.toString();
        String pathPrefix = ingestor.pathPrefix();
        Map<String, Boolean> others = new HashMap<>();
        for (StoredDocument document : store.documents(Scope.unrestricted(ingestor.tenant()))) {
            String theirs = document.metadata().get(DocumentIngestor.ROOT_KEY);
            if (document.path().startsWith(pathPrefix) && theirs != null && !theirs.equals(root)
                    && others.computeIfAbsent(theirs, Indexer::existingFolder)) {
                throw new IngestException(root, 0, "tenant '" + ingestor.tenant() + "' already holds documents "
                        + (pathPrefix.isEmpty() ? "without a path prefix" : "under '" + pathPrefix + "'")
                        + " indexed from another folder, " + theirs + "; indexing this one there too would overwrite"
                        + " them, and a sync would delete them. Nothing was indexed. Give this folder its own path"
                        + " prefix (ragkit index --prefix " + suggestedPrefix(realRoot) + "; Indexer.Builder"
                        + ".pathPrefix) or another tenant", null);
            }
        }
    }

    private static boolean existingFolder(String path) {
        try {
            return Files.isDirectory(Path.of(path));
        } catch (RuntimeException e) {
            return false;
        }
    }

    /** @return a prefix from the root's parent and own name, e.g. {@code y-docs} for {@code /y/docs} */
    private static String suggestedPrefix(Path realRoot) {
        Path name = realRoot.getFileName();
        Path parent = realRoot.getParent() == null ? null : realRoot.getParent().getFileName();
        String own = name == null ? "root" : name.toString();
        String suggestion = parent == null ? own + "-2" : parent + "-" + own;
        return suggestion.replaceAll("[^A-Za-z0-9._-]", "-");
    }

    /** @return the tenant's documents of this folder (under the prefix) whose files are gone */
    private List<StoredDocument> gone(FolderScanner.Scan scan) {
        Set<String> present = scan.seen();
        String pathPrefix = ingestor.pathPrefix();
        String root = scan.realRoot.toString();
        List<StoredDocument> gone = new ArrayList<>();
        for (StoredDocument document : store.documents(Scope.unrestricted(ingestor.tenant()))) {
            if (!document.path().startsWith(pathPrefix)) {
                continue;                       // another folder's document in the same tenant
            }
            String theirs = document.metadata().get(DocumentIngestor.ROOT_KEY);
            if (theirs != null && !theirs.equals(root) && existingFolder(theirs)) {
                continue;                       // another folder's, under the same prefix (never deleted by this one)
            }
            String path = document.path().substring(pathPrefix.length());
            if (!present.contains(path) && !scan.underUnlistedFolder(path)) {
                gone.add(document);
            }
        }
        return gone;
    }

    private int delete(List<StoredDocument> gone) {
        Scope admin = Scope.unrestricted(ingestor.tenant());
        int deleted = 0;
        for (StoredDocument document : gone) {
            if (store.delete(admin, document.id())) {
                LOG.debug("sync deleted {} (file gone)", document.path());
                deleted++;
            }
        }
        return deleted;
    }

    private void audit(Instant at, Path root, @Nullable IndexReport report, @Nullable Throwable error) {
        AuditTrail trail = audit;
        if (trail == null) {
            return;
        }
        Map<String, Long> counts = new LinkedHashMap<>();
        if (report != null) {
            counts.put("indexed", (long) report.filesIndexed());
            counts.put("unchanged", (long) report.filesUnchanged());
            counts.put("skipped", (long) report.filesSkipped().size());
            counts.put("failed", (long) report.filesFailed().size());
            counts.put("deleted", (long) report.documentsDeleted());
            counts.put("chunks", report.chunks());
            counts.put("tokens", report.tokens());
            counts.put("redactedFiles", (long) report.filesRedacted().size());
            counts.put("redactedLines", report.linesRedacted());
        }
        String what = root.toString();
        AuditRecord record = AuditRecord.builder(AuditOperation.INDEX).timestamp(at)
                .requestId(UUID.randomUUID().toString()).tenant(ingestor.tenant()).query(what, QueryRedaction.NONE)
                .model(settings.embedderName()).latencyMillis(Duration.between(at, clock.instant()).toMillis())
                .outcome(error == null ? AuditOutcome.INDEXED : AuditOutcome.ERROR,
                        error == null ? null : error.getClass().getName()).counts(counts).build();
        trail.write(record, error);
    }

    /** The type a path is reported under: its parser's id, or its extension when no parser reads it. */
    private String typeOf(String path) {
        return ingestor.parsers().forPath(path).map(DocumentParser::id)
                .orElseGet(() -> DocumentPaths.extension(path).isEmpty() ? "(none)" : "." + DocumentPaths
                        .extension(path));
    }

    // -------------------------------------------------------------------------------------------------------------

    /** Builds an {@link Indexer}. Not thread-safe. */
    public static final class Builder {
        private @Nullable DocumentStore store;
        private DocumentIngestor.Builder ingestor = DocumentIngestor.builder();
        private List<String> include = DEFAULT_INCLUDE;
        private List<String> exclude = List.of();
        private @Nullable Long maxFileBytes;
        private IndexListener listener = IndexListener.NONE;
        private boolean sync;
        private boolean incremental = true;
        private int threads = DEFAULT_THREADS;
        private Duration checkpointEvery = Duration.ZERO;
        private @Nullable Runnable checkpointAction;
        private @Nullable AuditSink auditSink;
        private AuditFailurePolicy auditFailurePolicy = AuditFailurePolicy.LOG_AND_CONTINUE;
        private boolean auditFailurePolicySet;
        /** Stages set on this builder; one from toBuilder() may replace each inherited stage once. */
        private SetOnce stages = new SetOnce("To replace a stage of an indexer, call toBuilder() on it");
        private Clock clock = Clock.systemUTC();

        private Builder() {
        }

        Builder copy() {
            Builder b = new Builder();
            b.store = store;
            b.ingestor = ingestor.copy();
            b.include = include;
            b.exclude = exclude;
            b.maxFileBytes = maxFileBytes;
            b.listener = listener;
            b.sync = sync;
            b.incremental = incremental;
            b.threads = threads;
            b.checkpointEvery = checkpointEvery;
            b.checkpointAction = checkpointAction;
            b.auditSink = auditSink;
            b.auditFailurePolicy = auditFailurePolicy;
            b.auditFailurePolicySet = auditFailurePolicySet;
            b.clock = clock;
            return b;
        }

        String embedderName() {
            return ingestor.embedder == null ? "" : ingestor.embedder.name();
        }

        /** @param store where documents go (required) @return this builder */
        public Builder store(DocumentStore store) {
            stages.set("store");
            this.store = Objects.requireNonNull(store, "store");
            return this;
        }

        /**
         * @param embedder the model that embeds the chunks (required); wrap it in {@link CachingEmbedder} so that
         *                 re-indexing unchanged text does not call the model again
         * @return this builder
         */
        public Builder embedder(Embedder embedder) {
            stages.set("embedder");
            ingestor.embedder(embedder);
            return this;
        }

        /**
         * @param tenant the tenant the documents belong to (required; a single-tenant application can use
         *               {@code "default"})
         * @return this builder
         * @throws IllegalArgumentException when blank
         */
        public Builder tenant(String tenant) {
            ingestor.tenant(tenant);
            return this;
        }

        /**
         * @param parsers the parsers to choose from by type (default {@link DocumentParsers#standard()})
         * @return this builder
         */
        public Builder parsers(DocumentParsers parsers) {
            stages.set("parsers");
            ingestor.parsers(parsers);
            return this;
        }

        /**
         * @param parser the only parser: files of other types are skipped as unsupported
         * @return this builder
         */
        public Builder parser(DocumentParser parser) {
            return parsers(DocumentParsers.of(List.of(Objects.requireNonNull(parser, "parser"))));
        }

        /**
         * @param chunker the chunker; default {@link TokenWindowChunker#forEmbedder} (chunks the embedder reads whole:
         *                windows of its input limit on its own tokenizer, or 500 tokens with 50 overlap, counting
         *                with {@code TokenCounters.jtokkit()})
         * @return this builder
         */
        public Builder chunker(Chunker chunker) {
            stages.set("chunker");
            ingestor.chunker(chunker);
            return this;
        }

        /**
         * Sets the globs a file's root-relative path must match (any of them) to be read, replacing the default
         * {@code **}{@code /*}. Syntax of {@link java.nio.file.FileSystem#getPathMatcher} {@code glob:}; a glob
         * starting with {@code **}{@code /} also matches files in the root.
         *
         * @param globs the globs, at least one
         * @return this builder
         * @throws IllegalArgumentException when empty, or a glob is blank or malformed
         */
        public Builder include(Collection<String> globs) {
            this.include = globs(globs, "include", false);
            return this;
        }

        /**
         * @param globs the globs, at least one; see {@link #include(Collection)}
         * @return this builder
         */
        public Builder include(String... globs) {
            return include(List.of(Objects.requireNonNull(globs, "globs")));
        }

        /**
         * @param globs paths matching any of these are left out (and listed as excluded), whatever the include
         *              globs say; default none
         * @return this builder
         * @throws IllegalArgumentException when a glob is blank or malformed
         */
        public Builder exclude(Collection<String> globs) {
            this.exclude = globs(globs, "exclude", true);
            return this;
        }

        /**
         * @param globs see {@link #exclude(Collection)}
         * @return this builder
         */
        public Builder exclude(String... globs) {
            return exclude(List.of(Objects.requireNonNull(globs, "globs")));
        }

        private static List<String> globs(Collection<String> globs, String what, boolean emptyAllowed) {
            Objects.requireNonNull(globs, "globs");
            if (globs.isEmpty() && !emptyAllowed) {
                throw new IllegalArgumentException(what + " needs at least one glob, e.g. **/*.md");
            }
            List<String> copy = new ArrayList<>(globs.size());
            for (String glob : globs) {
                Objects.requireNonNull(glob, "glob");
                if (glob.isBlank()) {
                    throw new IllegalArgumentException("an " + what + " glob must not be blank");
                }
                try {
                    FileSystems.getDefault().getPathMatcher("glob:" + glob);
                } catch (PatternSyntaxException e) {
                    throw new IllegalArgumentException(what + " glob '" + glob + "' is malformed: "
                            + e.getDescription(), e);
                }
                copy.add(glob);
            }
            return List.copyOf(copy);
        }

        /**
         * @param bytes the largest file to read, whatever its type, from 1 to {@link #MAX_FILE_BYTES_LIMIT}; larger
         *              files are skipped unread. Default: each parser's own limit ({@link DocumentParser#maxBytes()})
         * @return this builder
         * @throws IllegalArgumentException when out of range
         */
        public Builder maxFileBytes(long bytes) {
            if (bytes < 1 || bytes > MAX_FILE_BYTES_LIMIT) {
                throw new IllegalArgumentException("maxFileBytes must be in 1.." + MAX_FILE_BYTES_LIMIT + ", got "
                        + bytes);
            }
            this.maxFileBytes = bytes;
            return this;
        }

        /**
         * @param texts the most chunk texts per {@link Embedder#embed} call, at least 1; default 64
         * @return this builder
         * @throws IllegalArgumentException when below 1
         */
        public Builder batchSize(int texts) {
            ingestor.batchSize(texts);
            return this;
        }

        /** @param timeout the longest one file's parse may take (default one minute) @return this builder */
        public Builder parseTimeout(Duration timeout) {
            ingestor.parseTimeout(timeout);
            return this;
        }

        /**
         * @param redact whether each secret found in a document's lines (a token of a well-known format, a
         *               credential assignment, a private key block) is replaced by {@code [REDACTED: <kind>]} before
         *               chunking and embedding, keeping the rest of the document (default {@code true}); the report
         *               lists the files and lines ({@link IndexReport#filesRedacted()}). With {@code false} the text
         *               is indexed as it is, except that a document holding a private key block or mostly secrets is
         *               still skipped whole. Switching it re-reads every file on the next run
         * @return this builder
         */
        public Builder redactSecrets(boolean redact) {
            ingestor.redactSecrets(redact);
            return this;
        }

        /** @param listener observes the run; default {@link IndexListener#NONE} @return this builder */
        public Builder listener(IndexListener listener) {
            stages.set("listener");
            this.listener = Objects.requireNonNull(listener, "listener");
            return this;
        }

        /**
         * @param sync whether to delete, after a finished run, the tenant's documents whose files are gone (see
         *             the class description); default {@code false}
         * @return this builder
         */
        public Builder sync(boolean sync) {
            this.sync = sync;
            return this;
        }

        /**
         * @param incremental whether a file whose bytes and embedder did not change is left as it is stored (the
         *                    default); {@code false} reads every file again
         * @return this builder
         */
        public Builder incremental(boolean incremental) {
            this.incremental = incremental;
            return this;
        }

        /**
         * Stores every document (and link) under this prefix, so several folders can share one tenant: indexing
         * {@code docs} with prefix {@code docs/} stores {@code docs/install.md}, and sync then considers only the
         * tenant's documents under {@code docs/}. Reports keep paths relative to the root.
         *
         * @param prefix a relative folder path such as {@code docs} or {@code team/docs} (a trailing {@code /} is
         *               added), or empty for none (the default)
         * @return this builder
         * @throws IllegalArgumentException when the prefix is absolute, holds {@code .} or {@code ..} segments,
         *                                  backslashes or empty segments
         */
        public Builder pathPrefix(String prefix) {
            Objects.requireNonNull(prefix, "prefix");
            String p = prefix.endsWith("/") ? prefix.substring(0, prefix.length() - 1) : prefix;
            if (!p.isEmpty()) {
                for (String segment : p.split("/", -1)) {
                    if (segment.isEmpty() || segment.equals(".") || segment.equals("..") || segment.contains("\\")) {
                        throw new IllegalArgumentException("pathPrefix must be a relative folder path like 'docs' or "
                                + "'team/docs', got '" + prefix + "'");
                    }
                }
                p = p + "/";
            }
            ingestor.pathPrefix(p);                 // kept there only: the ingestor makes the stored paths
            return this;
        }

        /**
         * Bounds the threads a run works on: the calling thread embeds and stores, and {@code threads − 1} threads
         * of the run read, parse and chunk the next files meanwhile (at most {@value ReadAhead#MAX_FILES_AHEAD}
         * files and 64 MB ahead). Each parse also runs on a thread of its own, under its time limit, while the
         * thread that started it waits. An embedder that runs its own threads (the in-process ONNX embedder runs one
         * per core) is bounded by its own settings, not this one. An application that indexes while it serves
         * queries (the Spring Boot starter's startup ingestion) leaves cores to the queries with a smaller number.
         *
         * @param threads from 1 (everything on the calling thread) to 256; default the number of cores
         *                ({@link #DEFAULT_THREADS})
         * @return this builder
         * @throws IllegalArgumentException when out of range
         */
        public Builder threads(int threads) {
            if (threads < 1 || threads > 256) {
                throw new IllegalArgumentException("threads must be from 1 to 256, got " + threads);
            }
            this.threads = threads;
            return this;
        }

        /**
         * Runs {@code action} on the indexing thread after a batch of documents is stored, when at least
         * {@code every} (by the indexer's clock) has passed since the run started or the last checkpoint: e.g. a
         * commit of a store that makes writes durable in batches (Lucene's {@code CommitMode.BATCHED} and its
         * {@code flush()}), so that a run killed at any point loses only what was stored since, and the next run,
         * finding the committed files unchanged, carries on where it stopped. An exception from it ends the run.
         *
         * @param every  the least time between two checkpoints; {@link Duration#ZERO} for one after every batch
         * @param action what to do
         * @return this builder
         * @throws IllegalArgumentException when {@code every} is negative
         */
        public Builder checkpoint(Duration every, Runnable action) {
            Objects.requireNonNull(every, "every");
            if (every.isNegative()) {
                throw new IllegalArgumentException("checkpoint interval must not be negative, got " + every);
            }
            stages.set("checkpoint");
            this.checkpointEvery = every;
            this.checkpointAction = Objects.requireNonNull(action, "action");
            return this;
        }

        /**
         * @param sink receives one {@link AuditOperation#INDEX} record per run (default: none)
         * @return this builder
         */
        public Builder auditSink(AuditSink sink) {
            stages.set("auditSink");
            this.auditSink = Objects.requireNonNull(sink, "sink");
            return this;
        }

        /** @param policy what a failing audit sink does (default LOG_AND_CONTINUE) @return this builder */
        public Builder auditFailurePolicy(AuditFailurePolicy policy) {
            this.auditFailurePolicy = Objects.requireNonNull(policy, "policy");
            this.auditFailurePolicySet = true;
            return this;
        }

        /**
         * @param clock stamps audit records and each stored document ({@link DocumentIngestor#INDEXED_AT_KEY}), and
         *              times the run (its progress and report); default the UTC system clock
         * @return this builder
         */
        public Builder clock(Clock clock) {
            stages.set("clock");
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        /**
         * @return the indexer
         * @throws IllegalStateException when store, embedder or tenant is missing (all missing ones are named)
         */
        public Indexer build() {
            List<String> missing = new ArrayList<>();
            if (store == null) {
                missing.add("store(..)");
            }
            if (ingestor.embedder == null) {
                missing.add("embedder(..)");
            }
            if (ingestor.tenant == null) {
                missing.add("tenant(..)");
            }
            if (!missing.isEmpty()) {
                throw new IllegalStateException("an Indexer needs a store, an embedder and a tenant; call "
                        + String.join(", ", missing) + " (a single-tenant application can use tenant(\"default\"))");
            }
            if (auditSink == null && auditFailurePolicySet) {
                throw new IllegalStateException("auditFailurePolicy(..) was set without auditSink(..): without a "
                        + "sink there is no audit to fail; add auditSink(..) or drop the policy");
            }
            return new Indexer(this, Objects.requireNonNull(store), ingestor.build());
        }
    }
}
