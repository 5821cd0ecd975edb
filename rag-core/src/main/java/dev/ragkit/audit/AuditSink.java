package dev.ragkit.audit;

import java.nio.file.Path;

/**
 * Where audit records go. Implementations are thread-safe: the pipeline calls {@link #record} from many
 * threads. A sink that cannot write throws; the pipeline's {@code AuditFailurePolicy} decides whether that
 * fails the request.
 */
public interface AuditSink extends AutoCloseable {

    /**
     * Writes one record durably enough for the sink's purpose before returning.
     *
     * @param record the record
     */
    void record(AuditRecord record);

    /** Releases the sink's resources; records after closing are rejected. Does nothing by default. */
    @Override
    default void close() {
    }

    /**
     * @param file the JSON-lines file; created if missing, appended to otherwise (parent folders are created)
     * @return a sink writing one JSON object per line, flushed after every record
     */
    static AuditSink jsonLines(Path file) {
        return new JsonLinesAuditSink(file);
    }

    /** @return a sink logging each record as one JSON line at INFO on the SLF4J logger {@code dev.ragkit.audit} */
    static AuditSink logging() {
        return new LoggingAuditSink();
    }

    /** @return a sink that drops every record */
    static AuditSink none() {
        return record -> { };
    }
}
