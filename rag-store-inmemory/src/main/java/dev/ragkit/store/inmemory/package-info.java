/**
 * An in-process {@link dev.ragkit.store.DocumentStore}: exact vector search, BM25 keyword search and
 * snapshots on disk. Start with {@link dev.ragkit.store.inmemory.InMemoryDocumentStore#builder()}, or load it
 * by provider id {@code in-memory} through {@link dev.ragkit.store.StoreProviders}.
 */
@NullMarked
package dev.ragkit.store.inmemory;

import org.jspecify.annotations.NullMarked;
