package dev.ragkit.ingest;

import dev.ragkit.embedding.Embedder;

import dev.ragkit.error.IngestException;
import dev.ragkit.store.StoredChunk;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** One indexing run's counts, kept as files are done; reports each file to the listener as it is done. */
final class IndexRun {
    private static final Logger LOG = LoggerFactory.getLogger(Indexer.class);

    final FolderScanner.Scan scan;
    private final IndexListener listener;
    private final Embedder embedder;
    final List<IndexReport.SkippedFile> skipped = new ArrayList<>();
    final List<IndexReport.FailedFile> failed = new ArrayList<>();
    final List<IndexReport.RedactedFile> redacted = new ArrayList<>();
    final List<IndexReport.WarnedFile> warned = new ArrayList<>();
    final Map<String, int[]> types = new HashMap<>();
    int indexed;
    int unchanged;
    int done;
    long chunks;
    long tokens;
    long linksDropped;
    long linksBroken;
    /** Chunks longer than the embedder reads, and the longest chunk, in the embedder's own tokens. */
    private IndexReport.InputLimit input;

    IndexRun(FolderScanner.Scan scan, IndexListener listener, Embedder embedder) {
        this.scan = scan;
        this.listener = listener;
        this.embedder = embedder;
        this.input = IndexReport.InputLimit.measure(embedder, List.of());
    }

    void indexed(String path, String type, DocumentIngestor.Ingested ingested, int broken) {
        indexed++;
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
        count(type, 0);
        listener.onFileDone(path, ingested.chunks().size(), ingested.tokens());
    }

    void unchanged(String path, String type) {
        unchanged++;
        count(type, 1);
        listener.onFileUnchanged(path);
    }

    void skipped(IndexReport.SkippedFile file, String type) {
        LOG.debug("skipped {}: {} ({})", file.path(), file.reason().description(), file.detail());
        skipped.add(file);
        count(type, 2);
        listener.onFileSkipped(file.path(), file.reason(), file.detail());
    }

    void failed(String path, String type, IngestException error) {
        LOG.warn("{}", error.getMessage());
        if (error.getCause() != null) {
            LOG.debug("{} failed because of", path, error.getCause());        // the parser's details, for a log file
        }
        failed.add(new IndexReport.FailedFile(path, error.getMessage()));
        count(type, 3);
        listener.onFileFailed(path, error);
    }

    private void count(String type, int which) {
        types.computeIfAbsent(type, t -> new int[4])[which]++;
    }

    IndexProgress progress(long started) {
        return new IndexProgress(done, scan.candidates.size(), chunks, tokens,
                Duration.ofNanos(System.nanoTime() - started));
    }

    IndexReport report(int deleted, int gone, boolean cancelled, Duration elapsed) {
        skipped.sort(Comparator.comparing(IndexReport.SkippedFile::path));
        failed.sort(Comparator.comparing(IndexReport.FailedFile::path));
        redacted.sort(Comparator.comparing(IndexReport.RedactedFile::path));
        warned.sort(Comparator.comparing(IndexReport.WarnedFile::path));
        Map<String, IndexReport.TypeCounts> counts = new HashMap<>();
        types.forEach((type, c) -> counts.put(type, new IndexReport.TypeCounts(c[0], c[1], c[2], c[3])));
        if (input.chunksOver() > 0) {
            LOG.warn("{}", input.describe(chunks));
        }
        return new IndexReport(indexed, unchanged, skipped, failed, redacted, warned, chunks, tokens, deleted, gone,
                linksDropped, linksBroken, counts, input, cancelled, elapsed);
    }
}
