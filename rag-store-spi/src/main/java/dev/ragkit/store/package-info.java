/**
 * The store plugin contract of RagKit.
 *
 * <p>A {@link dev.ragkit.store.DocumentStore} keeps documents and their embedded chunks, and answers
 * vector (and, where declared, keyword) searches inside a mandatory {@link dev.ragkit.store.Scope}.
 * Stores are found at run time through {@link dev.ragkit.store.StoreProviders}, which loads
 * {@link dev.ragkit.store.StoreProvider}s with {@link java.util.ServiceLoader}.
 *
 * <p>Every value type here is an immutable record that validates its arguments on construction:
 * {@code null} where it is not allowed throws {@link java.lang.NullPointerException} naming the
 * argument, any other bad value throws {@link java.lang.IllegalArgumentException} saying how to fix it.
 * Nothing in this package is {@code null} unless it is annotated {@code @Nullable}.
 *
 * <p>This module depends on the JDK and jspecify only. Its conformance suite is
 * {@code dev.ragkit.store.tck.DocumentStoreContract} in the {@code rag-store-tck} artifact.
 */
@NullMarked
package dev.ragkit.store;

import org.jspecify.annotations.NullMarked;
