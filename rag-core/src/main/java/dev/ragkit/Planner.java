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
 *
 * <p>A second look: when no passage reaches the relevance bar, the policy routes such questions (the default) and the
 * answer will check its own quotes — an {@link ExtractiveBackend} with an embedder that states its similarity scale,
 * whose quoted sentences' nearness to the question the default confidence scorer weighs — the passages down to a
 * relevance of {@value #SECOND_LOOK} are retrieved and answered from after all. A cited answer says so in its
 * confidence's explanation; one whose confidence falls short changes nothing: the question is routed as it would
 * have been, with the first retrieval's reason (docs/design-notes.md, "A second look"). Thread-safe.
 */
final class Planner {
    /**
     * The relevance down to which a second look reads passages: 0.1 on the fit's own scale before the relevance
     * model's leniency raises it. On the evaluation sets (five, two models: 10,798 answerable and 1,950 left-out
     * questions) second looks cited 36 answerable questions, 35 with the answer in the cited lines, and 2 left-out
     * ones; floors of 0.083 and 0.2 cited fewer (docs/design-notes.md, "A second look").
     */
    static final double SECOND_LOOK = 0.16;

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
        if (!supported && takesSecondLook(context)) {
            Plan second = secondLook(x, asked, context.support().explanation());
            if (second != null) {
                return second;
            }
        }
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
     * Whether a question no passage supports gets a second look: the policy routes it, the answer checks its quotes
     * on a scale its embedder states (the in-process models, on whose answers the check was fitted and the second
     * look measured), and the best passage found lies between {@value #SECOND_LOOK} and the bar.
     */
    private boolean takesSecondLook(RetrievedContext context) {
        double best = context.support().bestRelevance();
        return emptyContext.routes() && backend instanceof ExtractiveBackend e && e.embedder() != null
                && e.embedder().similarityScale() != null && best >= SECOND_LOOK
                && SECOND_LOOK < context.support().threshold();
    }

    /** The plan of a second look, or {@code null} when nothing it finds fits the budget. */
    private @Nullable Plan secondLook(Exchange x, Asked asked, String belowBar) {
        RetrievedContext nearer = x.time("retrieve", () -> retriever.retrieve(asked.query(x.request),
                x.request.scope(), x.request.overrides().withMinRelevance(SECOND_LOOK)));
        x.events.retrieved(nearer);
        List<ContextBlock> candidates = nearer.relevant().isEmpty() ? List.of() : ContextBlocks.of(nearer);
        if (candidates.isEmpty()) {
            return null;
        }
        Prompt prompt = x.time("budget", () -> prompts.fit(asked.model(), x.request, candidates));
        return prompt.blocks().isEmpty() ? null
                : Plan.secondLook(asked, prompt, prompts.chat(asked.model(), prompt), belowBar);
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
