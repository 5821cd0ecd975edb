package dev.ragkit;

import dev.ragkit.internal.Timings;
import dev.ragkit.prompt.Prompt;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * One request's state while the pipeline works on it: the model chosen, the time per stage, the prompt sent (for
 * the audit record) and whether the record was written. Confined to the thread working on the request at a time.
 */
final class Exchange {
    final RagRequest request;
    final Instant timestamp;
    private final long start = System.nanoTime();
    private final Timings timings = new Timings();
    private String model;
    private @Nullable Prompt prompt;
    private @Nullable Plan plan;
    private boolean audited;
    private @Nullable String retrievalQuery;
    private @Nullable String emptyContextReason;

    final RagListener.Request events;

    Exchange(RagRequest request, Instant timestamp, String defaultModel, RagListener.Request events) {
        this.request = request;
        this.timestamp = timestamp;
        this.model = request.model() != null ? request.model() : defaultModel;
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

    /** @return the rewritten question retrieval used, or {@code null} when it used the question as asked */
    @Nullable String retrievalQuery() {
        return retrievalQuery;
    }

    void retrievalQuery(String rewritten) {
        this.retrievalQuery = rewritten;
    }

    /** @return why the request has no context, once the empty-context path was taken; else {@code null} */
    @Nullable String emptyContextReason() {
        return emptyContextReason;
    }

    void emptyContextReason(String reason) {
        this.emptyContextReason = reason;
    }

    String model() {
        return model;
    }

    void model(String chosen) {
        this.model = chosen;
        events.modelChosen(chosen);
    }

    /** @return the prompt sent to the model, or {@code null} before (or without) one */
    @Nullable Prompt prompt() {
        return prompt;
    }

    /** @return the plan, once made */
    @Nullable Plan plan() {
        return plan;
    }

    Plan planned(Plan p) {
        this.plan = p;
        this.prompt = p.prompt();
        return p;
    }

    /** @return whether the audit record was written (or tried): one record per request */
    boolean audited() {
        return audited;
    }

    void markAudited() {
        this.audited = true;
    }
}
