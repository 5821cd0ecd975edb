package dev.ragkit;

import dev.ragkit.generation.ChatResult;
import dev.ragkit.generation.FinishReason;
import dev.ragkit.grounding.Action;
import dev.ragkit.grounding.Citation;
import dev.ragkit.grounding.ConfidenceScore;
import dev.ragkit.grounding.RouteTarget;
import dev.ragkit.grounding.Routing;
import dev.ragkit.prompt.ContextBlock;
import dev.ragkit.prompt.Prompt;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Assembles a {@link RagResponse} from a request's state: its id, timings and elapsed time, and the model and
 * retrieval question it was {@link Asked} with; everything else defaults to "nothing" (no citations, no sources,
 * zero tokens).
 */
final class ResponseBuilder {
    private final Exchange exchange;
    private final Asked asked;
    private String answer = "";
    private ConfidenceScore confidence = ConfidenceScore.zero("not scored");
    private List<Citation> citations = List.of();
    private Action action = Action.ROUTE;
    private @Nullable RouteTarget routeTo;
    private int contextChunks;
    private int contextTokens;
    private int promptTokens;
    private List<ContextBlock> used = List.of();
    private List<String> dropped = List.of();
    private List<String> truncated = List.of();
    private List<String> unknownSourceIds = List.of();
    private final Set<ResponseFlag> flags = EnumSet.noneOf(ResponseFlag.class);

    private ResponseBuilder(Exchange exchange, Asked asked) {
        this.exchange = exchange;
        this.asked = asked;
    }

    /** A response to the request of {@code exchange}, as {@code asked} (its model and retrieval question). */
    static ResponseBuilder of(Exchange exchange, Asked asked) {
        return new ResponseBuilder(exchange, asked);
    }

    ResponseBuilder answer(String text) {
        this.answer = text;
        return this;
    }

    ResponseBuilder confidence(ConfidenceScore score) {
        this.confidence = score;
        return this;
    }

    ResponseBuilder citations(List<Citation> found) {
        this.citations = found;
        return this;
    }

    ResponseBuilder routing(Routing routing) {
        this.action = routing.action();
        this.routeTo = routing.target();
        return this;
    }

    /** The prompt that was sent: its blocks become the sources, its counts the token figures. */
    ResponseBuilder prompt(Prompt prompt) {
        this.used = prompt.blocks();
        this.contextChunks = prompt.blocks().size();
        this.contextTokens = prompt.contextTokens();
        this.promptTokens = prompt.totalTokens();
        this.dropped = sourceIds(prompt.dropped());
        this.truncated = sourceIds(prompt.truncated());
        if (!prompt.dropped().isEmpty() || !prompt.truncated().isEmpty()) {
            flags.add(ResponseFlag.CONTEXT_REDUCED);
        }
        if (prompt.droppedHistory() > 0) {
            flags.add(ResponseFlag.HISTORY_REDUCED);
        }
        return this;
    }

    /** Blocks that were found but did not fit at all (the empty-context answers report them). */
    ResponseBuilder droppedByBudget(List<ContextBlock> blocks) {
        if (!blocks.isEmpty()) {
            this.dropped = sourceIds(blocks);
            flags.add(ResponseFlag.CONTEXT_REDUCED);
        }
        return this;
    }

    /** The model's answer to {@code prompt}: its text, the prompt's figures, and a flag when it was cut off. */
    ResponseBuilder answered(Prompt prompt, ChatResult result) {
        this.answer = result.text();
        if (result.finishReason() == FinishReason.LENGTH) {
            flags.add(ResponseFlag.ANSWER_CUT_OFF);
        }
        return prompt(prompt);
    }

    ResponseBuilder unknownSourceIds(List<String> ids) {
        this.unknownSourceIds = ids;
        if (!ids.isEmpty()) {
            flags.add(ResponseFlag.UNKNOWN_SOURCE_IDS);
        }
        return this;
    }

    ResponseBuilder flag(ResponseFlag flag) {
        flags.add(flag);
        return this;
    }

    ResponseBuilder flags(Set<ResponseFlag> more) {
        flags.addAll(more);
        return this;
    }

    RagResponse build() {
        return RagResponse.builder().requestId(exchange.request.requestId()).answer(answer).confidence(confidence)
                .citations(citations).action(action, routeTo).modelUsed(asked.model())
                .tokens(contextChunks, contextTokens, promptTokens)
                .times(exchange.timings().getOrDefault("generate", Duration.ZERO), exchange.elapsed())
                .sources(Sources.of(used), Sources.linked(used)).budgeted(dropped, truncated)
                .unknownSourceIds(unknownSourceIds).flags(flags).timings(exchange.timings())
                .retrievalQuery(asked.retrievalQuery()).build();
    }

    /** @return {@code response} with one more flag */
    static RagResponse withFlag(RagResponse r, ResponseFlag flag) {
        return r.toBuilder().flag(flag).build();
    }

    private static List<String> sourceIds(List<ContextBlock> blocks) {
        List<String> ids = new ArrayList<>(blocks.size());
        blocks.forEach(b -> ids.add(b.sourceId()));
        return ids;
    }
}
