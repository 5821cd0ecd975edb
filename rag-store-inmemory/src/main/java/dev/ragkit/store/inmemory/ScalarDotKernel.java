package dev.ragkit.store.inmemory;

/**
 * A plain loop with four independent accumulators, so the CPU can overlap the additions; used when the JDK's
 * Vector API module is not present.
 */
final class ScalarDotKernel implements DotKernel {
    static final ScalarDotKernel INSTANCE = new ScalarDotKernel();

    private ScalarDotKernel() {
    }

    @Override
    public float dot(float[] query, float[] data, int offset, int dim) {
        float s0 = 0f;
        float s1 = 0f;
        float s2 = 0f;
        float s3 = 0f;
        int i = 0;
        for (int bound = dim - 3; i < bound; i += 4) {
            s0 += query[i] * data[offset + i];
            s1 += query[i + 1] * data[offset + i + 1];
            s2 += query[i + 2] * data[offset + i + 2];
            s3 += query[i + 3] * data[offset + i + 3];
        }
        for (; i < dim; i++) {
            s0 += query[i] * data[offset + i];
        }
        return (s0 + s1) + (s2 + s3);
    }

    @Override
    public String name() {
        return "scalar";
    }
}
