package dev.ragkit;

import org.jspecify.annotations.Nullable;

/**
 * Watches requests while they run, stage by stage, for metrics and traces (the {@code rag-micrometer} module turns
 * these calls into Micrometer observations). Unlike {@link RagListener}, which hears what happened, an observer is
 * told when a request and each of its stages starts and stops, so it can time them and nest them.
 *
 * <p>Stages: {@code rewrite} (a follow-up made standalone, only with history), {@code retrieve}, {@code budget},
 * {@code generate}, {@code grounding} (citations and confidence),
 * {@code self-rating} and {@code audit}; a stage may run more than once in a request ({@code grounding}). A
 * request's stages are sequential but may run on different threads (streaming). An observer must be thread-safe
 * and must not throw: the pipeline does not guard against it.
 */
public interface RagObserver {
    /** Observes nothing. */
    RagObserver NONE = request -> RequestObservation.NONE;

    /**
     * A request starts.
     *
     * @param request the request
     * @return what observes this request's stages and end
     */
    RequestObservation requestStarted(RagRequest request);

    /** One request, from start to response or failure. */
    interface RequestObservation {
        /** Observes nothing. */
        RequestObservation NONE = new RequestObservation() { };

        /**
         * A stage starts.
         *
         * @param stage the stage's name, e.g. {@code retrieve}
         * @return what to tell when it stops
         */
        default StageObservation stageStarted(String stage) {
            return StageObservation.NONE;
        }

        /** @param model the model the request will use (resolved, allowed and present) */
        default void modelChosen(String model) {
        }

        /** @param result the model's answer, before grounding (its token counts, finish reason, duration) */
        default void generated(dev.ragkit.generation.ChatResult result) {
        }

        /** @param response the request ended with this response (audited) */
        default void finished(RagResponse response) {
        }

        /** @param error the request failed with this */
        default void failed(Throwable error) {
        }
    }

    /** One stage of a request. */
    interface StageObservation {
        /** Observes nothing. */
        StageObservation NONE = error -> { };

        /** @param error the stage ended: normally ({@code null}) or with this failure */
        void stopped(@Nullable Throwable error);
    }
}
