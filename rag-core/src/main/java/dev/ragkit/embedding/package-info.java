/**
 * Embedding: the {@link dev.ragkit.embedding.Embedder} SPI, embedders found by name ({@link dev.ragkit.embedding.Embedders}), the query cache and the similarity scale each embedder states.
 */
@NullMarked
package dev.ragkit.embedding;

import org.jspecify.annotations.NullMarked;
