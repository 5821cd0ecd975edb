package dev.ragkit.generation;

import java.util.Objects;

/**
 * What the budget needs to know about a model.
 *
 * @param name              the model name
 * @param contextWindow     the context window in tokens, at least 1
 * @param maxResponseTokens the most tokens it should be asked to generate, at least 1
 */
public record ModelInfo(String name, int contextWindow, int maxResponseTokens) {

    /** Validates the arguments. */
    public ModelInfo {
        Objects.requireNonNull(name, "name");
        if (contextWindow < 1 || maxResponseTokens < 1) {
            throw new IllegalArgumentException("contextWindow and maxResponseTokens must be at least 1, got "
                    + contextWindow + " and " + maxResponseTokens);
        }
    }
}
