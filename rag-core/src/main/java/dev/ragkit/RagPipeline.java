package dev.ragkit;

import dev.ragkit.audit.AuditFailurePolicy;
import dev.ragkit.audit.AuditOutcome;
import dev.ragkit.audit.AuditRecord;
import dev.ragkit.audit.AuditSink;
import dev.ragkit.audit.QueryRedaction;
import dev.ragkit.budget.BudgetLimits;
import dev.ragkit.budget.TokenBudget;
import dev.ragkit.tokens.TokenCounter;
import dev.ragkit.tokens.TokenCounters;
import dev.ragkit.error.AuditException;
import dev.ragkit.error.LlmUnavailableException;
import dev.ragkit.error.ModelNotAllowedException;
import dev.ragkit.error.RagException;
import dev.ragkit.error.TokenBudgetExceededException;
import dev.ragkit.generation.Cancellable;
import dev.ragkit.generation.ChatRequest;
import dev.ragkit.generation.ChatResult;
import dev.ragkit.prompt.ContextBlock;
import dev.ragkit.prompt.ContextBlocks;
import dev.ragkit.generation.FinishReason;
import dev.ragkit.generation.HealthStatus;
import dev.ragkit.generation.KnownModels;
import dev.ragkit.generation.LlmBackend;
import dev.ragkit.generation.LlmBackends;
import dev.ragkit.generation.ModelInfo;
import dev.ragkit.prompt.Prompt;
import dev.ragkit.prompt.PromptBuilder;
import dev.ragkit.generation.StreamHandler;
import dev.ragkit.grounding.Action;
import dev.ragkit.grounding.CitationExtractor;
import dev.ragkit.grounding.Citations;
import dev.ragkit.grounding.ConfidenceScore;
import dev.ragkit.grounding.ConfidenceScorer;
import dev.ragkit.grounding.OwnerDirectory;
import dev.ragkit.grounding.Router;
import dev.ragkit.grounding.Routing;
import dev.ragkit.ingest.Embedder;
import dev.ragkit.retrieval.Deduplicator;
import dev.ragkit.retrieval.RetrievalOptions;
import dev.ragkit.retrieval.RetrievedContext;
import dev.ragkit.retrieval.Retriever;
import dev.ragkit.store.DocumentStore;
import dev.ragkit.store.Scope;
import dev.ragkit.store.StoreProviders;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.ForkJoinPool;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Answers questions from your documents, with citations, or hands them to a human. Wires the stages of
 * DESIGN.md §2: retrieve → empty-context policy → token budget → prompt → model → citations → confidence →
 * routing → audit. Thread-safe and stateless per request; build one and share it.
 *
 * <pre>{@code
 * RagPipeline rag = RagPipeline.builder().config(RagConfig.fromEnvironment())
 *         .store(store).embedder(embedder).backend(backend).build();
 * RagResponse r = rag.ask(RagRequest.of("How do I rotate the API key?", Scope.of("acme", "eng")));
 * }</pre>
 *
 * <p>Every request, whatever its outcome, writes one {@link AuditRecord}. Listeners see each stage
 * ({@link RagListener}).
 */
public final class RagPipeline implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(RagPipeline.class);

    /** The answer when nothing relevant was found and the question goes to a human. */
    public static final String NOT_ENOUGH_INFORMATION_ROUTED = "The available documents do not contain enough "
            + "information to answer this question. It has been passed on to someone who can help.";
    /** The answer when nothing relevant was found and the pipeline declines. */
    public static final String NOT_ENOUGH_INFORMATION = "The available documents do not contain enough information "
            + "to answer this question.";
    static final String NO_DOCUMENTS_REASON = "No relevant documents found";
    static final String NO_CONTEXT_FITS_REASON = "Relevant documents were found, but none fits the token budget";
    static final String WITHOUT_CONTEXT_RULES = "No documents matched this question. Answer it from general "
            + "knowledge if you can, say clearly that the answer is not based on the organisation's documents, "
            + "and do not cite sources.";
    private static final String HEALTH_TENANT = "ragkit-health-check";
    private static final int SELF_RATING_MAX_TOKENS = 256;

    private final Builder settings;
    private final DocumentStore store;
    private final boolean ownsStore;
    private final Retriever retriever;
    private final LlmBackend backend;
    private final @Nullable TokenCounter explicitCounter;
    private final TokenCounter defaultCounter;
    private final PromptBuilder prompts;
    private static final PromptBuilder PLAIN_PROMPTS = PromptBuilder.withSystemPrompt(WITHOUT_CONTEXT_RULES);
    /** Budgets per (model, grounded or plain): a backend may count each model's tokens differently. */
    private final Map<String, TokenBudget> budgets = new ConcurrentHashMap<>();
    private final CitationExtractor citations;
    private final ConfidenceScorer scorer;
    private final boolean selfRating;
    private final Router router;
    private final EmptyContextPolicy emptyContextPolicy;
    private final AuditSink audit;
    private final AuditFailurePolicy auditFailurePolicy;
    private final QueryRedaction queryRedaction;
    private final RagListener listener;
    private final Executor executor;
    private final Clock clock;
    private final String defaultModel;
    private final Map<String, String> allowedModels;
    private final Map<String, ModelInfo> modelInfo;
    private final Map<String, ModelInfo> learnedModelInfo = new ConcurrentHashMap<>();
    private final BudgetLimits limitsTemplate;
    private final double temperature;
    private final @Nullable Long seed;

    private RagPipeline(Builder b, DocumentStore store, LlmBackend backend) {
        this.settings = b.copy();
        this.store = store;
        this.ownsStore = b.store == null;
        this.backend = backend;
        Retriever.Builder rb = Retriever.builder().store(store).embedder(Objects.requireNonNull(b.embedder))
                .options(b.retrievalOptions != null ? b.retrievalOptions : b.config.retrievalOptions())
                .deduplicator(b.deduplicator != null ? b.deduplicator : b.config.deduplicator());
        this.retriever = rb.build();
        this.explicitCounter = b.counter;
        this.defaultCounter = b.counter != null ? b.counter : TokenCounters.cached(TokenCounters.jtokkit(), 10_000);
        this.prompts = b.promptBuilder != null ? b.promptBuilder : b.systemPrompt == null ? PromptBuilder.standard()
                : PromptBuilder.withSystemPrompt(b.systemPrompt);
        this.citations = b.citationExtractor;
        this.scorer = b.scorer;
        this.selfRating = b.selfRating;
        this.router = b.router != null ? b.router
                : Router.standard(b.config.confidenceThreshold(), b.config.adminEmail(), b.ownerDirectory);
        this.emptyContextPolicy = b.emptyContextPolicy;
        this.audit = b.audit;
        this.auditFailurePolicy = b.auditFailurePolicy;
        this.queryRedaction = b.queryRedaction;
        this.listener = b.listener;
        this.executor = b.executor;
        this.clock = b.clock;
        this.defaultModel = b.config.chatModel();
        Map<String, String> allowed = new HashMap<>();
        for (String m : b.allowedModels != null ? b.allowedModels : defaultAllowlist(defaultModel)) {
            allowed.put(KnownModels.canonical(m), m);
        }
        this.allowedModels = Map.copyOf(allowed);
        this.modelInfo = Map.copyOf(b.modelInfo);
        RagConfig c = b.config;
        this.limitsTemplate = new BudgetLimits(1, c.maxResponseTokens(), c.systemPromptTokens(), c.maxHistoryTokens(),
                c.maxContextTokens(), b.minTruncatedTokens, BudgetLimits.DEFAULT_MESSAGE_OVERHEAD);
        this.temperature = c.temperature();
        this.seed = b.seed;
    }

    private static Set<String> defaultAllowlist(String model) {
        Set<String> names = new TreeSet<>(KnownModels.names());
        names.add(model);
        return names;
    }

    /** @return a builder; {@code store}, {@code embedder} and {@code backend} are required */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * @return a builder holding this pipeline's settings, to build a variant (the store, backend, embedder and
     *         sinks are shared, not copied; a store created from a provider id is created again)
     */
    public Builder toBuilder() {
        return settings.copy();
    }

    /**
     * Answers a question, waiting for the whole answer.
     *
     * @param request the question
     * @return the response; low confidence and empty context are responses (action ROUTE), not errors
     * @throws ModelNotAllowedException     when the request names a model outside the allowlist
     * @throws TokenBudgetExceededException when the system prompt and question leave no room for the answer
     * @throws LlmUnavailableException      when the backend cannot be reached (retriable)
     * @throws RagException                 for other failures; each is audited before it is thrown
     */
    public RagResponse ask(RagRequest request) {
        Objects.requireNonNull(request, "request");
        Call call = new Call(request);
        try {
            Prepared p = call.prepare();
            RagResponse response;
            if (p.early != null) {
                response = p.early;
            } else {
                long g = System.nanoTime();
                ChatResult result = backend.chat(Objects.requireNonNull(p.chat));
                response = call.finish(p, result, System.nanoTime() - g);
            }
            call.succeeded(response);
            return response;
        } catch (RuntimeException | Error e) {
            call.failed(e);
            throw e;
        }
    }

    /**
     * {@link #ask} on the pipeline's executor.
     *
     * @param request the question
     * @return the response, or the failure
     */
    public CompletableFuture<RagResponse> askAsync(RagRequest request) {
        Objects.requireNonNull(request, "request");
        return CompletableFuture.supplyAsync(() -> ask(request), executor);
    }

    /**
     * Answers a question token by token. Retrieval and budgeting run on the pipeline's executor; the listener then
     * gets the sources, the tokens as the model produces them, and the complete response (citations, confidence
     * and action computed on the full text) or the error.
     *
     * @param request  the question
     * @param listener receives the answer
     * @return a handle; {@code cancel()} stops the model call and ends with a {@link CancellationException}
     */
    public Cancellable stream(RagRequest request, RagStreamListener listener) {
        Objects.requireNonNull(request, "request");
        Objects.requireNonNull(listener, "listener");
        StreamCall call = new StreamCall(new Call(request), listener);
        try {
            executor.execute(call::start);
        } catch (RuntimeException e) {
            call.fail(e);
        }
        return call;
    }

    /**
     * Checks the backend, the default model and the store.
     *
     * @return the status; never throws
     */
    public PipelineHealth health() {
        HealthStatus backendStatus;
        try {
            backendStatus = backend.health(defaultModel);
        } catch (RuntimeException e) {
            backendStatus = new HealthStatus(false, false, Duration.ZERO, null, "health check failed: " + e);
        }
        long t = System.nanoTime();
        boolean ready;
        String detail;
        try {
            store.documents(Scope.unrestricted(HEALTH_TENANT));
            ready = true;
            detail = "store answered (" + store.getClass().getSimpleName() + ")";
        } catch (RuntimeException e) {
            ready = false;
            detail = "store failed: " + e.getMessage();
        }
        return new PipelineHealth(backendStatus, defaultModel, ready, Duration.ofNanos(System.nanoTime() - t), detail);
    }

    /** @return the model used when a request names none */
    public String defaultModel() {
        return defaultModel;
    }

    /** Closes the store when the pipeline created it from a provider id; a store passed in stays open. */
    @Override
    public void close() {
        if (ownsStore) {
            store.close();
        }
    }

    /** The budget's limits for a model: its window, and the response reserve capped by its limit. */
    BudgetLimits limitsFor(String model) {
        String key = KnownModels.canonical(model);
        ModelInfo info = modelInfo.get(key);
        if (info == null) {
            info = KnownModels.lookup(model).orElse(null);
        }
        if (info == null) {
            info = learnedModelInfo.get(key);
        }
        if (info == null) {
            // Not computeIfAbsent: the backend may call a server (or pull a model) for a long time.
            ModelInfo asked = backend.modelInfo(model);
            ModelInfo raced = learnedModelInfo.putIfAbsent(key, asked);
            info = raced != null ? raced : asked;
        }
        return limitsTemplate.withContextWindow(info.contextWindow())
                .withResponseReserve(Math.min(limitsTemplate.responseReserve(), info.maxResponseTokens()));
    }

    /**
     * The budget for a model: with the configured counter, else the backend's counter for the model (learned from
     * what the server reports), else cached {@code cl100k_base}.
     */
    TokenBudget budgetFor(String model, boolean plain) {
        return budgets.computeIfAbsent(KnownModels.canonical(model) + (plain ? "\u0000plain" : ""), key -> {
            TokenCounter counter = explicitCounter != null ? explicitCounter
                    : backend.tokenCounterFor(model).orElse(defaultCounter);
            return TokenBudget.of(counter, plain ? PLAIN_PROMPTS : prompts);
        });
    }

    private String resolveModel(RagRequest request) {
        if (request.model() == null) {
            return defaultModel;
        }
        if (!allowedModels.containsKey(KnownModels.canonical(request.model()))) {
            throw new ModelNotAllowedException(request.model(), new ArrayList<>(new TreeSet<>(allowedModels.values())));
        }
        return request.model();
    }

    private void notifyListener(Consumer<RagListener> event) {
        try {
            event.accept(listener);
        } catch (RuntimeException e) {
            LOG.warn("RagListener {} threw; ignored", listener.getClass().getName(), e);
        }
    }

    /** What {@link Call#prepare()} produced: a fixed response, or a prompt and the model call to make. */
    private static final class Prepared {
        final @Nullable RagResponse early;
        final @Nullable Prompt prompt;
        final @Nullable ChatRequest chat;
        final boolean withoutContext;

        Prepared(@Nullable RagResponse early, @Nullable Prompt prompt, @Nullable ChatRequest chat,
                boolean withoutContext) {
            this.early = early;
            this.prompt = prompt;
            this.chat = chat;
            this.withoutContext = withoutContext;
        }
    }

    /** One request's state; the stages shared by ask and stream. */
    private final class Call {
        final RagRequest request;
        final Instant timestamp;
        final long start = System.nanoTime();
        final Map<String, Duration> timings = new LinkedHashMap<>();
        long lap = start;
        String model;
        @Nullable Prompt prompt;
        @Nullable Prepared prepared;
        /** Blocks the budget left out when none fitted; reported with the empty-context answer. */
        List<ContextBlock> droppedByBudget = List.of();
        /** Whether this request's audit record was already written (or tried): one record per request. */
        boolean audited;

        Call(RagRequest request) {
            this.request = request;
            this.timestamp = clock.instant();
            this.model = request.model() != null ? request.model() : defaultModel;
            notifyListener(l -> l.requestStarted(request));
        }

        void lap(String stage) {
            long now = System.nanoTime();
            timings.put(stage, Duration.ofNanos(now - lap));
            lap = now;
        }

        Prepared prepare() {
            model = resolveModel(request);
            RetrievedContext context = retriever.retrieve(request.query(), request.scope(), request.overrides());
            lap("retrieve");
            notifyListener(l -> l.retrieved(request, context));
            List<ContextBlock> candidates = context.isEmpty() ? List.of() : ContextBlocks.of(context,
                    linked -> store.chunksWithoutEmbeddings(request.scope(), linked.document().id()));
            if (candidates.isEmpty()) {
                prepared = emptyContext(NO_DOCUMENTS_REASON);
                return prepared;
            }
            BudgetLimits limits = limitsFor(model);
            Prompt p = budgetFor(model, false).fit(limits, request.query(), request.history(), candidates);
            lap("budget");
            if (p.blocks().isEmpty()) {
                // Found, but nothing fits the budget: asking the model without context is what the policy decides.
                droppedByBudget = p.dropped();
                prepared = emptyContext(NO_CONTEXT_FITS_REASON);
                return prepared;
            }
            prompt = p;
            notifyListener(l -> l.promptBuilt(request, p));
            prepared = new Prepared(null, p, chatRequest(p), false);
            return prepared;
        }

        private ChatRequest chatRequest(Prompt p) {
            return new ChatRequest(model, p.messages(), temperature, p.responseReserve(), p.contextWindow(), seed);
        }

        private Prepared emptyContext(String reason) {
            switch (emptyContextPolicy) {
                case ANSWER_WITHOUT_CONTEXT: {
                    Prompt p = budgetFor(model, true).fit(limitsFor(model), request.query(), request.history(),
                            List.of());
                    lap("budget");
                    prompt = p;
                    notifyListener(l -> l.promptBuilt(request, p));
                    return new Prepared(null, p, chatRequest(p), true);
                }
                case DECLINE:
                    return new Prepared(fixed(NOT_ENOUGH_INFORMATION, new Routing(Action.DECLINE, null), reason),
                            null, null, false);
                case ROUTE_TO_HUMAN:
                default:
                    return new Prepared(fixed(NOT_ENOUGH_INFORMATION_ROUTED,
                            new Routing(Action.ROUTE, router.toAdministrator(reason)), reason), null, null, false);
            }
        }

        private RagResponse fixed(String answer, Routing routing, String reason) {
            return new RagResponse(request.requestId(), answer, ConfidenceScore.zero(reason), List.of(),
                    routing.action(), routing.target(), model, 0, 0, 0, Duration.ZERO, elapsed(), false, List.of(),
                    List.of(), sourceIds(droppedByBudget), List.of(), List.of(), reducedFlags(), timings);
        }

        private Set<ResponseFlag> reducedFlags() {
            return droppedByBudget.isEmpty() ? Set.of() : EnumSet.of(ResponseFlag.CONTEXT_REDUCED);
        }

        /** Citations, confidence and routing on the model's whole answer. */
        RagResponse finish(Prepared p, ChatResult result, long generationNanos) {
            timings.put("generate", Duration.ofNanos(generationNanos));
            lap = System.nanoTime();
            Prompt fitted = Objects.requireNonNull(p.prompt);
            String answer = result.text();
            Set<ResponseFlag> flags = EnumSet.noneOf(ResponseFlag.class);
            if (result.finishReason() == FinishReason.LENGTH) {
                flags.add(ResponseFlag.ANSWER_CUT_OFF);
            }
            if (fitted.droppedHistory() > 0) {
                flags.add(ResponseFlag.HISTORY_REDUCED);
            }
            if (p.withoutContext) {
                flags.add(ResponseFlag.ANSWERED_WITHOUT_CONTEXT);
                List<String> unknown = citations.extract(answer, List.of()).unknownSourceIds();
                if (!unknown.isEmpty()) {
                    flags.add(ResponseFlag.UNKNOWN_SOURCE_IDS);
                }
                String reason = droppedByBudget.isEmpty() ? NO_DOCUMENTS_REASON : NO_CONTEXT_FITS_REASON;
                flags.addAll(reducedFlags());
                return new RagResponse(request.requestId(), answer, ConfidenceScore.zero(reason
                        + "; answered without documents"), List.of(), Action.ROUTE,
                        router.toAdministrator(reason), model, 0, 0, fitted.totalTokens(),
                        Duration.ofNanos(generationNanos), elapsed(), false, List.of(), List.of(),
                        sourceIds(droppedByBudget), List.of(), unknown, flags, timings);
            }
            List<ContextBlock> used = fitted.blocks();
            Citations found = citations.extract(answer, used);
            Integer rating = null;
            String ratingProblem = null;
            if (selfRating && !used.isEmpty()) {
                try {
                    ChatRequest ask = new ChatRequest(model, scorer.selfRatingPrompt(request.query(), answer, used),
                            0.0, Math.min(SELF_RATING_MAX_TOKENS, fitted.responseReserve()), fitted.contextWindow(),
                            seed);
                    String reply = backend.chat(ask).text();
                    rating = scorer.parseSelfRating(reply);
                    if (rating == null) {
                        ratingProblem = "the model's rating reply was not a number from 0 to 100";
                    }
                } catch (RagException e) {
                    ratingProblem = "the rating call failed: " + e.getMessage();
                    LOG.warn("request {}: self-rating unavailable: {}", request.requestId(), e.getMessage());
                }
                lap("self-rating");
            } else if (!selfRating) {
                ratingProblem = "self-rating is turned off";
            }
            ConfidenceScore confidence = scorer.score(answer, used, rating);
            if (rating == null && ratingProblem != null && !used.isEmpty()) {
                flags.add(ResponseFlag.SELF_RATING_UNAVAILABLE);
                confidence = new ConfidenceScore(confidence.overall(), confidence.retrieval(), confidence.coverage(),
                        null, confidence.explanation() + " (" + ratingProblem + ")");
            }
            Routing routing = router.route(request.scope().tenant(), confidence.overall(), used);
            lap("grounding");
            if (!fitted.dropped().isEmpty() || !fitted.truncated().isEmpty()) {
                flags.add(ResponseFlag.CONTEXT_REDUCED);
            }
            if (!found.unknownSourceIds().isEmpty()) {
                flags.add(ResponseFlag.UNKNOWN_SOURCE_IDS);
            }
            return new RagResponse(request.requestId(), answer, confidence, found.citations(), routing.action(),
                    routing.target(), model, used.size(), fitted.contextTokens(), fitted.totalTokens(),
                    Duration.ofNanos(generationNanos), elapsed(), found.grounded(), Sources.of(used),
                    Sources.linked(used), sourceIds(fitted.dropped()), sourceIds(fitted.truncated()),
                    found.unknownSourceIds(), flags, timings);
        }

        private Duration elapsed() {
            return Duration.ofNanos(System.nanoTime() - start);
        }

        void succeeded(RagResponse response) {
            AuditOutcome outcome;
            if (prepared != null && (prepared.early != null || prepared.withoutContext)) {
                outcome = response.action() == Action.DECLINE ? AuditOutcome.DECLINED : AuditOutcome.EMPTY_CONTEXT;
            } else {
                outcome = response.action() == Action.CITE ? AuditOutcome.ANSWERED : AuditOutcome.ROUTED;
            }
            write(record(outcome, response.action().name(), response.confidence().overall(), null), null);
            notifyListener(l -> l.responded(request, response));
        }

        void failed(Throwable error) {
            if (!audited) {
                boolean cancelled = error instanceof CancellationException;
                write(record(cancelled ? AuditOutcome.CANCELLED : AuditOutcome.ERROR, null, null,
                        cancelled ? null : error.getClass().getName()), error);
            }
            notifyListener(l -> l.failed(request, error));
        }

        private AuditRecord record(AuditOutcome outcome, @Nullable String action, @Nullable Integer confidence,
                @Nullable String errorType) {
            Prompt p = prompt;
            return new AuditRecord(timestamp, request.requestId(), request.scope().tenant(),
                    queryRedaction == QueryRedaction.NONE ? request.query() : null,
                    AuditRecord.sha256(request.query()), p == null ? List.of() : p.sourceIds(),
                    p == null ? 0 : p.contextTokens(), model, action, confidence, elapsed().toMillis(), outcome,
                    errorType);
        }

        private void write(AuditRecord record, @Nullable Throwable primary) {
            audited = true;
            try {
                audit.record(record);
            } catch (RuntimeException e) {
                if (auditFailurePolicy == AuditFailurePolicy.FAIL_REQUEST) {
                    AuditException failure = new AuditException("the audit record of request " + record.requestId()
                            + " could not be written (" + e.getMessage() + "); fix the audit sink, or configure "
                            + "AuditFailurePolicy.LOG_AND_CONTINUE", e);
                    if (primary != null) {
                        primary.addSuppressed(failure);
                        return;
                    }
                    throw failure;
                }
                LOG.error("the audit record of request {} could not be written", record.requestId(), e);
            }
        }
    }

    private static void rethrowIfError(Throwable t) {
        if (t instanceof Error) {
            throw (Error) t;
        }
    }

    private static List<String> sourceIds(List<ContextBlock> blocks) {
        List<String> ids = new ArrayList<>(blocks.size());
        blocks.forEach(b -> ids.add(b.sourceId()));
        return ids;
    }

    /** A streamed request: one terminal callback, listener calls never overlapping. */
    private final class StreamCall implements Cancellable {
        private final Call call;
        private final RagStreamListener out;
        private final Object lock = new Object();
        private boolean done;
        private volatile boolean cancelled;
        private volatile @Nullable Cancellable backendCall;

        StreamCall(Call call, RagStreamListener out) {
            this.call = call;
            this.out = out;
        }

        void start() {
            try {
                if (cancelled) {
                    return;
                }
                Prepared p = call.prepare();
                if (cancelled) {
                    return;
                }
                if (p.early != null) {
                    RagResponse early = p.early;
                    deliver(() -> out.onSources(List.of(), List.of()));
                    deliver(() -> out.onToken(early.answer()));
                    complete(early);
                    return;
                }
                List<ContextBlock> used = Objects.requireNonNull(p.prompt).blocks();
                deliver(() -> out.onSources(Sources.of(used), Sources.linked(used)));
                long g = System.nanoTime();
                Cancellable c = backend.stream(Objects.requireNonNull(p.chat), new StreamHandler() {
                    @Override
                    public void onToken(String token) {
                        deliver(() -> out.onToken(token));
                    }

                    @Override
                    public void onComplete(ChatResult result) {
                        long generation = System.nanoTime() - g;
                        try {
                            executor.execute(() -> {
                                if (isFinished()) {
                                    return;            // cancelled meanwhile: no citations, no rating call
                                }
                                try {
                                    complete(call.finish(p, result, generation));
                                } catch (RuntimeException | Error e) {
                                    fail(e);
                                    rethrowIfError(e);
                                }
                            });
                        } catch (RuntimeException e) {
                            fail(e);
                        }
                    }

                    @Override
                    public void onError(Throwable error) {
                        fail(error);
                    }
                });
                backendCall = c;
                if (cancelled) {
                    c.cancel();
                }
            } catch (RuntimeException | Error e) {
                fail(e);
                rethrowIfError(e);
            }
        }

        private boolean isFinished() {
            synchronized (lock) {
                return done || cancelled;
            }
        }

        private void deliver(Runnable event) {
            synchronized (lock) {
                if (!done) {
                    event.run();
                }
            }
        }

        private void complete(RagResponse response) {
            synchronized (lock) {
                if (done) {
                    return;
                }
                try {
                    call.succeeded(response);
                } catch (RuntimeException e) {
                    done = true;
                    call.failed(e);             // the listener hears of it; the audit was already tried once
                    out.onError(e);
                    return;
                }
                done = true;
                out.onComplete(response);
            }
        }

        void fail(Throwable error) {
            synchronized (lock) {
                if (done) {
                    return;
                }
                done = true;
                call.failed(error);
                out.onError(error);
            }
        }

        @Override
        public void cancel() {
            cancelled = true;
            Cancellable c = backendCall;
            if (c != null) {
                c.cancel();
            }
            fail(new CancellationException("request " + call.request.requestId() + " was cancelled"));
        }

        @Override
        public boolean isCancelled() {
            return cancelled;
        }
    }

    /**
     * Configures a {@link RagPipeline}. Defaults come from {@link RagConfig#defaults()}; {@link #config} applies
     * another configuration, and later setters override single values. Not thread-safe.
     */
    public static final class Builder {
        private @Nullable DocumentStore store;
        private @Nullable String storeProvider;
        private Map<String, String> storeConfig = Map.of();
        private @Nullable Embedder embedder;
        private @Nullable LlmBackend backend;
        private @Nullable String backendProvider;
        private Map<String, String> backendConfig = Map.of();
        private RagConfig config = RagConfig.defaults();
        private @Nullable RetrievalOptions retrievalOptions;
        private @Nullable Deduplicator deduplicator;
        private @Nullable TokenCounter counter;
        private @Nullable PromptBuilder promptBuilder;
        private @Nullable String systemPrompt;
        private CitationExtractor citationExtractor = CitationExtractor.standard();
        private ConfidenceScorer scorer = ConfidenceScorer.standard();
        private boolean selfRating = true;
        private @Nullable Router router;
        private OwnerDirectory ownerDirectory = OwnerDirectory.none();
        private EmptyContextPolicy emptyContextPolicy = EmptyContextPolicy.ROUTE_TO_HUMAN;
        private AuditSink audit = AuditSink.logging();
        private AuditFailurePolicy auditFailurePolicy = AuditFailurePolicy.LOG_AND_CONTINUE;
        private QueryRedaction queryRedaction = QueryRedaction.HASH;
        private RagListener listener = new RagListener() { };
        private Executor executor = ForkJoinPool.commonPool();
        private Clock clock = Clock.systemUTC();
        private @Nullable Collection<String> allowedModels;
        private final Map<String, ModelInfo> modelInfo = new HashMap<>();
        private int minTruncatedTokens = BudgetLimits.DEFAULT_MIN_TRUNCATED_TOKENS;
        private @Nullable Long seed;

        private Builder() {
        }

        /** @return an independent builder holding the same settings (stores, backends and sinks are shared) */
        Builder copy() {
            Builder b = new Builder();
            b.store = store;
            b.storeProvider = storeProvider;
            b.storeConfig = storeConfig;
            b.embedder = embedder;
            b.backend = backend;
            b.backendProvider = backendProvider;
            b.backendConfig = backendConfig;
            b.config = config;
            b.retrievalOptions = retrievalOptions;
            b.deduplicator = deduplicator;
            b.counter = counter;
            b.promptBuilder = promptBuilder;
            b.systemPrompt = systemPrompt;
            b.citationExtractor = citationExtractor;
            b.scorer = scorer;
            b.selfRating = selfRating;
            b.router = router;
            b.ownerDirectory = ownerDirectory;
            b.emptyContextPolicy = emptyContextPolicy;
            b.audit = audit;
            b.auditFailurePolicy = auditFailurePolicy;
            b.queryRedaction = queryRedaction;
            b.listener = listener;
            b.executor = executor;
            b.clock = clock;
            b.allowedModels = allowedModels;
            b.minTruncatedTokens = minTruncatedTokens;
            b.seed = seed;
            b.modelInfo.putAll(modelInfo);
            return b;
        }

        /**
         * Replaces the configuration: model, temperature, confidence threshold, administrator address, token caps,
         * and — unless set here explicitly — the retrieval options ({@link RagConfig#retrievalOptions()}) and the
         * deduplicator ({@link RagConfig#deduplicator()}). The single-value setters below change this configuration,
         * so call this first.
         *
         * @param config the configuration, e.g. {@link RagConfig#fromEnvironment()}
         * @return this builder
         */
        public Builder config(RagConfig config) {
            this.config = Objects.requireNonNull(config, "config");
            return this;
        }

        /** @param store where documents are (required, unless a provider id is given) @return this builder */
        public Builder store(DocumentStore store) {
            this.store = Objects.requireNonNull(store, "store");
            return this;
        }

        /**
         * @param providerId a store provider id, e.g. {@code in-memory}; the pipeline closes this store
         * @param config     the provider's settings
         * @return this builder
         */
        public Builder store(String providerId, Map<String, String> config) {
            this.storeProvider = Objects.requireNonNull(providerId, "providerId");
            this.storeConfig = Map.copyOf(Objects.requireNonNull(config, "config"));
            return this;
        }

        /** @param embedder embeds questions with the documents' model (required) @return this builder */
        public Builder embedder(Embedder embedder) {
            this.embedder = Objects.requireNonNull(embedder, "embedder");
            return this;
        }

        /** @param backend the language model (required, unless a provider id is given) @return this builder */
        public Builder backend(LlmBackend backend) {
            this.backend = Objects.requireNonNull(backend, "backend");
            return this;
        }

        /**
         * @param providerId an LLM backend provider id, e.g. {@code ollama}
         * @param config     the provider's settings
         * @return this builder
         */
        public Builder backend(String providerId, Map<String, String> config) {
            this.backendProvider = Objects.requireNonNull(providerId, "providerId");
            this.backendConfig = Map.copyOf(Objects.requireNonNull(config, "config"));
            return this;
        }

        /** @param options retrieval options (default: from the configuration) @return this builder */
        public Builder retrievalOptions(RetrievalOptions options) {
            this.retrievalOptions = Objects.requireNonNull(options, "options");
            return this;
        }

        /** @param deduplicator drops near-duplicate chunks (default Jaccard 0.9) @return this builder */
        public Builder deduplicator(Deduplicator deduplicator) {
            this.deduplicator = Objects.requireNonNull(deduplicator, "deduplicator");
            return this;
        }

        /**
         * @param counter counts prompt tokens for every model (default: the backend's counter for the model when it
         *                has one, e.g. Ollama's calibrated counter, else cached {@code cl100k_base})
         * @return this builder
         */
        public Builder tokenCounter(TokenCounter counter) {
            this.counter = Objects.requireNonNull(counter, "counter");
            return this;
        }

        /** @param rules replaces the default grounding rules; not blank @return this builder */
        public Builder systemPrompt(String rules) {
            PromptBuilder.withSystemPrompt(rules);
            this.systemPrompt = rules;
            return this;
        }

        /** @param builder writes prompts (default {@link PromptBuilder#standard()}) @return this builder */
        public Builder promptBuilder(PromptBuilder builder) {
            this.promptBuilder = Objects.requireNonNull(builder, "builder");
            return this;
        }

        /** @param extractor maps SourceIds to citations @return this builder */
        public Builder citationExtractor(CitationExtractor extractor) {
            this.citationExtractor = Objects.requireNonNull(extractor, "extractor");
            return this;
        }

        /** @param scorer scores confidence @return this builder */
        public Builder confidenceScorer(ConfidenceScorer scorer) {
            this.scorer = Objects.requireNonNull(scorer, "scorer");
            return this;
        }

        /**
         * @param enabled whether to ask the model to rate its answer (a second, short call; default on); when off,
         *                confidence uses retrieval and coverage only
         * @return this builder
         */
        public Builder selfRating(boolean enabled) {
            this.selfRating = enabled;
            return this;
        }

        /** @param threshold the lowest confidence that is cited, 0–100 (default 60) @return this builder */
        public Builder confidenceThreshold(int threshold) {
            config = config.toBuilder().confidenceThreshold(threshold).build();
            return this;
        }

        /** @param email where routed questions go when no owner is found @return this builder */
        public Builder adminEmail(String email) {
            config = config.toBuilder().adminEmail(email).build();
            return this;
        }

        /** @param owners who owns which access tag (default: nobody) @return this builder */
        public Builder ownerDirectory(OwnerDirectory owners) {
            this.ownerDirectory = Objects.requireNonNull(owners, "owners");
            return this;
        }

        /** @param router replaces the default router (threshold, admin and owners are then ignored) @return this */
        public Builder router(Router router) {
            this.router = Objects.requireNonNull(router, "router");
            return this;
        }

        /** @param policy what to do when nothing is found (default ROUTE_TO_HUMAN) @return this builder */
        public Builder emptyContextPolicy(EmptyContextPolicy policy) {
            this.emptyContextPolicy = Objects.requireNonNull(policy, "policy");
            return this;
        }

        /** @param sink where audit records go (default: the {@code dev.ragkit.audit} logger) @return this builder */
        public Builder auditSink(AuditSink sink) {
            this.audit = Objects.requireNonNull(sink, "sink");
            return this;
        }

        /** @param policy what a failing audit sink does (default LOG_AND_CONTINUE) @return this builder */
        public Builder auditFailurePolicy(AuditFailurePolicy policy) {
            this.auditFailurePolicy = Objects.requireNonNull(policy, "policy");
            return this;
        }

        /** @param redaction how much of the question the audit keeps (default HASH) @return this builder */
        public Builder queryRedaction(QueryRedaction redaction) {
            this.queryRedaction = Objects.requireNonNull(redaction, "redaction");
            return this;
        }

        /** @param listener observes requests @return this builder */
        public Builder listener(RagListener listener) {
            this.listener = Objects.requireNonNull(listener, "listener");
            return this;
        }

        /**
         * @param executor runs {@code askAsync} and {@code stream} work (default: the common fork-join pool; pass
         *                 your own for blocking backends)
         * @return this builder
         */
        public Builder executor(Executor executor) {
            this.executor = Objects.requireNonNull(executor, "executor");
            return this;
        }

        /** @param clock timestamps audit records (default UTC system clock) @return this builder */
        public Builder clock(Clock clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        /** @param model the default model (default from the configuration, {@code llama3.2}) @return this builder */
        public Builder model(String model) {
            config = config.toBuilder().chatModel(model).build();
            return this;
        }

        /**
         * @param models the models requests may name (default: the known-model table and the default model)
         * @return this builder
         */
        public Builder allowedModels(Collection<String> models) {
            Objects.requireNonNull(models, "models");
            if (models.isEmpty()) {
                throw new IllegalArgumentException("the allowlist is empty; list at least the default model");
            }
            for (String m : models) {
                if (Objects.requireNonNull(m, "model").isBlank()) {
                    throw new IllegalArgumentException("the allowlist holds a blank model name");
                }
            }
            this.allowedModels = List.copyOf(models);
            return this;
        }

        /** @param info a model's limits, overriding the known-model table and the backend @return this builder */
        public Builder modelInfo(ModelInfo info) {
            Objects.requireNonNull(info, "info");
            this.modelInfo.put(KnownModels.canonical(info.name()), info);
            return this;
        }

        /** @param tokens the most context tokens, at least 1 (default 3000) @return this builder */
        public Builder maxContextTokens(int tokens) {
            config = config.toBuilder().maxContextTokens(tokens).build();
            return this;
        }

        /** @param tokens the most history tokens (default 1000) @return this builder */
        public Builder maxHistoryTokens(int tokens) {
            config = config.toBuilder().maxHistoryTokens(tokens).build();
            return this;
        }

        /** @param tokens the response reserve (default 1024, capped by the model's limit) @return this builder */
        public Builder maxResponseTokens(int tokens) {
            config = config.toBuilder().maxResponseTokens(tokens).build();
            return this;
        }

        /** @param tokens the system-prompt reserve (default 500) @return this builder */
        public Builder systemPromptTokens(int tokens) {
            config = config.toBuilder().systemPromptTokens(tokens).build();
            return this;
        }

        /** @param tokens the least text a cut context block keeps (default 50) @return this builder */
        public Builder minTruncatedTokens(int tokens) {
            this.minTruncatedTokens = atLeast(tokens, 1, "minTruncatedTokens");
            return this;
        }

        /** @param temperature sampling temperature in [0, 2] (default 0.1) @return this builder */
        public Builder temperature(double temperature) {
            config = config.toBuilder().temperature(temperature).build();
            return this;
        }

        /** @param seed a sampling seed for reproducible answers @return this builder */
        public Builder seed(long seed) {
            this.seed = seed;
            return this;
        }

        /**
         * @return the pipeline
         * @throws IllegalStateException when the store, embedder or backend is missing or given twice, or the
         *                               default model is not in the allowlist
         */
        public RagPipeline build() {
            if ((store == null) == (storeProvider == null)) {
                throw new IllegalStateException(store == null ? "no store: call store(store) or store(providerId, "
                        + "config)" : "store given twice: call store(store) or store(providerId, config), not both");
            }
            if (embedder == null) {
                throw new IllegalStateException("no embedder: call embedder(...) with the model the documents were "
                        + "indexed with");
            }
            if (systemPrompt != null && promptBuilder != null) {
                throw new IllegalStateException("both systemPrompt(...) and promptBuilder(...) were set; a custom "
                        + "PromptBuilder carries its own rules (PromptBuilder.withSystemPrompt), so set one of them");
            }
            if ((backend == null) == (backendProvider == null)) {
                throw new IllegalStateException(backend == null ? "no backend: call backend(backend) or "
                        + "backend(providerId, config)" : "backend given twice: call one of backend(...), not both");
            }
            String model = config.chatModel();
            if (allowedModels != null && allowedModels.stream().map(KnownModels::canonical)
                    .noneMatch(KnownModels.canonical(model)::equals)) {
                throw new IllegalStateException("the default model '" + model + "' is not in the allowlist "
                        + allowedModels + "; add it, or choose an allowed default model");
            }
            LlmBackend b = backend != null ? backend : LlmBackends.load(Objects.requireNonNull(backendProvider),
                    backendConfig);
            DocumentStore s = store != null ? store : StoreProviders.load(Objects.requireNonNull(storeProvider),
                    storeConfig);
            return new RagPipeline(this, s, b);
        }

        private static int atLeast(int value, int min, String name) {
            if (value < min) {
                throw new IllegalArgumentException(name + " must be at least " + min + ", got " + value);
            }
            return value;
        }
    }
}
