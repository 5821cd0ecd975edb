package dev.ragkit.store.inmemory;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * The dot product with the JDK's Vector API. This class must only be loaded when the
 * {@code jdk.incubator.vector} module is in the boot layer; {@link DotKernels} checks that first.
 */
final class VectorApiDotKernel implements DotKernel {
    private static final VectorSpecies<Float> SPECIES = FloatVector.SPECIES_PREFERRED;

    @Override
    public float dot(float[] query, float[] data, int offset, int dim) {
        int lanes = SPECIES.length();
        int i = 0;
        FloatVector acc0 = FloatVector.zero(SPECIES);
        FloatVector acc1 = FloatVector.zero(SPECIES);
        FloatVector acc2 = FloatVector.zero(SPECIES);
        FloatVector acc3 = FloatVector.zero(SPECIES);
        for (int bound = dim - 4 * lanes; i <= bound; i += 4 * lanes) {
            acc0 = FloatVector.fromArray(SPECIES, query, i)
                    .fma(FloatVector.fromArray(SPECIES, data, offset + i), acc0);
            acc1 = FloatVector.fromArray(SPECIES, query, i + lanes)
                    .fma(FloatVector.fromArray(SPECIES, data, offset + i + lanes), acc1);
            acc2 = FloatVector.fromArray(SPECIES, query, i + 2 * lanes)
                    .fma(FloatVector.fromArray(SPECIES, data, offset + i + 2 * lanes), acc2);
            acc3 = FloatVector.fromArray(SPECIES, query, i + 3 * lanes)
                    .fma(FloatVector.fromArray(SPECIES, data, offset + i + 3 * lanes), acc3);
        }
        for (int bound = dim - lanes; i <= bound; i += lanes) {
            acc0 = FloatVector.fromArray(SPECIES, query, i)
                    .fma(FloatVector.fromArray(SPECIES, data, offset + i), acc0);
        }
        float sum = acc0.add(acc1).add(acc2.add(acc3)).reduceLanes(VectorOperators.ADD);
        for (; i < dim; i++) {
            sum += query[i] * data[offset + i];
        }
        return sum;
    }

    @Override
    public String name() {
        return "vector-api(" + SPECIES.vectorBitSize() + " bits)";
    }
}
