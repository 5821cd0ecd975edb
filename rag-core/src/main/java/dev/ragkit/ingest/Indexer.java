package dev.ragkit.ingest;

import dev.ragkit.error.IngestException;
import dev.ragkit.tokens.TokenCounters;
import dev.ragkit.store.DocumentStore;
import dev.ragkit.store.Scope;
import dev.ragkit.store.StoredChunk;
import dev.ragkit.store.StoredDocument;
import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.Channels;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.regex.PatternSyntaxException;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Indexes a folder of documents into a {@link DocumentStore}: walks it, parses each file, chunks it, embeds the
 * chunks in batches and upserts the document with its chunks.
 *
 * <pre>{@code
 * DocumentStore store = InMemoryDocumentStore.builder().build();
 * Indexer indexer = Indexer.builder()
 *         .store(store)
 *         .embedder(CachingEmbedder.of(myEmbedder))   // any Embedder; the cache spares re-embedding
 *         .tenant("default")
 *         .sync(true)                                 // also delete documents whose files are gone
 *         .listener(new IndexListener() {
 *             public void onProgress(IndexProgress p) { System.out.println(p.filesDone() + "/" + p.filesTotal()); }
 *         })
 *         .build();
 * IndexReport report = indexer.index(Path.of("docs"));
 * report.filesFailed().forEach(f -> System.err.println(f.path() + ": " + f.message()));
 * }</pre>
 *
 * <h2>What is read</h2>
 * The root is walked depth-first, each folder's entries in name order. A file is indexed when its root-relative
 * path matches one of the {@linkplain Builder#include(Collection) include globs} (default {@link #DEFAULT_INCLUDE};
 * a glob starting with {@code **}{@code /} also matches files directly in the root). Before anything is opened,
 * these are skipped and reported ({@link IndexReport#filesSkipped()}, {@link IndexListener#onFileSkipped}), never
 * read, whatever the globs say:
 * <ul>
 *   <li>names that may hold secrets: {@code .env*}, {@code *.pem}, {@code *.key} ({@link SkipReason#SECRET});</li>
 *   <li>hidden files and folders, whose name starts with {@code .}; a hidden folder is not entered
 *       ({@link SkipReason#HIDDEN});</li>
 *   <li>matching files larger than {@link Builder#maxFileBytes(long)}, default 10 MiB ({@link SkipReason#TOO_LARGE});
 *       a file that grows past the limit while being read is skipped the same way;</li>
 *   <li>symbolic links whose target lies outside the root ({@link SkipReason#SYMLINK_OUTSIDE_ROOT}), links to a
 *       folder that contains them ({@link SkipReason#SYMLINK_LOOP}) and links that cannot be resolved
 *       ({@link SkipReason#BROKEN_SYMLINK}); a link is resolved without opening its target;</li>
 *   <li>matching names that are not regular files, such as named pipes ({@link SkipReason#NOT_REGULAR_FILE}).</li>
 * </ul>
 * Symbolic links that stay inside the root are followed, to files and to folders; the document's path is the
 * link's path, so a file reachable through two paths is stored twice. The root itself may be a link and may be
 * hidden. Files that match no glob are ignored without a report. Files are opened without following links, so a
 * file swapped for a link after the walk is not read through it.
 *
 * <h2>What is stored</h2>
 * Each file is read as UTF-8 (a byte-order mark is dropped; invalid UTF-8 or a NUL byte fails the file) and
 * parsed by the {@link MarkdownDocumentParser} under its root-relative path with {@code /} separators ({@code .txt}
 * files too: plain text is markdown without front matter). Its chunks are embedded in batches of
 * {@link Builder#batchSize(int)} texts, each batch one {@link Embedder#embed} call, and the result is checked (one
 * vector per text, the embedder's dimension, finite, not all zero). Then {@link DocumentStore#upsert} stores the
 * document with all its chunks at once. The document's id is {@link StoredDocument#idFor}(tenant, path), so
 * indexing the same folder again replaces each document instead of adding one. Front matter maps to the
 * document: {@code title}, {@code doc_type}, {@code promotion_level}, {@code date}, {@code tags} → access tags,
 * {@code owner} → owner tag, links, other fields → metadata, and {@code summary} → metadata key
 * {@value #SUMMARY_KEY}. A file with an empty body is stored with no chunks, so it can still be found by path
 * and followed by links.
 *
 * <h2>Failures</h2>
 * A file that cannot be read, decoded, parsed, chunked or embedded is reported in {@link IndexReport#filesFailed()}
 * and to {@link IndexListener#onFileFailed}, and the run carries on with the next file; nothing of that file is
 * stored, and its earlier version, if any, stays. A failure of the store itself ({@code StoreException}, or an
 * {@code IllegalArgumentException} such as a dimension that differs from the store's) ends the run and
 * propagates: it would fail every file the same way. Documents stored before it stay stored, each one whole.
 *
 * <h2>Sync</h2>
 * With {@link Builder#sync(boolean) sync(true)}, after a run that was not cancelled, the tenant's documents whose
 * path the walk did not meet are deleted. Every file the walk met keeps its document, whether it was indexed,
 * skipped or failed this time (a file that failed keeps its last good version), and so do documents under a
 * folder that could not be listed. Files that no longer match the globs, and files inside hidden folders, count
 * as gone. Stored paths are relative to the root, so two folders sharing a tenant need a
 * {@link Builder#pathPrefix(String) path prefix} each: sync then only considers documents under its own prefix.
 *
 * <h2>Cancellation and threads</h2>
 * {@link #index(Path, BooleanSupplier)} checks its token before each folder, file and embedding batch; once it
 * answers {@code true} the run stops, the file in progress is not stored (its earlier version stays), and the
 * report says {@link IndexReport#cancelled()}. A run works on the calling thread only; there is no hidden
 * thread pool. An {@code Indexer} is immutable and thread-safe: several threads may index different roots
 * with it at once (its listener is then called from each of them).
 */
public final class Indexer {

    /** The default include globs: markdown and plain-text files at any depth, the root included. */
    public static final List<String> DEFAULT_INCLUDE = List.of("**/*.md", "**/*.markdown", "**/*.txt");

    /** The default largest file read: 10 MiB. */
    public static final long DEFAULT_MAX_FILE_BYTES = 10L * 1024 * 1024;

    /** The largest {@code maxFileBytes} accepted: a file is read into one array. */
    public static final long MAX_FILE_BYTES_LIMIT = Integer.MAX_VALUE - 64;

    /** The default number of chunk texts per {@link Embedder#embed} call. */
    public static final int DEFAULT_BATCH_SIZE = 64;

    /** The metadata key under which front matter {@code summary} is stored. */
    public static final String SUMMARY_KEY = "summary";

    private static final Logger LOG = LoggerFactory.getLogger(Indexer.class);

    private final DocumentStore store;
    private final Embedder embedder;
    private final String tenant;
    private final MarkdownDocumentParser parser;
    private final Chunker chunker;
    private final List<String> include;
    private final long maxFileBytes;
    private final int batchSize;
    private final IndexListener listener;
    private final boolean sync;
    private final String pathPrefix;

    private Indexer(Builder b, DocumentStore store, Embedder embedder, String tenant, MarkdownDocumentParser parser,
            Chunker chunker) {
        this.store = store;
        this.embedder = embedder;
        this.tenant = tenant;
        this.parser = parser;
        this.chunker = chunker;
        this.include = b.include;
        this.maxFileBytes = b.maxFileBytes;
        this.batchSize = b.batchSize;
        this.listener = b.listener;
        this.sync = b.sync;
        this.pathPrefix = b.pathPrefix;
    }

    /**
     * A new builder.
     *
     * @return a builder with the defaults of this class; store, embedder and tenant must be set
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * A builder holding this indexer's settings.
     *
     * @return a builder that builds an equivalent indexer until changed
     */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.store = store;
        b.embedder = embedder;
        b.tenant = tenant;
        b.parser = parser;
        b.chunker = chunker;
        b.include = include;
        b.maxFileBytes = maxFileBytes;
        b.batchSize = batchSize;
        b.listener = listener;
        b.sync = sync;
        b.pathPrefix = pathPrefix;
        return b;
    }

    /**
     * Indexes every matching file under {@code root}; see the class description.
     *
     * @param root the folder holding the documents
     * @return what was indexed, skipped, failed and deleted
     * @throws IngestException when {@code root} does not exist, is not a folder or cannot be listed
     * @throws dev.ragkit.store.StoreException when the store fails (documents stored before stay whole)
     */
    public IndexReport index(Path root) {
        return index(root, () -> false);
    }

    /**
     * Indexes every matching file under {@code root}, stopping early once {@code cancelRequested} answers
     * {@code true}. It is asked before each folder of the walk, each file and each embedding batch, on the calling
     * thread; pass e.g.
     * {@code stop::get} of an {@link java.util.concurrent.atomic.AtomicBoolean} set from another thread or from
     * the listener.
     *
     * @param root            the folder holding the documents
     * @param cancelRequested asked whether to stop
     * @return what was indexed, skipped, failed and deleted; {@link IndexReport#cancelled()} when stopped early
     * @throws IngestException when {@code root} does not exist, is not a folder or cannot be listed
     * @throws dev.ragkit.store.StoreException when the store fails (documents stored before stay whole)
     */
    public IndexReport index(Path root, BooleanSupplier cancelRequested) {
        Objects.requireNonNull(root, "root");
        Objects.requireNonNull(cancelRequested, "cancelRequested");
        long started = System.nanoTime();
        Path realRoot = realFolder(root);
        Walk walk = new Walk(realRoot, matchers(realRoot.getFileSystem()), cancelRequested);
        walk.folder(realRoot, "");
        walk.candidates.sort(Comparator.comparing(Candidate::path));
        walk.skipped.sort(Comparator.comparing(IndexReport.SkippedFile::path));
        walk.failed.sort(Comparator.comparing(f -> f.report().path()));

        List<IndexReport.SkippedFile> skipped = new ArrayList<>(walk.skipped);
        List<IndexReport.FailedFile> failed = new ArrayList<>();
        int total = walk.candidates.size();
        listener.onStart(total);
        for (IndexReport.SkippedFile s : walk.skipped) {
            LOG.debug("skipped {}: {} ({})", s.path(), s.reason().description(), s.detail());
            listener.onFileSkipped(s.path(), s.reason(), s.detail());
        }
        for (WalkFailure f : walk.failed) {
            LOG.warn("{}", f.error().getMessage());
            failed.add(f.report());
            listener.onFileFailed(f.report().path(), f.error());
        }
        listener.onProgress(new IndexProgress(0, total, 0, 0, since(started)));

        boolean cancelled = walk.cancelled;
        int done = 0;
        int indexed = 0;
        long chunks = 0;
        long tokens = 0;
        long linksDropped = 0;
        long linksBroken = 0;
        for (Candidate candidate : walk.candidates) {
            if (cancelled || cancelRequested.getAsBoolean()) {
                cancelled = true;
                break;
            }
            Outcome outcome = prepare(candidate, cancelRequested);
            if (outcome instanceof Outcome.Cancelled) {
                cancelled = true;
                break;
            }
            if (outcome instanceof Outcome.Ready ready) {
                // Outside the per-file error handling: a store failure ends the run.
                store.upsert(ready.document(), ready.chunks());
                indexed++;
                chunks += ready.chunks().size();
                tokens += ready.tokens();
                linksDropped += ready.droppedLinks();
                linksBroken += brokenLinks(realRoot, ready.document());
                listener.onFileDone(candidate.path(), ready.chunks().size(), ready.tokens());
            } else if (outcome instanceof Outcome.Skipped s) {
                LOG.debug("skipped {}: {} ({})", candidate.path(), s.file().reason().description(), s.file().detail());
                skipped.add(s.file());
                listener.onFileSkipped(candidate.path(), s.file().reason(), s.file().detail());
            } else if (outcome instanceof Outcome.Failed f) {
                LOG.warn("{}", f.error().getMessage());
                failed.add(new IndexReport.FailedFile(candidate.path(), f.error().getMessage()));
                listener.onFileFailed(candidate.path(), f.error());
            }
            done++;
            listener.onProgress(new IndexProgress(done, total, chunks, tokens, since(started)));
        }

        int deleted = 0;
        if (sync && !cancelled) {
            deleted = deleteGone(walk);
        }
        skipped.sort(Comparator.comparing(IndexReport.SkippedFile::path));
        failed.sort(Comparator.comparing(IndexReport.FailedFile::path));
        Duration elapsed = since(started);
        IndexReport report = new IndexReport(indexed, skipped, failed, chunks, tokens, deleted, linksDropped,
                linksBroken, cancelled, elapsed);
        listener.onProgress(new IndexProgress(done, total, chunks, tokens, elapsed));
        LOG.info("indexed {} of {} files under {} into tenant '{}': {} chunks, {} tokens, {} skipped, {} failed,"
                + " {} deleted{} in {} ms", indexed, total, realRoot, tenant, chunks, tokens, skipped.size(),
                failed.size(), deleted, cancelled ? ", cancelled" : "", elapsed.toMillis());
        return report;
    }

    // -------------------------------------------------------------------------------------------------------------
    // One file

    /** Reads, parses, chunks and embeds one file; every failure of that file becomes an outcome. */
    private Outcome prepare(Candidate candidate, BooleanSupplier cancelRequested) {
        String path = candidate.path();
        try {
            // Checked again right before opening: the walk may be a while ago.
            BasicFileAttributes now = Files.readAttributes(candidate.file(), BasicFileAttributes.class,
                    LinkOption.NOFOLLOW_LINKS);
            if (!now.isRegularFile()) {
                return new Outcome.Skipped(new IndexReport.SkippedFile(path, SkipReason.NOT_REGULAR_FILE,
                        "no longer a regular file when it was to be read; not opened"));
            }
            byte[] bytes = read(candidate.file());
            if (bytes == null) {
                return new Outcome.Skipped(new IndexReport.SkippedFile(path, SkipReason.TOO_LARGE,
                        "grew past the limit of " + maxFileBytes + " bytes while being read"));
            }
            ParsedDocument parsed = parser.parse(path, decode(path, bytes));
            List<TextChunk> textChunks = chunker.chunk(parsed);
            StoredDocument document = document(parsed);
            List<StoredChunk> stored = new ArrayList<>(textChunks.size());
            long tokens = 0;
            for (int from = 0; from < textChunks.size(); from += batchSize) {
                if (cancelRequested.getAsBoolean()) {
                    return new Outcome.Cancelled();
                }
                List<TextChunk> batch = textChunks.subList(from, Math.min(textChunks.size(), from + batchSize));
                List<String> texts = new ArrayList<>(batch.size());
                for (TextChunk chunk : batch) {
                    texts.add(chunk.text());
                }
                float[][] vectors = embed(path, texts);
                for (int i = 0; i < batch.size(); i++) {
                    TextChunk chunk = batch.get(i);
                    if (chunk.index() != from + i) {
                        throw new IngestException(path, chunk.startLine(), "the chunker numbered chunk " + (from + i)
                                + " as " + chunk.index() + "; chunk indexes must run 0, 1, 2, … in order", null);
                    }
                    stored.add(new StoredChunk(document.id(), chunk.index(), chunk.text(), vectors[i],
                            chunk.tokenCount(), chunk.startLine(), chunk.endLine(), chunk.section(), chunk.page()));
                    tokens += chunk.tokenCount();
                }
            }
            return new Outcome.Ready(document, stored, tokens, parsed.droppedLinks());
        } catch (IngestException e) {
            return new Outcome.Failed(e);
        } catch (NoSuchFileException e) {
            return new Outcome.Failed(new IngestException(path, 0, "the file disappeared before it was read", e));
        } catch (IOException e) {
            return new Outcome.Failed(new IngestException(path, 0, "the file cannot be read: " + e, e));
        } catch (RuntimeException e) {
            // A bug or a surprise in the parser, chunker or embedder must not stop the other files.
            String what = e instanceof dev.ragkit.error.RagException ? e.getMessage() : e.toString();
            return new Outcome.Failed(new IngestException(path, 0, what, e));
        }
    }

    private float[][] embed(String path, List<String> texts) {
        try {
            return EmbeddingCheck.check(embedder, texts.size(), embedder.embed(texts));
        } catch (RuntimeException e) {
            throw new IngestException(path, 0, "embedding failed: " + e.getMessage(), e);
        }
    }

    private StoredDocument document(ParsedDocument parsed) {
        Map<String, String> metadata = new LinkedHashMap<>(parsed.metadata());
        if (parsed.summary() != null && !parsed.summary().isBlank()) {
            metadata.put(SUMMARY_KEY, parsed.summary());
        }
        return StoredDocument.builder()
                .tenant(tenant)
                .path(pathPrefix + parsed.path())
                .title(parsed.title())
                .docType(blankToNull(parsed.docType()))
                .promotionLevel(parsed.promotionLevel())
                .date(parsed.date())
                .accessTags(parsed.accessTags())
                .ownerTag(blankToNull(parsed.owner()))
                .links(prefixed(parsed.links()))
                .metadata(metadata)
                .charCount(parsed.bodyCharCount())
                .build();
    }

    /** How many of a document's links have no file at their target under the root. */
    private int brokenLinks(Path root, StoredDocument document) {
        int broken = 0;
        for (String link : document.links()) {
            String relative = link.substring(pathPrefix.length());
            if (!Files.isRegularFile(root.resolve(relative))) {
                broken++;
            }
        }
        return broken;
    }

    private List<String> prefixed(List<String> links) {
        if (pathPrefix.isEmpty()) {
            return links;
        }
        List<String> out = new ArrayList<>(links.size());
        links.forEach(l -> out.add(pathPrefix + l));
        return out;
    }

    private static @Nullable String blankToNull(@Nullable String value) {
        return value == null || value.isBlank() ? null : value;
    }

    /**
     * Reads a file, without following a link at its last step, and at most {@code maxFileBytes + 1} bytes.
     *
     * @return the bytes, or {@code null} when the file is larger than the limit
     */
    private byte @Nullable [] read(Path file) throws IOException {
        Set<OpenOption> options = Set.of(StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS);
        SeekableByteChannel channel;
        try {
            channel = Files.newByteChannel(file, options);
        } catch (UnsupportedOperationException e) {
            channel = Files.newByteChannel(file, StandardOpenOption.READ);
        }
        try (InputStream in = Channels.newInputStream(channel)) {
            if (channel.size() > maxFileBytes) {
                return null;
            }
            byte[] bytes = in.readNBytes((int) maxFileBytes + 1);
            return bytes.length > maxFileBytes ? null : bytes;
        }
    }

    /** Decodes strict UTF-8, naming the line of the first bad byte; rejects NUL bytes (binary files). */
    private static String decode(String path, byte[] bytes) {
        for (int i = 0; i < bytes.length; i++) {
            if (bytes[i] == 0) {
                throw new IngestException(path, MarkdownDocumentParser.lineAtByte(bytes, i),
                        "the file contains a NUL byte (offset " + i
                        + "), so it is binary, not text; exclude it or fix the include globs", null);
            }
        }
        return MarkdownDocumentParser.decodeUtf8(path, bytes);
    }

    // -------------------------------------------------------------------------------------------------------------
    // Sync

    private int deleteGone(Walk walk) {
        Set<String> present = new HashSet<>();
        for (Candidate c : walk.candidates) {
            present.add(c.path());
        }
        for (IndexReport.SkippedFile s : walk.skipped) {
            present.add(s.path());
        }
        for (WalkFailure f : walk.failed) {
            present.add(f.report().path());
        }
        Scope admin = Scope.unrestricted(tenant);
        int deleted = 0;
        for (StoredDocument document : store.documents(admin)) {
            if (!document.path().startsWith(pathPrefix)) {
                continue;                       // another folder's document in the same tenant
            }
            String path = document.path().substring(pathPrefix.length());
            if (present.contains(path) || underUnlistedFolder(path, walk.unlistedFolders)) {
                continue;
            }
            if (store.delete(admin, document.id())) {
                LOG.debug("sync deleted {} (file gone)", path);
                deleted++;
            }
        }
        return deleted;
    }

    private static boolean underUnlistedFolder(String path, List<String> folders) {
        for (String folder : folders) {
            if (folder.isEmpty() || path.startsWith(folder + "/")) {
                return true;
            }
        }
        return false;
    }

    // -------------------------------------------------------------------------------------------------------------
    // The walk

    private static Path realFolder(Path root) {
        Path real;
        try {
            real = root.toRealPath();
        } catch (NoSuchFileException e) {
            throw new IngestException(root.toString(), 0,
                    "no such folder; pass the folder that holds the documents", e);
        } catch (IOException e) {
            throw new IngestException(root.toString(), 0, "the folder cannot be opened: " + e, e);
        }
        if (!Files.isDirectory(real)) {
            throw new IngestException(root.toString(), 0,
                    "is a file, not a folder; pass the folder that holds the documents", null);
        }
        return real;
    }

    private List<PathMatcher> matchers(FileSystem fs) {
        List<PathMatcher> matchers = new ArrayList<>();
        for (String glob : include) {
            matchers.add(fs.getPathMatcher("glob:" + glob));
            if (glob.startsWith("**/")) {
                // Java's "**/" needs at least one folder; let the glob match files in the root too.
                matchers.add(fs.getPathMatcher("glob:" + glob.substring(3)));
            }
        }
        return matchers;
    }

    static boolean isSecretName(String name) {
        String lower = name.toLowerCase(Locale.ROOT);
        return lower.startsWith(".env") || lower.endsWith(".pem") || lower.endsWith(".key");
    }

    private static Duration since(long started) {
        return Duration.ofNanos(System.nanoTime() - started);
    }

    /** A file to read: its root-relative path and the real path to open. */
    private record Candidate(String path, Path file) {
    }

    private record WalkFailure(IndexReport.FailedFile report, IngestException error) {
    }

    private sealed interface Outcome {
        record Ready(StoredDocument document, List<StoredChunk> chunks, long tokens, int droppedLinks)
                implements Outcome {
        }

        record Skipped(IndexReport.SkippedFile file) implements Outcome {
        }

        record Failed(IngestException error) implements Outcome {
        }

        record Cancelled() implements Outcome {
        }
    }

    /** One walk of the root: decides from names and attributes alone, never opening a file. */
    private final class Walk {
        final Path realRoot;
        final List<PathMatcher> matchers;
        final BooleanSupplier cancelRequested;
        final List<Candidate> candidates = new ArrayList<>();
        final List<IndexReport.SkippedFile> skipped = new ArrayList<>();
        final List<WalkFailure> failed = new ArrayList<>();
        final List<String> unlistedFolders = new ArrayList<>();
        /** Real paths of the folders being walked, from the root down: a link to one of them is a loop. */
        final Set<Path> open = new HashSet<>();
        boolean cancelled;

        Walk(Path realRoot, List<PathMatcher> matchers, BooleanSupplier cancelRequested) {
            this.realRoot = realRoot;
            this.matchers = matchers;
            this.cancelRequested = cancelRequested;
        }

        /**
         * Walks a folder.
         *
         * @param realFolder the folder's real path (no links in it)
         * @param path       its root-relative path, {@code ""} for the root
         */
        void folder(Path realFolder, String path) {
            if (cancelled || cancelRequested.getAsBoolean()) {
                cancelled = true;
                return;
            }
            List<Path> entries = new ArrayList<>();
            try (DirectoryStream<Path> stream = Files.newDirectoryStream(realFolder)) {
                for (Path entry : stream) {
                    entries.add(entry);
                }
            } catch (IOException | RuntimeException e) {
                if (path.isEmpty()) {
                    throw new IngestException(realFolder.toString(), 0, "the folder cannot be listed: " + e, e);
                }
                unlistedFolders.add(path);
                fail(path, "the folder cannot be listed: " + e, e);
                return;
            }
            entries.sort(Comparator.comparing(p -> p.getFileName().toString()));
            open.add(realFolder);
            try {
                for (Path entry : entries) {
                    if (cancelled) {
                        return;
                    }
                    String name = entry.getFileName().toString();
                    entry(entry, name, path.isEmpty() ? name : path + "/" + name);
                }
            } finally {
                open.remove(realFolder);
            }
        }

        private void entry(Path entry, String name, String path) {
            BasicFileAttributes attributes;
            try {
                attributes = Files.readAttributes(entry, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            } catch (IOException e) {
                fail(path, "cannot read the file's attributes: " + e, e);
                return;
            }
            boolean folder = attributes.isDirectory();
            if (!folder && isSecretName(name)) {
                skip(path, SkipReason.SECRET, "never read, whatever the include globs say");
                return;
            }
            if (name.startsWith(".")) {
                skip(path, SkipReason.HIDDEN, folder ? "hidden folder, not entered" : "hidden file");
                return;
            }
            if (attributes.isSymbolicLink()) {
                link(entry, path);
            } else if (folder) {
                folder(entry, path);
            } else {
                file(entry, path, attributes);
            }
        }

        private void link(Path link, String path) {
            Path target;
            BasicFileAttributes attributes;
            try {
                target = link.toRealPath();
                attributes = Files.readAttributes(target, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            } catch (IOException e) {
                skip(path, SkipReason.BROKEN_SYMLINK, "cannot be resolved: " + e.getMessage());
                return;
            }
            if (!target.startsWith(realRoot)) {
                skip(path, SkipReason.SYMLINK_OUTSIDE_ROOT, "points outside the root; not followed");
                return;
            }
            if (attributes.isDirectory()) {
                if (open.contains(target)) {
                    skip(path, SkipReason.SYMLINK_LOOP, "points to a folder that contains it; not followed");
                } else {
                    folder(target, path);
                }
            } else {
                file(target, path, attributes);
            }
        }

        private void file(Path file, String path, BasicFileAttributes attributes) {
            if (!matches(path)) {
                return;
            }
            if (!attributes.isRegularFile()) {
                skip(path, SkipReason.NOT_REGULAR_FILE, "a pipe, socket or device; not opened");
            } else if (attributes.size() > maxFileBytes) {
                skip(path, SkipReason.TOO_LARGE, attributes.size() + " bytes, limit " + maxFileBytes);
            } else {
                candidates.add(new Candidate(path, file));
            }
        }

        private boolean matches(String path) {
            Path relative = realRoot.getFileSystem().getPath(path);
            for (PathMatcher matcher : matchers) {
                if (matcher.matches(relative)) {
                    return true;
                }
            }
            return false;
        }

        private void skip(String path, SkipReason reason, String detail) {
            skipped.add(new IndexReport.SkippedFile(path, reason, detail));
        }

        private void fail(String path, String message, Exception cause) {
            IngestException error = new IngestException(path, 0, message, cause);
            failed.add(new WalkFailure(new IndexReport.FailedFile(path, error.getMessage()), error));
        }
    }

    // -------------------------------------------------------------------------------------------------------------

    /** Builds an {@link Indexer}. Not thread-safe. */
    public static final class Builder {
        private @Nullable DocumentStore store;
        private @Nullable Embedder embedder;
        private @Nullable String tenant;
        private @Nullable MarkdownDocumentParser parser;
        private @Nullable Chunker chunker;
        private List<String> include = DEFAULT_INCLUDE;
        private long maxFileBytes = DEFAULT_MAX_FILE_BYTES;
        private int batchSize = DEFAULT_BATCH_SIZE;
        private IndexListener listener = IndexListener.NONE;
        private boolean sync;
        private String pathPrefix = "";

        private Builder() {
        }

        /**
         * @param store where documents go (required)
         * @return this builder
         */
        public Builder store(DocumentStore store) {
            this.store = Objects.requireNonNull(store, "store");
            return this;
        }

        /**
         * @param embedder the model that embeds the chunks (required); wrap it in {@link CachingEmbedder} so that
         *                 re-indexing unchanged text does not call the model again
         * @return this builder
         */
        public Builder embedder(Embedder embedder) {
            this.embedder = Objects.requireNonNull(embedder, "embedder");
            return this;
        }

        /**
         * @param tenant the tenant the documents belong to (required; a single-tenant application can use
         *               {@code "default"})
         * @return this builder
         * @throws IllegalArgumentException when blank
         */
        public Builder tenant(String tenant) {
            Objects.requireNonNull(tenant, "tenant");
            if (tenant.isBlank()) {
                throw new IllegalArgumentException("tenant must not be blank");
            }
            this.tenant = tenant;
            return this;
        }

        /**
         * @param parser the markdown parser; default {@code new MarkdownDocumentParser()}
         * @return this builder
         */
        public Builder parser(MarkdownDocumentParser parser) {
            this.parser = Objects.requireNonNull(parser, "parser");
            return this;
        }

        /**
         * @param chunker the chunker; default a {@link TokenWindowChunker} of 500 tokens with 50 overlap, counting
         *                with {@link TokenCounters#jtokkit()}
         * @return this builder
         */
        public Builder chunker(Chunker chunker) {
            this.chunker = Objects.requireNonNull(chunker, "chunker");
            return this;
        }

        /**
         * Sets the globs a file's root-relative path must match (any of them), replacing the defaults. Syntax
         * of {@link FileSystem#getPathMatcher} {@code glob:}; a glob starting with {@code **}{@code /} also
         * matches files in the root.
         *
         * @param globs the globs, at least one
         * @return this builder
         * @throws IllegalArgumentException when empty, or a glob is blank or malformed
         */
        public Builder include(Collection<String> globs) {
            Objects.requireNonNull(globs, "globs");
            if (globs.isEmpty()) {
                throw new IllegalArgumentException("include needs at least one glob, e.g. **/*.md");
            }
            List<String> copy = new ArrayList<>(globs.size());
            for (String glob : globs) {
                Objects.requireNonNull(glob, "glob");
                if (glob.isBlank()) {
                    throw new IllegalArgumentException("an include glob must not be blank");
                }
                try {
                    FileSystems.getDefault().getPathMatcher("glob:" + glob);
                } catch (PatternSyntaxException e) {
                    throw new IllegalArgumentException("include glob '" + glob + "' is malformed: "
                            + e.getDescription(), e);
                }
                copy.add(glob);
            }
            this.include = List.copyOf(copy);
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
         * @param bytes the largest file to read, from 1 to {@link #MAX_FILE_BYTES_LIMIT}; larger files are
         *              skipped unread. Default {@link #DEFAULT_MAX_FILE_BYTES}
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
         * @param texts the most chunk texts per {@link Embedder#embed} call, at least 1. Default
         *              {@link #DEFAULT_BATCH_SIZE}
         * @return this builder
         * @throws IllegalArgumentException when below 1
         */
        public Builder batchSize(int texts) {
            if (texts < 1) {
                throw new IllegalArgumentException("batchSize must be at least 1, got " + texts);
            }
            this.batchSize = texts;
            return this;
        }

        /**
         * @param listener observes the run; default {@link IndexListener#NONE}
         * @return this builder
         */
        public Builder listener(IndexListener listener) {
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
            this.pathPrefix = p;
            return this;
        }

        /**
         * @return the indexer
         * @throws IllegalStateException when store, embedder or tenant is missing
         */
        public Indexer build() {
            List<String> missing = new ArrayList<>();
            if (store == null) {
                missing.add("store(..)");
            }
            if (embedder == null) {
                missing.add("embedder(..)");
            }
            if (tenant == null) {
                missing.add("tenant(..)");
            }
            if (!missing.isEmpty()) {
                throw new IllegalStateException("an Indexer needs a store, an embedder and a tenant; call "
                        + String.join(", ", missing) + " (a single-tenant application can use tenant(\"default\"))");
            }
            MarkdownDocumentParser p = parser != null ? parser : new MarkdownDocumentParser();
            Chunker c = chunker != null ? chunker
                    : TokenWindowChunker.builder().counter(TokenCounters.jtokkit()).maxTokens(500).overlapTokens(50)
                            .build();
            return new Indexer(this, store, embedder, tenant, p, c);
        }
    }
}
