package dev.ragkit.tokens;

/**
 * Counts the tokens of a text the way a model's tokenizer would. Implementations are thread-safe and
 * deterministic: the same text always gives the same count.
 *
 * <p>Get one from {@link TokenCounters}: an exact tokenizer ({@code cl100k_base} by default), the
 * four-characters-per-token estimate, or a cache around either.
 */
public interface TokenCounter {

    /**
     * The number of tokens in {@code text}.
     *
     * @param text any text; the empty text has 0 tokens
     * @return the count, never negative
     */
    int count(String text);

    /**
     * The length, in {@code char}s, of the longest prefix of {@code text} that has at most {@code maxTokens}
     * tokens and ends on a token boundary (never inside a surrogate pair). Used to split text that is too long
     * for one chunk.
     *
     * @param text      the text
     * @param maxTokens the budget, at least 0
     * @return a length from 0 to {@code text.length()}; {@code text.length()} when the whole text fits
     */
    int fittingPrefix(String text, int maxTokens);

    /**
     * A short description, e.g. {@code jtokkit:cl100k_base} or {@code estimate:4-chars}.
     *
     * @return the counter's name
     */
    String name();
}
