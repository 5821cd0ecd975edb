package dev.ragkit.audit;

import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Logs each record as one JSON line (the shape is {@link AuditJson}'s) at INFO on the SLF4J logger
 * {@value #LOGGER_NAME}. Nothing is serialised while that logger's INFO level is off. Thread-safe as far as
 * the SLF4J binding is; where the lines end up, and how durably, is the binding's configuration.
 */
final class LoggingAuditSink implements AuditSink {

    /** The name of the logger the records go to. */
    static final String LOGGER_NAME = "dev.ragkit.audit";

    private final Logger logger;
    private volatile boolean closed;

    LoggingAuditSink() {
        this(LoggerFactory.getLogger(LOGGER_NAME));
    }

    /** @param logger where the lines go (tests pass a recording logger) */
    LoggingAuditSink(Logger logger) {
        this.logger = Objects.requireNonNull(logger, "logger");
    }

    @Override
    public void record(AuditRecord record) {
        Objects.requireNonNull(record, "record");
        if (closed) {
            throw new IllegalStateException(
                    "the logging audit sink is closed; records cannot be written after close()");
        }
        if (logger.isInfoEnabled()) {
            logger.info("{}", AuditJson.toJsonLine(record));
        }
    }

    /** Rejects later records; the logger itself belongs to the SLF4J binding and stays open. */
    @Override
    public void close() {
        closed = true;
    }

    @Override
    public String toString() {
        return "LoggingAuditSink[" + LOGGER_NAME + "]";
    }
}
