package dev.ragkit;

import dev.ragkit.generation.ChatRequest;
import dev.ragkit.prompt.ContextBlock;
import dev.ragkit.prompt.Prompt;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What a request will do after retrieval and budgeting: answer with a fixed response (no model call), or send a
 * prompt — with context, or (policy {@code ANSWER_WITHOUT_CONTEXT}) without.
 *
 * @param asked              the question as it will be answered
 * @param fixed              the response when no model is asked, else {@code null}
 * @param prompt             the fitted prompt when the model is asked, else {@code null}
 * @param chat               the model call when the model is asked, else {@code null}
 * @param emptyContextReason why there is no context (a fixed answer, or a prompt without documents), else
 *                           {@code null}
 * @param droppedByBudget    blocks that were found but did not fit the budget at all (reported with the answer)
 * @param belowBar           for a second look (passages under the relevance bar, for an answer that checks its own
 *                           quotes), why the first retrieval did not support the question, else {@code null}
 */
record Plan(Asked asked, @Nullable RagResponse fixed, @Nullable Prompt prompt, @Nullable ChatRequest chat,
        @Nullable String emptyContextReason, List<ContextBlock> droppedByBudget, @Nullable String belowBar) {

    Plan {
        Objects.requireNonNull(asked, "asked");
        droppedByBudget = List.copyOf(droppedByBudget);
        if ((fixed == null) == (chat == null) || (chat == null) != (prompt == null)) {
            throw new IllegalArgumentException("a plan is either a fixed response or a prompt with its model call");
        }
        if (fixed != null && emptyContextReason == null) {
            throw new IllegalArgumentException("a fixed answer says why there is no context");
        }
    }

    static Plan fixed(Asked asked, RagResponse response, String reason, List<ContextBlock> droppedByBudget) {
        return new Plan(asked, response, null, null, reason, droppedByBudget, null);
    }

    static Plan grounded(Asked asked, Prompt prompt, ChatRequest chat) {
        return new Plan(asked, null, prompt, chat, null, List.of(), null);
    }

    /** A second look: passages under the relevance bar, {@code belowBar} saying why none reached it. */
    static Plan secondLook(Asked asked, Prompt prompt, ChatRequest chat, String belowBar) {
        return new Plan(asked, null, prompt, chat, null, List.of(), Objects.requireNonNull(belowBar, "belowBar"));
    }

    static Plan withoutContext(Asked asked, Prompt prompt, ChatRequest chat, String reason,
            List<ContextBlock> droppedByBudget) {
        return new Plan(asked, null, prompt, chat, reason, droppedByBudget, null);
    }

    boolean isFixed() {
        return fixed != null;
    }

    /** @return whether the model is asked without documents (empty-context policy) */
    boolean withoutContext() {
        return chat != null && emptyContextReason != null;
    }

    Prompt requirePrompt() {
        return Objects.requireNonNull(prompt, "prompt");
    }

    ChatRequest requireChat() {
        return Objects.requireNonNull(chat, "chat");
    }

    RagResponse requireFixed() {
        return Objects.requireNonNull(fixed, "fixed");
    }
}
