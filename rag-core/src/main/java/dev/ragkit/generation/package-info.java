/**
 * Talking to language models: the {@link dev.ragkit.generation.LlmBackend} plugin contract with its value types,
 * and turning retrieved context into a prompt ({@link dev.ragkit.generation.PromptBuilder},
 * {@link dev.ragkit.generation.ContextBlock}).
 */
@NullMarked
package dev.ragkit.generation;

import org.jspecify.annotations.NullMarked;
