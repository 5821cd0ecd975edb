package dev.ragkit.audit;

import java.time.Instant;
import java.util.List;

/** Audit records for the sink tests. */
final class AuditRecords {

    static final Instant TIMESTAMP = Instant.parse("2025-01-31T09:15:00.123456789Z");

    private AuditRecords() {
    }

    static AuditRecord answered(String requestId, String query) {
        return new AuditRecord(TIMESTAMP, requestId, "acme", query, AuditRecord.sha256(query),
                List.of("handbook.md#0", "handbook.md#3"), 412, "llama3.2", "CITE", 87, 1234L,
                AuditOutcome.ANSWERED, null);
    }

    static AuditRecord failed(String requestId) {
        return new AuditRecord(TIMESTAMP, requestId, "acme", null, AuditRecord.sha256("secret question"), List.of(),
                0, "llama3.2", null, null, 5L, AuditOutcome.ERROR, "dev.ragkit.error.LlmTimeoutException");
    }
}
