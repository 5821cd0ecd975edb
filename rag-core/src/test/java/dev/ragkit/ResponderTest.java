package dev.ragkit;

import static dev.ragkit.PipelineFixtures.KEYS;
import static dev.ragkit.PipelineFixtures.block;
import static dev.ragkit.PipelineFixtures.document;
import static dev.ragkit.PipelineFixtures.exchange;
import static dev.ragkit.PipelineFixtures.prompt;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ragkit.error.LlmUnavailableException;
import dev.ragkit.generation.ChatResult;
import dev.ragkit.generation.FinishReason;
import dev.ragkit.grounding.Action;
import dev.ragkit.grounding.CitationExtractor;
import dev.ragkit.grounding.ConfidenceScorer;
import dev.ragkit.grounding.InMemoryOwnerDirectory;
import dev.ragkit.grounding.Owner;
import dev.ragkit.grounding.Router;
import dev.ragkit.prompt.ContextBlock;
import dev.ragkit.prompt.Prompt;
import dev.ragkit.testing.RecordingBackend;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

final class ResponderTest {
    private static final String QUESTION = "How often do API keys rotate?";
    private final ContextBlock keys = block(document("docs/keys.md", "eng"), KEYS, 0.9);
    private final Prompt prompt = prompt(QUESTION, List.of(keys));
    private final Router router = Router.standard(60, "admin@acme.test", InMemoryOwnerDirectory.builder()
            .owner("eng", new Owner("u-1", "eng-lead@acme.test")).build());

    private static final Asked ASKED = new Asked("llama3.2", null);

    private Responder grounding(RecordingBackend backend, boolean selfRating) {
        PromptFitter prompts = new PromptFitter(new ModelCatalog(backend, "llama3.2", null, java.util.Map.of(),
                dev.ragkit.budget.BudgetLimits.defaults(1), System::nanoTime), backend, null, null,
                dev.ragkit.prompt.PromptBuilder.standard(), 0.1, null);
        return new Responder(backend, CitationExtractor.standard(), ConfidenceScorer.standard(), selfRating, router,
                null, new EmptyContextHandler(EmptyContextPolicy.ROUTE_TO_HUMAN, router, prompts,
                        CitationExtractor.standard()));
    }

    private static ChatResult answer(String text, FinishReason finish) {
        return new ChatResult(text, "llama3.2", finish, null, null, Duration.ZERO);
    }

    private String cited() {
        return "API keys rotate every ninety days [SourceId: " + keys.sourceId() + "].";
    }

    @Test
    void ground_citedAnswerRatedHigh_citesScoresAndCites() {
        RecordingBackend backend = RecordingBackend.answering(r -> "unused", "95");
        Exchange x = exchange(QUESTION);

        RagResponse r = grounding(backend, true).ground(x, ASKED, prompt, answer(cited(), FinishReason.STOP), null);

        assertThat(r.citations()).singleElement().satisfies(c -> {
            assertThat(c.sourceId()).isEqualTo(keys.sourceId());
            assertThat(c.similarity()).isEqualTo(0.9);
        });
        assertThat(r.grounded()).isTrue();
        assertThat(r.confidence().selfRating()).isEqualTo(95);
        assertThat(r.action()).isEqualTo(Action.CITE);
        assertThat(backend.requests).singleElement().satisfies(q -> assertThat(RecordingBackend.isRating(q)).isTrue());
        assertThat(x.timings()).containsKeys("grounding", "self-rating");
        assertThat(r.sources()).singleElement().satisfies(s -> assertThat(s.similarity()).isEqualTo(0.9));
    }

    @Test
    void ground_uncitedAnswerRatedLow_routesToTheTagOwner() {
        RecordingBackend backend = RecordingBackend.answering(r -> "unused", "5");

        RagResponse r = grounding(backend, true).ground(exchange(QUESTION), ASKED, prompt,
                answer("Bananas are yellow.", FinishReason.STOP), null);

        assertThat(r.grounded()).isFalse();
        assertThat(r.action()).isEqualTo(Action.ROUTE);
        assertThat(r.routeTo()).isNotNull();
        assertThat(r.routeTo().ownerEmail()).isEqualTo("eng-lead@acme.test");
    }

    @Test
    void ground_selfRatingOff_asksNothingAndFlagsNothing() {
        RecordingBackend backend = RecordingBackend.answering(r -> "unused", "95");
        Exchange x = exchange(QUESTION);

        RagResponse r = grounding(backend, false).ground(x, ASKED, prompt, answer(cited(), FinishReason.STOP), null);

        assertThat(backend.requests).isEmpty();
        assertThat(r.flags()).doesNotContain(ResponseFlag.SELF_RATING_UNAVAILABLE);
        assertThat(r.confidence().explanation()).contains("self-rating turned off");
        assertThat(x.timings()).doesNotContainKey("self-rating");
    }

    @Test
    void ground_ratingReplyNotANumber_flagsUnavailableAndSaysWhy() {
        RecordingBackend backend = RecordingBackend.answering(r -> "unused", "I think it is good");

        RagResponse r = grounding(backend, true).ground(exchange(QUESTION), ASKED, prompt,
                answer(cited(), FinishReason.STOP), null);

        assertThat(r.flags()).contains(ResponseFlag.SELF_RATING_UNAVAILABLE);
        assertThat(r.confidence().selfRating()).isNull();
        assertThat(r.confidence().explanation()).contains("not a number from 0 to 100");
    }

    @Test
    void ground_ratingCallFails_flagsUnavailableAndKeepsTheAnswer() {
        RecordingBackend backend = RecordingBackend.scripted(q -> {
            throw new LlmUnavailableException("Ollama went away");
        });

        RagResponse r = grounding(backend, true).ground(exchange(QUESTION), ASKED, prompt,
                answer(cited(), FinishReason.STOP), null);

        assertThat(r.answer()).isEqualTo(cited());
        assertThat(r.flags()).contains(ResponseFlag.SELF_RATING_UNAVAILABLE);
        assertThat(r.confidence().explanation()).contains("the rating call failed: Ollama went away");
    }

    @Test
    void ground_answerStoppedAtTheLimit_isFlaggedCutOff() {
        RecordingBackend backend = RecordingBackend.answering(r -> "unused", "90");

        RagResponse r = grounding(backend, true).ground(exchange(QUESTION), ASKED, prompt,
                answer(cited(), FinishReason.LENGTH), null);

        assertThat(r.flags()).contains(ResponseFlag.ANSWER_CUT_OFF);
    }

    @Test
    void ground_ratingCall_isShortDeterministicAndSizedForThePrompt() {
        RecordingBackend backend = RecordingBackend.answering(r -> "unused", "90");

        grounding(backend, true).ground(exchange(QUESTION), ASKED, prompt, answer(cited(), FinishReason.STOP), null);

        assertThat(backend.requests).singleElement().satisfies(q -> {
            assertThat(q.temperature()).isZero();
            assertThat(q.maxResponseTokens()).isEqualTo(Responder.SELF_RATING_MAX_TOKENS);
            assertThat(q.contextWindow()).isEqualTo(prompt.contextWindow());
        });
    }
}
