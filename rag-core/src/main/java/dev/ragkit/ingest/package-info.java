/**
 * Ingestion: markdown parsing ({@link dev.ragkit.parse.MarkdownDocumentParser}), chunking
 * ({@link dev.ragkit.chunk.Chunker}), embedding ({@link dev.ragkit.embedding.Embedder}) and indexing a folder
 * into a {@link dev.ragkit.store.DocumentStore} ({@link dev.ragkit.ingest.Indexer}).
 */
@NullMarked
package dev.ragkit.ingest;

import org.jspecify.annotations.NullMarked;
