package dev.ragkit.ingest;

import dev.ragkit.embedding.Embedder;

import dev.ragkit.error.IngestException;
import dev.ragkit.store.StoredChunk;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one owner of an indexing run's bookkeeping: its clock (elapsed time, the time each document is stamped with),
 * its counters, and its progress events. Every count changes here, on the thread that called {@link Indexer#index}
 * (the stage timings excepted: read-ahead threads add to them), and every {@link IndexListener} call about a file is
 * made from here.
 */
final class IndexRun {
    private static final Logger LOG = LoggerFactory.getLogger(Indexer.class);

    /** The stages a file passes through, timed to show where indexing time goes. */
    enum Stage {
        /** Reading the bytes and hashing them. */
        READ,
        /** Parsing (and checking for secrets). */
        PARSE,
        /** Chunking. */
        CHUNK,
        /** Embedding the chunks. */
        EMBED,
        /** Writing documents to the store. */
        STORE
    }

    final FolderScanner.Scan scan;
    private final IndexListener listener;
    private final Embedder embedder;
    private final Clock clock;
    private final Instant started;
    private final long bytesTotal;
    private final List<IndexReport.SkippedFile> skipped = new ArrayList<>();
    private final List<IndexReport.FailedFile> failed = new ArrayList<>();
    private final List<IndexReport.RedactedFile> redacted = new ArrayList<>();
    private final List<IndexReport.WarnedFile> warned = new ArrayList<>();
    private final Map<String, Tally> types = new HashMap<>();
    private final Map<Stage, LongAdder> stageNanos = new EnumMap<>(Stage.class);
    private int filesIndexed;
    private int filesUnchanged;
    private int filesDone;
    private long bytesDone;
    private long chunks;
    private long tokens;
    private long linksDropped;
    private long linksBroken;
    /** Chunks longer than the embedder reads, and the longest chunk, in the embedder's own tokens. */
    private IndexReport.InputLimit input;

    /** What happened to the files of one type. */
    private static final class Tally {
        int indexed;
        int unchanged;
        int skipped;
        int failed;

        IndexReport.TypeCounts counts() {
            return new IndexReport.TypeCounts(indexed, unchanged, skipped, failed);
        }
    }

    IndexRun(FolderScanner.Scan scan, IndexListener listener, Embedder embedder, Clock clock, Instant started) {
        this.scan = scan;
        this.listener = listener;
        this.embedder = embedder;
        this.clock = clock;
        this.started = started;
        this.bytesTotal = scan.candidates.stream().mapToLong(FolderScanner.Candidate::size).sum();
        this.input = IndexReport.InputLimit.measure(embedder, List.of());
        for (Stage stage : Stage.values()) {
            stageNanos.put(stage, new LongAdder());
        }
    }

    /** @return the files the run will read */
    int filesTotal() {
        return scan.candidates.size();
    }

    /** @return now, by the run's clock (what documents are stamped with) */
    Instant now() {
        return clock.instant();
    }

    /** @return the time since the run started, by its clock */
    Duration elapsed() {
        return Duration.between(started, clock.instant());
    }

    /** Adds time spent in a stage; any thread may call it. */
    void time(Stage stage, long nanos) {
        stageNanos.get(stage).add(nanos);
    }

    void indexed(String path, String type, DocumentIngestor.Ingested ingested, int broken) {
        filesIndexed++;
        chunks += ingested.chunks().size();
        tokens += ingested.tokens();
        linksDropped += ingested.parsed().droppedLinks();
        linksBroken += broken;
        input = input.plus(IndexReport.InputLimit.measure(embedder,
                ingested.chunks().stream().map(StoredChunk::text).toList()));
        SecretRedactions secrets = ingested.secrets();
        if (!secrets.isEmpty()) {
            LOG.warn("{}: redacted the secrets ({}) on {} line(s) before indexing: lines {}; the rest of the file is "
                    + "indexed. Move the secrets out of the document", path, String.join(", ", secrets.kinds()),
                    secrets.count(), secrets.lines());
            redacted.add(new IndexReport.RedactedFile(path, secrets.lines(), secrets.kinds()));
        }
        List<String> warnings = ingested.parsed().warnings();
        if (!warnings.isEmpty()) {
            LOG.debug("{}: {}", path, String.join("; ", warnings));
            warned.add(new IndexReport.WarnedFile(path, warnings));
        }
        tally(type).indexed++;
        listener.onFileDone(path, ingested.chunks().size(), ingested.tokens());
    }

    void unchanged(String path, String type) {
        filesUnchanged++;
        tally(type).unchanged++;
        listener.onFileUnchanged(path);
    }

    void skipped(IndexReport.SkippedFile file, String type) {
        LOG.debug("skipped {}: {} ({})", file.path(), file.reason().description(), file.detail());
        skipped.add(file);
        tally(type).skipped++;
        listener.onFileSkipped(file.path(), file.reason(), file.detail());
    }

    void failed(String path, String type, IngestException error) {
        LOG.warn("{}", error.getMessage());
        if (error.getCause() != null) {
            LOG.debug("{} failed because of", path, error.getCause());        // the parser's details, for a log file
        }
        failed.add(new IndexReport.FailedFile(path, error.getMessage()));
        tally(type).failed++;
        listener.onFileFailed(path, error);
    }

    /** One file of the walk is finished (whatever happened to it): counts it and reports the progress. */
    void fileFinished(FolderScanner.Candidate candidate) {
        filesDone++;
        bytesDone += candidate.size();
        listener.onProgress(progress());
    }

    private Tally tally(String type) {
        return types.computeIfAbsent(type, t -> new Tally());
    }

    IndexProgress progress() {
        return progress(elapsed());
    }

    private IndexProgress progress(Duration elapsed) {
        return new IndexProgress(filesDone, filesTotal(), chunks, tokens, elapsed, bytesDone, bytesTotal);
    }

    /** @return the stage timings, e.g. {@code read 12 ms, parse 340 ms, …} (summed over threads) */
    String stages() {
        List<String> parts = new ArrayList<>();
        stageNanos.forEach((stage, nanos) -> parts.add(stage.name().toLowerCase(Locale.ROOT) + " "
                + nanos.sum() / 1_000_000 + " ms"));
        return String.join(", ", parts);
    }

    /** Ends the run: the report, and the last progress event, which carries the report's counts and elapsed time. */
    IndexReport finish(int deleted, int gone, boolean cancelled) {
        Duration elapsed = elapsed();
        skipped.sort(Comparator.comparing(IndexReport.SkippedFile::path));
        failed.sort(Comparator.comparing(IndexReport.FailedFile::path));
        redacted.sort(Comparator.comparing(IndexReport.RedactedFile::path));
        warned.sort(Comparator.comparing(IndexReport.WarnedFile::path));
        Map<String, IndexReport.TypeCounts> counts = new HashMap<>();
        types.forEach((type, tally) -> counts.put(type, tally.counts()));
        if (input.chunksOver() > 0) {
            LOG.warn("{}", input.describe(chunks));
        }
        listener.onProgress(progress(elapsed));
        return new IndexReport(filesIndexed, filesUnchanged, skipped, failed, redacted, warned, chunks, tokens,
                deleted, gone, linksDropped, linksBroken, counts, input, cancelled, elapsed);
    }
}
