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
 * @param fixed           the response when no model is asked, else {@code null}
 * @param prompt          the fitted prompt when the model is asked, else {@code null}
 * @param chat            the model call when the model is asked, else {@code null}
 * @param withoutContext  whether the prompt carries no documents (empty-context policy)
 * @param droppedByBudget blocks that were found but did not fit the budget at all (reported with the answer)
 */
record Plan(@Nullable RagResponse fixed, @Nullable Prompt prompt, @Nullable ChatRequest chat, boolean withoutContext,
        List<ContextBlock> droppedByBudget) {

    Plan {
        droppedByBudget = List.copyOf(droppedByBudget);
        if ((fixed == null) == (chat == null) || (chat == null) != (prompt == null)) {
            throw new IllegalArgumentException("a plan is either a fixed response or a prompt with its model call");
        }
    }

    static Plan fixed(RagResponse response, List<ContextBlock> droppedByBudget) {
        return new Plan(response, null, null, false, droppedByBudget);
    }

    static Plan grounded(Prompt prompt, ChatRequest chat) {
        return new Plan(null, prompt, chat, false, List.of());
    }

    static Plan withoutContext(Prompt prompt, ChatRequest chat, List<ContextBlock> droppedByBudget) {
        return new Plan(null, prompt, chat, true, droppedByBudget);
    }

    boolean isFixed() {
        return fixed != null;
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
