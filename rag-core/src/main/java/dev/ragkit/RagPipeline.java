package dev.ragkit;

import dev.ragkit.audit.AuditTrail;
import dev.ragkit.budget.BudgetLimits;
import dev.ragkit.embedding.Embedder;
import dev.ragkit.generation.Cancellable;
import dev.ragkit.generation.ExtractiveBackend;
import dev.ragkit.generation.ExtractiveFallbackBackend;
import dev.ragkit.generation.HealthStatus;
import dev.ragkit.generation.LlmBackend;
import dev.ragkit.generation.LlmBackends;
import dev.ragkit.grounding.OwnerDirectory;
import dev.ragkit.grounding.Router;
import dev.ragkit.prompt.PromptBuilder;
import dev.ragkit.retrieval.Reranker;
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
    private final RequestFlow flow;
    private final RagListener listener;
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
        Retriever retriever = b.retriever != null ? b.retriever : retriever(b, store, config);
        PromptFitter prompts = new PromptFitter(models, backend, b.tokenBudget, b.counter, b.promptBuilder != null
                ? b.promptBuilder : b.systemPrompt == null ? PromptBuilder.standard()
                : PromptBuilder.withSystemPrompt(b.systemPrompt), config.temperature(), b.seed);
        Router router = b.router != null ? b.router : Router.standard(config.confidenceThreshold(),
                config.adminEmail(), b.ownerDirectory != null ? b.ownerDirectory : OwnerDirectory.none());
        EmptyContextHandler emptyContext = new EmptyContextHandler(b.emptyContextPolicy, router, prompts,
                b.citationExtractor);
        this.flow = new RequestFlow(new Planner(models, backend, b.queryTransformer, retriever, prompts, emptyContext),
                new Responder(backend, b.citationExtractor, b.scorer, b.selfRating, router, b.seed, emptyContext),
                new AuditRecorder(new AuditTrail(b.audit, b.auditFailurePolicy), b.queryRedaction));
        this.listener = new SafeListener(b.listener);
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
        Plan plan = null;
        RagResponse response;
        try {
            plan = flow.plan(x);                                          // asked → retrieved → budgeted
            Plan p = plan;
            response = p.isFixed() ? p.requireFixed()                     // nothing to ask the model
                    : flow.respond(x, p, x.time("generate", () -> backend.chat(p.requireChat())));
        } catch (RuntimeException | Error e) {
            flow.fail(x, plan, e);
            throw e;
        }
        return flow.finish(x, plan, response);                            // audit
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
        StreamCall call = new StreamCall(flow, backend, executor, begin(request), listener);
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
            LlmBackend b = quoting(backend != null ? backend : LlmBackends.load(
                    Objects.requireNonNull(backendProvider), backendConfig), embedder);
            DocumentStore s = store != null ? store : StoreProviders.load(Objects.requireNonNull(storeProvider),
                    storeConfig);
            return new RagPipeline(this, s, b);
        }

        /**
         * An extractive backend built without an embedder ({@link ExtractiveBackend},
         * {@link ExtractiveFallbackBackend}) chooses its quotes with the pipeline's too: the same model that found the
         * passages helps pick their sentences. One given its own embedder keeps it.
         */
        private static LlmBackend quoting(LlmBackend backend, @Nullable Embedder embedder) {
            if (embedder != null && backend instanceof ExtractiveBackend e && e.embedder() == null) {
                return e.quotingWith(embedder);
            }
            if (embedder != null && backend instanceof ExtractiveFallbackBackend f && f.embedder() == null) {
                return f.quotingWith(embedder);
            }
            return backend;
        }
    }
}
