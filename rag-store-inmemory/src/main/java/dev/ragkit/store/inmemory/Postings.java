package dev.ragkit.store.inmemory;

/**
 * The rows containing one term, with the term's frequency in each row, in increasing row order.
 *
 * <p>Single writer (the tenant's write lock), many lock-free readers. The writer fills an entry before
 * publishing the new size through a volatile write, and publishes grown arrays before the size that covers
 * them, so a reader that first reads {@link #size()} and then the arrays sees every entry below that size.
 */
final class Postings {
    private volatile int[] rows = new int[4];
    private volatile float[] frequencies = new float[4];
    private volatile int size;

    /** Appends an entry; {@code row} must exceed every row already added. Writer only. */
    void add(int row, float frequency) {
        int n = size;
        if (n == rows.length) {
            int capacity = n + (n >> 1) + 4;
            float[] grownFrequencies = java.util.Arrays.copyOf(frequencies, capacity);
            int[] grownRows = java.util.Arrays.copyOf(rows, capacity);
            frequencies = grownFrequencies;
            rows = grownRows;
        }
        rows[n] = row;
        frequencies[n] = frequency;
        size = n + 1;
    }

    /** Read first, then {@link #rows()} and {@link #frequencies()}. */
    int size() {
        return size;
    }

    int[] rows() {
        return rows;
    }

    float[] frequencies() {
        return frequencies;
    }
}
