package dev.ragkit.audit;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.format.DateTimeFormatter;
import java.util.Objects;

/**
 * The one place that decides how an {@link AuditRecord} looks as JSON; both built-in sinks use it.
 *
 * <p>Each record becomes one JSON object on one line (no line breaks: Jackson escapes control characters in
 * strings), with these fields in this order:
 * <ol>
 *   <li>{@code timestamp}: ISO-8601 instant in UTC, such as {@code "2025-01-31T09:15:00.123Z"}</li>
 *   <li>{@code requestId}, {@code tenant}: strings</li>
 *   <li>{@code query}: the question, or JSON {@code null} when the pipeline redacted it</li>
 *   <li>{@code querySha256}: lower-case hex string</li>
 *   <li>{@code sourceIds}: array of strings in prompt order; {@code sourceCount}: its length</li>
 *   <li>{@code contextTokens}: integer</li>
 *   <li>{@code model}: string</li>
 *   <li>{@code action}: string or {@code null}; {@code confidence}: integer or {@code null}</li>
 *   <li>{@code latencyMillis}: integer</li>
 *   <li>{@code outcome}: the {@link AuditOutcome} constant's name</li>
 *   <li>{@code errorType}: string or {@code null}</li>
 *   <li>{@code operation}: the {@link AuditOperation} constant's name</li>
 *   <li>{@code counts}: an object of named integers (empty for questions)</li>
 *   <li>{@code retrievalQuery}: the rewritten question of a follow-up (redacted like {@code query}), or
 *       {@code null}</li>
 *   <li>{@code reason}: why a question was not answered from the documents, or {@code null}</li>
 * </ol>
 * Every field is always present; absent values are written as JSON {@code null} rather than left out, so every
 * line has the same keys and a reader can tell "redacted" from "field missing".
 */
final class AuditJson {

    /** Thread-safe once configured; no modules are needed because the instant is formatted here. */
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private AuditJson() {
    }

    /**
     * @param record the record
     * @return the record as one line of JSON, without a line terminator
     */
    static String toJsonLine(AuditRecord record) {
        Objects.requireNonNull(record, "record");
        ObjectNode node = MAPPER.createObjectNode();
        node.put("timestamp", DateTimeFormatter.ISO_INSTANT.format(record.timestamp()));
        node.put("requestId", record.requestId());
        node.put("tenant", record.tenant());
        node.put("query", record.query());
        node.put("querySha256", record.querySha256());
        ArrayNode sources = node.putArray("sourceIds");
        record.sourceIds().forEach(sources::add);
        node.put("sourceCount", record.sourceCount());
        node.put("contextTokens", record.contextTokens());
        node.put("model", record.model());
        node.put("action", record.action());
        node.put("confidence", record.confidence());
        node.put("latencyMillis", record.latencyMillis());
        node.put("outcome", record.outcome().name());
        node.put("errorType", record.errorType());
        node.put("operation", record.operation().name());
        ObjectNode counts = node.putObject("counts");
        record.counts().forEach(counts::put);
        node.put("retrievalQuery", record.retrievalQuery());
        node.put("reason", record.reason());
        try {
            return MAPPER.writeValueAsString(node);
        } catch (JsonProcessingException e) {
            // A tree of strings and numbers always serialises; this would be a Jackson bug.
            throw new IllegalStateException("could not serialise audit record " + record.requestId(), e);
        }
    }
}
