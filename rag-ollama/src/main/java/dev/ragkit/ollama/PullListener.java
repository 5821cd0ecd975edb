package dev.ragkit.ollama;

/** Receives the progress of a model pull; called on the pulling thread, once per progress line. */
@FunctionalInterface
public interface PullListener {

    /** @param progress the latest progress line */
    void onProgress(PullProgress progress);
}
