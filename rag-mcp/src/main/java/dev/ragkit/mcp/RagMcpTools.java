package dev.ragkit.mcp;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ragkit.RagPipeline;
import dev.ragkit.RagRequest;
import dev.ragkit.RagResponse;
import dev.ragkit.RagStreamListener;
import dev.ragkit.ResponseFlag;
import dev.ragkit.audit.AuditOperation;
import dev.ragkit.audit.AuditOutcome;
import dev.ragkit.audit.AuditRecord;
import dev.ragkit.audit.AuditTrail;
import dev.ragkit.audit.QueryRedaction;
import dev.ragkit.error.AuditException;
import dev.ragkit.generation.Cancellable;
import dev.ragkit.grounding.Citation;
import dev.ragkit.grounding.RouteTarget;
import dev.ragkit.internal.Futures;
import dev.ragkit.retrieval.RetrievedChunk;
import dev.ragkit.retrieval.RetrievedContext;
import dev.ragkit.retrieval.Retriever;
import dev.ragkit.serving.ResponseJson;
import dev.ragkit.store.DocumentStore;
import dev.ragkit.store.Scope;
import dev.ragkit.store.StoredDocument;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.json.schema.JsonSchemaValidator;
import io.modelcontextprotocol.json.schema.jackson2.DefaultJsonSchemaValidator;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.util.ToolInputValidator;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The MCP tools RagKit serves, over one pipeline and its store, in one scope fixed by the server's configuration:
 * <ul>
 *   <li>{@code rag_query} — a question (optionally narrowed to some of the allowed tags, with a profile) → the
 *       answer, its citations (path, lines, page, section, snippet), the confidence, the action and the route;</li>
 *   <li>{@code rag_search} — a query → the ranked passages, their text with their locations and scores, no
 *       generation;</li>
 *   <li>{@code rag_documents} — what is indexed in the scope.</li>
 * </ul>
 * Each tool declares an {@code outputSchema} for its structured content and the annotations {@code readOnlyHint:
 * true}, {@code destructiveHint: false}, {@code openWorldHint: false}; each result is structured content plus a
 * text block a model can read on its own (for {@code rag_search}, the passages themselves).
 *
 * <p>The tenant and the allowed access tags come from the builder; a tool's {@code tags} argument can only narrow
 * them (a tag outside them is refused), never widen. Every call is audited, refused ones too: {@code rag_query}
 * through the pipeline's audit trail ({@code ASK}), {@code rag_search} ({@code RETRIEVE}) and {@code rag_documents}
 * ({@code LIST}) through this builder's {@link Builder#audit trail}, and a refused call of any tool as
 * {@link AuditOutcome#REFUSED} with the reason code in {@code errorType} (e.g. {@code TAG_NOT_ALLOWED},
 * {@code INVALID_ARGUMENTS}) and the message in {@code reason}, the question as its hash only. When a record cannot be written, the trail's {@link dev.ragkit.audit.AuditFailurePolicy}
 * decides: the result says so ({@code flags: ["AUDIT_NOT_WRITTEN"]} and a warning line), or the call fails with a
 * tool error. Bad arguments (checked against the input schema, then: a missing or blank question, one over
 * {@link Builder#maxQuestionChars}, unknown tags or profiles) and failures (a model server that is down, …) come
 * back as tool errors ({@code isError: true}) with a message that says what to fix; the server goes on. A
 * {@code rag_query} whose HTTP client went away is cancelled (the model call is closed; audited as
 * {@code CANCELLED}).
 */
public final class RagMcpTools {
    private static final Logger LOG = LoggerFactory.getLogger(RagMcpTools.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String AUDIT_NOT_WRITTEN = ResponseFlag.AUDIT_NOT_WRITTEN.name();
    /** The default longest question, in characters. */
    public static final int DEFAULT_MAX_QUESTION_CHARS = 4_000;

    private final RagPipeline chunkQa;
    private final @Nullable RagPipeline knowledgeBase;
    private final Retriever retriever;
    private final DocumentStore store;
    private final String tenant;
    private final Set<String> allowedTags;
    private final AuditTrail audit;
    private final QueryRedaction redaction;
    private final int maxQuestionChars;
    private final Clock clock;
    private final McpJsonMapper mapper = new JacksonMcpJsonMapper(JSON);
    private final JsonSchemaValidator schemas = new DefaultJsonSchemaValidator(JSON);

    private RagMcpTools(Builder b) {
        this.chunkQa = Objects.requireNonNull(b.pipeline, "pipeline");
        this.knowledgeBase = b.knowledgeBase;
        this.retriever = Objects.requireNonNull(b.retriever, "retriever");
        this.store = Objects.requireNonNull(b.store, "store");
        this.allowedTags = Set.copyOf(b.tags);
        this.tenant = Scope.of(Objects.requireNonNull(b.tenant, "tenant"), allowedTags).tenant();
        this.audit = b.audit;
        this.redaction = b.redaction;
        this.maxQuestionChars = b.maxQuestionChars;
        this.clock = b.clock;
    }

    /** @return a builder */
    public static Builder builder() {
        return new Builder();
    }

    /** @return the JSON mapper the tools and their schemas use (Jackson 2) */
    public McpJsonMapper jsonMapper() {
        return mapper;
    }

    /** @return the three tools, ready for an MCP server */
    public List<SyncToolSpecification> specifications() {
        return List.of(
                tool("rag_query", "Answer a question from the indexed documents, with citations",
                        "Answers a question from the organisation's indexed documents. The answer is grounded in "
                                + "the documents, with citations (path, line range, page, section, snippet), a "
                                + "confidence score, and an action: CITE when it is confident, ROUTE when the question "
                                + "should go to the human owner named in 'route'.",
                        AuditOperation.ASK, this::query),
                tool("rag_search", "Search the indexed documents (no answer)",
                        "Searches the indexed documents and returns the best-matching passages: their text, with "
                                + "path, line range, page, section, score and SourceId; no language model is used.",
                        AuditOperation.RETRIEVE, this::search),
                tool("rag_documents", "List the indexed documents",
                        "Lists the documents indexed for this server's scope: path, title, type and promotion.",
                        AuditOperation.LIST, this::documents));
    }

    /** One call: its arguments, its start, and the client's connection when the transport watches it. */
    private record Call(Map<String, Object> args, Instant start, @Nullable ClientConnection connection) {
    }

    private interface Handler {
        CallToolResult handle(Call call);
    }

    private SyncToolSpecification tool(String name, String title, String description, AuditOperation operation,
            Handler handler) {
        McpSchema.Tool tool = McpSchema.Tool.builder().name(name).title(title).description(description)
                .inputSchema(mapper, schema(name + ".input.json"))
                .outputSchema(mapper, schema(name + ".output.json"))
                .annotations(McpSchema.ToolAnnotations.builder().title(title).readOnlyHint(true)
                        .destructiveHint(false).idempotentHint(true).openWorldHint(false).build())
                .build();
        return SyncToolSpecification.builder().tool(tool).callHandler((exchange, request) -> {
            Map<String, Object> args = request.arguments() == null ? Map.of() : request.arguments();
            Call call = new Call(args, clock.instant(), ClientConnection.of(exchange.transportContext()));
            CallToolResult invalid = ToolInputValidator.validate(tool, args, true, schemas);
            if (invalid != null) {
                String why = invalid.content().isEmpty() ? "the arguments do not match the tool's input schema"
                        : String.valueOf(((McpSchema.TextContent) invalid.content().get(0)).text());
                return refused(call, operation, new Refusal("INVALID_ARGUMENTS", why + "; see the tool's "
                        + "inputSchema"));
            }
            try {
                return handler.handle(call);
            } catch (Refusal e) {
                return refused(call, operation, e);
            } catch (AuditException e) {
                return error(name + " was not answered: " + e.getMessage());
            } catch (CancellationException e) {
                return error(name + " was cancelled: the client disconnected");
            } catch (RuntimeException e) {
                LOG.warn("tool {} failed: {}", name, e.toString());
                return error(name + " failed: " + e.getMessage());
            }
        }).build();
    }

    private static String schema(String file) {
        try (InputStream in = RagMcpTools.class.getResourceAsStream("schemas/" + file)) {
            if (in == null) {
                throw new IllegalStateException("the jar lacks dev/ragkit/mcp/schemas/" + file + "; rebuild rag-mcp");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    // -------------------------------------------------------------------------------------------------------------

    private CallToolResult query(Call call) {
        Map<String, Object> args = call.args();
        String question = text(args, "question", maxQuestionChars);
        Scope scope = scope(args.get("tags"));
        Object profile = args.getOrDefault("profile", "chunk-qa");
        RagPipeline pipeline;
        if ("chunk-qa".equals(profile)) {
            pipeline = chunkQa;
        } else if ("knowledge-base".equals(profile)) {
            pipeline = knowledgeBase != null ? knowledgeBase : chunkQa;
        } else {
            throw new Refusal("UNKNOWN_PROFILE", "'profile' must be chunk-qa or knowledge-base, got "
                    + describe(profile));
        }
        RagResponse response = answer(pipeline, RagRequest.of(question, scope), call.connection());
        ObjectNode out = ResponseJson.answer(response);
        StringBuilder text = new StringBuilder(response.answer()).append('\n');
        if (!response.citations().isEmpty()) {
            text.append("\nSources:\n");
        }
        int n = 1;
        for (Citation c : response.citations()) {
            text.append('[').append(n++).append("] ").append(c.location())
                    .append(c.section() == null ? "" : " · section: " + c.section())
                    .append(" · SourceId ").append(c.sourceId()).append("\n    \"")
                    .append(c.snippet().replace('\n', ' ')).append("\"\n");
        }
        RouteTarget route = response.routeTo();
        if (route != null) {
            String to = route.ownerEmail();
            text.append("\nRouted").append(to == null ? "" : " to " + to).append(": ").append(route.reason())
                    .append('\n');
        }
        text.append("\nConfidence ").append(response.confidence().overall()).append("/100, action ")
                .append(response.action());
        String unaudited = response.flags().contains(ResponseFlag.AUDIT_NOT_WRITTEN)
                ? "the pipeline's audit sink failed (see the server's log)" : null;
        return result(out, text.toString(), unaudited);
    }

    /** Asks through the streaming path, whose model call a client's disconnect can cancel. */
    private static RagResponse answer(RagPipeline pipeline, RagRequest request, @Nullable ClientConnection client) {
        CompletableFuture<RagResponse> done = new CompletableFuture<>();
        Cancellable call = pipeline.stream(request, new RagStreamListener() {
            @Override
            public void onToken(String token) {
                // the whole answer is sent at the end
            }

            @Override
            public void onComplete(RagResponse response) {
                done.complete(response);
            }

            @Override
            public void onError(Throwable error) {
                done.completeExceptionally(error);
            }
        });
        if (client != null) {
            client.onDisconnect(call::cancel);
        }
        try {
            return done.get();
        } catch (InterruptedException e) {
            call.cancel();
            Thread.currentThread().interrupt();
            throw new CancellationException("interrupted");
        } catch (ExecutionException e) {
            throw Futures.unwrap(e);
        }
    }

    private CallToolResult search(Call call) {
        Map<String, Object> args = call.args();
        String query = text(args, "query", maxQuestionChars);
        int k = 10;
        Object given = args.get("k");
        if (given != null) {
            if (!(given instanceof Number) || ((Number) given).doubleValue() != Math.rint(((Number) given)
                    .doubleValue()) || ((Number) given).intValue() < 1 || ((Number) given).intValue() > 50) {
                throw new Refusal("K_OUT_OF_RANGE", "'k' must be a whole number from 1 to 50, got "
                        + describe(given));
            }
            k = ((Number) given).intValue();
        }
        Scope scope = scope(null);
        if (call.connection() != null && call.connection().isDisconnected()) {
            throw new CancellationException("the client disconnected");
        }
        RetrievedContext context;
        try {
            context = retriever.retrieve(query, scope);
        } catch (RuntimeException e) {
            audit(call, AuditOperation.RETRIEVE, query, List.of(), 0, AuditOutcome.ERROR, e.getClass().getName(),
                    Map.of(), e);
            throw e;
        }
        List<RetrievedChunk> relevant = context.relevant();
        List<RetrievedChunk> shown = relevant.subList(0, Math.min(k, relevant.size()));
        List<String> ids = new ArrayList<>();
        int tokens = 0;
        for (RetrievedChunk c : shown) {
            ids.add(c.sourceId());
            tokens += c.chunk().tokenCount();
        }
        Map<String, Long> counts = new LinkedHashMap<>();
        counts.put("critical", (long) context.critical().size());
        counts.put("relevant", (long) shown.size());
        counts.put("linked", (long) context.linked().size());
        counts.put("totalMatches", (long) context.totalMatches());
        String unaudited = audit(call, AuditOperation.RETRIEVE, query, ids, tokens, shown.isEmpty()
                ? AuditOutcome.EMPTY_CONTEXT : AuditOutcome.RETRIEVED, null, counts, null);

        ObjectNode out = JSON.createObjectNode();
        ArrayNode chunks = out.putArray("chunks");
        StringBuilder text = new StringBuilder();
        text.append(shown.size()).append(shown.size() == 1 ? " passage" : " passages").append(" for \"")
                .append(query.replace('\n', ' ')).append("\" (").append(context.totalMatches())
                .append(" matches):\n");
        int n = 1;
        for (RetrievedChunk c : shown) {
            ObjectNode node = chunks.addObject();
            node.put("sourceId", c.chunk().sourceId());
            node.put("path", c.document().path());
            node.put("title", c.document().title());
            node.put("startLine", c.chunk().startLine());
            node.put("endLine", c.chunk().endLine());
            if (c.chunk().page() != null) {
                node.put("page", c.chunk().page());
            }
            if (c.chunk().section() != null) {
                node.put("section", c.chunk().section());
            }
            if (Double.isNaN(c.similarity())) {
                node.putNull("similarity");
            } else {
                node.put("similarity", c.similarity());
            }
            node.put("score", c.boosted());
            node.put("text", c.chunk().text());
            text.append("\n[").append(n++).append("] ").append(location(c))
                    .append(c.chunk().section() == null ? "" : " · section: " + c.chunk().section())
                    .append(String.format(Locale.ROOT, " · score %.3f", c.boosted()))
                    .append(" · SourceId ").append(c.chunk().sourceId()).append('\n')
                    .append(c.chunk().text().strip()).append('\n');
        }
        out.put("totalMatches", context.totalMatches());
        return result(out, shown.isEmpty() ? "No passage matched \"" + query.replace('\n', ' ') + "\"."
                : text.toString(), unaudited);
    }

    private static String location(RetrievedChunk c) {
        Integer page = c.chunk().page();
        String path = c.document().path();
        return page == null ? path + ", lines " + c.chunk().startLine() + "-" + c.chunk().endLine()
                : path + ", page " + page + ", lines " + c.chunk().startLine() + "-" + c.chunk().endLine();
    }

    private CallToolResult documents(Call call) {
        Scope scope = scope(null);
        List<StoredDocument> docs = new ArrayList<>(store.documents(scope));
        docs.sort(Comparator.comparing(StoredDocument::path));
        String unaudited = audit(call, AuditOperation.LIST, "rag_documents", List.of(), 0, AuditOutcome.RETRIEVED,
                null, Map.of("documents", (long) docs.size()), null);
        ObjectNode out = JSON.createObjectNode();
        ArrayNode list = out.putArray("documents");
        StringBuilder text = new StringBuilder();
        for (StoredDocument d : docs) {
            ObjectNode n = list.addObject();
            n.put("path", d.path());
            n.put("title", d.title());
            if (d.docType() != null) {
                n.put("type", d.docType());
            }
            n.put("promotion", d.promotionLevel().name());
            text.append(d.path()).append(" — ").append(d.title()).append('\n');
        }
        out.put("count", docs.size());
        return result(out, docs.isEmpty() ? "Nothing is indexed for this scope." : text.toString(), unaudited);
    }

    // -------------------------------------------------------------------------------------------------------------

    /**
     * Writes one record through the trail.
     *
     * @param primary the failure being recorded, or {@code null}
     * @return why the record was not written (under {@code LOG_AND_CONTINUE}), or {@code null}
     * @throws AuditException under {@code FAIL_REQUEST} when the record cannot be written and there is no primary
     */
    private @Nullable String audit(Call call, AuditOperation operation, String query, List<String> sourceIds,
            int contextTokens, AuditOutcome outcome, @Nullable String errorType, Map<String, Long> counts,
            @Nullable Throwable primary) {
        boolean userText = operation != AuditOperation.LIST;
        AuditRecord record = AuditRecord.builder(operation).timestamp(call.start())
                .requestId(UUID.randomUUID().toString()).tenant(tenant)
                .query(query, userText ? redaction : QueryRedaction.NONE).sourceIds(sourceIds)
                .contextTokens(contextTokens).model(operation == AuditOperation.RETRIEVE ? "retrieval" : "none")
                .latencyMillis(Duration.between(call.start(), clock.instant()).toMillis())
                .outcome(outcome, errorType).counts(counts).build();
        return audit.write(record, primary);
    }

    /** Audits a refused call (the argument as its hash only) and answers with a tool error. */
    private CallToolResult refused(Call call, AuditOperation operation, Refusal refusal) {
        Object argument = call.args().get(operation == AuditOperation.RETRIEVE ? "query" : "question");
        String hashed = argument instanceof String ? (String) argument : String.valueOf(call.args());
        AuditRecord record = AuditRecord.builder(operation).timestamp(call.start())
                .requestId(UUID.randomUUID().toString()).tenant(tenant).query(hashed, QueryRedaction.HASH)
                .model("none").latencyMillis(Duration.between(call.start(), clock.instant()).toMillis())
                .outcome(AuditOutcome.REFUSED, refusal.reason).reason(refusal.getMessage()).build();
        String message = refusal.getMessage();
        try {
            String why = audit.write(record, null);
            if (why != null) {
                message += "\nWarning: this refusal has no audit record (" + why + ")";
            }
        } catch (AuditException e) {
            message += "\nWarning: this refusal has no audit record: " + e.getMessage();
        }
        return error(message);
    }

    /** The server's scope, narrowed to the requested tags when they are all allowed. */
    private Scope scope(@Nullable Object tags) {
        if (tags == null) {
            return Scope.of(tenant, allowedTags);
        }
        if (!(tags instanceof Collection<?>)) {
            throw new Refusal("INVALID_ARGUMENTS", "'tags' must be an array of strings, got " + describe(tags));
        }
        Set<String> wanted = new LinkedHashSet<>();
        for (Object tag : (Collection<?>) tags) {
            if (!(tag instanceof String) || ((String) tag).isBlank()) {
                throw new Refusal("INVALID_ARGUMENTS", "'tags' must hold non-blank strings, got " + describe(tag));
            }
            if (!allowedTags.contains(tag)) {
                throw new Refusal("TAG_NOT_ALLOWED", "tag '" + tag + "' is not allowed on this server (allowed: "
                        + (allowedTags.isEmpty() ? "none" : String.join(", ", allowedTags.stream().sorted().toList()))
                        + "); the server's configuration fixes the scope");
            }
            wanted.add((String) tag);
        }
        return Scope.of(tenant, wanted.isEmpty() ? allowedTags : wanted);
    }

    private static String text(Map<String, Object> args, String name, int max) {
        Object value = args.get(name);
        if (value == null) {
            throw new Refusal("MISSING_ARGUMENT", "'" + name + "' is required");
        }
        if (!(value instanceof String)) {
            throw new Refusal("INVALID_ARGUMENTS", "'" + name + "' must be a string, got " + describe(value));
        }
        String text = ((String) value).strip();
        if (text.isEmpty()) {
            throw new Refusal("BLANK_QUESTION", "'" + name + "' is blank; ask a question, e.g. \"How do I rotate "
                    + "the API key?\"");
        }
        if (text.length() > max) {
            throw new Refusal("QUESTION_TOO_LONG", "'" + name + "' has " + text.length() + " characters; the most is "
                    + max + ": ask a shorter question");
        }
        return text;
    }

    private static String describe(@Nullable Object value) {
        if (value == null) {
            return "null";
        }
        String type = value instanceof String ? "a string" : value instanceof Number ? "a number"
                : value instanceof Boolean ? "a boolean" : value instanceof Collection ? "an array"
                : value instanceof Map ? "an object" : value.getClass().getSimpleName();
        String shown = String.valueOf(value);
        return type + " (" + (shown.length() > 40 ? shown.substring(0, 40) + "…" : shown) + ")";
    }

    /** A successful result; when {@code unaudited} names an audit failure, the result says so. */
    private CallToolResult result(ObjectNode structured, String text, @Nullable String unaudited) {
        ArrayNode flags = structured.has("flags") ? (ArrayNode) structured.get("flags") : structured.putArray("flags");
        String shown = text;
        if (unaudited != null) {
            if (!flags.toString().contains(AUDIT_NOT_WRITTEN)) {
                flags.add(AUDIT_NOT_WRITTEN);
            }
            shown = text + "\n\nWarning: this call has no audit record (" + unaudited + "); it was answered anyway "
                    + "(audit failure policy LOG_AND_CONTINUE).";
        }
        return CallToolResult.builder().structuredContent(mapper, structured.toString()).addTextContent(shown)
                .isError(false).build();
    }

    private static CallToolResult error(String message) {
        return CallToolResult.builder().addTextContent(message).isError(true).build();
    }

    /** A call refused before it ran: reported to the client as a tool error and audited with its reason. */
    private static final class Refusal extends RuntimeException {
        private static final long serialVersionUID = 1L;
        final String reason;

        Refusal(String reason, String message) {
            super(message, null, false, false);
            this.reason = reason;
        }
    }

    /** Configures {@link RagMcpTools}. Not thread-safe. */
    public static final class Builder {
        private @Nullable RagPipeline pipeline;
        private @Nullable RagPipeline knowledgeBase;
        private @Nullable Retriever retriever;
        private @Nullable DocumentStore store;
        private @Nullable String tenant;
        private Set<String> tags = Set.of();
        private AuditTrail audit = AuditTrail.none();
        private QueryRedaction redaction = QueryRedaction.HASH;
        private int maxQuestionChars = DEFAULT_MAX_QUESTION_CHARS;
        private Clock clock = Clock.systemUTC();

        private Builder() {
        }

        /** @param pipeline answers {@code rag_query} (the chunk-qa profile) @return this builder */
        public Builder pipeline(RagPipeline pipeline) {
            this.pipeline = Objects.requireNonNull(pipeline, "pipeline");
            return this;
        }

        /** @param pipeline answers {@code rag_query} with {@code profile: knowledge-base} @return this builder */
        public Builder knowledgeBasePipeline(RagPipeline pipeline) {
            this.knowledgeBase = Objects.requireNonNull(pipeline, "pipeline");
            return this;
        }

        /**
         * @param retriever answers {@code rag_search}; give it no audit sink: the tools write the call's record
         *                  through {@link #audit}, refused calls included
         * @return this builder
         */
        public Builder retriever(Retriever retriever) {
            this.retriever = Objects.requireNonNull(retriever, "retriever");
            return this;
        }

        /** @param store lists documents for {@code rag_documents} @return this builder */
        public Builder store(DocumentStore store) {
            this.store = Objects.requireNonNull(store, "store");
            return this;
        }

        /**
         * @param tenant the one tenant every tool reads
         * @param tags   the access tags the server's users hold; tools can narrow, never widen them
         * @return this builder
         */
        public Builder scope(String tenant, Collection<String> tags) {
            this.tenant = Objects.requireNonNull(tenant, "tenant");
            this.tags = Set.copyOf(tags);
            return this;
        }

        /**
         * @param audit where {@code rag_search}, {@code rag_documents} and every refused call are recorded, under the
         *              trail's failure policy ({@code rag_query} is recorded by its pipeline)
         * @return this builder
         */
        public Builder audit(AuditTrail audit) {
            this.audit = Objects.requireNonNull(audit, "audit");
            return this;
        }

        /**
         * @param redaction whether {@code rag_search} records keep the query text ({@code NONE}) or its hash only
         *                  ({@code HASH}, the default, as the pipeline's); refused calls keep the hash only
         * @return this builder
         */
        public Builder queryRedaction(QueryRedaction redaction) {
            this.redaction = Objects.requireNonNull(redaction, "redaction");
            return this;
        }

        /** @param chars the longest question or query accepted, at least 1 @return this builder */
        public Builder maxQuestionChars(int chars) {
            if (chars < 1) {
                throw new IllegalArgumentException("maxQuestionChars must be at least 1, got " + chars);
            }
            this.maxQuestionChars = chars;
            return this;
        }

        /** @param clock the clock of audit records @return this builder */
        public Builder clock(Clock clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        /**
         * @return the tools
         * @throws NullPointerException naming the first missing setting (pipeline, retriever, store, tenant)
         */
        public RagMcpTools build() {
            return new RagMcpTools(this);
        }
    }

    /** @return the fixed scope, for logs */
    @Override
    public String toString() {
        return "RagMcpTools[tenant=" + tenant + ", tags=" + allowedTags + "]";
    }
}
