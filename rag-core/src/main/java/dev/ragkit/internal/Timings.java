package dev.ragkit.internal;

import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The time a request spent in each named stage, in the order the stages first ran; a stage that runs twice adds up.
 * The one clock of the pipeline's stages and the retriever's steps. Confined to one thread at a time.
 */
public final class Timings {
    private final Map<String, Duration> spent = new LinkedHashMap<>();

    /**
     * Runs {@code work} and adds its time to {@code stage}, whether it returns or throws.
     *
     * @param stage the stage's name
     * @param work  the stage
     * @param <T>   what it returns
     * @return what it returned
     */
    public <T> T time(String stage, Supplier<T> work) {
        long start = System.nanoTime();
        try {
            return work.get();
        } finally {
            add(stage, Duration.ofNanos(System.nanoTime() - start));
        }
    }

    /**
     * Adds time measured elsewhere (a streamed model call ends on another thread).
     *
     * @param stage the stage's name
     * @param time  how long it took
     */
    public void add(String stage, Duration time) {
        spent.merge(stage, time, Duration::plus);
    }

    /** @return the time per stage so far, a read-only view */
    public Map<String, Duration> asMap() {
        return Collections.unmodifiableMap(spent);
    }
}
