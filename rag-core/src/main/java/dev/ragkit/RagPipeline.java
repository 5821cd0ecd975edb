package dev.ragkit;

import dev.ragkit.audit.AuditTrail;
import dev.ragkit.budget.BudgetLimits;
import dev.ragkit.generation.Cancellable;
import dev.ragkit.generation.ExtractiveBackend;
import dev.ragkit.generation.ChatResult;
import dev.ragkit.generation.HealthStatus;
import dev.ragkit.generation.LlmBackend;
import dev.ragkit.generation.LlmBackends;
import dev.ragkit.grounding.OwnerDirectory;
import dev.ragkit.grounding.Router;
import dev.ragkit.prompt.ContextBlock;
import dev.ragkit.prompt.ContextBlocks;
import dev.ragkit.prompt.Prompt;
import dev.ragkit.prompt.PromptBuilder;
import dev.ragkit.retrieval.LlmQueryTransformer;
import dev.ragkit.retrieval.QueryTransformer;
import dev.ragkit.retrieval.Reranker;
import dev.ragkit.retrieval.RetrievedContext;
import dev.ragkit.retrieval.Retriever;
import dev.ragkit.store.DocumentStore;
import dev.ragkit.store.Scope;
import dev.ragkit.store.StoreProviders;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import org.jspecify.annotations.Nullable;

/**
 * Answers questions from your documents, with citations, or hands them to a human. Thread-safe and stateless per
 * request; build one and share it.
 *
 * <pre>{@code
 * RagPipeline rag = RagPipeline.builder().config(RagConfig.fromEnvironment())
 *         .store(store).embedder(embedder).backend(backend).build();
 * RagResponse r = rag.ask(RagRequest.of("How do I rotate the API key?", Scope.of("acme", "eng")));
 * }</pre>
 *
 * <p>A request goes through named stages, each one replaceable: the model is checked (allowlist, and that the
 * backend has it) → the {@link Retriever} finds context → the {@code TokenBudget} fits it into the model's window
 * and the {@link PromptBuilder} writes the prompt (nothing found or nothing fits: the {@link EmptyContextPolicy}
 * decides) → the {@link LlmBackend} answers → the answer is grounded (citations, the model's self-rating,
 * confidence, routing) → the response → one audit record, whatever the outcome. Listeners see each stage
 * ({@link RagListener}).
 */
public final class RagPipeline implements AutoCloseable {

    /** The answer when nothing relevant was found and the question goes to a human. */
    public static final String NOT_ENOUGH_INFORMATION_ROUTED = "The available documents do not contain enough "
            + "information to answer this question. It has been passed on to someone who can help.";
    /** The answer when nothing relevant was found and the pipeline declines. */
    public static final String NOT_ENOUGH_INFORMATION = "The available documents do not contain enough information "
            + "to answer this question.";
    private static final String HEALTH_TENANT = "ragkit-health-check";

    private final Builder settings;
    private final RagConfig config;
    private final DocumentStore store;
    private final boolean ownsStore;
    private final LlmBackend backend;
    private final ModelCatalog models;
    private final Retriever retriever;
    private final PromptStage prompts;
    private final EmptyContextHandler emptyContext;
    private final Grounding grounding;
    private final AuditRecorder audit;
    private final RagListener listener;
    private final @Nullable QueryTransformer queryTransformer;
    private final Executor executor;
    private final Clock clock;

    private RagPipeline(Builder b, DocumentStore store, LlmBackend backend) {
        this.settings = b.copyInto(new Builder());
        this.config = b.effectiveConfig();
        this.store = store;
        this.ownsStore = b.store == null;
        this.backend = backend;
        this.models = new ModelCatalog(backend, config.chatModel(), b.allowedModels, b.modelInfo,
                new BudgetLimits(1, config.maxResponseTokens(), config.systemPromptTokens(),
                        config.maxHistoryTokens(), config.maxContextTokens(), b.minTruncatedTokens,
                        BudgetLimits.DEFAULT_MESSAGE_OVERHEAD), System::nanoTime);
        this.retriever = b.retriever != null ? b.retriever : retriever(b, store, config);
        this.prompts = new PromptStage(models, backend, b.tokenBudget, b.counter, b.promptBuilder != null
                ? b.promptBuilder : b.systemPrompt == null ? PromptBuilder.standard()
                : PromptBuilder.withSystemPrompt(b.systemPrompt), config.temperature(), b.seed);
        Router router = b.router != null ? b.router : Router.standard(config.confidenceThreshold(),
                config.adminEmail(), b.ownerDirectory != null ? b.ownerDirectory : OwnerDirectory.none());
        this.emptyContext = new EmptyContextHandler(b.emptyContextPolicy, router, prompts, b.citationExtractor);
        this.grounding = new Grounding(backend, b.citationExtractor, b.scorer, b.selfRating, router, b.seed);
        this.audit = new AuditRecorder(new AuditTrail(b.audit, b.auditFailurePolicy), b.queryRedaction);
        this.listener = new SafeListener(b.listener);
        this.queryTransformer = b.queryTransformer;
        this.executor = b.executor;
        this.clock = b.clock;
    }

    /** The default retriever with the builder's stages and options. */
    private static Retriever retriever(Builder b, DocumentStore store, RagConfig config) {
        Retriever.Builder r = Retriever.builder().store(store).embedder(Objects.requireNonNull(b.embedder, "embedder"))
                .options(b.retrievalOptions != null ? b.retrievalOptions : config.retrievalOptions())
                .deduplicator(b.deduplicator != null ? b.deduplicator : config.deduplicator())
                .reranker(b.reranker != null ? b.reranker : Reranker.none());
        if (b.relevanceModel != null) {
            r.relevanceModel(b.relevanceModel);
        }
        return r.build();
    }

    /** @return a builder; a store, a backend and an embedder (or a retriever) are required */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * @return a builder holding this pipeline's settings, to build a variant (the store, backend, embedder and
     *         sinks are shared, not copied; a store created from a provider id is created again)
     */
    public Builder toBuilder() {
        return settings.copyInto(new Builder());
    }

    /**
     * Answers a question, waiting for the whole answer.
     *
     * @param request the question
     * @return the response; low confidence and empty context are responses (action ROUTE), not errors
     * @throws dev.ragkit.error.ModelNotAllowedException     when the request names a model outside the allowlist
     * @throws dev.ragkit.error.ModelNotFoundException       when the backend does not have the model (checked
     *                                                       first, before retrieval)
     * @throws dev.ragkit.error.TokenBudgetExceededException when the system prompt and question leave no room
     * @throws dev.ragkit.error.LlmUnavailableException      when the backend cannot be reached (retriable)
     * @throws dev.ragkit.error.RagException                 for other failures; each is audited before it is thrown
     */
    public RagResponse ask(RagRequest request) {
        Exchange x = begin(Objects.requireNonNull(request, "request"));
        try {
            Plan plan = plan(x);                                          // model → retrieve → budget → prompt
            RagResponse response = plan.isFixed() ? plan.requireFixed()   // nothing to ask the model
                    : respond(x, plan, x.time("generate", () -> backend.chat(plan.requireChat())));
            return finish(x, response);                                   // audit
        } catch (RuntimeException | Error e) {
            fail(x, e);
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
        StreamCall call = new StreamCall(this, backend, executor, begin(request), listener);
        try {
            executor.execute(call::start);
        } catch (RuntimeException e) {
            call.fail(e);
        }
        return call;
    }

    /** A request starts: its state, and the listener told. */
    private Exchange begin(RagRequest request) {
        return new Exchange(request, clock.instant(), models.defaultModel(), listener.requestStarted(request));
    }

    /**
     * The model (allowed, and the backend has it) → retrieval → the token budget and the prompt; or, when there is
     * no context, what the empty-context policy plans.
     */
    Plan plan(Exchange x) {
        RagRequest request = x.request;
        x.model(models.resolve(request));
        String query = request.history().isEmpty() ? request.query()
                : x.time("rewrite", () -> queries(x).standalone(request.query(), request.history()));
        if (!query.equals(request.query())) {
            x.retrievalQuery(query);
        }
        RetrievedContext context = x.time("retrieve",
                () -> retriever.retrieve(query, request.scope(), request.overrides()));
        x.events.retrieved(context);
        boolean supported = !context.relevant().isEmpty() || context.support().supported();
        List<ContextBlock> candidates = !supported || context.isEmpty() ? List.of() : ContextBlocks.of(context);
        Plan plan;
        if (candidates.isEmpty()) {
            plan = emptyContext.plan(x, context.support().explanation(), List.of());
        } else {
            Prompt prompt = x.time("budget", () -> prompts.fit(x.model(), request, candidates));
            plan = prompt.blocks().isEmpty()
                    ? emptyContext.plan(x, EmptyContextHandler.NO_CONTEXT_FITS_REASON, prompt.dropped())
                    : Plan.grounded(prompt, prompts.chat(x.model(), prompt));
        }
        if (plan.prompt() != null) {
            x.events.promptBuilt(plan.prompt());
        }
        return x.planned(plan);
    }

    /**
     * What makes a follow-up standalone: the configured transformer, else the model (with the key-terms fallback),
     * else — for extractive answers, where no model can rewrite — the key terms.
     */
    private QueryTransformer queries(Exchange x) {
        if (queryTransformer != null) {
            return queryTransformer;
        }
        return backend instanceof ExtractiveBackend ? QueryTransformer.keyTerms()
                : new LlmQueryTransformer(backend, x.model(), QueryTransformer.keyTerms());
    }

    /**
     * The model's answer grounded: citations, self-rating, confidence and routing (or the without-context answer). An
     * answer the extractive backend wrote (chosen, or a fallback for a model server that could not be reached) is
     * reported under its model name, {@value ExtractiveBackend#MODEL}, and flagged
     * {@link ResponseFlag#EXTRACTIVE_ANSWER}.
     */
    RagResponse respond(Exchange x, Plan plan, ChatResult result) {
        boolean extractive = ExtractiveBackend.MODEL.equals(result.model());
        if (extractive && !ExtractiveBackend.MODEL.equals(x.model())) {
            x.model(ExtractiveBackend.MODEL);
        }
        x.events.generated(result);
        RagResponse response = plan.withoutContext() ? emptyContext.answered(x, plan, result)
                : grounding.ground(x, plan.requirePrompt(), result);
        return extractive ? ResponseBuilder.withFlag(response, ResponseFlag.EXTRACTIVE_ANSWER) : response;
    }

    /** The audit record of an answered request; the listener hears of the response. */
    RagResponse finish(Exchange x, RagResponse response) {
        RagResponse audited = x.time("audit", () -> audit.answered(x, response));
        x.events.responded(audited);
        return audited;
    }

    /** The audit record of a failed request (unless written already); the listener hears of the failure. */
    void fail(Exchange x, Throwable error) {
        audit.failed(x, error);
        x.events.failed(error);
    }

    /**
     * Checks the backend, the default model and the store.
     *
     * @return the status; never throws
     */
    public PipelineHealth health() {
        HealthStatus backendStatus;
        try {
            backendStatus = backend.health(models.defaultModel());
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
        return new PipelineHealth(backendStatus, models.defaultModel(), ready,
                Duration.ofNanos(System.nanoTime() - t), detail);
    }

    /** @return the model used when a request names none */
    public String defaultModel() {
        return models.defaultModel();
    }

    /**
     * @return the values this pipeline runs with: those set on its builder over the {@code config(...)} base layer
     */
    public RagConfig config() {
        return config;
    }

    /** @return the budget's limits for a model (for tests of the model catalog's wiring) */
    BudgetLimits limitsFor(String model) {
        return models.limitsFor(model);
    }

    /** Closes the store when the pipeline created it from a provider id; a store passed in stays open. */
    @Override
    public void close() {
        if (ownsStore) {
            store.close();
        }
    }

    /**
     * Configures a {@link RagPipeline}: stages, and values of the default stages over a {@link RagConfig} base
     * layer (see the inherited setters). Not thread-safe.
     */
    public static final class Builder extends PipelineSettings {

        private Builder() {
        }

        @Override
        Builder self() {
            return this;
        }

        /**
         * @return the pipeline
         * @throws IllegalStateException listing every problem: a store, backend or embedder missing or given twice,
         *                               a setting that a supplied stage ignores, the default model outside the
         *                               allowlist, or values that clash
         */
        public RagPipeline build() {
            List<String> problems = problems();
            if (!problems.isEmpty()) {
                throw new IllegalStateException(String.join("; ", problems));
            }
            LlmBackend b = backend != null ? backend : LlmBackends.load(Objects.requireNonNull(backendProvider),
                    backendConfig);
            DocumentStore s = store != null ? store : StoreProviders.load(Objects.requireNonNull(storeProvider),
                    storeConfig);
            return new RagPipeline(this, s, b);
        }
    }
}
