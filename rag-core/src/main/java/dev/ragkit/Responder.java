package dev.ragkit;

import dev.ragkit.error.RagException;
import dev.ragkit.generation.ChatRequest;
import dev.ragkit.generation.ChatResult;
import dev.ragkit.generation.LlmBackend;
import dev.ragkit.generation.ExtractiveBackend;
import dev.ragkit.generation.ExtractiveFallbackBackend;
import dev.ragkit.grounding.Action;
import dev.ragkit.grounding.Citation;
import dev.ragkit.grounding.CitationExtractor;
import dev.ragkit.grounding.Citations;
import dev.ragkit.grounding.ConfidenceScore;
import dev.ragkit.grounding.ConfidenceScorer;
import dev.ragkit.grounding.Router;
import dev.ragkit.grounding.Routing;
import dev.ragkit.grounding.SelfRating;
import dev.ragkit.prompt.ContextBlock;
import dev.ragkit.prompt.Prompt;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns the model's answer into the response: an answer to a grounded prompt is grounded — citations from its
 * {@code [SourceId: …]} markers (only ids that were in the prompt), the model's own rating of the answer from a
 * second, short call, the hybrid confidence, and the routing decision; an answer without documents goes to the
 * {@link EmptyContextHandler}. Owns the self-rating call. Thread-safe.
 */
final class Responder {
    private static final Logger LOG = LoggerFactory.getLogger(Responder.class);
    static final int SELF_RATING_MAX_TOKENS = 256;

    private final LlmBackend backend;
    private final CitationExtractor citations;
    private final ConfidenceScorer scorer;
    private final boolean selfRating;
    private final Router router;
    private final @Nullable Long seed;
    private final EmptyContextHandler emptyContext;

    Responder(LlmBackend backend, CitationExtractor citations, ConfidenceScorer scorer, boolean selfRating,
            Router router, @Nullable Long seed, EmptyContextHandler emptyContext) {
        this.emptyContext = emptyContext;
        this.backend = backend;
        this.citations = citations;
        this.scorer = scorer;
        this.selfRating = selfRating;
        this.router = router;
        this.seed = seed;
    }

    /**
     * The response to the model's answer to {@code plan}: grounded, or (a prompt without documents) flagged and
     * routed. An answer the extractive backend wrote (chosen, or a fallback for a model server that could not be
     * reached) is reported under its model name, {@value ExtractiveBackend#MODEL}, and flagged
     * {@link ResponseFlag#EXTRACTIVE_ANSWER}.
     */
    RagResponse respond(Exchange x, Plan plan, ChatResult result) {
        boolean extractive = ExtractiveBackend.MODEL.equals(result.model());
        Asked asked = extractive ? plan.asked().answeredBy(ExtractiveBackend.MODEL) : plan.asked();
        x.events.generated(result);
        String belowBar = plan.belowBar();
        RagResponse response = plan.withoutContext() ? emptyContext.answered(x, plan, asked, result)
                : ground(x, asked, plan.requirePrompt(), result, belowBar);
        if (belowBar != null && response.action() != Action.CITE) {
            // a second look that is not confident changes nothing: the question is routed as one without context
            return emptyContext.plan(x, plan.asked(), belowBar, List.of()).requireFixed();
        }
        return extractive ? ResponseBuilder.withFlag(response, ResponseFlag.EXTRACTIVE_ANSWER) : response;
    }

    /**
     * Cite → self-rate → score → route, on the model's whole answer to {@code prompt}; for an answer from a
     * second look, {@code belowBar} says why no passage reached the relevance bar (its confidence's explanation says
     * so).
     */
    RagResponse ground(Exchange x, Asked asked, Prompt prompt, ChatResult result, @Nullable String belowBar) {
        String answer = result.text();
        List<ContextBlock> used = prompt.blocks();
        Citations found = x.time("grounding", () -> citations.extract(answer, used));
        // A quoted answer cannot be rated: no model wrote it, and the extractive backend cannot judge one.
        boolean quoted = ExtractiveBackend.MODEL.equals(result.model());
        Rating rating = selfRating && !quoted ? x.time("self-rating", () -> rate(x, asked, prompt, answer))
                : Rating.OFF;
        return x.time("grounding", () -> {
            String question = asked.query(x.request);
            ConfidenceScore confidence = scorer.score(new ConfidenceScorer.Evidence(question, answer, used,
                    found.citations().stream().map(Citation::sourceId).toList(), rating.value, quoted,
                    quoted ? quoteSimilarity(question, answer) : List.of()));
            ResponseBuilder r = ResponseBuilder.of(x, asked).answered(prompt, result);
            if (rating.problem != null) {
                r.flag(ResponseFlag.SELF_RATING_UNAVAILABLE);
                confidence = new ConfidenceScore(confidence.overall(), confidence.retrieval(), confidence.coverage(),
                        null, confidence.explanation() + " (" + rating.problem + ")");
            } else if (!selfRating) {
                confidence = new ConfidenceScore(confidence.overall(), confidence.retrieval(), confidence.coverage(),
                        null, confidence.explanation() + " (self-rating turned off)");
            } else if (quoted) {
                confidence = new ConfidenceScore(confidence.overall(), confidence.retrieval(), confidence.coverage(),
                        null, confidence.explanation() + " (no self-rating: the answer is quoted)");
            }
            if (belowBar != null) {
                confidence = new ConfidenceScore(confidence.overall(), confidence.retrieval(), confidence.coverage(),
                        confidence.selfRating(), confidence.explanation() + "; a second look: " + belowBar);
            }
            Routing routing = router.route(x.request.scope().tenant(), confidence.overall(), used);
            return r.citations(found.citations()).unknownSourceIds(found.unknownSourceIds()).confidence(confidence)
                    .routing(routing).build();
        });
    }

    /** How similar the quoted sentences are to the question, when the backend that quoted them can say. */
    private List<Double> quoteSimilarity(String question, String answer) {
        if (backend instanceof ExtractiveBackend e) {
            return e.quoteSimilarity(question, answer);
        }
        if (backend instanceof ExtractiveFallbackBackend f) {
            return f.quoteSimilarity(question, answer);
        }
        return List.of();
    }

    /** The model's rating of its answer; a failed or unusable reply is a problem to report, not an error. */
    private Rating rate(Exchange x, Asked asked, Prompt prompt, String answer) {
        try {
            ChatRequest ask = new ChatRequest(asked.model(), SelfRating.prompt(x.request.query(), answer,
                    prompt.blocks()), 0.0, Math.min(SELF_RATING_MAX_TOKENS, prompt.responseReserve()),
                    prompt.contextWindow(), seed);
            Integer value = SelfRating.parse(backend.chat(ask).text());
            return value != null ? new Rating(value, null)
                    : new Rating(null, "the model's rating reply was not a number from 0 to 100");
        } catch (RagException e) {
            LOG.warn("request {}: self-rating unavailable: {}", x.request.requestId(), e.getMessage());
            return new Rating(null, "the rating call failed: " + e.getMessage());
        }
    }

    /** A self-rating: a value, or why there is none ({@link #OFF}: not asked, no problem). */
    private static final class Rating {
        static final Rating OFF = new Rating(null, null);
        final @Nullable Integer value;
        final @Nullable String problem;

        Rating(@Nullable Integer value, @Nullable String problem) {
            this.value = value;
            this.problem = problem;
        }
    }
}
