package dev.ragkit.server;

import dev.ragkit.store.Scope;
import java.util.Collection;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * What a caller may read: one tenant and the access tags it holds. A request can narrow the tags, never widen them.
 *
 * @param tenant the tenant, not blank and not {@code -} (reserved for refusals of unknown callers)
 * @param tags   the access tags (immutable, sorted)
 */
public record Grant(String tenant, Set<String> tags) {

    /** Validates and copies the arguments. */
    public Grant {
        Objects.requireNonNull(tenant, "tenant");
        if (tenant.isBlank()) {
            throw new IllegalArgumentException("tenant is blank");
        }
        if (tenant.equals(RequestGuard.UNKNOWN_TENANT)) {
            throw new IllegalArgumentException("tenant '-' is reserved (the audit records of requests refused before "
                    + "their tenant is known use it); name the tenant otherwise");
        }
        tags = java.util.Collections.unmodifiableSet(new TreeSet<>(Objects.requireNonNull(tags, "tags")));
    }

    /**
     * @param tenant the tenant
     * @param tags   the access tags
     * @return the grant
     */
    public static Grant of(String tenant, Collection<String> tags) {
        return new Grant(tenant, Set.copyOf(tags));
    }

    /** @return the store scope of this grant */
    public Scope scope() {
        return Scope.of(tenant, tags);
    }
}
