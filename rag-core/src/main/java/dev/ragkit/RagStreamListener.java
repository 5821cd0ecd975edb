package dev.ragkit;

import java.util.List;

/**
 * Receives a streamed answer from {@link RagPipeline#stream}. Calls for one request never overlap and come in
 * order: {@link #onSources} once, {@link #onToken} zero or more times, then exactly one of {@link #onComplete} or
 * {@link #onError}. Tokens arrive on the backend's thread, so handle them quickly.
 */
public interface RagStreamListener {

    /**
     * The documents in the prompt, before the first token.
     *
     * @param sources critical and relevant documents
     * @param linked  linked documents
     */
    default void onSources(List<Source> sources, List<LinkedSource> linked) {
    }

    /** @param token the next piece of the answer */
    void onToken(String token);

    /** @param response the whole response: citations, confidence and action computed on the full text */
    void onComplete(RagResponse response);

    /**
     * @param error why the request failed; after {@code cancel()}, a
     *              {@link java.util.concurrent.CancellationException}
     */
    void onError(Throwable error);
}
