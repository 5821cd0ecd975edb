package dev.ragkit.store.inmemory;

import dev.ragkit.store.MetadataFilter;
import dev.ragkit.store.PromotionLevel;
import dev.ragkit.store.Scope;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The scope and filters of one request, resolved against a tenant's tag and type dictionaries so that the
 * scan compares small ints instead of strings. Immutable.
 */
final class DocFilter {
    private static final int[] NONE = new int[0];

    private final boolean unrestricted;
    private final int[] scopeTags;
    private final boolean filterTypes;
    private final int[] types;
    private final int minPromotion;
    private final @Nullable MetadataFilter metadata;

    private DocFilter(boolean unrestricted, int[] scopeTags, boolean filterTypes, int[] types, int minPromotion,
            @Nullable MetadataFilter metadata) {
        this.unrestricted = unrestricted;
        this.scopeTags = scopeTags;
        this.filterTypes = filterTypes;
        this.types = types;
        this.minPromotion = minPromotion;
        this.metadata = metadata;
    }

    static DocFilter of(Scope scope, Set<String> docTypes, PromotionLevel minPromotion,
            @Nullable MetadataFilter metadata, Map<String, Integer> tagIds, Map<String, Integer> typeIds) {
        int[] tags = scope.unrestricted() ? NONE : ids(scope.accessTags(), tagIds);
        int[] types = docTypes.isEmpty() ? NONE : ids(docTypes, typeIds);
        return new DocFilter(scope.unrestricted(), tags, !docTypes.isEmpty(), types, minPromotion.ordinal(),
                metadata);
    }

    /** Whether the scope can see {@code entry} (the tenant is already the index's). */
    boolean visible(DocEntry entry) {
        int[] docTags = entry.tagIds;
        if (unrestricted || docTags.length == 0) {
            return true;
        }
        for (int docTag : docTags) {
            for (int scopeTag : scopeTags) {
                if (docTag == scopeTag) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Whether {@code entry} is visible and passes the type, promotion and metadata filters. */
    boolean accepts(DocEntry entry) {
        if (entry.document.promotionLevel().ordinal() < minPromotion) {
            return false;
        }
        if (filterTypes) {
            int type = entry.typeId;
            boolean found = false;
            for (int t : types) {
                if (t == type) {
                    found = true;
                    break;
                }
            }
            if (!found) {
                return false;
            }
        }
        return visible(entry) && (metadata == null || metadata.test(entry.document.metadata()));
    }

    private static int[] ids(Set<String> names, Map<String, Integer> dictionary) {
        int[] ids = new int[names.size()];
        int n = 0;
        for (String name : names) {
            Integer id = dictionary.get(name);
            if (id != null) {
                ids[n++] = id;
            }
        }
        return n == ids.length ? ids : java.util.Arrays.copyOf(ids, n);
    }
}
