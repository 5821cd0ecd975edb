package dev.ragkit.embedding;

import dev.ragkit.tokens.TokenCounter;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Counts tokens as an embedding model reads them ({@link Embedder#inputTokens}), without the special tokens the model
 * adds to every text, so that a chunk of at most {@code maxInputTokens − specialTokens} of them is read whole.
 * Thread-safe when the embedder is.
 */
public final class EmbedderTokenCounter implements TokenCounter {
    private final Embedder embedder;
    private final int specialTokens;

    /**
     * @param embedder an embedder that counts ({@code inputTokens} not -1)
     */
    public EmbedderTokenCounter(Embedder embedder) {
        this.embedder = Objects.requireNonNull(embedder, "embedder");
        int empty = embedder.inputTokens("");
        if (empty < 0) {
            throw new IllegalArgumentException("the embedder " + embedder.name() + " cannot count its tokens");
        }
        this.specialTokens = empty;
    }

    /** @return the tokens the model adds to every text (e.g. 2 for BERT's [CLS] and [SEP]) */
    public int specialTokens() {
        return specialTokens;
    }

    @Override
    public int count(String text) {
        return text.isEmpty() ? 0 : Math.max(0, embedder.inputTokens(text) - specialTokens);
    }

    /**
     * The longest prefix within the budget that ends before a word (binary search over word starts); when not even the
     * first word fits, the longest prefix of characters that does (never inside a surrogate pair).
     */
    @Override
    public int fittingPrefix(String text, int maxTokens) {
        if (count(text) <= maxTokens) {
            return text.length();
        }
        List<Integer> cuts = new ArrayList<>();
        for (int i = 1; i < text.length(); i++) {
            if (Character.isWhitespace(text.charAt(i - 1)) && !Character.isWhitespace(text.charAt(i))) {
                cuts.add(i);
            }
        }
        int lo = -1;
        int hi = cuts.size() - 1;
        while (lo < hi) {
            int mid = (lo + hi + 1) >>> 1;
            if (count(text.substring(0, cuts.get(mid))) <= maxTokens) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        if (lo >= 0) {
            return cuts.get(lo);
        }
        int from = 0;
        int to = cuts.isEmpty() ? text.length() : cuts.get(0);
        while (from < to) {
            int mid = (from + to + 1) >>> 1;
            int cut = mid < text.length() && Character.isLowSurrogate(text.charAt(mid)) ? mid - 1 : mid;
            if (cut > from && count(text.substring(0, cut)) <= maxTokens) {
                from = cut;
            } else {
                to = mid - 1;
            }
        }
        return from;
    }

    @Override
    public String name() {
        return "embedder:" + embedder.name();
    }
}
