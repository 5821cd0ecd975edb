package dev.ragkit.spring;

import dev.ragkit.PipelineHealth;
import dev.ragkit.RagPipeline;
import java.util.Objects;
import org.springframework.boot.actuate.health.AbstractHealthIndicator;
import org.springframework.boot.actuate.health.Health;

/**
 * {@code /actuator/health}'s {@code ragkit} component: up when the model server answers, has the model, and the
 * store is ready; details name the model, the backend's message and the store's latency.
 */
public class RagKitHealthIndicator extends AbstractHealthIndicator {
    private final RagPipeline pipeline;

    /** @param pipeline the pipeline to check */
    public RagKitHealthIndicator(RagPipeline pipeline) {
        super("RagKit health check failed");
        this.pipeline = Objects.requireNonNull(pipeline, "pipeline");
    }

    @Override
    protected void doHealthCheck(Health.Builder builder) {
        PipelineHealth health = pipeline.health();
        (health.healthy() ? builder.up() : builder.down())
                .withDetail("model", health.model())
                .withDetail("backendReachable", health.backend().reachable())
                .withDetail("modelAvailable", health.backend().modelAvailable())
                .withDetail("backend", health.backend().detail())
                .withDetail("storeReady", health.storeReady())
                .withDetail("store", health.storeDetail())
                .withDetail("storeLatencyMs", health.storeLatency().toMillis());
    }
}
