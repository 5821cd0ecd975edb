package dev.ragkit.internal;

import java.util.HashSet;
import java.util.Set;

/**
 * The builders' rule for stages (a store, an embedder, a backend, a router, …): each is set once on a builder, as
 * Caffeine's are; a second call is almost always a copy-paste slip, so it fails at once, naming the stage. Values
 * (a threshold, a batch size) are not tracked here: they may be set again, the last one wins. Not thread-safe, like
 * the builders.
 */
public final class SetOnce {
    private final Set<String> set = new HashSet<>();
    private final String replaceHint;

    /** @param replaceHint how to replace a stage instead, appended to the message (e.g. "call toBuilder() on it") */
    public SetOnce(String replaceHint) {
        this.replaceHint = replaceHint;
    }

    /**
     * Records that {@code stage} was set.
     *
     * @param stage the setter's name, e.g. {@code store}
     * @throws IllegalStateException when it was set before on this builder
     */
    public void set(String stage) {
        if (!set.add(stage)) {
            throw new IllegalStateException(stage + "(...) set twice on this builder; a stage is set once (values such "
                    + "as a threshold may be set again)" + (replaceHint.isEmpty() ? "" : ". " + replaceHint));
        }
    }
}
