package dev.ragkit.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ragkit.ingest.DocumentIngestor;
import dev.ragkit.LinkedSource;
import dev.ragkit.PipelineHealth;
import dev.ragkit.RagPipeline;
import dev.ragkit.RagRequest;
import dev.ragkit.RagResponse;
import dev.ragkit.RagStreamListener;
import dev.ragkit.Source;
import dev.ragkit.audit.AuditOperation;
import dev.ragkit.audit.AuditOutcome;
import dev.ragkit.audit.AuditRecord;
import dev.ragkit.audit.QueryRedaction;
import dev.ragkit.audit.AuditTrail;
import dev.ragkit.error.AuditException;
import dev.ragkit.error.LlmTimeoutException;
import dev.ragkit.error.LlmUnavailableException;
import dev.ragkit.error.RagException;
import dev.ragkit.generation.Cancellable;
import dev.ragkit.generation.ChatMessage;
import dev.ragkit.grounding.Citation;
import dev.ragkit.grounding.RouteTarget;
import dev.ragkit.retrieval.RetrievedChunk;
import dev.ragkit.retrieval.RetrievedContext;
import dev.ragkit.retrieval.Retriever;
import dev.ragkit.serving.ResponseJson;
import dev.ragkit.store.DocumentStore;
import dev.ragkit.store.Scope;
import dev.ragkit.store.StoredChunk;
import dev.ragkit.store.StoredDocument;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CancellationException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The routes. Every {@code /v1/} route reads in the caller's {@link Grant} (put there by {@link RequestGuard}); bad
 * input is an {@link ApiException} (a typed 4xx JSON error, audited as {@code REFUSED}); an answer runs through the
 * pipeline's streaming path, so that a client that goes away cancels it and a slow one is cut at the request timeout.
 */
final class Api extends HttpServlet {
    private static final long serialVersionUID = 1L;
    private static final Logger LOG = LoggerFactory.getLogger(Api.class);
    static final ObjectMapper JSON = new ObjectMapper();
    /** The model name the OpenAI-compatible routes answer as. */
    static final String MODEL_ID = "ragkit";
    private static final Pattern DOCUMENT_VIEW = Pattern.compile("/v1/documents/([A-Za-z0-9._:-]{1,200})/view");
    private static final Pattern LINES = Pattern.compile("(\\d{1,9})(?:-(\\d{1,9}))?");
    private static final Map<String, String[]> STATIC = Map.of(
            "/", new String[] {"web/index.html", "text/html; charset=utf-8"},
            "/index.html", new String[] {"web/index.html", "text/html; charset=utf-8"},
            "/app.js", new String[] {"web/app.js", "text/javascript; charset=utf-8"},
            "/style.css", new String[] {"web/style.css", "text/css; charset=utf-8"},
            "/openapi.json", new String[] {"openapi.json", "application/json"});
    private static final Map<String, String> METHODS = Map.of("/v1/ask", "POST", "/v1/search", "POST",
            "/v1/chat/completions", "POST", "/v1/documents", "GET", "/v1/health", "GET", "/v1/models", "GET");

    private final transient RagPipeline pipeline;
    private final transient Retriever retriever;
    private final transient DocumentStore store;
    private final transient AuditTrail audit;
    private final transient ServerSettings settings;
    private final transient RequestBodies bodies;
    private final transient Clock clock = Clock.systemUTC();
    private final long started = Instant.now().getEpochSecond();
    private final Map<String, byte[]> resources = new HashMap<>();

    Api(RagPipeline pipeline, Retriever retriever, DocumentStore store, AuditTrail audit, ServerSettings settings) {
        this.pipeline = pipeline;
        this.retriever = retriever;
        this.store = store;
        this.audit = audit;
        this.settings = settings;
        this.bodies = new RequestBodies(settings);
        STATIC.values().forEach(r -> resources.put(r[0], resource(r[0])));
    }

    private static byte[] resource(String name) {
        try (InputStream in = Api.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("the jar lacks dev/ragkit/server/" + name + "; rebuild rag-server");
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** One request: when it began, who asks, what it is. */
    private record Call(Instant start, Grant grant, AuditOperation operation) {
    }

    @Override
    protected void service(HttpServletRequest request, HttpServletResponse response) throws IOException {
        String path = request.getRequestURI();
        String method = request.getMethod();
        String[] file = STATIC.get(path);
        if (file != null) {
            if (!"GET".equals(method) && !"HEAD".equals(method)) {
                response.setHeader("Allow", "GET");
                send(response, new ApiException(405, "METHOD_NOT_ALLOWED", "Method Not Allowed: use GET on " + path));
                return;
            }
            serveStatic(response, resources.get(file[0]), file[1]);
            return;
        }
        Grant grant = (Grant) request.getAttribute(RequestGuard.GRANT);
        Matcher view = DOCUMENT_VIEW.matcher(path);
        String allowed = view.matches() ? "GET" : METHODS.get(path);
        if (grant == null || allowed == null) {
            send(response, new ApiException(404, "NOT_FOUND", "Not Found: no route " + shown(path) + "; see "
                    + "/openapi.json"));
            return;
        }
        if (!allowed.equals(method)) {
            response.setHeader("Allow", allowed);
            send(response, new ApiException(405, "METHOD_NOT_ALLOWED", "Method Not Allowed: use " + allowed + " on "
                    + shown(path)));
            return;
        }
        Call call = new Call(clock.instant(), grant, operation(path));
        try {
            switch (path) {
                case "/v1/ask" -> ask(call, request, response);
                case "/v1/search" -> search(call, request, response);
                case "/v1/chat/completions" -> chat(call, request, response);
                case "/v1/documents" -> documents(call, response);
                case "/v1/health" -> health(call, response);
                case "/v1/models" -> models(response);
                default -> view(call, view.group(1), request, response);
            }
        } catch (ApiException e) {
            refused(call, e);
            if (!response.isCommitted()) {
                send(response, e);
            }
        } catch (ClientGone e) {
            LOG.debug("the client of {} went away; its answer was cancelled", path);
        } catch (AuditException e) {
            send(response, new ApiException(503, "AUDIT_FAILED", "Not answered: " + e.getMessage()));
        } catch (RuntimeException e) {
            LOG.warn("{} {} failed: {}", method, path, e.toString());
            if (!response.isCommitted()) {
                send(response, new ApiException(500, "INTERNAL", "Internal error: the server could not answer; its "
                        + "log has the details"));
            }
        }
    }

    // ---- routes ------------------------------------------------------------------------------------------------

    private void ask(Call call, HttpServletRequest request, HttpServletResponse response) throws IOException {
        ObjectNode body = bodies.read(request, Set.of("question", "stream", "tags"));
        String question = text(body, "question");
        boolean stream = bool(body, "stream");
        RagRequest rag = RagRequest.of(question, scope(call.grant(), body.get("tags")));
        if (!stream) {
            RagResponse answer = run(rag, null);
            ObjectNode out = ResponseJson.answer(answer);
            out.put("requestId", answer.requestId());
            out.put("numberedAnswer", numbered(answer));
            sendJson(response, 200, out);
            return;
        }
        Sse sse = new Sse(response);
        try {
            RagResponse answer = run(rag, new Events() {
                @Override
                public void sources(List<Source> sources, List<LinkedSource> linked) throws IOException {
                    ObjectNode data = JSON.createObjectNode();
                    ArrayNode list = data.putArray("sources");
                    sources.forEach(s -> list.addObject().put("documentId", s.documentId()).put("path", s.path())
                            .put("title", s.title()));
                    ArrayNode links = data.putArray("linked");
                    linked.forEach(s -> links.addObject().put("documentId", s.documentId()).put("path", s.path())
                            .put("title", s.title()).put("linkedFrom", s.linkedFrom()));
                    sse.event("sources", data);
                }

                @Override
                public void token(String token) throws IOException {
                    sse.event("token", JSON.createObjectNode().put("text", token));
                }

                @Override
                public void heartbeat() throws IOException {
                    sse.comment();
                }
            });
            ObjectNode out = ResponseJson.answer(answer);
            out.put("requestId", answer.requestId());
            out.put("numberedAnswer", numbered(answer));
            sse.event("done", out);
        } catch (ApiException e) {
            sse.event("error", e.json());
            throw e;
        }
    }

    private void chat(Call call, HttpServletRequest request, HttpServletResponse response) throws IOException {
        ObjectNode body = bodies.read(request, null);
        JsonNode messages = body.get("messages");
        if (messages == null || !messages.isArray() || messages.isEmpty()) {
            throw new ApiException(400, "MISSING_FIELD", "'messages' is required: an array of {role, content} "
                    + "whose last user message is the question");
        }
        List<ChatMessage> history = new ArrayList<>();
        String question = null;
        for (JsonNode m : messages) {
            String role = m.path("role").asText("");
            String content = content(m.get("content"));
            if (role.equals("user")) {
                if (question != null) {
                    history.add(ChatMessage.user(question));
                }
                question = content;
            } else if (role.equals("assistant") && question != null) {
                history.add(ChatMessage.user(question));
                history.add(ChatMessage.assistant(content));
                question = null;
            }
        }
        if (question == null || question.isBlank()) {
            throw new ApiException(400, "NO_QUESTION", "the last message must be the user's question (role "
                    + "'user', non-blank content)");
        }
        String checked = checkedQuestion(question, "messages[-1].content");
        RagRequest rag = RagRequest.builder(checked, call.grant().scope()).history(history).build();
        boolean stream = bool(body, "stream");
        String id = "chatcmpl-" + UUID.randomUUID();
        long created = clock.instant().getEpochSecond();
        if (!stream) {
            RagResponse answer = run(rag, null);
            CitationNumbers numbers = new CitationNumbers();
            String text = numbers.feed(answer.answer()) + numbers.finish();
            ObjectNode out = completion(id, created, "chat.completion");
            ObjectNode choice = out.putArray("choices").addObject();
            choice.put("index", 0);
            choice.putObject("message").put("role", "assistant").put("content", text + footer(answer, numbers))
                    .putNull("refusal");
            choice.put("finish_reason", "stop");
            choice.putNull("logprobs");
            ObjectNode usage = out.putObject("usage");
            usage.put("prompt_tokens", answer.promptTokens()).put("completion_tokens", 0)
                    .put("total_tokens", answer.promptTokens());
            extras(out, answer, numbers);
            sendJson(response, 200, out);
            return;
        }
        Sse sse = new Sse(response);
        CitationNumbers numbers = new CitationNumbers();
        try {
            sse.data(chunk(id, created, JSON.createObjectNode().put("role", "assistant").put("content", ""), null));
            RagResponse answer = run(rag, new Events() {
                @Override
                public void sources(List<Source> sources, List<LinkedSource> linked) {
                    // OpenAI clients have no place for them before the text; they come with the last chunk
                }

                @Override
                public void token(String token) throws IOException {
                    String shown = numbers.feed(token);
                    if (!shown.isEmpty()) {
                        sse.data(chunk(id, created, JSON.createObjectNode().put("content", shown), null));
                    }
                }

                @Override
                public void heartbeat() throws IOException {
                    sse.comment();
                }
            });
            String rest = numbers.finish();
            ObjectNode last = chunk(id, created, JSON.createObjectNode().put("content", rest + footer(answer,
                    numbers)), "stop");
            extras(last, answer, numbers);
            sse.data(last);
            sse.done();
        } catch (ApiException e) {
            sse.data(e.json());
            throw e;
        }
    }

    private void search(Call call, HttpServletRequest request, HttpServletResponse response) throws IOException {
        ObjectNode body = bodies.read(request, Set.of("query", "k", "tags"));
        String query = text(body, "query");
        int k = 10;
        JsonNode given = body.get("k");
        if (given != null) {
            if (!given.isIntegralNumber() || given.asInt() < 1 || given.asInt() > 50) {
                throw new ApiException(400, "K_OUT_OF_RANGE", "'k' must be a whole number from 1 to 50, got "
                        + shown(given.toString()));
            }
            k = given.asInt();
        }
        Scope scope = scope(call.grant(), body.get("tags"));
        RetrievedContext context;
        try {
            context = retriever.retrieve(query, scope);
        } catch (RuntimeException e) {
            audit(call, query, List.of(), AuditOutcome.ERROR, e.getClass().getName(), Map.of(), e);
            throw e;
        }
        List<RetrievedChunk> relevant = context.relevant();
        List<RetrievedChunk> shown = relevant.subList(0, Math.min(k, relevant.size()));
        ObjectNode out = JSON.createObjectNode();
        ArrayNode chunks = out.putArray("chunks");
        List<String> ids = new ArrayList<>();
        for (RetrievedChunk c : shown) {
            ids.add(c.sourceId());
            ObjectNode node = chunks.addObject();
            node.put("sourceId", c.chunk().sourceId());
            node.put("documentId", c.document().id());
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
            node.put("score", c.boosted());
            node.put("text", c.chunk().text());
        }
        out.put("totalMatches", context.totalMatches());
        String unaudited = audit(call, query, ids, shown.isEmpty() ? AuditOutcome.EMPTY_CONTEXT
                : AuditOutcome.RETRIEVED, null, Map.of("relevant", (long) shown.size()), null);
        flags(out, unaudited);
        sendJson(response, 200, out);
    }

    private void documents(Call call, HttpServletResponse response) throws IOException {
        Scope scope = call.grant().scope();
        List<StoredDocument> docs = new ArrayList<>(store.documents(scope));
        docs.sort(Comparator.comparing(StoredDocument::path));
        ObjectNode out = JSON.createObjectNode();
        ArrayNode list = out.putArray("documents");
        for (StoredDocument d : docs) {
            List<StoredChunk> chunks = store.chunksWithoutEmbeddings(scope, d.id());
            ObjectNode n = list.addObject();
            n.put("id", d.id());
            n.put("path", d.path());
            n.put("title", d.title());
            n.put("type", d.docType() != null ? d.docType() : extension(d.path()));
            Integer pages = chunks.stream().map(StoredChunk::page).filter(Objects::nonNull).max(Integer::compare)
                    .orElse(null);
            if (pages != null) {
                n.put("pages", pages);
            } else {
                n.putNull("pages");
            }
            n.put("chunks", chunks.size());
            n.put("characters", d.charCount());
            if (d.date() != null) {
                n.put("date", d.date().toString());
            }
            String indexedAt = d.metadata().get(DocumentIngestor.INDEXED_AT_KEY);
            if (indexedAt != null) {
                n.put("indexedAt", indexedAt);
            } else {
                n.putNull("indexedAt");         // indexed before documents recorded their indexing time
            }
        }
        out.put("count", docs.size());
        out.put("tenant", call.grant().tenant());
        flags(out, audit(call, "documents", List.of(), AuditOutcome.RETRIEVED, null,
                Map.of("documents", (long) docs.size()), null));
        sendJson(response, 200, out);
    }

    /** One document's indexed text, from the store by id (never from the file system), its cited place marked. */
    private void view(Call call, String id, HttpServletRequest request, HttpServletResponse response)
            throws IOException {
        Scope scope = call.grant().scope();
        StoredDocument doc = store.document(scope, id).orElseThrow(() -> new ApiException(404, "DOCUMENT_NOT_FOUND",
                "Not Found: no indexed document with this id in your scope; list them with GET /v1/documents"));
        int from = -1;
        int to = -1;
        String lines = request.getParameter("lines");
        if (lines != null) {
            Matcher m = LINES.matcher(lines.strip());
            if (!m.matches()) {
                throw new ApiException(400, "BAD_LINES", "'lines' must be a line or a range such as 12-18, got '"
                        + shown(lines) + "'");
            }
            from = Integer.parseInt(m.group(1));
            to = m.group(2) == null ? from : Integer.parseInt(m.group(2));
            if (to < from) {
                throw new ApiException(400, "BAD_LINES", "'lines' must run from low to high, e.g. 12-18");
            }
        }
        Integer page = null;
        String pageParam = request.getParameter("page");
        if (pageParam != null) {
            try {
                page = Integer.valueOf(pageParam.strip());
            } catch (NumberFormatException e) {
                throw new ApiException(400, "BAD_PAGE", "'page' must be a page number, got '" + shown(pageParam)
                        + "'");
            }
        }
        // a paged document (PDF) numbers its lines within each page: a line is its page and its number
        TreeMap<Long, String> text = new TreeMap<>();
        Map<Long, Integer> pageOf = new HashMap<>();
        for (StoredChunk c : store.chunksWithoutEmbeddings(scope, doc.id())) {
            String[] split = c.text().split("\n", -1);
            for (int i = 0; i < split.length && c.startLine() + i <= c.endLine(); i++) {
                long key = lineKey(c.page(), c.startLine() + i);
                text.putIfAbsent(key, split[i]);
                if (c.page() != null) {
                    pageOf.putIfAbsent(key, c.page());
                }
            }
        }
        ObjectNode out = JSON.createObjectNode();
        ObjectNode d = out.putObject("document");
        d.put("id", doc.id()).put("path", doc.path()).put("title", doc.title())
                .put("type", doc.docType() != null ? doc.docType() : extension(doc.path()));
        ArrayNode list = out.putArray("lines");
        long previous = -1;
        for (Map.Entry<Long, String> e : text.entrySet()) {
            int n = (int) (e.getKey() % LINES_PER_PAGE_KEY);
            Integer p = pageOf.get(e.getKey());
            boolean inLines = from > 0 && n >= from && n <= to;
            boolean onPage = page != null && page.equals(p);
            // lines and page: the cited lines of the cited page; one of them: those lines, or that page's lines
            boolean marked = from > 0 && page != null ? inLines && onPage : inLines || onPage;
            ObjectNode line = list.addObject().put("n", n).put("text", e.getValue()).put("highlight", marked);
            if (p != null) {
                line.put("page", p);
            }
            if (previous >= 0 && e.getKey() > previous + 1 && e.getKey() / LINES_PER_PAGE_KEY
                    == previous / LINES_PER_PAGE_KEY) {
                line.put("gapBefore", true);
            }
            previous = e.getKey();
        }
        if (from > 0 || page != null) {
            ObjectNode highlight = out.putObject("highlight");
            if (from > 0) {
                highlight.put("from", from).put("to", to);
            }
            if (page != null) {
                highlight.put("page", page);
            }
        }
        flags(out, audit(call, "view " + doc.id(), List.of(doc.id()), AuditOutcome.RETRIEVED, null,
                Map.of("lines", (long) text.size()), null));
        sendJson(response, 200, out);
    }

    /** Lines of a view sort by page, then number: the key is {@code page * LINES_PER_PAGE_KEY + line}. */
    private static final long LINES_PER_PAGE_KEY = 1_000_000_000L;

    private static long lineKey(@Nullable Integer page, int line) {
        return (page == null ? 0L : page.longValue()) * LINES_PER_PAGE_KEY + line;
    }

    private void health(Call call, HttpServletResponse response) throws IOException {
        PipelineHealth h = pipeline.health();
        ObjectNode out = JSON.createObjectNode();
        out.put("status", h.healthy() ? "UP" : "DEGRADED");
        out.put("model", h.model());
        out.put("backendReachable", h.backend().reachable());
        out.put("modelAvailable", h.backend().modelAvailable());
        out.put("storeReady", h.storeReady());
        out.put("tenant", call.grant().tenant());
        sendJson(response, h.healthy() ? 200 : 503, out);
    }

    private void models(HttpServletResponse response) throws IOException {
        ObjectNode out = JSON.createObjectNode();
        out.put("object", "list");
        out.putArray("data").addObject().put("id", MODEL_ID).put("object", "model").put("created", started)
                .put("owned_by", "ragkit");
        sendJson(response, 200, out);
    }

    // ---- answering ---------------------------------------------------------------------------------------------

    /** What a streamed answer tells its route as it comes. */
    private interface Events {
        void sources(List<Source> sources, List<LinkedSource> linked) throws IOException;

        void token(String token) throws IOException;

        void heartbeat() throws IOException;
    }

    /** The client went away while its answer was running; the answer was cancelled. */
    private static final class ClientGone extends RuntimeException {
        private static final long serialVersionUID = 1L;

        ClientGone() {
            super(null, null, false, false);
        }
    }

    /**
     * Runs one answer through the pipeline's streaming path on this thread: passes its events on, probes the
     * connection every second while nothing else is written (a write that fails means the client went away, and
     * the answer is cancelled), and cancels it at the request timeout (504). The plain JSON routes write nothing
     * before the answer, so a client that leaves them is noticed only at the request timeout (Jetty does not read a
     * connection while its request is handled; see docs/design-notes.md).
     */
    private RagResponse run(RagRequest request, @Nullable Events events) {
        BlockingQueue<Object[]> queue = new LinkedBlockingQueue<>();
        Cancellable call = pipeline.stream(request, new RagStreamListener() {
            @Override
            public void onSources(List<Source> sources, List<LinkedSource> linked) {
                queue.add(new Object[] {"sources", sources, linked});
            }

            @Override
            public void onToken(String token) {
                queue.add(new Object[] {"token", token});
            }

            @Override
            public void onComplete(RagResponse response) {
                queue.add(new Object[] {"done", response});
            }

            @Override
            public void onError(Throwable error) {
                queue.add(new Object[] {"error", error});
            }
        });
        long deadline = System.nanoTime() + settings.requestTimeout().toNanos();
        try {
            while (true) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    call.cancel();
                    throw new ApiException(504, "ANSWER_TIMEOUT", "Gateway Timeout: the answer took longer than "
                            + settings.requestTimeout().toSeconds() + " s (--request-timeout) and was cancelled");
                }
                Object[] event = queue.poll(Math.min(left, TimeUnit.SECONDS.toNanos(1)), TimeUnit.NANOSECONDS);
                if (event == null) {
                    if (events != null) {
                        events.heartbeat();
                    }
                    continue;
                }
                switch ((String) event[0]) {
                    case "sources" -> {
                        if (events != null) {
                            @SuppressWarnings("unchecked")
                            List<Source> sources = (List<Source>) event[1];
                            @SuppressWarnings("unchecked")
                            List<LinkedSource> linked = (List<LinkedSource>) event[2];
                            events.sources(sources, linked);
                        }
                    }
                    case "token" -> {
                        if (events != null) {
                            events.token((String) event[1]);
                        }
                    }
                    case "done" -> {
                        return (RagResponse) event[1];
                    }
                    default -> throw failure((Throwable) event[1]);
                }
            }
        } catch (IOException gone) {
            call.cancel();
            throw new ClientGone();
        } catch (InterruptedException e) {
            call.cancel();
            Thread.currentThread().interrupt();
            throw new ClientGone();
        }
    }

    private static RuntimeException failure(Throwable error) {
        if (error instanceof CancellationException) {
            return new ClientGone();
        }
        if (error instanceof AuditException) {
            return (AuditException) error;
        }
        if (error instanceof LlmUnavailableException || error instanceof LlmTimeoutException) {
            return new ApiException(503, "MODEL_UNAVAILABLE", "Service Unavailable: " + error.getMessage());
        }
        if (error instanceof RagException) {
            return new ApiException(500, error.getClass().getSimpleName(), error.getMessage() == null
                    ? "the answer failed" : error.getMessage());
        }
        return error instanceof RuntimeException ? (RuntimeException) error
                : new IllegalStateException(String.valueOf(error), error);
    }

    /** The answer with its markers as numbers matching the order of its citations. */
    private static String numbered(RagResponse answer) {
        CitationNumbers numbers = new CitationNumbers(answer.citations().stream().map(Citation::sourceId).toList());
        return numbers.feed(answer.answer()) + numbers.finish();
    }

    /** The text after an OpenAI answer: its numbered sources, and who to ask for a routed one. */
    private static String footer(RagResponse answer, CitationNumbers numbers) {
        StringBuilder out = new StringBuilder();
        List<Citation> cited = cited(answer, numbers);
        if (!cited.isEmpty()) {
            out.append("\n\nSources:");
            int n = 1;
            for (Citation c : cited) {
                out.append("\n[").append(n++).append("] ").append(c.location())
                        .append(c.section() == null ? "" : " (" + c.section() + ")");
            }
        }
        RouteTarget route = answer.routeTo();
        if (route != null) {
            out.append("\n\nRouted: ").append(route.ownerEmail() == null ? "no owner is configured for this topic"
                    : "ask " + route.ownerEmail()).append(" (").append(route.reason()).append(')');
        }
        return out.toString();
    }

    /** The citations in the order of their numbers in the text, then any not referenced in it. */
    private static List<Citation> cited(RagResponse answer, CitationNumbers numbers) {
        List<Citation> out = new ArrayList<>();
        Set<String> seen = new LinkedHashSet<>();
        for (String id : numbers.order()) {
            answer.citations().stream().filter(c -> c.sourceId().equals(id)).findFirst().ifPresent(out::add);
            seen.add(id);
        }
        answer.citations().stream().filter(c -> !seen.contains(c.sourceId())).forEach(out::add);
        return out;
    }

    /** RagKit's extra fields on an OpenAI answer: citations (numbered), confidence, action, route. */
    private static void extras(ObjectNode out, RagResponse answer, CitationNumbers numbers) {
        ArrayNode citations = out.putArray("citations");
        int n = 1;
        for (Citation c : cited(answer, numbers)) {
            citations.add(ResponseJson.citation(c).put("number", n++));
        }
        ObjectNode full = ResponseJson.answer(answer);
        out.set("confidence", full.get("confidence"));
        out.put("action", answer.action().name());
        if (full.has("route")) {
            out.set("route", full.get("route"));
        }
    }

    private static ObjectNode completion(String id, long created, String object) {
        ObjectNode out = JSON.createObjectNode();
        out.put("id", id).put("object", object).put("created", created).put("model", MODEL_ID);
        return out;
    }

    private static ObjectNode chunk(String id, long created, ObjectNode delta, @Nullable String finish) {
        ObjectNode out = completion(id, created, "chat.completion.chunk");
        ObjectNode choice = out.putArray("choices").addObject();
        choice.put("index", 0);
        choice.set("delta", delta);
        if (finish == null) {
            choice.putNull("finish_reason");
        } else {
            choice.put("finish_reason", finish);
        }
        choice.putNull("logprobs");
        return out;
    }

    // ---- input -------------------------------------------------------------------------------------------------

    private String text(ObjectNode body, String name) {
        JsonNode value = body.get(name);
        if (value == null || value.isNull()) {
            throw new ApiException(400, "MISSING_FIELD", "Bad Request: '" + name + "' is required");
        }
        if (!value.isTextual()) {
            throw new ApiException(400, "WRONG_TYPE", "Bad Request: '" + name + "' must be a string, got "
                    + value.getNodeType().name().toLowerCase(java.util.Locale.ROOT));
        }
        return checkedQuestion(value.asText(), name);
    }

    private String checkedQuestion(String value, String name) {
        String text = value.strip();
        if (text.isEmpty()) {
            throw new ApiException(400, "BLANK_QUESTION", "Bad Request: '" + name + "' is blank; ask a question, "
                    + "e.g. \"How do I rotate the API key?\"");
        }
        if (text.length() > settings.maxQuestionChars()) {
            throw new ApiException(400, "QUESTION_TOO_LONG", "Bad Request: '" + name + "' has " + text.length()
                    + " characters; the most is " + settings.maxQuestionChars());
        }
        return text;
    }

    private static boolean bool(ObjectNode body, String name) {
        JsonNode value = body.get(name);
        if (value == null || value.isNull()) {
            return false;
        }
        if (!value.isBoolean()) {
            throw new ApiException(400, "WRONG_TYPE", "Bad Request: '" + name + "' must be true or false");
        }
        return value.asBoolean();
    }

    private static String content(@Nullable JsonNode content) {
        if (content == null || content.isNull()) {
            return "";
        }
        if (content.isTextual()) {
            return content.asText();
        }
        if (content.isArray()) {
            StringBuilder text = new StringBuilder();
            content.forEach(part -> {
                if ("text".equals(part.path("type").asText())) {
                    text.append(text.length() > 0 ? "\n" : "").append(part.path("text").asText());
                }
            });
            return text.toString();
        }
        throw new ApiException(400, "WRONG_TYPE", "Bad Request: a message's 'content' must be a string or an array "
                + "of text parts");
    }

    /** The caller's scope, narrowed to the requested tags when they are all the caller's. */
    private static Scope scope(Grant grant, @Nullable JsonNode tags) {
        if (tags == null || tags.isNull()) {
            return grant.scope();
        }
        if (!tags.isArray()) {
            throw new ApiException(400, "WRONG_TYPE", "Bad Request: 'tags' must be an array of strings");
        }
        Set<String> wanted = new LinkedHashSet<>();
        for (JsonNode tag : tags) {
            if (!tag.isTextual() || tag.asText().isBlank()) {
                throw new ApiException(400, "WRONG_TYPE", "Bad Request: 'tags' must hold non-blank strings");
            }
            if (!grant.tags().contains(tag.asText())) {
                throw new ApiException(403, "TAG_NOT_ALLOWED", "Forbidden: tag '" + shown(tag.asText()) + "' is not "
                        + "yours (yours: " + (grant.tags().isEmpty() ? "none" : String.join(", ", grant.tags()))
                        + "); the server fixes the scope, a request can only narrow it");
            }
            wanted.add(tag.asText());
        }
        return Scope.of(grant.tenant(), wanted.isEmpty() ? grant.tags() : wanted);
    }

    // ---- audit and output --------------------------------------------------------------------------------------

    private @Nullable String audit(Call call, String query, List<String> sourceIds, AuditOutcome outcome,
            @Nullable String errorType, Map<String, Long> counts, @Nullable Throwable primary) {
        boolean userText = call.operation() != AuditOperation.LIST;
        AuditRecord record = AuditRecord.builder(call.operation()).timestamp(call.start())
                .requestId(UUID.randomUUID().toString()).tenant(call.grant().tenant())
                .query(query, userText ? QueryRedaction.HASH : QueryRedaction.NONE).sourceIds(sourceIds)
                .model(call.operation() == AuditOperation.RETRIEVE ? "retrieval" : "none")
                .latencyMillis(Duration.between(call.start(), clock.instant()).toMillis()).outcome(outcome, errorType)
                .counts(counts).build();
        return audit.write(record, primary);
    }

    /** Audits a refused request: its reason code and message, never its text. */
    private void refused(Call call, ApiException e) {
        refused(audit, call.operation(), call.start(), call.grant().tenant(), e, e.getMessage());
    }

    /** @return what a request to {@code path} is audited as */
    static AuditOperation operation(String path) {
        return path.equals("/v1/search") ? AuditOperation.RETRIEVE : path.equals("/v1/ask")
                || path.equals("/v1/chat/completions") ? AuditOperation.ASK : AuditOperation.LIST;
    }

    /**
     * Audits a refused request as {@code REFUSED} with its error code: the record holds the code (as the query's
     * hash) and {@code reason}, never the request's text or token. A failing audit sink is logged, not thrown: the
     * refusal is sent either way.
     */
    static void refused(AuditTrail audit, AuditOperation operation, Instant start, String tenant, ApiException e,
            String reason) {
        AuditRecord record = AuditRecord.builder(operation).timestamp(start)
                .requestId(UUID.randomUUID().toString()).tenant(tenant)
                .query(e.code, QueryRedaction.HASH).model("none")
                .latencyMillis(Math.max(0, Duration.between(start, Instant.now()).toMillis()))
                .outcome(AuditOutcome.REFUSED, e.code).reason(reason).build();
        try {
            audit.write(record, null);
        } catch (AuditException failed) {
            LOG.warn("a refused request has no audit record: {}", failed.getMessage());
        }
    }

    private static void flags(ObjectNode out, @Nullable String unaudited) {
        ArrayNode flags = out.putArray("flags");
        if (unaudited != null) {
            flags.add("AUDIT_NOT_WRITTEN");
        }
    }

    private static void serveStatic(HttpServletResponse response, byte[] body, String type) throws IOException {
        response.setStatus(200);
        response.setContentType(type);
        response.setHeader("Cache-Control", "no-cache");
        response.setHeader("X-Content-Type-Options", "nosniff");
        response.setHeader("Referrer-Policy", "no-referrer");
        response.setHeader("X-Frame-Options", "DENY");
        response.setHeader("Content-Security-Policy", "default-src 'self'; img-src 'self' data:; "
                + "frame-ancestors 'none'; base-uri 'none'; form-action 'self'");
        response.setContentLength(body.length);
        response.getOutputStream().write(body);
    }

    static void sendJson(HttpServletResponse response, int status, JsonNode body) throws IOException {
        byte[] bytes = JSON.writeValueAsBytes(body);
        response.setStatus(status);
        response.setContentType("application/json");
        response.setCharacterEncoding("UTF-8");
        response.setHeader("Cache-Control", "no-store");
        response.setHeader("X-Content-Type-Options", "nosniff");
        response.setContentLength(bytes.length);
        OutputStream out = response.getOutputStream();
        out.write(bytes);
        out.flush();
    }

    static void send(HttpServletResponse response, ApiException e) throws IOException {
        if (e.status == 408 || e.status == 413) {
            // the body was not read to its end: the connection cannot carry another request, and a client that
            // is not told so would send its next request on a connection the server is about to close
            response.setHeader("Connection", "close");
        }
        sendJson(response, e.status, e.json());
    }

    static String shown(@Nullable String value) {
        if (value == null) {
            return "";
        }
        String flat = value.replaceAll("\\p{Cntrl}", "?");
        return flat.length() > 100 ? flat.substring(0, 100) + "…" : flat;
    }

    private static String extension(String path) {
        int dot = path.lastIndexOf('.');
        return dot < 0 || dot < path.lastIndexOf('/') ? "text" : path.substring(dot + 1).toLowerCase(
                java.util.Locale.ROOT);
    }

    /** A server-sent event stream on the response. */
    private static final class Sse {
        private final HttpServletResponse response;

        Sse(HttpServletResponse response) throws IOException {
            this.response = response;
            response.setStatus(200);
            response.setContentType("text/event-stream");
            response.setCharacterEncoding("UTF-8");
            response.setHeader("Cache-Control", "no-store");
            response.setHeader("X-Accel-Buffering", "no");
            response.flushBuffer();
        }

        void event(String name, JsonNode data) throws IOException {
            write("event: " + name + "\ndata: " + JSON.writeValueAsString(data) + "\n\n");
        }

        void data(JsonNode data) throws IOException {
            write("data: " + JSON.writeValueAsString(data) + "\n\n");
        }

        void done() throws IOException {
            write("data: [DONE]\n\n");
        }

        void comment() throws IOException {
            write(": keep-alive\n\n");
        }

        private void write(String text) throws IOException {
            OutputStream out = response.getOutputStream();
            out.write(text.getBytes(StandardCharsets.UTF_8));
            out.flush();
        }
    }
}
