/**
 * An embedded, on-disk {@link dev.ragkit.store.DocumentStore} on Apache Lucene:
 * {@link dev.ragkit.store.lucene.LuceneDocumentStore} (HNSW vectors, BM25 with a real analyzer, metadata filters
 * inside the search, atomic per-document writes with commits, a write lock that another process is told about)
 * and its {@link dev.ragkit.store.lucene.LuceneStoreProvider} (provider id {@code lucene}).
 */
@NullMarked
package dev.ragkit.store.lucene;

import org.jspecify.annotations.NullMarked;
