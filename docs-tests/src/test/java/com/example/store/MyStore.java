package com.example.store;

import dev.ragkit.store.DocumentStore;

/**
 * The example plugin's store that docs/store-plugins.md (and the README) write a provider and a contract test for:
 * here only its shape, so that those pages' snippets compile. Not a store.
 */
public abstract class MyStore implements DocumentStore {

    /**
     * Opens the example store.
     *
     * @param url       where its data lives
     * @param dimension the vector length
     * @return never; this is a documentation stand-in
     */
    public static MyStore open(String url, int dimension) {
        throw new UnsupportedOperationException("a stand-in for docs/store-plugins.md, not a store: " + url
                + ", " + dimension);
    }
}
