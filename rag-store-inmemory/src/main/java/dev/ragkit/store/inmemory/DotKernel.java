package dev.ragkit.store.inmemory;

/** Dot product of a query with one row of a contiguous vector array. Implementations are stateless. */
interface DotKernel {

    /**
     * @param query  the query, of length {@code dim}
     * @param data   the contiguous rows
     * @param offset the first float of the row in {@code data}
     * @param dim    the dimension
     * @return the dot product
     */
    float dot(float[] query, float[] data, int offset, int dim);

    /** @return a short name for logs and tests */
    String name();
}
