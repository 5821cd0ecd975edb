/**
 * Retrieval: finding the context for a question inside the caller's scope — search, relevance threshold,
 * promotion boosts ({@link dev.ragkit.retrieval.Booster}), near-duplicate removal
 * ({@link dev.ragkit.retrieval.Deduplicator}) and link following ({@link dev.ragkit.retrieval.LinkResolver}).
 */
@NullMarked
package dev.ragkit.retrieval;

import org.jspecify.annotations.NullMarked;
