package dev.ragkit.generation;

/**
 * Receives a streamed answer. For one call, a backend invokes these methods one at a time (never concurrently),
 * in order: {@link #onToken} zero or more times, then exactly one of {@link #onComplete} or {@link #onError} —
 * unless the call was cancelled, after which it may stay silent. Implementations should return quickly: they
 * run on the backend's I/O thread.
 */
public interface StreamHandler {

    /** @param token the next piece of the answer, as the backend delivered it (not empty) */
    void onToken(String token);

    /** @param result the whole answer, with the finish reason and token counts */
    void onComplete(ChatResult result);

    /** @param error why the call failed; text delivered before the failure was already passed to {@link #onToken} */
    void onError(Throwable error);
}
