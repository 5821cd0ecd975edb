package dev.ragkit.tokens;

import java.util.Objects;

/**
 * A local token counter scaled to one model's real tokenizer. Model servers (Ollama, the OpenAI-compatible ones)
 * have no portable tokenize endpoint, but every chat reply reports how many tokens the prompt took (Ollama's
 * {@code prompt_eval_count}, the OpenAI protocol's {@code usage.prompt_tokens}); {@link #observe} learns the ratio of
 * those counts to the local counter's, and counts are the local count times that ratio plus a safety margin, so
 * budgets converge on what the model really sees (including its chat template's tokens).
 *
 * <p>Before any observation the ratio is 1. Observations are smoothed (each moves the ratio a fifth of the way).
 * Two kinds are ignored:
 * <ul>
 *   <li>ratios below 0.5 or above 2, as implausible;</li>
 *   <li>after the first observation, ratios below 90 % of the current ratio. A server may reuse a cached prompt
 *       prefix and then reports fewer prompt tokens than the prompt holds; learning from such a reply would lower the
 *       ratio, undercount, and let a prompt overrun the model's real context window. So the ratio rises freely but
 *       falls only through observations within 10 % of it, slowly (a fifth of the way each time).</li>
 * </ul>
 * Thread-safe.
 */
public final class CalibratedTokenCounter implements TokenCounter {
    private static final double SMOOTHING = 0.2;
    /** An observed ratio below this fraction of the current one is taken for a partly cached prompt. */
    private static final double LOWEST_DROP = 0.9;

    private final TokenCounter local;
    private final double margin;
    private volatile double ratio = 1.0;
    private volatile int observations;

    /**
     * @param local  the local counter (e.g. {@code TokenCounters.jtokkit()})
     * @param margin the safety margin added on top of the learned ratio, in [0, 1) (e.g. 0.05 for 5 %)
     */
    public CalibratedTokenCounter(TokenCounter local, double margin) {
        this.local = Objects.requireNonNull(local, "local");
        if (!(margin >= 0 && margin < 1)) {
            throw new IllegalArgumentException("margin must be in [0, 1), got " + margin);
        }
        this.margin = margin;
    }

    /**
     * Learns from one call.
     *
     * @param localCount    the local counter's count of the prompt as sent
     * @param reportedCount the server's count of the same prompt
     * @return whether the observation was used (not when implausible or, after the first, below 90 % of the current
     *         ratio)
     */
    public synchronized boolean observe(int localCount, int reportedCount) {
        if (localCount <= 0 || reportedCount <= 0) {
            return false;
        }
        double observed = (double) reportedCount / localCount;
        if (observed < 0.5 || observed > 2.0) {
            return false;
        }
        if (observations > 0 && observed < LOWEST_DROP * ratio) {
            return false; // most likely a reused prompt prefix: the server counted only part of the prompt
        }
        ratio = observations == 0 ? observed : ratio + SMOOTHING * (observed - ratio);
        observations++;
        return true;
    }

    /** @return the learned ratio of the model's counts to the local counter's (1 before any observation) */
    public double ratio() {
        return ratio;
    }

    /** @return how many observations were used */
    public int observations() {
        return observations;
    }

    private double scale() {
        return ratio * (1 + margin);
    }

    /** {@code localCount} local tokens as this model's tokens at {@code scale}: the one formula count and fit share. */
    private static long scaled(long localCount, double scale) {
        return localCount == 0 ? 0 : (long) Math.ceil(localCount * scale);
    }

    @Override
    public int count(String text) {
        return (int) Math.min(Integer.MAX_VALUE, scaled(local.count(text), scale()));
    }

    @Override
    public int fittingPrefix(String text, int maxTokens) {
        if (maxTokens < 0) {
            throw new IllegalArgumentException("maxTokens must not be negative, got " + maxTokens);
        }
        double scale = scale();
        // maxTokens / scale is rounded, and so is count's n * scale: settle on the largest local budget whose
        // scaled count is within maxTokens by count's own formula, so that count(prefix) <= maxTokens holds.
        long budget = (long) Math.floor(maxTokens / scale);
        while (budget > 0 && scaled(budget, scale) > maxTokens) {
            budget--;
        }
        while (scaled(budget + 1, scale) <= maxTokens) {
            budget++;
        }
        return local.fittingPrefix(text, (int) Math.min(Integer.MAX_VALUE, budget));
    }

    @Override
    public String name() {
        return "calibrated:" + local.name();
    }
}
