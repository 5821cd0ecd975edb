package dev.ragkit.store;

import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * A document as a store keeps it: its identity, where it came from, and what retrieval needs to filter,
 * boost, link and cite it. Its text lives in its {@link StoredChunk}s.
 *
 * <p>Build one with {@link #builder()}; the id defaults to {@link #idFor(String, String)} of the tenant and
 * path, so re-ingesting the same file replaces the same document.
 *
 * @param id             the document id, normally a UUID derived from (tenant, path); not blank
 * @param path           the document's path relative to its document root, with {@code /} separators; not blank
 * @param title          the document's title; not blank
 * @param docType        the document type used by filters (e.g. {@code guide}), or {@code null} for none
 * @param promotionLevel how strongly the organisation marked the document
 * @param date           the document's date (used to prefer newer sources), or {@code null} when unknown
 * @param accessTags     the access tags that may see it (immutable, sorted); empty means the whole tenant
 * @param ownerTag       the tag of the team that owns the document's topic, or {@code null}
 * @param links          paths (relative to the document root, normalised) of the documents this one links
 *                       to, in order of first appearance, without duplicates (immutable)
 * @param metadata       any further front-matter fields (immutable, insertion-ordered)
 * @param charCount      the length of the document's text in characters; not negative
 * @param tenant         the tenant the document belongs to; not blank
 */
public record StoredDocument(
        String id,
        String path,
        String title,
        @Nullable String docType,
        PromotionLevel promotionLevel,
        @Nullable LocalDate date,
        SortedSet<String> accessTags,
        @Nullable String ownerTag,
        List<String> links,
        Map<String, String> metadata,
        long charCount,
        String tenant) {

    /**
     * Validates and copies the arguments.
     *
     * @throws IllegalArgumentException when a text field is blank, a tag or link is blank, or
     *                                  {@code charCount} is negative
     */
    public StoredDocument {
        id = Scope.requireText(id, "id");
        path = Scope.requireText(path, "path");
        title = Scope.requireText(title, "title");
        if (docType != null) {
            docType = Scope.requireText(docType, "docType");
        }
        Objects.requireNonNull(promotionLevel, "promotionLevel");
        TreeSet<String> tags = new TreeSet<>();
        for (String tag : Objects.requireNonNull(accessTags, "accessTags")) {
            tags.add(Scope.requireText(tag, "access tag"));
        }
        accessTags = Collections.unmodifiableSortedSet(tags);
        if (ownerTag != null) {
            ownerTag = Scope.requireText(ownerTag, "ownerTag");
        }
        List<String> linkCopy = new ArrayList<>();
        for (String link : Objects.requireNonNull(links, "links")) {
            String checked = Scope.requireText(link, "link");
            if (!linkCopy.contains(checked)) {
                linkCopy.add(checked);
            }
        }
        links = Collections.unmodifiableList(linkCopy);
        LinkedHashMap<String, String> meta = new LinkedHashMap<>();
        Objects.requireNonNull(metadata, "metadata").forEach((k, v) -> meta.put(
                Objects.requireNonNull(k, "metadata key"), Objects.requireNonNull(v, "metadata value")));
        metadata = Collections.unmodifiableMap(meta);
        if (charCount < 0) {
            throw new IllegalArgumentException("charCount must not be negative, got " + charCount);
        }
        tenant = Scope.requireText(tenant, "tenant");
    }

    /**
     * The stable id of the document at {@code path} in {@code tenant}: a name-based UUID, so the same file
     * ingested twice gets the same id and replaces itself.
     *
     * @param tenant the tenant, not blank
     * @param path   the document's path, not blank
     * @return a lower-case UUID string (36 characters)
     */
    public static String idFor(String tenant, String path) {
        Scope.requireText(tenant, "tenant");
        Scope.requireText(path, "path");
        // The length prefix keeps ("a:b", "c") and ("a", "b:c") apart.
        String key = tenant.length() + ":" + tenant + ":" + path;
        return UUID.nameUUIDFromBytes(key.getBytes(StandardCharsets.UTF_8)).toString();
    }

    /**
     * A new builder.
     *
     * @return a builder with promotion level {@link PromotionLevel#STANDARD} and no tags, links or metadata
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * A builder holding this document's values.
     *
     * @return a builder that builds an equal document until changed
     */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.id = id;
        b.path = path;
        b.title = title;
        b.docType = docType;
        b.promotionLevel = promotionLevel;
        b.date = date;
        b.accessTags = new TreeSet<>(accessTags);
        b.ownerTag = ownerTag;
        b.links = new ArrayList<>(links);
        b.metadata = new LinkedHashMap<>(metadata);
        b.charCount = charCount;
        b.tenant = tenant;
        return b;
    }

    /** Builds a {@link StoredDocument}. Not thread-safe. */
    public static final class Builder {
        private @Nullable String id;
        private @Nullable String path;
        private @Nullable String title;
        private @Nullable String docType;
        private PromotionLevel promotionLevel = PromotionLevel.STANDARD;
        private @Nullable LocalDate date;
        private Set<String> accessTags = new TreeSet<>();
        private @Nullable String ownerTag;
        private List<String> links = new ArrayList<>();
        private Map<String, String> metadata = new LinkedHashMap<>();
        private long charCount;
        private @Nullable String tenant;

        private Builder() {
        }

        /**
         * Sets an explicit id instead of the one derived from tenant and path.
         *
         * @param id the id, not blank
         * @return this builder
         */
        public Builder id(String id) {
            this.id = Scope.requireText(id, "id");
            return this;
        }

        /**
         * @param tenant the tenant, not blank (required)
         * @return this builder
         */
        public Builder tenant(String tenant) {
            this.tenant = Scope.requireText(tenant, "tenant");
            return this;
        }

        /**
         * @param path the path relative to the document root (required)
         * @return this builder
         */
        public Builder path(String path) {
            this.path = Scope.requireText(path, "path");
            return this;
        }

        /**
         * @param title the title; defaults to the path
         * @return this builder
         */
        public Builder title(String title) {
            this.title = Scope.requireText(title, "title");
            return this;
        }

        /**
         * @param docType the document type, or {@code null} for none
         * @return this builder
         */
        public Builder docType(@Nullable String docType) {
            this.docType = docType == null ? null : Scope.requireText(docType, "docType");
            return this;
        }

        /**
         * @param level the promotion level
         * @return this builder
         */
        public Builder promotionLevel(PromotionLevel level) {
            this.promotionLevel = Objects.requireNonNull(level, "promotionLevel");
            return this;
        }

        /**
         * @param date the document date, or {@code null} when unknown
         * @return this builder
         */
        public Builder date(@Nullable LocalDate date) {
            this.date = date;
            return this;
        }

        /**
         * @param tags the access tags; empty means visible to the whole tenant
         * @return this builder
         */
        public Builder accessTags(Collection<String> tags) {
            Objects.requireNonNull(tags, "accessTags");
            TreeSet<String> copy = new TreeSet<>();
            for (String tag : tags) {
                copy.add(Scope.requireText(tag, "access tag"));
            }
            this.accessTags = copy;
            return this;
        }

        /**
         * @param tags the access tags; none means visible to the whole tenant
         * @return this builder
         */
        public Builder accessTags(String... tags) {
            return accessTags(List.of(Objects.requireNonNull(tags, "accessTags")));
        }

        /**
         * @param ownerTag the owning team's tag, or {@code null}
         * @return this builder
         */
        public Builder ownerTag(@Nullable String ownerTag) {
            this.ownerTag = ownerTag == null ? null : Scope.requireText(ownerTag, "ownerTag");
            return this;
        }

        /**
         * @param links normalised paths of linked documents
         * @return this builder
         */
        public Builder links(Collection<String> links) {
            Objects.requireNonNull(links, "links");
            List<String> copy = new ArrayList<>();
            for (String link : links) {
                copy.add(Scope.requireText(link, "link"));
            }
            this.links = copy;
            return this;
        }

        /**
         * @param metadata further front-matter fields
         * @return this builder
         */
        public Builder metadata(Map<String, String> metadata) {
            this.metadata = new LinkedHashMap<>(Objects.requireNonNull(metadata, "metadata"));
            return this;
        }

        /**
         * @param charCount the text length in characters, not negative
         * @return this builder
         */
        public Builder charCount(long charCount) {
            if (charCount < 0) {
                throw new IllegalArgumentException("charCount must not be negative, got " + charCount);
            }
            this.charCount = charCount;
            return this;
        }

        /**
         * Builds the document.
         *
         * @return the document
         * @throws IllegalStateException when tenant or path is missing
         */
        public StoredDocument build() {
            if (tenant == null || path == null) {
                throw new IllegalStateException("a StoredDocument needs a tenant and a path; call tenant(..) and path(..)");
            }
            String docId = id != null ? id : idFor(tenant, path);
            String docTitle = title != null ? title : path;
            return new StoredDocument(docId, path, docTitle, docType, promotionLevel, date,
                    new TreeSet<>(accessTags), ownerTag, links, metadata, charCount, tenant);
        }
    }
}
