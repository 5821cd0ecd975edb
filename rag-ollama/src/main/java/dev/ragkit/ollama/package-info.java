/**
 * RagKit on a local <a href="https://ollama.com">Ollama</a> server: {@link dev.ragkit.ollama.OllamaBackend} (chat,
 * streaming, model catalogue, health, pulling models, per-model token calibration) and
 * {@link dev.ragkit.ollama.OllamaEmbedder} (batched embeddings). The provider id is {@code ollama}.
 */
@NullMarked
package dev.ragkit.ollama;

import org.jspecify.annotations.NullMarked;
