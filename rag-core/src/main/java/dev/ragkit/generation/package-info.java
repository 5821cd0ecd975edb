/**
 * Talking to language models: the {@link dev.ragkit.generation.LlmBackend} plugin contract with its value types
 * (messages, requests, results, model limits, health) and the extractive fallback backend. The prompt itself is
 * written in {@link dev.ragkit.prompt}.
 */
@NullMarked
package dev.ragkit.generation;

import org.jspecify.annotations.NullMarked;
