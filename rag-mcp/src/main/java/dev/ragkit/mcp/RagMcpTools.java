package dev.ragkit.mcp;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ragkit.RagPipeline;
import dev.ragkit.RagRequest;
import dev.ragkit.RagResponse;
import dev.ragkit.audit.AuditOperation;
import dev.ragkit.audit.AuditOutcome;
import dev.ragkit.audit.AuditRecord;
import dev.ragkit.audit.AuditTrail;
import dev.ragkit.grounding.Citation;
import dev.ragkit.retrieval.RetrievedChunk;
import dev.ragkit.retrieval.RetrievedContext;
import dev.ragkit.retrieval.Retriever;
import dev.ragkit.store.DocumentStore;
import dev.ragkit.store.Scope;
import dev.ragkit.store.StoredDocument;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The MCP tools RagKit serves, over one pipeline and its store, in one scope fixed by the server's configuration:
 * <ul>
 *   <li>{@code rag_query} — a question (optionally narrowed to some of the allowed tags, with a profile) → the
 *       answer, its citations (path, lines, page, section, snippet), the confidence, the action and the route;</li>
 *   <li>{@code rag_search} — a query → the ranked chunks with their SourceIds and scores, no generation;</li>
 *   <li>{@code rag_documents} — what is indexed in the scope.</li>
 * </ul>
 * Each result is structured content plus a readable text block. The tenant and the allowed access tags come from
 * the builder; a tool's {@code tags} argument can only narrow them (a tag outside them is refused), never widen.
 * Every call is audited: {@code rag_query} through the pipeline's audit trail, {@code rag_search} as a retrieval,
 * {@code rag_documents} as a listing. Bad arguments (a missing or blank question, a question over
 * {@link Builder#maxQuestionChars}, wrong types, unknown tags or profiles) and failures (a model server that is
 * down, …) come back as tool errors ({@code isError: true}) with a message that says what to fix; the server goes on.
 */
public final class RagMcpTools {
    private static final Logger LOG = LoggerFactory.getLogger(RagMcpTools.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    /** The default longest question, in characters. */
    public static final int DEFAULT_MAX_QUESTION_CHARS = 4_000;

    private final RagPipeline chunkQa;
    private final @Nullable RagPipeline knowledgeBase;
    private final Retriever retriever;
    private final DocumentStore store;
    private final String tenant;
    private final Set<String> allowedTags;
    private final AuditTrail audit;
    private final int maxQuestionChars;
    private final Clock clock;
    private final McpJsonMapper mapper = new JacksonMcpJsonMapper(JSON);

    private RagMcpTools(Builder b) {
        this.chunkQa = Objects.requireNonNull(b.pipeline, "pipeline");
        this.knowledgeBase = b.knowledgeBase;
        this.retriever = Objects.requireNonNull(b.retriever, "retriever");
        this.store = Objects.requireNonNull(b.store, "store");
        this.allowedTags = Set.copyOf(b.tags);
        this.tenant = Scope.of(Objects.requireNonNull(b.tenant, "tenant"), allowedTags).tenant();
        this.audit = b.audit;
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
                        "{\"type\":\"object\",\"properties\":{"
                                + "\"question\":{\"type\":\"string\",\"description\":\"the question, in natural "
                                + "language\"},"
                                + "\"tags\":{\"type\":\"array\",\"items\":{\"type\":\"string\"},\"description\":"
                                + "\"optional: answer only from documents with these access tags (a subset of the "
                                + "server's allowed tags)\"},"
                                + "\"profile\":{\"type\":\"string\",\"enum\":[\"chunk-qa\",\"knowledge-base\"],"
                                + "\"description\":\"chunk-qa (default): passages; knowledge-base: whole documents\"}"
                                + "},\"required\":[\"question\"]}",
                        this::query),
                tool("rag_search", "Search the indexed documents (no answer)",
                        "Searches the indexed documents and returns the best-matching chunks with their SourceIds, "
                                + "paths, line ranges and scores; no language model is used.",
                        "{\"type\":\"object\",\"properties\":{"
                                + "\"query\":{\"type\":\"string\",\"description\":\"what to look for\"},"
                                + "\"k\":{\"type\":\"integer\",\"minimum\":1,\"maximum\":50,\"description\":"
                                + "\"how many chunks, default 10\"}},\"required\":[\"query\"]}",
                        this::search),
                tool("rag_documents", "List the indexed documents",
                        "Lists the documents indexed for this server's scope: path, title, type and promotion.",
                        "{\"type\":\"object\",\"properties\":{}}",
                        args -> documents()));
    }

    private SyncToolSpecification tool(String name, String title, String description, String schema,
            Function<Map<String, Object>, CallToolResult> handler) {
        McpSchema.Tool tool = McpSchema.Tool.builder().name(name).title(title).description(description)
                .inputSchema(mapper, schema).build();
        return SyncToolSpecification.builder().tool(tool).callHandler((exchange, request) -> {
            try {
                return handler.apply(request.arguments() == null ? Map.of() : request.arguments());
            } catch (BadArgument e) {
                return error(e.getMessage());
            } catch (RuntimeException e) {
                LOG.warn("tool {} failed: {}", name, e.toString());
                return error(name + " failed: " + e.getMessage());
            }
        }).build();
    }

    // -------------------------------------------------------------------------------------------------------------

    private CallToolResult query(Map<String, Object> args) {
        String question = text(args, "question", maxQuestionChars);
        Scope scope = scope(args.get("tags"));
        Object profile = args.getOrDefault("profile", "chunk-qa");
        RagPipeline pipeline;
        if ("chunk-qa".equals(profile)) {
            pipeline = chunkQa;
        } else if ("knowledge-base".equals(profile)) {
            pipeline = knowledgeBase != null ? knowledgeBase : chunkQa;
        } else {
            throw new BadArgument("'profile' must be chunk-qa or knowledge-base, got " + describe(profile));
        }
        RagResponse response = pipeline.ask(RagRequest.of(question, scope));
        ObjectNode out = JSON.createObjectNode();
        out.put("answer", response.answer());
        out.put("action", response.action().name());
        ObjectNode confidence = out.putObject("confidence");
        confidence.put("overall", response.confidence().overall());
        confidence.put("retrieval", response.confidence().retrieval());
        confidence.put("coverage", response.confidence().coverage());
        if (response.confidence().selfRating() != null) {
            confidence.put("selfRating", response.confidence().selfRating());
        }
        confidence.put("explanation", response.confidence().explanation());
        ArrayNode citations = out.putArray("citations");
        StringBuilder text = new StringBuilder(response.answer()).append("\n");
        for (Citation c : response.citations()) {
            ObjectNode n = citations.addObject();
            n.put("sourceId", c.sourceId());
            n.put("path", c.path());
            n.put("title", c.documentName());
            n.put("startLine", c.startLine());
            n.put("endLine", c.endLine());
            if (c.page() != null) {
                n.put("page", c.page());
            }
            if (c.section() != null) {
                n.put("section", c.section());
            }
            n.put("snippet", c.snippet());
            text.append("\n[").append(c.sourceId()).append("] ").append(c.location());
        }
        if (response.routeTo() != null) {
            out.set("route", JSON.valueToTree(response.routeTo()));
            String to = response.routeTo().ownerEmail();
            text.append("\nRouted").append(to == null ? "" : " to " + to).append(": ")
                    .append(response.routeTo().reason());
        }
        out.put("model", response.modelUsed());
        ArrayNode flags = out.putArray("flags");
        response.flags().forEach(f -> flags.add(f.name()));
        text.append("\nConfidence ").append(response.confidence().overall()).append("/100, action ")
                .append(response.action());
        return result(out, text.toString());
    }

    private CallToolResult search(Map<String, Object> args) {
        String query = text(args, "query", maxQuestionChars);
        int k = 10;
        Object given = args.get("k");
        if (given != null) {
            if (!(given instanceof Number) || ((Number) given).doubleValue() != Math.rint(((Number) given)
                    .doubleValue()) || ((Number) given).intValue() < 1 || ((Number) given).intValue() > 50) {
                throw new BadArgument("'k' must be a whole number from 1 to 50, got " + describe(given));
            }
            k = ((Number) given).intValue();
        }
        RetrievedContext context = retriever.retrieve(query, scope(null));
        ObjectNode out = JSON.createObjectNode();
        ArrayNode chunks = out.putArray("chunks");
        StringBuilder text = new StringBuilder();
        List<RetrievedChunk> relevant = context.relevant();
        for (RetrievedChunk c : relevant.subList(0, Math.min(k, relevant.size()))) {
            ObjectNode n = chunks.addObject();
            n.put("sourceId", c.chunk().sourceId());
            n.put("path", c.document().path());
            n.put("title", c.document().title());
            n.put("startLine", c.chunk().startLine());
            n.put("endLine", c.chunk().endLine());
            if (c.chunk().page() != null) {
                n.put("page", c.chunk().page());
            }
            if (c.chunk().section() != null) {
                n.put("section", c.chunk().section());
            }
            n.put("similarity", c.similarity());
            n.put("score", c.boosted());
            n.put("text", c.chunk().text());
            text.append(String.format(java.util.Locale.ROOT, "%.3f  %s:%d-%d  [%s]%n", c.boosted(),
                    c.document().path(), c.chunk().startLine(), c.chunk().endLine(), c.chunk().sourceId()));
        }
        out.put("totalMatches", context.totalMatches());
        return result(out, text.length() == 0 ? "No chunk matched." : text.toString());
    }

    private CallToolResult documents() {
        Instant start = clock.instant();
        Scope scope = scope(null);
        List<StoredDocument> docs = new ArrayList<>(store.documents(scope));
        docs.sort(Comparator.comparing(StoredDocument::path));
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
        String what = "rag_documents";
        audit.write(new AuditRecord(start, UUID.randomUUID().toString(), tenant, what, AuditRecord.sha256(what),
                List.of(), 0, "none", null, null, Duration.between(start, clock.instant()).toMillis(),
                AuditOutcome.RETRIEVED, null, AuditOperation.LIST, Map.of("documents", (long) docs.size())), null);
        return result(out, docs.isEmpty() ? "Nothing is indexed for this scope." : text.toString());
    }

    // -------------------------------------------------------------------------------------------------------------

    /** The server's scope, narrowed to the requested tags when they are all allowed. */
    private Scope scope(@Nullable Object tags) {
        if (tags == null) {
            return Scope.of(tenant, allowedTags);
        }
        if (!(tags instanceof Collection<?>)) {
            throw new BadArgument("'tags' must be an array of strings, got " + describe(tags));
        }
        Set<String> wanted = new LinkedHashSet<>();
        for (Object tag : (Collection<?>) tags) {
            if (!(tag instanceof String) || ((String) tag).isBlank()) {
                throw new BadArgument("'tags' must hold non-blank strings, got " + describe(tag));
            }
            if (!allowedTags.contains(tag)) {
                throw new BadArgument("tag '" + tag + "' is not allowed on this server (allowed: "
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
            throw new BadArgument("'" + name + "' is required");
        }
        if (!(value instanceof String)) {
            throw new BadArgument("'" + name + "' must be a string, got " + describe(value));
        }
        String text = ((String) value).strip();
        if (text.isEmpty()) {
            throw new BadArgument("'" + name + "' is blank; ask a question, e.g. \"How do I rotate the API key?\"");
        }
        if (text.length() > max) {
            throw new BadArgument("'" + name + "' has " + text.length() + " characters; the most is " + max
                    + ": ask a shorter question");
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

    private CallToolResult result(ObjectNode structured, String text) {
        return CallToolResult.builder().structuredContent(mapper, structured.toString()).addTextContent(text)
                .isError(false).build();
    }

    private static CallToolResult error(String message) {
        return CallToolResult.builder().addTextContent(message).isError(true).build();
    }

    /** A tool argument that is wrong: reported to the client as a tool error. */
    private static final class BadArgument extends RuntimeException {
        private static final long serialVersionUID = 1L;

        BadArgument(String message) {
            super(message, null, false, false);
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

        /** @param retriever answers {@code rag_search} (give it the audit sink too) @return this builder */
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

        /** @param audit where {@code rag_documents} records its calls @return this builder */
        public Builder audit(AuditTrail audit) {
            this.audit = Objects.requireNonNull(audit, "audit");
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
