package dev.ragkit.store.inmemory;

/**
 * A plain loop with sixteen independent accumulators, so the CPU can overlap the additions; used when the JDK's
 * Vector API module is not present.
 *
 * <p>Sixteen, rather than four or eight, is also what keeps this method's bytecode above C2's inlining limit
 * for hot methods (325 bytes): the method is then compiled on its own, with the same loop optimisations
 * whatever the calling loop looks like. Inlined into the store's scan, the same loop measured between 5.5 and
 * 11 ms for 50,000 × 384 floats depending on unrelated code around it; compiled alone it measured 7.3 ms in
 * the store (VectorSearchBenchmark, 2026-11-22). Check the size with {@code javap -c} when editing it.
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
        float s4 = 0f;
        float s5 = 0f;
        float s6 = 0f;
        float s7 = 0f;
        float s8 = 0f;
        float s9 = 0f;
        float s10 = 0f;
        float s11 = 0f;
        float s12 = 0f;
        float s13 = 0f;
        float s14 = 0f;
        float s15 = 0f;
        int i = 0;
        for (int bound = dim - 15; i < bound; i += 16) {
            s0 += query[i] * data[offset + i];
            s1 += query[i + 1] * data[offset + i + 1];
            s2 += query[i + 2] * data[offset + i + 2];
            s3 += query[i + 3] * data[offset + i + 3];
            s4 += query[i + 4] * data[offset + i + 4];
            s5 += query[i + 5] * data[offset + i + 5];
            s6 += query[i + 6] * data[offset + i + 6];
            s7 += query[i + 7] * data[offset + i + 7];
            s8 += query[i + 8] * data[offset + i + 8];
            s9 += query[i + 9] * data[offset + i + 9];
            s10 += query[i + 10] * data[offset + i + 10];
            s11 += query[i + 11] * data[offset + i + 11];
            s12 += query[i + 12] * data[offset + i + 12];
            s13 += query[i + 13] * data[offset + i + 13];
            s14 += query[i + 14] * data[offset + i + 14];
            s15 += query[i + 15] * data[offset + i + 15];
        }
        for (; i < dim; i++) {
            s0 += query[i] * data[offset + i];
        }
        return (((s0 + s1) + (s2 + s3)) + ((s4 + s5) + (s6 + s7)))
                + (((s8 + s9) + (s10 + s11)) + ((s12 + s13) + (s14 + s15)));
    }

    @Override
    public String name() {
        return "scalar";
    }
}
