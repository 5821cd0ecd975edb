package dev.ragkit.audit;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
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

    /**
     * @param operation what the record is about
     * @return a builder; timestamp, request id, tenant, query, model and outcome are required
     */
    public static Builder builder(AuditOperation operation) {
        return new Builder(operation);
    }

    /**
     * Builds an {@link AuditRecord} by name rather than by position: the query and a rewritten query are redacted
     * here, one way for every record. Not thread-safe.
     */
    public static final class Builder {
        private final AuditOperation operation;
        private @Nullable Instant timestamp;
        private @Nullable String requestId;
        private @Nullable String tenant;
        private @Nullable String query;
        private @Nullable String querySha256;
        private List<String> sourceIds = List.of();
        private int contextTokens;
        private @Nullable String model;
        private @Nullable String action;
        private @Nullable Integer confidence;
        private long latencyMillis;
        private @Nullable AuditOutcome outcome;
        private @Nullable String errorType;
        private Map<String, Long> counts = Map.of();
        private @Nullable String retrievalQuery;
        private @Nullable String reason;

        private Builder(AuditOperation operation) {
            this.operation = Objects.requireNonNull(operation, "operation");
        }

        /** @param at when the operation started @return this builder */
        public Builder timestamp(Instant at) {
            this.timestamp = Objects.requireNonNull(at, "timestamp");
            return this;
        }

        /** @param id the request's or operation's id @return this builder */
        public Builder requestId(String id) {
            this.requestId = Objects.requireNonNull(id, "requestId");
            return this;
        }

        /** @param tenant the tenant @return this builder */
        public Builder tenant(String tenant) {
            this.tenant = Objects.requireNonNull(tenant, "tenant");
            return this;
        }

        /**
         * @param text      the question (or, for INDEX records, what was indexed)
         * @param redaction whether the record keeps its text ({@link QueryRedaction#NONE}) or only its hash
         * @return this builder
         */
        public Builder query(String text, QueryRedaction redaction) {
            Objects.requireNonNull(text, "query");
            this.query = Objects.requireNonNull(redaction, "redaction") == QueryRedaction.NONE ? text : null;
            this.querySha256 = sha256(text);
            return this;
        }

        /**
         * @param text      the standalone question retrieval used, or {@code null} when the question was used as asked
         * @param redaction kept as text ({@link QueryRedaction#NONE}) or as {@code sha256:<hex>}
         * @return this builder
         */
        public Builder retrievalQuery(@Nullable String text, QueryRedaction redaction) {
            Objects.requireNonNull(redaction, "redaction");
            this.retrievalQuery = text == null ? null
                    : redaction == QueryRedaction.NONE ? text : "sha256:" + sha256(text);
            return this;
        }

        /** @param ids the SourceIds in the prompt (or found), in order @return this builder */
        public Builder sourceIds(List<String> ids) {
            this.sourceIds = List.copyOf(ids);
            return this;
        }

        /** @param tokens the tokens of context @return this builder */
        public Builder contextTokens(int tokens) {
            this.contextTokens = tokens;
            return this;
        }

        /** @param model the model (or embedder) used @return this builder */
        public Builder model(String model) {
            this.model = Objects.requireNonNull(model, "model");
            return this;
        }

        /** @param action CITE, ROUTE or DECLINE, or {@code null} @return this builder */
        public Builder action(@Nullable String action) {
            this.action = action;
            return this;
        }

        /** @param confidence the overall confidence, or {@code null} @return this builder */
        public Builder confidence(@Nullable Integer confidence) {
            this.confidence = confidence;
            return this;
        }

        /** @param millis how long it took @return this builder */
        public Builder latencyMillis(long millis) {
            this.latencyMillis = millis;
            return this;
        }

        /**
         * @param outcome   how it ended
         * @param errorType the failure's class name for ERROR, the reason for REFUSED, else {@code null}
         * @return this builder
         */
        public Builder outcome(AuditOutcome outcome, @Nullable String errorType) {
            this.outcome = Objects.requireNonNull(outcome, "outcome");
            this.errorType = errorType;
            return this;
        }

        /** @param counts what the operation counted, by name in order @return this builder */
        public Builder counts(Map<String, Long> counts) {
            this.counts = Objects.requireNonNull(counts, "counts");
            return this;
        }

        /** @param reason why the question was not answered from the documents, or {@code null} @return this builder */
        public Builder reason(@Nullable String reason) {
            this.reason = reason;
            return this;
        }

        /**
         * @return the record
         * @throws IllegalStateException naming every required value not given
         */
        public AuditRecord build() {
            List<String> missing = new ArrayList<>();
            if (timestamp == null) {
                missing.add("timestamp(..)");
            }
            if (requestId == null) {
                missing.add("requestId(..)");
            }
            if (tenant == null) {
                missing.add("tenant(..)");
            }
            if (querySha256 == null) {
                missing.add("query(..)");
            }
            if (model == null) {
                missing.add("model(..)");
            }
            if (outcome == null) {
                missing.add("outcome(..)");
            }
            if (!missing.isEmpty()) {
                throw new IllegalStateException("an audit record needs " + String.join(", ", missing));
            }
            return new AuditRecord(timestamp, requestId, tenant, query, querySha256, sourceIds, contextTokens, model,
                    action, confidence, latencyMillis, outcome, errorType, operation, counts, retrievalQuery,
                    reason);
        }
    }
}
