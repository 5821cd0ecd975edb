package dev.ragkit.audit;

import dev.ragkit.error.AuditException;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes audit records to a sink under an {@link AuditFailurePolicy}: the one place that decides what a failing
 * sink does to the operation being audited. The pipeline, the retriever and the indexer all write through one.
 * Thread-safe when the sink is.
 *
 * @param sink   where records go
 * @param policy what a failing sink does
 */
public record AuditTrail(AuditSink sink, AuditFailurePolicy policy) {
    private static final Logger LOG = LoggerFactory.getLogger(AuditTrail.class);

    /** Validates the arguments. */
    public AuditTrail {
        Objects.requireNonNull(sink, "sink");
        Objects.requireNonNull(policy, "policy");
    }

    /** @return a trail that drops every record */
    public static AuditTrail none() {
        return new AuditTrail(AuditSink.none(), AuditFailurePolicy.LOG_AND_CONTINUE);
    }

    /**
     * Writes one record.
     *
     * @param record  the record
     * @param primary the failure of the operation itself, or {@code null}; under {@code FAIL_REQUEST} a failing
     *                sink's error is added to it as suppressed instead of hiding it
     * @return {@code null} when the record was written, else why not (under {@code LOG_AND_CONTINUE}, or when
     *         {@code primary} is given)
     * @throws AuditException under {@code FAIL_REQUEST} when the sink fails and there is no {@code primary}
     */
    public @Nullable String write(AuditRecord record, @Nullable Throwable primary) {
        try {
            sink.record(record);
            return null;
        } catch (RuntimeException e) {
            String why = "the audit record of " + record.operation().name().toLowerCase(java.util.Locale.ROOT)
                    + " " + record.requestId() + " could not be written (" + e.getMessage() + ")";
            if (policy == AuditFailurePolicy.FAIL_REQUEST) {
                AuditException failure = new AuditException(why + "; fix the audit sink, or configure "
                        + "AuditFailurePolicy.LOG_AND_CONTINUE", e);
                if (primary == null) {
                    throw failure;
                }
                primary.addSuppressed(failure);
            } else {
                LOG.error("{}", why, e);
            }
            return why;
        }
    }
}
