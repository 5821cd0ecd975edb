/**
 * RagKit on any server that speaks the OpenAI chat completions protocol — OpenAI itself, vLLM, llama.cpp's server,
 * LM Studio, LocalAI, Ollama's {@code /v1}: {@link dev.ragkit.openai.OpenAiBackend} (chat, streaming over
 * server-sent events, model list, health, token counting). The provider id is {@code openai}.
 */
@NullMarked
package dev.ragkit.openai;

import org.jspecify.annotations.NullMarked;
