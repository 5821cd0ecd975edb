package dev.ragkit;

import dev.ragkit.internal.Timings;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.function.Supplier;

/**
 * One request while the pipeline works on it: the request, when it started, the listener's handle on it, and the
 * clock of its stages. Nothing a stage decides lives here — each stage returns its result ({@link Asked},
 * {@link Plan}, the response) to the next. The clock is confined to the thread working on the request at a time.
 */
final class Exchange {
    final RagRequest request;
    final Instant timestamp;
    /** The model the request names, or the pipeline's default: what a failure before planning is audited under. */
    final String requestedModel;
    final RagListener.Request events;
    private final long start = System.nanoTime();
    private final Timings timings = new Timings();

    Exchange(RagRequest request, Instant timestamp, String defaultModel, RagListener.Request events) {
        this.request = request;
        this.timestamp = timestamp;
        this.requestedModel = request.model() != null ? request.model() : defaultModel;
        this.events = events;
    }

    /** Runs one stage, heard by the listener, and records how long it took under {@code stage}. */
    <T> T time(String stage, Supplier<T> work) {
        RagListener.Stage observed = events.stageStarted(stage);
        Throwable failure = null;
        try {
            return timings.time(stage, work);
        } catch (RuntimeException | Error e) {
            failure = e;
            throw e;
        } finally {
            observed.stopped(failure);
        }
    }

    void recordTime(String stage, Duration time) {
        timings.add(stage, time);
    }

    Map<String, Duration> timings() {
        return timings.asMap();
    }

    Duration elapsed() {
        return Duration.ofNanos(System.nanoTime() - start);
    }
}
