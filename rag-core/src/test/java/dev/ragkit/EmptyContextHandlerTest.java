package dev.ragkit;

import static dev.ragkit.PipelineFixtures.KEYS;
import static dev.ragkit.PipelineFixtures.block;
import static dev.ragkit.PipelineFixtures.document;
import static dev.ragkit.PipelineFixtures.exchange;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ragkit.budget.BudgetLimits;
import dev.ragkit.generation.ChatResult;
import dev.ragkit.generation.FinishReason;
import dev.ragkit.grounding.Action;
import dev.ragkit.grounding.CitationExtractor;
import dev.ragkit.grounding.OwnerDirectory;
import dev.ragkit.grounding.Router;
import dev.ragkit.prompt.ContextBlock;
import dev.ragkit.prompt.PromptBuilder;
import dev.ragkit.testing.RecordingBackend;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

final class EmptyContextHandlerTest {
    private final RecordingBackend backend = RecordingBackend.answering(r -> "unused", "90");
    private final PromptFitter prompts = new PromptFitter(new ModelCatalog(backend, "llama3.2", null, Map.of(),
            BudgetLimits.defaults(1), System::nanoTime), backend, null, null, PromptBuilder.standard(), 0.1, null);
    private final Router router = Router.standard(60, "admin@acme.test", OwnerDirectory.none());

    private static final Asked ASKED = new Asked("llama3.2", null);

    private EmptyContextHandler handler(EmptyContextPolicy policy) {
        return new EmptyContextHandler(policy, router, prompts, CitationExtractor.standard());
    }

    @Test
    void plan_routeToHumanWithNothingFound_isAFixedAnswerRoutedToTheAdministrator() {
        Plan plan = handler(EmptyContextPolicy.ROUTE_TO_HUMAN)
                .plan(exchange("q"), ASKED, EmptyContextHandler.NO_DOCUMENTS_REASON, List.of());

        RagResponse r = plan.requireFixed();
        assertThat(r.answer()).isEqualTo(RagPipeline.NOT_ENOUGH_INFORMATION_ROUTED);
        assertThat(r.action()).isEqualTo(Action.ROUTE);
        assertThat(r.routeTo().ownerEmail()).isEqualTo("admin@acme.test");
        assertThat(r.routeTo().reason()).contains(EmptyContextHandler.NO_DOCUMENTS_REASON);
        assertThat(r.confidence().overall()).isZero();
        assertThat(r.flags()).isEmpty();
    }

    @Test
    void plan_somethingFoundThatDoesNotFit_saysSoAndListsWhatWasDropped() {
        ContextBlock big = block(document("docs/keys.md"), KEYS, 0.8);

        RagResponse r = handler(EmptyContextPolicy.ROUTE_TO_HUMAN)
                .plan(exchange("q"), ASKED, EmptyContextHandler.NO_CONTEXT_FITS_REASON, List.of(big)).requireFixed();

        assertThat(r.routeTo().reason()).contains(EmptyContextHandler.NO_CONTEXT_FITS_REASON);
        assertThat(r.droppedSources()).containsExactly(big.sourceId());
        assertThat(r.flags()).contains(ResponseFlag.CONTEXT_REDUCED);
    }

    @Test
    void plan_decline_declinesWithoutRouting() {
        RagResponse r = handler(EmptyContextPolicy.DECLINE)
                .plan(exchange("q"), ASKED, EmptyContextHandler.NO_DOCUMENTS_REASON, List.of()).requireFixed();

        assertThat(r.action()).isEqualTo(Action.DECLINE);
        assertThat(r.routeTo()).isNull();
        assertThat(r.answer()).isEqualTo(RagPipeline.NOT_ENOUGH_INFORMATION);
    }

    @Test
    void plan_answerWithoutContext_promptsPlainlyAndTheAnswerIsFlaggedAndRouted() {
        EmptyContextHandler handler = handler(EmptyContextPolicy.ANSWER_WITHOUT_CONTEXT);
        Exchange x = exchange("How often should keys rotate?");

        Plan plan = handler.plan(x, ASKED, EmptyContextHandler.NO_DOCUMENTS_REASON, List.of());
        RagResponse r = handler.answered(x, plan, ASKED, new ChatResult("Often [SourceId: "
                + "00000000-0000-0000-0000-000000000000:1].", "llama3.2", FinishReason.STOP, null, null,
                Duration.ZERO));

        assertThat(plan.withoutContext()).isTrue();
        assertThat(plan.requireChat().messages().get(0).content()).isEqualTo(PromptFitter.WITHOUT_CONTEXT_RULES);
        assertThat(r.flags()).contains(ResponseFlag.ANSWERED_WITHOUT_CONTEXT, ResponseFlag.UNKNOWN_SOURCE_IDS);
        assertThat(r.grounded()).isFalse();
        assertThat(r.action()).isEqualTo(Action.ROUTE);
        assertThat(r.confidence().overall()).isZero();
        assertThat(r.contextChunksUsed()).isZero();
        assertThat(r.promptTokens()).isPositive();
    }
}
