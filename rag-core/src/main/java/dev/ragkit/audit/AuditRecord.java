package dev.ragkit.audit;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What the audit trail keeps about one request or operation. Never holds document text.
 *
 * @param timestamp     when the request started
 * @param requestId     the request's id
 * @param tenant        the tenant that asked
 * @param query         the question (for INDEX records: what was indexed, a folder or a document path), or
 *                      {@code null} when queries are redacted
 * @param querySha256   the SHA-256 of the question (UTF-8), lower-case hex; always present
 * @param sourceIds     the SourceIds of the context blocks in the prompt, in prompt order
 * @param contextTokens the tokens of context in the prompt
 * @param model         the model asked (or that would have been asked)
 * @param action        {@code CITE}, {@code ROUTE} or {@code DECLINE}, or {@code null} when the request failed
 * @param confidence    the overall confidence 0–100, or {@code null} when the request failed
 * @param latencyMillis how long the request took
 * @param outcome       how it ended
 * @param errorType     the failure's exception class name when {@code outcome} is {@link AuditOutcome#ERROR},
 *                      the reason (e.g. {@code TAG_NOT_ALLOWED}) when it is {@link AuditOutcome#REFUSED},
 *                      otherwise {@code null}
 * @param operation     which operation: a question, a standalone retrieval or an indexing run
 * @param counts        what the operation counted, by name in insertion order (immutable); for RETRIEVE
 *                      {@code critical}, {@code relevant}, {@code linked}, {@code totalMatches}; for INDEX
 *                      {@code indexed}, {@code unchanged}, {@code skipped}, {@code failed}, {@code deleted},
 *                      {@code chunks}, {@code tokens}; empty for ASK
 * @param retrievalQuery the standalone question retrieval used when a follow-up was rewritten (see
 *                      {@code QueryTransformer}), redacted like {@code query}: its text when queries are kept,
 *                      {@code sha256:<hex>} when they are hashed; {@code null} when the question was used as asked
 * @param reason        why a question was not answered from the documents (routed, declined, or answered without
 *                      them), e.g. which of its words no passage mentions; for REFUSED records, the refusal's message;
 *                      {@code null} when it was answered
 */
public record AuditRecord(Instant timestamp, String requestId, String tenant, @Nullable String query,
        String querySha256, List<String> sourceIds, int contextTokens, String model, @Nullable String action,
        @Nullable Integer confidence, long latencyMillis, AuditOutcome outcome, @Nullable String errorType,
        AuditOperation operation, Map<String, Long> counts, @Nullable String retrievalQuery,
        @Nullable String reason) {

    /**
     * A record without a reason.
     *
     * @param timestamp      when the operation started
     * @param requestId      its id
     * @param tenant         the tenant
     * @param query          the question or what was indexed, or {@code null} when redacted
     * @param querySha256    its SHA-256
     * @param sourceIds      the SourceIds in the prompt
     * @param contextTokens  the tokens of context in the prompt
     * @param model          the model
     * @param action         the action, or {@code null}
     * @param confidence     the confidence, or {@code null}
     * @param latencyMillis  how long it took
     * @param outcome        how it ended
     * @param errorType      the failure's class name for ERROR records
     * @param operation      the operation
     * @param counts         what it counted
     * @param retrievalQuery the rewritten question, or {@code null}
     */
    public AuditRecord(Instant timestamp, String requestId, String tenant, @Nullable String query,
            String querySha256, List<String> sourceIds, int contextTokens, String model, @Nullable String action,
            @Nullable Integer confidence, long latencyMillis, AuditOutcome outcome, @Nullable String errorType,
            AuditOperation operation, Map<String, Long> counts, @Nullable String retrievalQuery) {
        this(timestamp, requestId, tenant, query, querySha256, sourceIds, contextTokens, model, action, confidence,
                latencyMillis, outcome, errorType, operation, counts, retrievalQuery, null);
    }

    /**
     * A record without a rewritten query.
     *
     * @param timestamp     when the operation started
     * @param requestId     its id
     * @param tenant        the tenant
     * @param query         the question or what was indexed, or {@code null} when redacted
     * @param querySha256   its SHA-256
     * @param sourceIds     the SourceIds in the prompt
     * @param contextTokens the tokens of context in the prompt
     * @param model         the model
     * @param action        the action, or {@code null}
     * @param confidence    the confidence, or {@code null}
     * @param latencyMillis how long it took
     * @param outcome       how it ended
     * @param errorType     the failure's class name for ERROR records, the reason for REFUSED ones
     * @param operation     the operation
     * @param counts        what it counted
     */
    public AuditRecord(Instant timestamp, String requestId, String tenant, @Nullable String query,
            String querySha256, List<String> sourceIds, int contextTokens, String model, @Nullable String action,
            @Nullable Integer confidence, long latencyMillis, AuditOutcome outcome, @Nullable String errorType,
            AuditOperation operation, Map<String, Long> counts) {
        this(timestamp, requestId, tenant, query, querySha256, sourceIds, contextTokens, model, action, confidence,
                latencyMillis, outcome, errorType, operation, counts, null);
    }

    /** Validates and copies the arguments. */
    public AuditRecord {
        Objects.requireNonNull(timestamp, "timestamp");
        Objects.requireNonNull(requestId, "requestId");
        Objects.requireNonNull(tenant, "tenant");
        Objects.requireNonNull(querySha256, "querySha256");
        sourceIds = List.copyOf(Objects.requireNonNull(sourceIds, "sourceIds"));
        Objects.requireNonNull(model, "model");
        Objects.requireNonNull(outcome, "outcome");
        boolean named = outcome == AuditOutcome.ERROR || outcome == AuditOutcome.REFUSED;
        if (named != (errorType != null)) {
            throw new IllegalArgumentException("errorType is required for ERROR and REFUSED records and only for "
                    + "them");
        }
        Objects.requireNonNull(operation, "operation");
        counts = Collections.unmodifiableMap(new LinkedHashMap<>(Objects.requireNonNull(counts, "counts")));
    }

    /**
     * A record of a question ({@link AuditOperation#ASK}, no counts).
     *
     * @param timestamp     when the request started
     * @param requestId     the request's id
     * @param tenant        the tenant that asked
     * @param query         the question, or {@code null} when redacted
     * @param querySha256   the question's SHA-256
     * @param sourceIds     the SourceIds in the prompt
     * @param contextTokens the tokens of context in the prompt
     * @param model         the model
     * @param action        the action, or {@code null}
     * @param confidence    the confidence, or {@code null}
     * @param latencyMillis how long it took
     * @param outcome       how it ended
     * @param errorType     the failure's class name for ERROR records, the reason for REFUSED ones
     */
    public AuditRecord(Instant timestamp, String requestId, String tenant, @Nullable String query,
            String querySha256, List<String> sourceIds, int contextTokens, String model, @Nullable String action,
            @Nullable Integer confidence, long latencyMillis, AuditOutcome outcome, @Nullable String errorType) {
        this(timestamp, requestId, tenant, query, querySha256, sourceIds, contextTokens, model, action, confidence,
                latencyMillis, outcome, errorType, AuditOperation.ASK, Map.of());
    }

    /** @return how many sources were in the prompt */
    public int sourceCount() {
        return sourceIds.size();
    }

    /**
     * @param text any text
     * @return its SHA-256 over UTF-8, lower-case hex
     */
    public static String sha256(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }
}
