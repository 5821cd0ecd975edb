package dev.ragkit.store;

import java.util.Map;

/**
 * Creates {@link DocumentStore}s of one kind; found by {@link StoreProviders} through
 * {@link java.util.ServiceLoader}. A plugin registers its provider in
 * {@code META-INF/services/dev.ragkit.store.StoreProvider}.
 *
 * <p>Implementations must be thread-safe and have a public no-argument constructor.
 */
public interface StoreProvider {

    /**
     * The provider's id, e.g. {@code in-memory}: lower case letters, digits and dashes, unique among the
     * providers on the class path.
     *
     * @return the id
     */
    String id();

    /**
     * Creates a store.
     *
     * @param config the provider's settings by name; the provider documents which it reads. Unknown names
     *               are rejected so that a typo does not go unnoticed
     * @return a new store, owned by the caller, who closes it
     * @throws IllegalArgumentException when a setting is unknown or has a bad value
     * @throws StoreException           when the store cannot be opened
     */
    DocumentStore create(Map<String, String> config);
}
