/**
 * Chunking: the {@link dev.ragkit.chunk.Chunker} stage and its default, {@link dev.ragkit.chunk.TokenWindowChunker}, windows of whole lines within the embedder's reach that never span a page or a section.
 */
@NullMarked
package dev.ragkit.chunk;

import org.jspecify.annotations.NullMarked;
