package dev.ragkit.spring;

import dev.ragkit.PipelineHealth;
import dev.ragkit.RagPipeline;
import dev.ragkit.generation.ExtractiveBackend;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.actuate.health.AbstractHealthIndicator;
import org.springframework.boot.actuate.health.Health;

/**
 * {@code /actuator/health}'s {@code ragkit} component. Down when the store does not answer, or when the model server
 * is unreachable or lacks the model and no extractive fallback answers for it; up otherwise. A server that is down
 * while the fallback answers keeps the component up (the application still answers, with quotes) and says so in
 * {@code answers}. Details name the model, the backend's message, the store and its latency, and — with
 * {@code ragkit.ingest.paths} — the index: status, folders, documents, chunks, the last pass and its failures.
 */
public class RagKitHealthIndicator extends AbstractHealthIndicator {
    private final RagPipeline pipeline;
    private final @Nullable RagKitIngest ingest;
    private final boolean extractiveFallback;

    /** @param pipeline the pipeline to check (no index details, no fallback) */
    public RagKitHealthIndicator(RagPipeline pipeline) {
        this(pipeline, null, false);
    }

    /**
     * @param pipeline           the pipeline to check
     * @param ingest             the ingest whose index state is shown, or {@code null}
     * @param extractiveFallback whether extractive answers stand in for a model server that is down
     */
    public RagKitHealthIndicator(RagPipeline pipeline, @Nullable RagKitIngest ingest, boolean extractiveFallback) {
        super("RagKit health check failed");
        this.pipeline = Objects.requireNonNull(pipeline, "pipeline");
        this.ingest = ingest;
        this.extractiveFallback = extractiveFallback;
    }

    @Override
    protected void doHealthCheck(Health.Builder builder) {
        PipelineHealth health = pipeline.health();
        boolean modelServes = health.backend().healthy();
        boolean up = health.storeReady() && (modelServes || extractiveFallback);
        (up ? builder.up() : builder.down())
                .withDetail("model", health.model())
                .withDetail("answers", ExtractiveBackend.MODEL.equals(health.model())
                        ? "extractive (quotes from the documents), as configured"
                        : modelServes ? "from the model"
                        : extractiveFallback ? "extractive (quotes from the documents): the model cannot answer"
                        : "none: the model cannot answer")
                .withDetail("backendReachable", health.backend().reachable())
                .withDetail("modelAvailable", health.backend().modelAvailable())
                .withDetail("backend", health.backend().detail())
                .withDetail("storeReady", health.storeReady())
                .withDetail("store", health.storeDetail())
                .withDetail("storeLatencyMs", health.storeLatency().toMillis());
        RagKitIngest index = ingest;
        if (index != null) {
            builder.withDetail("index", index.state().details());
        }
    }
}
