package dev.ragkit;

import dev.ragkit.generation.HealthStatus;
import java.time.Duration;
import java.util.Objects;

/**
 * Whether a pipeline can answer now.
 *
 * @param backend      the backend's status for the default model
 * @param model        the default model
 * @param storeReady   whether the store answered a read
 * @param storeLatency how long that read took
 * @param storeDetail  a summary, with the failure when the store is not ready
 */
public record PipelineHealth(HealthStatus backend, String model, boolean storeReady, Duration storeLatency,
        String storeDetail) {

    /** Validates the arguments. */
    public PipelineHealth {
        Objects.requireNonNull(backend, "backend");
        Objects.requireNonNull(model, "model");
        Objects.requireNonNull(storeLatency, "storeLatency");
        Objects.requireNonNull(storeDetail, "storeDetail");
    }

    /** @return whether the backend is reachable, has the model, and the store is ready */
    public boolean healthy() {
        return backend.healthy() && storeReady;
    }
}
