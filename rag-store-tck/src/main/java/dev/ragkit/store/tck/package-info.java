/**
 * The conformance suite every {@link dev.ragkit.store.DocumentStore} must pass.
 *
 * <p>A store plugin adds {@code dev.ragkit:rag-store-tck} as a test dependency and extends
 * {@link dev.ragkit.store.tck.DocumentStoreContract} in one of its test classes, implementing
 * {@link dev.ragkit.store.tck.DocumentStoreContract#createStore()} to return a fresh, empty store:
 *
 * <pre>{@code
 * final class MyDocumentStoreTest extends DocumentStoreContract {
 *     @TempDir Path dir;
 *
 *     @Override
 *     protected DocumentStore createStore() {
 *         return MyDocumentStore.open(dir.resolve("store"));
 *     }
 * }
 * }</pre>
 *
 * <p>JUnit then runs every contract test (grouped in {@code @Nested} classes: tenant isolation, access tags,
 * filters, metadata filters, upserts, deletes, look-ups, chunks, search hits, ordering, {@code k} bounds, keyword
 * search, bad input, life cycle, persistence) against that store, and closes the store after each test. Each
 * group's cases live in a package-private {@code *Cases} class of their own; the groups share the store factory
 * of the one class the store test extends. A store whose vectors must have
 * a fixed length overrides {@link dev.ragkit.store.tck.DocumentStoreContract#dimension()}; a slow store may
 * lower {@link dev.ragkit.store.tck.DocumentStoreContract#concurrencyIterations()}. Tests of keyword search
 * are skipped (by assumption) unless the store's capabilities declare it, and one test checks the opposite
 * behaviour for stores that do not; the same holds for metadata filters
 * ({@link dev.ragkit.store.StoreCapabilities#metadataFilters()}). A store that keeps data across restarts overrides
 * {@link dev.ragkit.store.tck.DocumentStoreContract#reopenStore} to run the persistence cases (an empty store
 * reopens, data and deletions survive).
 */
@NullMarked
package dev.ragkit.store.tck;

import org.jspecify.annotations.NullMarked;
