package dev.ragkit;

import dev.ragkit.generation.ChatResult;
import dev.ragkit.grounding.Action;
import dev.ragkit.grounding.CitationExtractor;
import dev.ragkit.grounding.ConfidenceScore;
import dev.ragkit.grounding.Router;
import dev.ragkit.grounding.Routing;
import dev.ragkit.prompt.ContextBlock;
import dev.ragkit.prompt.Prompt;
import java.util.List;

/**
 * What a request does when it has no context — retrieval found nothing, or nothing it found fits the budget — as
 * the {@link EmptyContextPolicy} says: a fixed answer routed to a human (no model call), a fixed decline, or the
 * model asked without documents (flagged, never grounded, routed). Thread-safe.
 */
final class EmptyContextHandler {
    static final String NO_DOCUMENTS_REASON = "No relevant documents found";
    static final String NO_CONTEXT_FITS_REASON = "Relevant documents were found, but none fits the token budget";

    private final EmptyContextPolicy policy;
    private final Router router;
    private final PromptStage prompts;
    private final CitationExtractor citations;

    EmptyContextHandler(EmptyContextPolicy policy, Router router, PromptStage prompts, CitationExtractor citations) {
        this.policy = policy;
        this.router = router;
        this.prompts = prompts;
        this.citations = citations;
    }

    /**
     * @param reason          why there is no context: nothing found, nothing that supports the question (with the
     *                        words no passage mentions), or nothing that fits the budget
     * @param droppedByBudget the blocks that were found but did not fit (empty when nothing was found)
     * @return the plan the policy chooses
     */
    Plan plan(Exchange x, String reason, List<ContextBlock> droppedByBudget) {
        x.emptyContextReason(reason);
        switch (policy) {
            case ANSWER_WITHOUT_CONTEXT: {
                Prompt p = x.time("budget", () -> prompts.fitWithoutContext(x.model(), x.request));
                return Plan.withoutContext(p, prompts.chat(x.model(), p), droppedByBudget);
            }
            case DECLINE:
                return Plan.fixed(fixed(x, RagPipeline.NOT_ENOUGH_INFORMATION, new Routing(Action.DECLINE, null),
                        reason, droppedByBudget), droppedByBudget);
            case ROUTE_TO_HUMAN:
            default:
                return Plan.fixed(fixed(x, RagPipeline.NOT_ENOUGH_INFORMATION_ROUTED,
                        new Routing(Action.ROUTE, router.toAdministrator(reason)), reason, droppedByBudget),
                        droppedByBudget);
        }
    }

    /** The response to a model's answer without documents: confidence 0, routed to the administrator, flagged. */
    RagResponse answered(Exchange x, Plan plan, ChatResult result) {
        String reason = java.util.Objects.requireNonNull(x.emptyContextReason(), "reason");
        return ResponseBuilder.of(x).answered(plan.requirePrompt(), result)
                .confidence(ConfidenceScore.zero(reason + "; answered without documents"))
                .routing(new Routing(Action.ROUTE, router.toAdministrator(reason)))
                .unknownSourceIds(citations.extract(result.text(), List.of()).unknownSourceIds())
                .flag(ResponseFlag.ANSWERED_WITHOUT_CONTEXT)
                .droppedByBudget(plan.droppedByBudget())
                .build();
    }

    private static RagResponse fixed(Exchange x, String answer, Routing routing, String reason,
            List<ContextBlock> droppedByBudget) {
        return ResponseBuilder.of(x).answer(answer).confidence(ConfidenceScore.zero(reason)).routing(routing)
                .droppedByBudget(droppedByBudget).build();
    }
}
