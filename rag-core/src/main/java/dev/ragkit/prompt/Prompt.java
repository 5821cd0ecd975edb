package dev.ragkit.prompt;

import dev.ragkit.generation.ChatMessage;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A prompt fitted to a token budget, and what the budget did.
 *
 * @param messages       the messages to send: system (rules and context), kept history, question
 * @param blocks         the context blocks in the prompt, in priority order; a cut block has
 *                       {@link ContextBlock#truncated()} set
 * @param dropped        the candidate blocks left out, in priority order
 * @param history        the kept history messages, oldest first
 * @param droppedHistory how many of the oldest history messages were left out
 * @param systemTokens   tokens of the system prompt (rules), as counted
 * @param historyTokens  tokens of the kept history, message overhead included
 * @param contextTokens  tokens of the context (blocks, headings), as priced piece by piece
 * @param questionTokens tokens of the question, message overhead included
 * @param totalTokens    tokens of the whole prompt as sent, counted on the final messages, message overhead
 *                       included; never more than {@code contextWindow - responseReserve}
 * @param contextWindow  the window the prompt was fitted to
 * @param responseReserve the tokens left for the answer
 */
public record Prompt(List<ChatMessage> messages, List<ContextBlock> blocks, List<ContextBlock> dropped,
        List<ChatMessage> history, int droppedHistory, int systemTokens, int historyTokens, int contextTokens,
        int questionTokens, int totalTokens, int contextWindow, int responseReserve) {

    /** Copies the arguments. */
    public Prompt {
        messages = List.copyOf(Objects.requireNonNull(messages, "messages"));
        blocks = List.copyOf(Objects.requireNonNull(blocks, "blocks"));
        dropped = List.copyOf(Objects.requireNonNull(dropped, "dropped"));
        history = List.copyOf(Objects.requireNonNull(history, "history"));
    }

    /** @return the blocks the budget cut short */
    public List<ContextBlock> truncated() {
        List<ContextBlock> cut = new ArrayList<>();
        for (ContextBlock b : blocks) {
            if (b.truncated()) {
                cut.add(b);
            }
        }
        return cut;
    }

    /** @return the SourceIds in the prompt, in prompt order */
    public List<String> sourceIds() {
        List<String> ids = new ArrayList<>(blocks.size());
        blocks.forEach(b -> ids.add(b.sourceId()));
        return ids;
    }
}
