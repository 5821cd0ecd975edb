package dev.ragkit;

import dev.ragkit.prompt.Prompt;
import dev.ragkit.retrieval.RetrievedContext;

/**
 * Observes a {@link RagPipeline}'s requests, for metrics and tracing. Every method does nothing by default.
 *
 * <p>Threading: methods run synchronously on the thread working on the request — the caller's for {@code ask}, the
 * executor's for {@code askAsync}; for {@code stream}, {@code requestStarted} runs on the caller's thread and the
 * rest on the executor's or the backend's — so they must be fast and thread-safe; one
 * listener sees many requests at once. An exception thrown by a listener is logged and ignored.
 */
public interface RagListener {

    /** @param request a request that starts */
    default void requestStarted(RagRequest request) {
    }

    /** @param request the request @param context what retrieval found */
    default void retrieved(RagRequest request, RetrievedContext context) {
    }

    /** @param request the request @param prompt the fitted prompt about to be sent */
    default void promptBuilt(RagRequest request, Prompt prompt) {
    }

    /** @param request the request @param response its response */
    default void responded(RagRequest request, RagResponse response) {
    }

    /** @param request the request @param error why it failed (or a {@link java.util.concurrent.CancellationException}) */
    default void failed(RagRequest request, Throwable error) {
    }
}
