/**
 * Token counting ({@link dev.ragkit.budget.TokenCounters}) and the token budget that fits a prompt into a model's
 * context window ({@link dev.ragkit.budget.TokenBudget}).
 */
@NullMarked
package dev.ragkit.budget;

import org.jspecify.annotations.NullMarked;
