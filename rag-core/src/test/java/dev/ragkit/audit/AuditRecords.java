package dev.ragkit.audit;

import java.time.Instant;
import java.util.List;

/** Audit records for the sink tests. */
final class AuditRecords {

    static final Instant TIMESTAMP = Instant.parse("2025-01-31T09:15:00.123456789Z");

    private AuditRecords() {
    }

    static AuditRecord answered(String requestId, String query) {
        return AuditRecord.builder(AuditOperation.ASK).timestamp(TIMESTAMP).requestId(requestId).tenant("acme")
                .query(query, QueryRedaction.NONE).sourceIds(List.of("handbook.md#0", "handbook.md#3"))
                .contextTokens(412).model("llama3.2").action("CITE").confidence(87).latencyMillis(1234L)
                .outcome(AuditOutcome.ANSWERED, null).build();
    }

    static AuditRecord failed(String requestId) {
        return AuditRecord.builder(AuditOperation.ASK).timestamp(TIMESTAMP).requestId(requestId).tenant("acme")
                .query("secret question", QueryRedaction.HASH).model("llama3.2").latencyMillis(5L)
                .outcome(AuditOutcome.ERROR, "dev.ragkit.error.LlmTimeoutException").build();
    }
}
