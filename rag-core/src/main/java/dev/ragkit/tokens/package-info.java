/**
 * Counting tokens: the {@link dev.ragkit.tokens.TokenCounter} interface and its implementations
 * ({@link dev.ragkit.tokens.TokenCounters}: exact jtokkit encodings, a four-characters estimate, a cache). Used by
 * the chunker, the token budget and the LLM backends.
 */
@NullMarked
package dev.ragkit.tokens;

import org.jspecify.annotations.NullMarked;
