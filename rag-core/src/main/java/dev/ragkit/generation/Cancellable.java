package dev.ragkit.generation;

/** A running call that can be stopped. */
public interface Cancellable {

    /** Stops the call at once if it is still running; does nothing otherwise. Safe to call from any thread. */
    void cancel();

    /** @return whether {@link #cancel()} was called */
    boolean isCancelled();
}
