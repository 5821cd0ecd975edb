package dev.ragkit.audit;

import dev.ragkit.error.AuditException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Objects;

/**
 * Appends one JSON object per line (UTF-8) to a file; the shape is {@link AuditJson}'s.
 *
 * <p>Thread-safe: records are written one at a time, each line with a single write, so lines from different
 * threads never interleave. Each record is handed to the operating system before {@link #record} returns (no
 * buffering in the JVM), so it survives a crash of the process; it is not forced to the disk ({@code fsync}),
 * so a power failure may lose the last records. Use one sink per file: two sinks or processes appending to the
 * same file are not coordinated.
 *
 * <p>Failures to open or write throw {@link AuditException}, whose message names the file.
 */
final class JsonLinesAuditSink implements AuditSink {

    private final Path file;
    private final FileChannel channel;
    private boolean closed;

    /**
     * Opens the file for appending, creating it and its parent folders if missing.
     *
     * @param file the JSON-lines file
     * @throws AuditException when the file cannot be opened
     */
    JsonLinesAuditSink(Path file) {
        Objects.requireNonNull(file, "file");
        this.file = file;
        if (Files.isDirectory(file)) {
            throw new AuditException("audit file " + file + " is a directory; pass the path of a file, such as "
                    + file.resolve("audit.jsonl"));
        }
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            try {
                Files.createDirectories(parent);
            } catch (IOException e) {
                throw new AuditException("cannot create the folder " + parent + " of audit file " + file + " ("
                        + e + "); create it, or choose a path in a writable folder", e);
            }
        }
        try {
            this.channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new AuditException("cannot open audit file " + file + " for appending (" + e
                    + "); check that it is a writable file and its folder is writable", e);
        }
    }

    @Override
    public void record(AuditRecord record) {
        Objects.requireNonNull(record, "record");
        // Serialise outside the lock; getBytes replaces unpaired surrogates instead of failing.
        ByteBuffer line = ByteBuffer.wrap((AuditJson.toJsonLine(record) + "\n").getBytes(StandardCharsets.UTF_8));
        synchronized (this) {
            if (closed) {
                throw new IllegalStateException("the audit sink for " + file
                        + " is closed; records cannot be written after close()");
            }
            try {
                while (line.hasRemaining()) {
                    channel.write(line);
                }
            } catch (IOException e) {
                throw new AuditException("cannot write audit record " + record.requestId() + " to " + file + " ("
                        + e + "); check free disk space and that the file is still writable", e);
            }
        }
    }

    /**
     * Closes the file. Closing twice does nothing.
     *
     * @throws AuditException when the file cannot be closed
     */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            channel.close();
        } catch (IOException e) {
            throw new AuditException("cannot close audit file " + file + " (" + e + ")", e);
        }
    }

    @Override
    public String toString() {
        return "JsonLinesAuditSink[" + file + "]";
    }
}
