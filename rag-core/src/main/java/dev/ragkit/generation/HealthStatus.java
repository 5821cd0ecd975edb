package dev.ragkit.generation;

import java.time.Duration;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A backend's answer to "can you serve this model now?".
 *
 * @param reachable      whether the backend answered
 * @param modelAvailable whether it has the model
 * @param latency        how long the check took
 * @param version        the server's version when it reports one, or {@code null}
 * @param detail         a human-readable summary, including the fix when something is wrong
 */
public record HealthStatus(boolean reachable, boolean modelAvailable, Duration latency, @Nullable String version,
        String detail) {

    /** Validates the arguments. */
    public HealthStatus {
        Objects.requireNonNull(latency, "latency");
        Objects.requireNonNull(detail, "detail");
        if (modelAvailable && !reachable) {
            throw new IllegalArgumentException("a model cannot be available on an unreachable backend");
        }
    }

    /** @return whether the backend is reachable and has the model */
    public boolean healthy() {
        return reachable && modelAvailable;
    }
}
