package dev.ragkit;

import dev.ragkit.generation.ChatResult;
import dev.ragkit.prompt.Prompt;
import dev.ragkit.retrieval.RetrievedContext;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Hears a {@link RagPipeline}'s requests while they run, for metrics, traces and logs: the one event channel of the
 * pipeline (the {@code rag-micrometer} module turns these events into Micrometer observations). When a request
 * starts, the listener returns a {@link Request} that hears that request's events: each stage starting and stopping
 * (so it can be timed and nested), the model chosen, what retrieval found, the prompt, the model's answer, and the
 * response or the failure. Every method of a {@link Request} does nothing by default, as in OkHttp's {@code EventListener}.
 *
 * <p>Stages: {@code rewrite} (a follow-up made standalone, only with history), {@code retrieve}, {@code budget},
 * {@code generate}, {@code grounding} (citations and confidence), {@code self-rating} and {@code audit}; a stage may
 * run more than once in a request ({@code grounding}).
 *
 * <p>Threading: events run synchronously on the thread working on the request — the caller's for {@code ask}, the
 * executor's for {@code askAsync}; for {@code stream}, {@code requestStarted} runs on the caller's thread and the
 * rest on the executor's or the backend's. A request's events never overlap, but one listener hears many requests
 * at once: it must be fast and thread-safe. An exception thrown by a listener is logged and ignored; it never fails
 * a request.
 */
public interface RagListener {

    /** Hears nothing. */
    RagListener NONE = request -> Request.NONE;

    /**
     * A request starts.
     *
     * @param request the request
     * @return what hears this request's events ({@link Request#NONE} for none)
     */
    Request requestStarted(RagRequest request);

    /**
     * One listener for several: each hears every request, in the order given.
     *
     * @param listeners the listeners
     * @return a listener telling each of them
     */
    static RagListener all(List<RagListener> listeners) {
        List<RagListener> each = List.copyOf(Objects.requireNonNull(listeners, "listeners"));
        return each.size() == 1 ? each.get(0) : new AllListeners(each);
    }

    /** The events of one request, from its start to its response or failure. */
    interface Request {
        /** Hears nothing. */
        Request NONE = new Request() { };

        /**
         * A stage starts.
         *
         * @param stage the stage's name, e.g. {@code retrieve}
         * @return what to tell when it stops
         */
        default Stage stageStarted(String stage) {
            return Stage.NONE;
        }

        /** @param model the model the request will use (resolved, allowed and present) */
        default void modelChosen(String model) {
        }

        /** @param context what retrieval found */
        default void retrieved(RetrievedContext context) {
        }

        /** @param prompt the fitted prompt about to be sent */
        default void promptBuilt(Prompt prompt) {
        }

        /** @param result the model's answer, before grounding (its token counts, finish reason, duration) */
        default void generated(ChatResult result) {
        }

        /** @param response the request ended with this response (audited) */
        default void responded(RagResponse response) {
        }

        /** @param error the request failed with this (or a {@link java.util.concurrent.CancellationException}) */
        default void failed(Throwable error) {
        }
    }

    /** One stage of a request. */
    interface Stage {
        /** Hears nothing. */
        Stage NONE = error -> { };

        /** @param error the stage ended: normally ({@code null}) or with this failure */
        void stopped(@Nullable Throwable error);
    }
}
