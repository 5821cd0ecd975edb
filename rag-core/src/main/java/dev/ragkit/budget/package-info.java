/**
 * The token budget that fits a prompt into a model's context window ({@link dev.ragkit.budget.TokenBudget}).
 * Tokens are counted with {@link dev.ragkit.tokens.TokenCounter}.
 */
@NullMarked
package dev.ragkit.budget;

import org.jspecify.annotations.NullMarked;
