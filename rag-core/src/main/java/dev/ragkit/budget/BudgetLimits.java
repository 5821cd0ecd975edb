package dev.ragkit.budget;

/**
 * The numbers a prompt is fitted to. Defaults (DESIGN.md §4, from the product specification): context 3,000,
 * history 1,000, response 1,024 and system prompt 500 tokens; a cut block keeps at least 50 tokens; 4 tokens per
 * message for the chat template.
 *
 * @param contextWindow         the model's context window in tokens
 * @param responseReserve       tokens kept free for the answer (also sent as the response limit)
 * @param systemReserve         tokens set aside for the system prompt: it is charged at least this much, which
 *                              leaves slack for the model's own tokenizer counting differently from ours
 * @param historyCap            the most tokens of chat history; history also never takes more than a third of
 *                              what remains after the system prompt, question and response
 * @param contextCap            the most tokens of context blocks
 * @param minTruncatedTokens    the least text a cut block keeps; a block that cannot keep this much is dropped
 * @param messageOverheadTokens tokens charged per message for the chat template's role markers
 */
public record BudgetLimits(int contextWindow, int responseReserve, int systemReserve, int historyCap, int contextCap,
        int minTruncatedTokens, int messageOverheadTokens) {

    /** Default context cap. */
    public static final int DEFAULT_CONTEXT_CAP = 3000;
    /** Default history cap. */
    public static final int DEFAULT_HISTORY_CAP = 1000;
    /** Default response reserve. */
    public static final int DEFAULT_RESPONSE_RESERVE = 1024;
    /** Default system-prompt reserve. */
    public static final int DEFAULT_SYSTEM_RESERVE = 500;
    /** Default least text of a cut block. */
    public static final int DEFAULT_MIN_TRUNCATED_TOKENS = 50;
    /** Default per-message overhead. */
    public static final int DEFAULT_MESSAGE_OVERHEAD = 4;

    /**
     * Validates the arguments.
     *
     * @throws IllegalArgumentException when the window or response reserve is below 1, the minimum cut is below 1,
     *                                  or another value is negative
     */
    public BudgetLimits {
        if (contextWindow < 1) {
            throw new IllegalArgumentException("contextWindow must be at least 1, got " + contextWindow);
        }
        if (responseReserve < 1) {
            throw new IllegalArgumentException("responseReserve must be at least 1, got " + responseReserve);
        }
        if (systemReserve < 0 || historyCap < 0 || contextCap < 0 || messageOverheadTokens < 0) {
            throw new IllegalArgumentException("systemReserve, historyCap, contextCap and messageOverheadTokens must "
                    + "not be negative, got " + systemReserve + ", " + historyCap + ", " + contextCap + ", "
                    + messageOverheadTokens);
        }
        if (minTruncatedTokens < 1) {
            throw new IllegalArgumentException("minTruncatedTokens must be at least 1, got " + minTruncatedTokens);
        }
    }

    /**
     * @param contextWindow the model's context window
     * @return the default limits for this window
     */
    public static BudgetLimits defaults(int contextWindow) {
        return new BudgetLimits(contextWindow, DEFAULT_RESPONSE_RESERVE, DEFAULT_SYSTEM_RESERVE, DEFAULT_HISTORY_CAP,
                DEFAULT_CONTEXT_CAP, DEFAULT_MIN_TRUNCATED_TOKENS, DEFAULT_MESSAGE_OVERHEAD);
    }

    /** @param window the window @return a copy with this context window */
    public BudgetLimits withContextWindow(int window) {
        return new BudgetLimits(window, responseReserve, systemReserve, historyCap, contextCap, minTruncatedTokens,
                messageOverheadTokens);
    }

    /** @param reserve the reserve @return a copy with this response reserve */
    public BudgetLimits withResponseReserve(int reserve) {
        return new BudgetLimits(contextWindow, reserve, systemReserve, historyCap, contextCap, minTruncatedTokens,
                messageOverheadTokens);
    }

    /** @return the most tokens the prompt may take: the window less the response reserve */
    public int promptLimit() {
        return contextWindow - responseReserve;
    }
}
