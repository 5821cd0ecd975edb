package dev.ragkit.benchmarks;

import java.util.Random;

/**
 * Seeded random vectors that cluster like real embeddings: {@code clusters} random unit centroids, each vector a
 * centroid plus Gaussian noise, normalised. Uniform random vectors in 384 dimensions are all nearly orthogonal,
 * which no embedding model produces and which makes graph search look worse than it is; clustered ones have near
 * neighbours, as text embeddings do.
 */
final class ClusteredVectors {
    static final long SEED = 0xC1A5_7E12_0384L;
    /** The clusters of {@link #standard}. */
    static final int STANDARD_CLUSTERS = 500;
    /** The per-component noise of {@link #standard}. */
    static final double STANDARD_NOISE = 0.06;

    private final float[][] centroids;
    private final int dimension;
    private final double noise;

    ClusteredVectors(int clusters, int dimension, double noise, long seed) {
        this.dimension = dimension;
        this.noise = noise;
        Random random = new Random(seed);
        centroids = new float[clusters][];
        for (int c = 0; c < clusters; c++) {
            float[] v = new float[dimension];
            for (int i = 0; i < dimension; i++) {
                v[i] = (float) random.nextGaussian();
            }
            centroids[c] = normalise(v);
        }
    }

    /** The default shape: 500 clusters, noise 0.06 per component (a typical neighbour cosine of about 0.5). */
    static ClusteredVectors standard(int dimension) {
        return new ClusteredVectors(STANDARD_CLUSTERS, dimension, STANDARD_NOISE, SEED);
    }

    /** {@code count} vectors from the stream seeded with {@code seed}. */
    float[][] vectors(int count, long seed) {
        Random random = new Random(seed);
        float[][] out = new float[count][];
        for (int n = 0; n < count; n++) {
            float[] c = centroids[random.nextInt(centroids.length)];
            float[] v = new float[dimension];
            for (int i = 0; i < dimension; i++) {
                v[i] = c[i] + (float) (noise * random.nextGaussian());
            }
            out[n] = normalise(v);
        }
        return out;
    }

    /** Scales {@code v} to unit length in place (a zero vector stays zero) and returns it. */
    static float[] normalise(float[] v) {
        double norm = 0;
        for (float x : v) {
            norm += (double) x * x;
        }
        if (norm == 0) {
            return v;
        }
        float inv = (float) (1 / Math.sqrt(norm));
        for (int i = 0; i < v.length; i++) {
            v[i] *= inv;
        }
        return v;
    }
}
