package dev.ragkit.store.inmemory;

import java.lang.System.Logger.Level;

/** Chooses the dot-product kernel: the Vector API when its module is present, the scalar loop otherwise. */
final class DotKernels {
    private static final System.Logger LOG = System.getLogger(DotKernels.class.getName());
    static final String VECTOR_MODULE = "jdk.incubator.vector";

    private DotKernels() {
    }

    static boolean vectorModulePresent() {
        return ModuleLayer.boot().findModule(VECTOR_MODULE).isPresent();
    }

    static DotKernel select(InMemoryDocumentStore.Kernel kernel) {
        switch (kernel) {
            case SCALAR:
                return ScalarDotKernel.INSTANCE;
            case VECTOR_API:
                if (!vectorModulePresent()) {
                    throw new IllegalStateException("the Vector API kernel needs the " + VECTOR_MODULE
                            + " module; start the JVM with --add-modules " + VECTOR_MODULE
                            + ", or use Kernel.AUTO to fall back to the scalar loop");
                }
                return loadVectorKernel();
            case AUTO:
            default:
                if (!vectorModulePresent()) {
                    LOG.log(Level.DEBUG, "{0} not present; using the scalar kernel", VECTOR_MODULE);
                    return ScalarDotKernel.INSTANCE;
                }
                try {
                    return loadVectorKernel();
                } catch (LinkageError | IllegalStateException e) {
                    LOG.log(Level.WARNING, "could not load the Vector API kernel; using the scalar kernel", e);
                    return ScalarDotKernel.INSTANCE;
                }
        }
    }

    private static DotKernel loadVectorKernel() {
        try {
            // Loaded by name so that this class never links against jdk.incubator.vector itself.
            Class<?> type = Class.forName(DotKernels.class.getPackageName() + ".VectorApiDotKernel");
            return (DotKernel) type.getDeclaredConstructor().newInstance();
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("could not load the Vector API kernel: " + e, e);
        }
    }
}
