package dev.ragkit.store;

import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.Objects;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * Who is reading: a tenant and the access tags of the requesting user. Every read of a
 * {@link DocumentStore} takes one; no read path exists without a tenant.
 *
 * <p>Visibility rules, which every store must apply:
 * <ul>
 *   <li>a document of another tenant is never visible;</li>
 *   <li>a document with no access tags is visible to every scope of its tenant;</li>
 *   <li>a document with access tags is visible only to a scope that shares at least one of them;</li>
 *   <li>an {@linkplain #unrestricted(String) unrestricted} scope is the administrator view: it sees every
 *       document of its tenant, tagged or not.</li>
 * </ul>
 *
 * @param tenant       the tenant, never blank
 * @param accessTags   the user's access tags (immutable, sorted); may be empty
 * @param unrestricted whether this is the administrator view of the tenant
 */
public record Scope(String tenant, SortedSet<String> accessTags, boolean unrestricted) {

    /**
     * Validates and copies the arguments.
     *
     * @throws IllegalArgumentException when the tenant or a tag is blank
     */
    public Scope {
        tenant = requireText(tenant, "tenant");
        Objects.requireNonNull(accessTags, "accessTags");
        TreeSet<String> copy = new TreeSet<>();
        for (String tag : accessTags) {
            copy.add(requireText(tag, "access tag"));
        }
        accessTags = Collections.unmodifiableSortedSet(copy);
    }

    /**
     * A user's view of a tenant.
     *
     * @param tenant     the tenant, not blank
     * @param accessTags the user's access tags; none means the user sees only untagged documents
     * @return the scope
     */
    public static Scope of(String tenant, String... accessTags) {
        Objects.requireNonNull(accessTags, "accessTags");
        return of(tenant, Arrays.asList(accessTags));
    }

    /**
     * A user's view of a tenant.
     *
     * @param tenant     the tenant, not blank
     * @param accessTags the user's access tags
     * @return the scope
     */
    public static Scope of(String tenant, Collection<String> accessTags) {
        Objects.requireNonNull(accessTags, "accessTags");
        return new Scope(tenant, new TreeSet<>(accessTags), false);
    }

    /**
     * The administrator view of a tenant: every document of the tenant, whatever its access tags.
     * Use it for indexing, maintenance and audits, never for an end user's request.
     *
     * @param tenant the tenant, not blank
     * @return the scope
     */
    public static Scope unrestricted(String tenant) {
        return new Scope(tenant, Collections.emptySortedSet(), true);
    }

    /**
     * Whether a document of {@code documentTenant} carrying {@code documentTags} is visible in this scope.
     *
     * @param documentTenant the document's tenant
     * @param documentTags   the document's access tags
     * @return {@code true} when visible under the rules of this class
     */
    public boolean canSee(String documentTenant, Set<String> documentTags) {
        if (!tenant.equals(documentTenant)) {
            return false;
        }
        if (unrestricted || documentTags.isEmpty()) {
            return true;
        }
        for (String tag : documentTags) {
            if (accessTags.contains(tag)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether {@code document} is visible in this scope.
     *
     * @param document the document
     * @return {@code true} when visible under the rules of this class
     */
    public boolean canSee(StoredDocument document) {
        return canSee(document.tenant(), document.accessTags());
    }

    static String requireText(String value, String name) {
        Objects.requireNonNull(value, name);
        if (value.isBlank()) {
            throw new IllegalArgumentException(name + " must not be blank");
        }
        return value;
    }
}
