package dev.ragkit.internal;

/** Arithmetic on embedding vectors. Stateless and thread-safe. */
public final class Vectors {

    private Vectors() {
    }

    /**
     * @param a a vector
     * @param b a vector of the same length
     * @return their cosine similarity, 0 when either is all zeros
     */
    public static double cosine(float[] a, float[] b) {
        if (a.length != b.length) {
            throw new IllegalArgumentException("vectors of different lengths: " + a.length + " and " + b.length);
        }
        double dot = 0;
        double na = 0;
        double nb = 0;
        for (int i = 0; i < a.length; i++) {
            dot += a[i] * b[i];
            na += a[i] * a[i];
            nb += b[i] * b[i];
        }
        return na == 0 || nb == 0 ? 0 : dot / Math.sqrt(na * nb);
    }
}
