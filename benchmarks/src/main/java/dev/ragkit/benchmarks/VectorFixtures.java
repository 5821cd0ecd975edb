package dev.ragkit.benchmarks;

import java.util.SplittableRandom;

/**
 * Seeded random unit vectors, shared by every implementation in a vector benchmark so that all of them
 * search exactly the same data with exactly the same queries.
 *
 * <p>Components are drawn from a standard normal distribution and each vector is scaled to length 1, which
 * gives directions uniformly spread over the sphere (so cosine similarity equals the dot product).
 */
final class VectorFixtures {

    /** The seed of the corpus; queries use a different stream derived from it. */
    static final long SEED = 0x5EED_2024_0384L;

    private VectorFixtures() {
    }

    /**
     * {@code count} unit vectors of {@code dimension} floats, row after row in one contiguous array.
     *
     * @param count     how many vectors
     * @param dimension floats per vector
     * @param seed      the random seed; the same seed gives the same vectors
     * @return an array of {@code count * dimension} floats; row {@code i} starts at {@code i * dimension}
     */
    static float[] unitVectors(int count, int dimension, long seed) {
        if (count < 1 || dimension < 1) {
            throw new IllegalArgumentException("count and dimension must be positive, got " + count + " and "
                    + dimension);
        }
        long floats = (long) count * dimension;
        if (floats > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException(count + " x " + dimension + " floats do not fit one array");
        }
        SplittableRandom random = new SplittableRandom(seed);
        float[] data = new float[(int) floats];
        for (int row = 0; row < count; row++) {
            int offset = row * dimension;
            double squares = 0;
            for (int i = 0; i < dimension; i++) {
                double value = random.nextGaussian();
                data[offset + i] = (float) value;
                squares += value * value;
            }
            // A zero vector has probability 0 with Gaussian components; guard anyway so the data stays usable.
            if (squares == 0) {
                data[offset] = 1f;
                squares = 1;
            }
            double scale = 1 / Math.sqrt(squares);
            for (int i = 0; i < dimension; i++) {
                data[offset + i] = (float) (data[offset + i] * scale);
            }
        }
        return data;
    }

    /**
     * The corpus of a benchmark: {@code count} unit vectors from {@link #SEED}.
     *
     * @param count     how many vectors
     * @param dimension floats per vector
     * @return the vectors, row after row
     */
    static float[] corpus(int count, int dimension) {
        return unitVectors(count, dimension, SEED);
    }

    /**
     * The query pool of a benchmark: {@code count} unit vectors drawn independently of the corpus.
     *
     * @param count     how many queries
     * @param dimension floats per query
     * @return one array per query
     */
    static float[][] queries(int count, int dimension) {
        float[] flat = unitVectors(count, dimension, ~SEED);
        float[][] queries = new float[count][];
        for (int q = 0; q < count; q++) {
            queries[q] = row(flat, dimension, q);
        }
        return queries;
    }

    /**
     * A copy of one row of a contiguous array of vectors.
     *
     * @param data      the vectors, row after row
     * @param dimension floats per vector
     * @param row       the row index
     * @return a fresh array of {@code dimension} floats
     */
    static float[] row(float[] data, int dimension, int row) {
        float[] copy = new float[dimension];
        System.arraycopy(data, row * dimension, copy, 0, dimension);
        return copy;
    }
}
