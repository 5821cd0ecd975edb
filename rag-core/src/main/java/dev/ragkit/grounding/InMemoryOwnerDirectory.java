package dev.ragkit.grounding;

import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * An {@link OwnerDirectory} held in memory: a fixed map from access tag to {@link Owner}, optionally per tenant.
 *
 * <p>An owner registered for a tenant wins over one registered for any tenant. Tags and tenants are matched
 * exactly (letter case counts). Immutable and thread-safe; build one with {@link #builder()}:
 *
 * <pre>{@code
 * OwnerDirectory owners = InMemoryOwnerDirectory.builder()
 *         .owner("hr", new Owner("u-17", "hr-lead@example.com"))
 *         .owner("acme", "hr", new Owner("u-42", "people@acme.example"))
 *         .build();
 * }</pre>
 */
public final class InMemoryOwnerDirectory implements OwnerDirectory {

    private final Map<String, Owner> anyTenant;
    private final Map<String, Map<String, Owner>> byTenant;

    private InMemoryOwnerDirectory(Builder builder) {
        this.anyTenant = Map.copyOf(builder.anyTenant);
        Map<String, Map<String, Owner>> copy = new HashMap<>();
        builder.byTenant.forEach((tenant, owners) -> copy.put(tenant, Map.copyOf(owners)));
        this.byTenant = Map.copyOf(copy);
    }

    /**
     * A new, empty builder.
     *
     * @return a builder with no owners
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * A builder holding this directory's owners, to derive a changed copy.
     *
     * @return a builder that builds an equal directory until changed
     */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.anyTenant.putAll(anyTenant);
        byTenant.forEach((tenant, owners) -> b.byTenant.put(tenant, new HashMap<>(owners)));
        return b;
    }

    /**
     * Finds the owner of a tag: the one registered for {@code tenant}, else the one registered for any tenant.
     *
     * @param tenant the tenant asking
     * @param tag    an access tag
     * @return its owner, or empty when the tag has none
     */
    @Override
    public Optional<Owner> ownerOf(String tenant, String tag) {
        Objects.requireNonNull(tenant, "tenant");
        Objects.requireNonNull(tag, "tag");
        Map<String, Owner> tenantOwners = byTenant.get(tenant);
        Owner owner = tenantOwners == null ? null : tenantOwners.get(tag);
        return Optional.ofNullable(owner != null ? owner : anyTenant.get(tag));
    }

    @Override
    public String toString() {
        int tenantSpecific = byTenant.values().stream().mapToInt(Map::size).sum();
        return "InMemoryOwnerDirectory[" + anyTenant.size() + " tag(s) for any tenant, " + tenantSpecific
                + " tenant-specific]";
    }

    /** Builds an {@link InMemoryOwnerDirectory}. Not thread-safe. */
    public static final class Builder {
        private final Map<String, Owner> anyTenant = new HashMap<>();
        private final Map<String, Map<String, Owner>> byTenant = new HashMap<>();

        private Builder() {
        }

        /**
         * Registers the owner of a tag for every tenant.
         *
         * @param tag   the access tag, not blank
         * @param owner its owner
         * @return this builder
         * @throws IllegalArgumentException when the tag is blank or already has an owner for any tenant
         */
        public Builder owner(String tag, Owner owner) {
            requireText(tag, "tag");
            Objects.requireNonNull(owner, "owner");
            if (anyTenant.containsKey(tag)) {
                throw new IllegalArgumentException("tag '" + tag + "' already has an owner for any tenant ("
                        + anyTenant.get(tag).id() + "); register each tag once, or use owner(tenant, tag, owner)"
                        + " for a tenant-specific owner");
            }
            anyTenant.put(tag, owner);
            return this;
        }

        /**
         * Registers the owner of a tag for one tenant; it wins over an owner registered for any tenant.
         *
         * @param tenant the tenant, not blank
         * @param tag    the access tag, not blank
         * @param owner  its owner in that tenant
         * @return this builder
         * @throws IllegalArgumentException when the tenant or tag is blank, or the tag already has an owner in
         *                                  that tenant
         */
        public Builder owner(String tenant, String tag, Owner owner) {
            requireText(tenant, "tenant");
            requireText(tag, "tag");
            Objects.requireNonNull(owner, "owner");
            Map<String, Owner> owners = byTenant.computeIfAbsent(tenant, t -> new HashMap<>());
            if (owners.containsKey(tag)) {
                throw new IllegalArgumentException("tag '" + tag + "' already has an owner in tenant '" + tenant
                        + "' (" + owners.get(tag).id() + "); register each tag once per tenant");
            }
            owners.put(tag, owner);
            return this;
        }

        /**
         * Builds the directory; later changes to this builder do not affect it.
         *
         * @return an immutable directory
         */
        public InMemoryOwnerDirectory build() {
            return new InMemoryOwnerDirectory(this);
        }

        private static void requireText(String value, String name) {
            Objects.requireNonNull(value, name);
            if (value.isBlank()) {
                throw new IllegalArgumentException(name + " must not be blank; pass the " + name
                        + " exactly as the documents carry it");
            }
        }
    }
}
