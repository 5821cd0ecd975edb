package dev.ragkit.budget;

import dev.ragkit.generation.ChatMessage;
import dev.ragkit.prompt.ContextBlock;
import dev.ragkit.prompt.Prompt;
import dev.ragkit.prompt.PromptBuilder;
import dev.ragkit.tokens.TokenCounter;
import dev.ragkit.tokens.TokenCounters;
import java.util.List;
import java.util.Objects;

/**
 * Fits a prompt into a model's context window, by priority: the system prompt and the question are never cut;
 * then the most recent history (oldest message dropped first; at most {@code min(historyCap, a third of what
 * remains)}); then context blocks — critical first, then higher boosted relevance, then newer date. Blocks that
 * do not fit are dropped lowest first; the first block that does not fit is instead cut at a line boundary when
 * at least {@link BudgetLimits#minTruncatedTokens()} of its text fit.
 *
 * <p>Blocks are priced as formatted by the {@link PromptBuilder}, headers included, and the finished prompt is
 * counted again as sent: its {@link Prompt#totalTokens()} never exceeds {@link BudgetLimits#promptLimit()}.
 * Thread-safe.
 */
public interface TokenBudget {

    /**
     * @param limits     the numbers to fit
     * @param question   the question (never cut)
     * @param history    earlier messages, oldest first; user and assistant messages only
     * @param candidates the context blocks, in any order
     * @return the fitted prompt
     * @throws dev.ragkit.error.TokenBudgetExceededException when the system prompt, or the system prompt and the
     *                                                 question, leave no room for the response reserve
     */
    Prompt fit(BudgetLimits limits, String question, List<ChatMessage> history, List<ContextBlock> candidates);

    /** @return the counter the budget counts with */
    TokenCounter counter();

    /**
     * @param counter counts tokens; wrap it with {@link TokenCounters#cached} so repeated blocks cost a lookup
     * @param builder formats the blocks and the prompt; its rules, intro and headings are counted once, here, so
     *                they must not change afterwards
     * @return the default budget
     */
    static TokenBudget of(TokenCounter counter, PromptBuilder builder) {
        return new PriorityTokenBudget(Objects.requireNonNull(counter, "counter"),
                Objects.requireNonNull(builder, "builder"));
    }
}
