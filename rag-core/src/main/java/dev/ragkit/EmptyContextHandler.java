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
import java.util.Objects;

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
    private final PromptFitter prompts;
    private final CitationExtractor citations;

    EmptyContextHandler(EmptyContextPolicy policy, Router router, PromptFitter prompts, CitationExtractor citations) {
        this.policy = policy;
        this.router = router;
        this.prompts = prompts;
        this.citations = citations;
    }

    /** @return whether a question without context is handed to a person ({@code ROUTE_TO_HUMAN}, the default) */
    boolean routes() {
        return policy == EmptyContextPolicy.ROUTE_TO_HUMAN;
    }

    /** The route of a request without context: to the administrator, for {@code reason}. */
    private Routing routed(String reason) {
        return new Routing(Action.ROUTE, router.toAdministrator(reason));
    }

    /**
     * @param asked           the question as it will be answered
     * @param reason          why there is no context: nothing found, nothing that supports the question (with the
     *                        words no passage mentions), or nothing that fits the budget
     * @param droppedByBudget the blocks that were found but did not fit (empty when nothing was found)
     * @return the plan the policy chooses
     */
    Plan plan(Exchange x, Asked asked, String reason, List<ContextBlock> droppedByBudget) {
        switch (policy) {
            case ANSWER_WITHOUT_CONTEXT: {
                Prompt p = x.time("budget", () -> prompts.fitWithoutContext(asked.model(), x.request));
                return Plan.withoutContext(asked, p, prompts.chat(asked.model(), p), reason, droppedByBudget);
            }
            case DECLINE:
                return Plan.fixed(asked, fixed(x, asked, RagPipeline.NOT_ENOUGH_INFORMATION,
                        new Routing(Action.DECLINE, null), reason, droppedByBudget), reason, droppedByBudget);
            case ROUTE_TO_HUMAN:
            default:
                return Plan.fixed(asked, fixed(x, asked, RagPipeline.NOT_ENOUGH_INFORMATION_ROUTED, routed(reason),
                        reason, droppedByBudget), reason, droppedByBudget);
        }
    }

    /** The response to a model's answer without documents: confidence 0, routed to the administrator, flagged. */
    RagResponse answered(Exchange x, Plan plan, Asked asked, ChatResult result) {
        String reason = Objects.requireNonNull(plan.emptyContextReason(), "reason");
        return ResponseBuilder.of(x, asked).answered(plan.requirePrompt(), result)
                .confidence(ConfidenceScore.zero(reason + "; answered without documents"))
                .routing(routed(reason))
                .unknownSourceIds(citations.extract(result.text(), List.of()).unknownSourceIds())
                .flag(ResponseFlag.ANSWERED_WITHOUT_CONTEXT)
                .droppedByBudget(plan.droppedByBudget())
                .build();
    }

    private static RagResponse fixed(Exchange x, Asked asked, String answer, Routing routing, String reason,
            List<ContextBlock> droppedByBudget) {
        return ResponseBuilder.of(x, asked).answer(answer).confidence(ConfidenceScore.zero(reason)).routing(routing)
                .droppedByBudget(droppedByBudget).build();
    }
}
