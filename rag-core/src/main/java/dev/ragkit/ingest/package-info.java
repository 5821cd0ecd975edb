/**
 * Ingestion: markdown parsing ({@link dev.ragkit.ingest.MarkdownDocumentParser}), chunking
 * ({@link dev.ragkit.ingest.Chunker}), embedding ({@link dev.ragkit.ingest.Embedder}) and indexing a folder
 * into a {@link dev.ragkit.store.DocumentStore} ({@link dev.ragkit.ingest.Indexer}).
 */
@NullMarked
package dev.ragkit.ingest;

import org.jspecify.annotations.NullMarked;
