/**
 * Token counting and, later, the token budget of a request. Start with
 * {@link dev.ragkit.budget.TokenCounters}.
 */
@NullMarked
package dev.ragkit.budget;

import org.jspecify.annotations.NullMarked;
