package dev.ragkit.error;

/**
 * The parts of a prompt that are never cut (the system prompt, and the question) leave no room for the
 * response reserve in the model's context window. Not retriable as is: shorten the system prompt or the
 * question, lower the response reserve, or use a model with a larger window.
 */
public class TokenBudgetExceededException extends RagException {
    private static final long serialVersionUID = 1L;

    private final int fixedTokens;
    private final int responseReserve;
    private final int contextWindow;

    /**
     * @param what            what the fixed part is, e.g. {@code "system prompt"}
     * @param fixedTokens     its token count
     * @param responseReserve tokens reserved for the response
     * @param contextWindow   the model's context window
     */
    public TokenBudgetExceededException(String what, int fixedTokens, int responseReserve, int contextWindow) {
        super(what + " (" + fixedTokens + " tokens) + response reserve (" + responseReserve
                + " tokens) exceeds the context window (" + contextWindow + " tokens); shorten the " + what
                + ", lower the response reserve, or use a model with a larger context window");
        this.fixedTokens = fixedTokens;
        this.responseReserve = responseReserve;
        this.contextWindow = contextWindow;
    }

    /** @return the token count of the part that is never cut */
    public int fixedTokens() {
        return fixedTokens;
    }

    /** @return the tokens reserved for the response */
    public int responseReserve() {
        return responseReserve;
    }

    /** @return the model's context window */
    public int contextWindow() {
        return contextWindow;
    }
}
