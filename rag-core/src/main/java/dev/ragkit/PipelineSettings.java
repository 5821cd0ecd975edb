package dev.ragkit;

import dev.ragkit.audit.AuditFailurePolicy;
import dev.ragkit.audit.AuditSink;
import dev.ragkit.audit.QueryRedaction;
import dev.ragkit.budget.BudgetLimits;
import dev.ragkit.budget.TokenBudget;
import dev.ragkit.internal.SetOnce;
import dev.ragkit.generation.KnownModels;
import dev.ragkit.generation.LlmBackend;
import dev.ragkit.generation.ModelInfo;
import dev.ragkit.grounding.CitationExtractor;
import dev.ragkit.grounding.ConfidenceScorer;
import dev.ragkit.grounding.OwnerDirectory;
import dev.ragkit.grounding.Router;
import dev.ragkit.embedding.Embedder;
import dev.ragkit.prompt.PromptBuilder;
import dev.ragkit.retrieval.QueryTransformer;
import dev.ragkit.retrieval.RelevanceModel;
import dev.ragkit.retrieval.Reranker;
import dev.ragkit.retrieval.Deduplicator;
import dev.ragkit.retrieval.RetrievalOptions;
import dev.ragkit.retrieval.Retriever;
import dev.ragkit.store.DocumentStore;
import dev.ragkit.tokens.TokenCounter;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.concurrent.ForkJoinPool;
import org.jspecify.annotations.Nullable;

/**
 * The settings behind {@link RagPipeline.Builder} and their rules, kept apart from the orchestrator.
 *
 * <p>Two kinds of settings: <b>stages</b> (a store, a backend, a retriever, a token budget, a router, …) and
 * <b>values</b> of the default stages. One rule holds for every value: {@link #config(RagConfig)} is a base layer,
 * and a value set here wins over it whatever the order of the calls. A value that a supplied stage makes
 * meaningless (a threshold next to a custom router, an embedder next to a custom retriever) fails at
 * {@code build()} naming both, as do missing stages and stages given twice; {@code build()} lists every problem at
 * once. A stage is set once: calling its setter again on the same builder fails at once (values may be set again,
 * the last one wins); a builder from {@code toBuilder()} may replace each stage it inherited once.
 */
abstract class PipelineSettings {
    @Nullable DocumentStore store;
    @Nullable String storeProvider;
    Map<String, String> storeConfig = Map.of();
    @Nullable LlmBackend backend;
    @Nullable String backendProvider;
    Map<String, String> backendConfig = Map.of();
    @Nullable Retriever retriever;
    @Nullable Embedder embedder;
    @Nullable RetrievalOptions retrievalOptions;
    @Nullable Deduplicator deduplicator;
    @Nullable Reranker reranker;
    @Nullable RelevanceModel relevanceModel;
    @Nullable TokenBudget tokenBudget;
    @Nullable TokenCounter counter;
    @Nullable PromptBuilder promptBuilder;
    @Nullable String systemPrompt;
    CitationExtractor citationExtractor = CitationExtractor.standard();
    ConfidenceScorer scorer = ConfidenceScorer.standard();
    boolean selfRating = true;
    @Nullable Router router;
    @Nullable OwnerDirectory ownerDirectory;
    EmptyContextPolicy emptyContextPolicy = EmptyContextPolicy.ROUTE_TO_HUMAN;
    AuditSink audit = AuditSink.logging();
    AuditFailurePolicy auditFailurePolicy = AuditFailurePolicy.LOG_AND_CONTINUE;
    QueryRedaction queryRedaction = QueryRedaction.HASH;
    RagListener listener = RagListener.NONE;
    /** The stages set on this builder (not inherited through toBuilder()): each may be set once. */
    private final SetOnce stagesSet = new SetOnce("To replace a stage of a built pipeline, call toBuilder() on it");
    @Nullable QueryTransformer queryTransformer;
    Executor executor = ForkJoinPool.commonPool();
    Clock clock = Clock.systemUTC();
    @Nullable List<String> allowedModels;
    final Map<String, ModelInfo> modelInfo = new HashMap<>();
    int minTruncatedTokens = BudgetLimits.DEFAULT_MIN_TRUNCATED_TOKENS;
    @Nullable Long seed;
    /** The base layer. */
    RagConfig config = RagConfig.defaults();
    /** The values set on this builder, which win over {@link #config}. */
    RagConfig.Builder explicit = RagConfig.builder();

    PipelineSettings() {
    }

    /** @return this builder, typed as the public builder */
    abstract RagPipeline.Builder self();

    /** Copies every setting into {@code b} (stores, backends and sinks are shared, not copied). */
    final RagPipeline.Builder copyInto(RagPipeline.Builder b) {
        b.store = store;
        b.storeProvider = storeProvider;
        b.storeConfig = storeConfig;
        b.backend = backend;
        b.backendProvider = backendProvider;
        b.backendConfig = backendConfig;
        b.retriever = retriever;
        b.embedder = embedder;
        b.retrievalOptions = retrievalOptions;
        b.deduplicator = deduplicator;
        b.reranker = reranker;
        b.relevanceModel = relevanceModel;
        b.tokenBudget = tokenBudget;
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
        b.queryTransformer = queryTransformer;
        b.executor = executor;
        b.clock = clock;
        b.allowedModels = allowedModels;
        b.modelInfo.putAll(modelInfo);
        b.minTruncatedTokens = minTruncatedTokens;
        b.seed = seed;
        b.config = config;
        b.explicit = explicit.copy();
        return b;
    }

    /** A stage is set once on a builder; one from {@code toBuilder()} may replace each inherited stage once. */
    private void stageSet(String stage) {
        stagesSet.set(stage);
    }

    /** @return the values in effect: those set on this builder over the {@link #config} base layer */
    final RagConfig effectiveConfig() {
        return explicit.over(config, true);
    }

    /**
     * Every rule {@code build()} enforces, as one message per broken rule.
     *
     * @return the problems, empty when the settings can be built
     */
    final List<String> problems() {
        List<String> problems = new ArrayList<>();
        if (store == null && storeProvider == null) {
            problems.add("no store: call store(store) or store(providerId, config)");
        } else if (store != null && storeProvider != null) {
            problems.add("store given twice: call store(store) or store(providerId, config), not both");
        }
        if (backend == null && backendProvider == null) {
            problems.add("no backend: call backend(backend) or backend(providerId, config)");
        } else if (backend != null && backendProvider != null) {
            problems.add("backend given twice: call backend(backend) or backend(providerId, config), not both");
        }
        if (retriever == null && embedder == null) {
            problems.add("no embedder: call embedder(...) with the model the documents were indexed with, or give "
                    + "a whole retriever(...)");
        }
        if (retriever != null) {
            clash(problems, "retriever(...)", "embedder(...)", embedder, "Retriever.builder().embedder(...)");
            clash(problems, "retriever(...)", "retrievalOptions(...)", retrievalOptions,
                    "Retriever.builder().options(...)");
            clash(problems, "retriever(...)", "deduplicator(...)", deduplicator,
                    "Retriever.builder().deduplicator(...)");
            clash(problems, "retriever(...)", "reranker(...)", reranker, "Retriever.builder().reranker(...)");
            clash(problems, "retriever(...)", "relevanceModel(...)", relevanceModel,
                    "Retriever.builder().relevanceModel(...)");
        }
        if (systemPrompt != null && promptBuilder != null) {
            problems.add("both systemPrompt(...) and promptBuilder(...) were set; a custom PromptBuilder carries its "
                    + "own rules (PromptBuilder.withSystemPrompt), so set one of them");
        }
        if (tokenBudget != null) {
            clash(problems, "tokenBudget(...)", "tokenCounter(...)", counter, "TokenBudget.of(counter, prompts)");
            clash(problems, "tokenBudget(...)", "promptBuilder(...)", promptBuilder,
                    "TokenBudget.of(counter, prompts)");
            clash(problems, "tokenBudget(...)", "systemPrompt(...)", systemPrompt,
                    "TokenBudget.of(counter, PromptBuilder.withSystemPrompt(...))");
        }
        if (router != null) {
            String where = "Router.standard(threshold, adminEmail, owners)";
            clash(problems, "router(...)", "confidenceThreshold(...)", explicit.confidenceThresholdOrNull(), where);
            clash(problems, "router(...)", "adminEmail(...)", explicit.adminEmailOrNull(), where);
            clash(problems, "router(...)", "ownerDirectory(...)", ownerDirectory, where);
        }
        String model = effectiveConfig().chatModel();
        if (allowedModels != null && allowedModels.stream().map(KnownModels::canonical)
                .noneMatch(KnownModels.canonical(model)::equals)) {
            problems.add("the default model '" + model + "' is not in the allowlist " + allowedModels
                    + "; add it, or choose an allowed default model");
        }
        return problems;
    }

    private static void clash(List<String> problems, String stage, String setting, @Nullable Object value,
            String where) {
        if (value != null) {
            problems.add(stage + " and " + setting + " were both set, but a supplied stage ignores the setting: keep "
                    + stage + " and configure it there (" + where + "), or drop " + stage);
        }
    }

    // ------------------------------------------------------------------------------------------------------ values

    /**
     * The base layer of values: model, temperature, confidence threshold, administrator address, token limits, and
     * the retrieval values ({@link RagConfig#retrievalOptions()}, {@link RagConfig#deduplicator()}) unless
     * {@code retrievalOptions(...)} or {@code deduplicator(...)} are set. A value set on this builder wins over it,
     * before or after this call.
     *
     * @param config the configuration, e.g. {@link RagConfig#fromEnvironment()}
     * @return this builder
     */
    public RagPipeline.Builder config(RagConfig config) {
        this.config = Objects.requireNonNull(config, "config");
        return self();
    }

    /** @param model the default model (default from the configuration, {@code llama3.2}) @return this builder */
    public RagPipeline.Builder model(String model) {
        explicit.chatModel(model);
        return self();
    }

    /** @param temperature sampling temperature in [0, 2] (default 0.1) @return this builder */
    public RagPipeline.Builder temperature(double temperature) {
        explicit.temperature(temperature);
        return self();
    }

    /** @param threshold the lowest confidence that is cited, 0–100 (default 60) @return this builder */
    public RagPipeline.Builder confidenceThreshold(int threshold) {
        explicit.confidenceThreshold(threshold);
        return self();
    }

    /** @param email where routed questions go when no owner is found @return this builder */
    public RagPipeline.Builder adminEmail(String email) {
        explicit.adminEmail(email);
        return self();
    }

    /** @param tokens the most context tokens, at least 1 (default 3000) @return this builder */
    public RagPipeline.Builder maxContextTokens(int tokens) {
        explicit.maxContextTokens(tokens);
        return self();
    }

    /** @param tokens the most history tokens (default 1000) @return this builder */
    public RagPipeline.Builder maxHistoryTokens(int tokens) {
        explicit.maxHistoryTokens(tokens);
        return self();
    }

    /** @param tokens the response reserve (default 1024, capped by the model's limit) @return this builder */
    public RagPipeline.Builder maxResponseTokens(int tokens) {
        explicit.maxResponseTokens(tokens);
        return self();
    }

    /** @param tokens the system-prompt reserve (default 500) @return this builder */
    public RagPipeline.Builder systemPromptTokens(int tokens) {
        explicit.systemPromptTokens(tokens);
        return self();
    }

    /** @param tokens the least text a cut context block keeps, at least 1 (default 50) @return this builder */
    public RagPipeline.Builder minTruncatedTokens(int tokens) {
        if (tokens < 1) {
            throw new IllegalArgumentException("minTruncatedTokens must be at least 1, got " + tokens);
        }
        this.minTruncatedTokens = tokens;
        return self();
    }

    /** @param seed a sampling seed for reproducible answers @return this builder */
    public RagPipeline.Builder seed(long seed) {
        this.seed = seed;
        return self();
    }

    /**
     * @param models the models requests may name (default: the known-model table and the default model)
     * @return this builder
     */
    public RagPipeline.Builder allowedModels(Collection<String> models) {
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
        return self();
    }

    /** @param info a model's limits, overriding the known-model table and the backend @return this builder */
    public RagPipeline.Builder modelInfo(ModelInfo info) {
        Objects.requireNonNull(info, "info");
        this.modelInfo.put(KnownModels.canonical(info.name()), info);
        return self();
    }

    /**
     * @param enabled whether to ask the model to rate its answer (a second, short call; default on); when off,
     *                confidence uses retrieval and coverage only
     * @return this builder
     */
    public RagPipeline.Builder selfRating(boolean enabled) {
        this.selfRating = enabled;
        return self();
    }

    /** @param policy what to do when nothing is found (default ROUTE_TO_HUMAN) @return this builder */
    public RagPipeline.Builder emptyContextPolicy(EmptyContextPolicy policy) {
        this.emptyContextPolicy = Objects.requireNonNull(policy, "policy");
        return self();
    }

    /** @param policy what a failing audit sink does (default LOG_AND_CONTINUE) @return this builder */
    public RagPipeline.Builder auditFailurePolicy(AuditFailurePolicy policy) {
        this.auditFailurePolicy = Objects.requireNonNull(policy, "policy");
        return self();
    }

    /** @param redaction how much of the question the audit keeps (default HASH) @return this builder */
    public RagPipeline.Builder queryRedaction(QueryRedaction redaction) {
        this.queryRedaction = Objects.requireNonNull(redaction, "redaction");
        return self();
    }

    // ------------------------------------------------------------------------------------------------------ stages

    /** @param store where documents are (required, unless a provider id is given) @return this builder */
    public RagPipeline.Builder store(DocumentStore store) {
        stageSet("store");
        this.store = Objects.requireNonNull(store, "store");
        return self();
    }

    /**
     * @param providerId a store provider id, e.g. {@code in-memory}; the pipeline closes this store
     * @param config     the provider's settings
     * @return this builder
     */
    public RagPipeline.Builder store(String providerId, Map<String, String> config) {
        stageSet("store");
        this.storeProvider = Objects.requireNonNull(providerId, "providerId");
        this.storeConfig = Map.copyOf(Objects.requireNonNull(config, "config"));
        return self();
    }

    /** @param backend the language model (required, unless a provider id is given) @return this builder */
    public RagPipeline.Builder backend(LlmBackend backend) {
        stageSet("backend");
        this.backend = Objects.requireNonNull(backend, "backend");
        return self();
    }

    /**
     * @param providerId an LLM backend provider id, e.g. {@code ollama}
     * @param config     the provider's settings
     * @return this builder
     */
    public RagPipeline.Builder backend(String providerId, Map<String, String> config) {
        stageSet("backend");
        this.backendProvider = Objects.requireNonNull(providerId, "providerId");
        this.backendConfig = Map.copyOf(Objects.requireNonNull(config, "config"));
        return self();
    }

    /**
     * @param retriever the whole retrieval stage (with your booster, link resolver, query cache, …); then
     *                  {@code embedder}, {@code retrievalOptions} and {@code deduplicator} belong on its builder
     * @return this builder
     */
    public RagPipeline.Builder retriever(Retriever retriever) {
        stageSet("retriever");
        this.retriever = Objects.requireNonNull(retriever, "retriever");
        return self();
    }

    /**
     * @param embedder embeds questions with the documents' model (required unless a {@code retriever} is given)
     * @return this builder
     */
    public RagPipeline.Builder embedder(Embedder embedder) {
        stageSet("embedder");
        this.embedder = Objects.requireNonNull(embedder, "embedder");
        return self();
    }

    /** @param options retrieval options of the default retriever (default: from the configuration) @return this */
    public RagPipeline.Builder retrievalOptions(RetrievalOptions options) {
        this.retrievalOptions = Objects.requireNonNull(options, "options");
        return self();
    }

    /**
     * @param model how the default retriever turns hits into relevances (default {@link RelevanceModel#calibrated}
     *              on the embedder's similarity scale)
     * @return this builder
     */
    public RagPipeline.Builder relevanceModel(RelevanceModel model) {
        stageSet("relevanceModel");
        this.relevanceModel = Objects.requireNonNull(model, "relevanceModel");
        return self();
    }

    /**
     * @param reranker scores the best candidates again in the default retriever (default none)
     * @return this builder
     */
    public RagPipeline.Builder reranker(Reranker reranker) {
        stageSet("reranker");
        this.reranker = Objects.requireNonNull(reranker, "reranker");
        return self();
    }

    /** @param deduplicator drops near-duplicate chunks in the default retriever (default Jaccard 0.9) @return this */
    public RagPipeline.Builder deduplicator(Deduplicator deduplicator) {
        stageSet("deduplicator");
        this.deduplicator = Objects.requireNonNull(deduplicator, "deduplicator");
        return self();
    }

    /**
     * @param budget the token budget for every model (default: one per model over the backend's counter for it);
     *               then {@code tokenCounter}, {@code promptBuilder} and {@code systemPrompt} belong on it
     * @return this builder
     */
    public RagPipeline.Builder tokenBudget(TokenBudget budget) {
        stageSet("tokenBudget");
        this.tokenBudget = Objects.requireNonNull(budget, "budget");
        return self();
    }

    /**
     * @param counter counts prompt tokens for every model (default: the backend's counter for the model when it
     *                has one, e.g. Ollama's calibrated counter, else cached {@code cl100k_base})
     * @return this builder
     */
    public RagPipeline.Builder tokenCounter(TokenCounter counter) {
        stageSet("tokenCounter");
        this.counter = Objects.requireNonNull(counter, "counter");
        return self();
    }

    /** @param rules replaces the default grounding rules; not blank @return this builder */
    public RagPipeline.Builder systemPrompt(String rules) {
        PromptBuilder.withSystemPrompt(rules);
        this.systemPrompt = rules;
        return self();
    }

    /** @param builder writes prompts (default {@link PromptBuilder#standard()}) @return this builder */
    public RagPipeline.Builder promptBuilder(PromptBuilder builder) {
        stageSet("promptBuilder");
        this.promptBuilder = Objects.requireNonNull(builder, "builder");
        return self();
    }

    /** @param extractor maps SourceIds to citations @return this builder */
    public RagPipeline.Builder citationExtractor(CitationExtractor extractor) {
        stageSet("citationExtractor");
        this.citationExtractor = Objects.requireNonNull(extractor, "extractor");
        return self();
    }

    /** @param scorer scores confidence @return this builder */
    public RagPipeline.Builder confidenceScorer(ConfidenceScorer scorer) {
        stageSet("confidenceScorer");
        this.scorer = Objects.requireNonNull(scorer, "scorer");
        return self();
    }

    /** @param owners who owns which access tag, for the default router (default: nobody) @return this builder */
    public RagPipeline.Builder ownerDirectory(OwnerDirectory owners) {
        stageSet("ownerDirectory");
        this.ownerDirectory = Objects.requireNonNull(owners, "owners");
        return self();
    }

    /**
     * @param router replaces the default router; then the threshold, the administrator and the owners belong on it
     *               ({@link Router#standard})
     * @return this builder
     */
    public RagPipeline.Builder router(Router router) {
        stageSet("router");
        this.router = Objects.requireNonNull(router, "router");
        return self();
    }

    /** @param sink where audit records go (default: the {@code dev.ragkit.audit} logger) @return this builder */
    public RagPipeline.Builder auditSink(AuditSink sink) {
        stageSet("auditSink");
        this.audit = Objects.requireNonNull(sink, "sink");
        return self();
    }

    /**
     * @param listener hears each request and its stages, for metrics, traces and logs (e.g. rag-micrometer's
     *                 {@code MicrometerRagListener}; several: {@link RagListener#all}); none by default
     * @return this builder
     */
    public RagPipeline.Builder listener(RagListener listener) {
        stageSet("listener");
        this.listener = Objects.requireNonNull(listener, "listener");
        return self();
    }

    /**
     * @param transformer makes a follow-up question standalone before retrieval, when the request has history
     *                    (default: the model rewrites it, falling back to {@link QueryTransformer#keyTerms()}; with
     *                    the extractive backend, the key terms)
     * @return this builder
     */
    public RagPipeline.Builder queryTransformer(QueryTransformer transformer) {
        stageSet("queryTransformer");
        this.queryTransformer = Objects.requireNonNull(transformer, "transformer");
        return self();
    }

    /**
     * @param executor runs {@code askAsync} and {@code stream} work (default: the common fork-join pool; pass
     *                 your own for blocking backends)
     * @return this builder
     */
    public RagPipeline.Builder executor(Executor executor) {
        stageSet("executor");
        this.executor = Objects.requireNonNull(executor, "executor");
        return self();
    }

    /** @param clock timestamps audit records (default UTC system clock) @return this builder */
    public RagPipeline.Builder clock(Clock clock) {
        stageSet("clock");
        this.clock = Objects.requireNonNull(clock, "clock");
        return self();
    }
}
