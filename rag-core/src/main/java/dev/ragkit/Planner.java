package dev.ragkit;

import dev.ragkit.generation.ExtractiveBackend;
import dev.ragkit.generation.LlmBackend;
import dev.ragkit.prompt.ContextBlock;
import dev.ragkit.prompt.ContextBlocks;
import dev.ragkit.prompt.Prompt;
import dev.ragkit.retrieval.QueryTransformer;
import dev.ragkit.retrieval.RetrievedContext;
import dev.ragkit.retrieval.Retriever;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The stages before the model, each taking the one before's result: the question {@link Asked} (the model checked —
 * allowlist, and that the backend has it — and a follow-up made standalone) → the context retrieved → the token
 * budget and the prompt, or, with no context that supports the question, what the empty-context policy plans.
 * Thread-safe.
 */
final class Planner {
    private final ModelCatalog models;
    private final LlmBackend backend;
    private final @Nullable QueryTransformer queryTransformer;
    private final Retriever retriever;
    private final PromptFitter prompts;
    private final EmptyContextHandler emptyContext;

    Planner(ModelCatalog models, LlmBackend backend, @Nullable QueryTransformer queryTransformer, Retriever retriever,
            PromptFitter prompts, EmptyContextHandler emptyContext) {
        this.models = models;
        this.backend = backend;
        this.queryTransformer = queryTransformer;
        this.retriever = retriever;
        this.prompts = prompts;
        this.emptyContext = emptyContext;
    }

    /** Asked → retrieved → planned. */
    Plan plan(Exchange x) {
        Asked asked = ask(x);
        RetrievedContext context = x.time("retrieve",
                () -> retriever.retrieve(asked.query(x.request), x.request.scope(), x.request.overrides()));
        x.events.retrieved(context);
        Plan plan = budget(x, asked, context);
        if (plan.prompt() != null) {
            x.events.promptBuilt(plan.prompt());
        }
        return plan;
    }

    /** The model resolved (checked first, before retrieval) and, with history, the question made standalone. */
    private Asked ask(Exchange x) {
        RagRequest request = x.request;
        String model = models.resolve(request);
        x.events.modelChosen(model);
        String query = request.history().isEmpty() ? request.query()
                : x.time("rewrite", () -> queries(model).standalone(request.query(), request.history()));
        return new Asked(model, query.equals(request.query()) ? null : query);
    }

    /** The context's blocks fitted into the model's window; no supporting context: the empty-context plan. */
    private Plan budget(Exchange x, Asked asked, RetrievedContext context) {
        boolean supported = !context.relevant().isEmpty() || context.support().supported();
        List<ContextBlock> candidates = !supported || context.isEmpty() ? List.of() : ContextBlocks.of(context);
        if (candidates.isEmpty()) {
            return emptyContext.plan(x, asked, context.support().explanation(), List.of());
        }
        Prompt prompt = x.time("budget", () -> prompts.fit(asked.model(), x.request, candidates));
        return prompt.blocks().isEmpty()
                ? emptyContext.plan(x, asked, EmptyContextHandler.NO_CONTEXT_FITS_REASON, prompt.dropped())
                : Plan.grounded(asked, prompt, prompts.chat(asked.model(), prompt));
    }

    /**
     * What makes a follow-up standalone: the configured transformer, else the model (with the key-terms fallback),
     * else — for extractive answers, where no model can rewrite — the key terms.
     */
    private QueryTransformer queries(String model) {
        if (queryTransformer != null) {
            return queryTransformer;
        }
        return backend instanceof ExtractiveBackend ? QueryTransformer.keyTerms()
                : QueryTransformer.llm(backend, model, QueryTransformer.keyTerms());
    }
}
