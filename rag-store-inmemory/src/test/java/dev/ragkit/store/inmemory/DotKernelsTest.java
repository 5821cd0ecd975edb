package dev.ragkit.store.inmemory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.util.Random;
import org.junit.jupiter.api.Test;

/** Runs twice: with {@code --add-modules jdk.incubator.vector} and without (see the module's pom). */
final class DotKernelsTest {

    @Test
    void select_auto_usesVectorApiExactlyWhenTheModuleIsPresent() {
        DotKernel kernel = DotKernels.select(InMemoryDocumentStore.Kernel.AUTO);
        boolean present = ModuleLayer.boot().findModule("jdk.incubator.vector").isPresent();
        assertThat(kernel.name()).startsWith(present ? "vector-api" : "scalar");
        assertThat(InMemoryDocumentStore.builder().build().kernelName()).isEqualTo(kernel.name());
    }

    @Test
    void select_vectorApiWithoutModule_failsSayingHowToEnableIt() {
        assumeThat(DotKernels.vectorModulePresent()).as("only meaningful without the module").isFalse();
        assertThatThrownBy(() -> InMemoryDocumentStore.builder().kernel(InMemoryDocumentStore.Kernel.VECTOR_API).build())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("--add-modules jdk.incubator.vector");
    }

    @Test
    void dot_everyKernelAgreesWithDoublePrecisionReference_forOddAndLargeDimensions() {
        DotKernel[] kernels = DotKernels.vectorModulePresent()
                ? new DotKernel[] {ScalarDotKernel.INSTANCE, DotKernels.select(InMemoryDocumentStore.Kernel.VECTOR_API)}
                : new DotKernel[] {ScalarDotKernel.INSTANCE};
        Random random = new Random(7);
        for (int dim : new int[] {1, 2, 3, 5, 7, 8, 15, 16, 17, 31, 33, 64, 100, 384, 1000, 1536}) {
            float[] query = randomVector(random, dim);
            int offset = 3;
            float[] data = new float[offset + dim + 5];
            float[] row = randomVector(random, dim);
            System.arraycopy(row, 0, data, offset, dim);
            double expected = 0;
            for (int i = 0; i < dim; i++) {
                expected += (double) query[i] * row[i];
            }
            for (DotKernel kernel : kernels) {
                assertThat((double) kernel.dot(query, data, offset, dim))
                        .as("%s at dimension %d", kernel.name(), dim)
                        .isCloseTo(expected, org.assertj.core.data.Offset.offset(1e-4 * Math.sqrt(dim)));
            }
        }
    }

    static float[] randomVector(Random random, int dim) {
        float[] v = new float[dim];
        for (int i = 0; i < dim; i++) {
            v[i] = (float) random.nextGaussian();
        }
        return v;
    }
}
