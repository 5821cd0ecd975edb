package dev.ragkit.grounding;

import java.util.Optional;

/**
 * Finds who owns an access tag, for routing. Implementations are thread-safe; back one with your directory
 * service, or use {@link InMemoryOwnerDirectory}.
 */
public interface OwnerDirectory {

    /**
     * @param tenant the tenant asking
     * @param tag    an access tag
     * @return its owner, or empty when the tag has none
     */
    Optional<Owner> ownerOf(String tenant, String tag);

    /** @return a directory that knows no owners (every route falls back to the administrator) */
    static OwnerDirectory none() {
        return (tenant, tag) -> Optional.empty();
    }
}
