package dev.ragkit.grounding;

import dev.ragkit.prompt.ContextBlock;
import dev.ragkit.store.StoredDocument;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The default {@link Router}: cites at or above the threshold; below it, routes to the owner of the tag that
 * occurs in most of the blocks used.
 *
 * <p>Each block counts once for each of its document's routing tags: the document's
 * {@link StoredDocument#ownerTag()} when it has one, else its access tags. The tag {@code public} (any letter
 * case) never counts, since it names no team. The highest count wins; equal counts go to the alphabetically
 * first tag ({@link String#compareTo}), so the choice is deterministic. With no tag, no owner, or a failing
 * {@link OwnerDirectory}, the question goes to the administrator; when no administrator is configured either, the
 * route names nobody and its reason says how to configure one. A route's reason starts with why it routes (the
 * confidence and the threshold), then says where it goes and why there. Thread-safe when the directory is.
 */
final class TagOwnerRouter implements Router {

    private static final Logger LOG = LoggerFactory.getLogger(TagOwnerRouter.class);

    static final String SYSTEM_TAG = "system";
    static final String PUBLIC_TAG = "public";
    static final String NO_CONTEXT_REASON = "No relevant documents found";
    /** What a route says when there is neither an owner nor an administrator to send it to. */
    static final String NO_OWNER_CONFIGURED = "no owner configured: set RAG_ADMIN_EMAIL (ragkit.admin-email in Spring "
            + "Boot, adminEmail(...) on the pipeline) or give the pipeline an OwnerDirectory to route questions to a "
            + "person";

    private final int threshold;
    private final @Nullable String adminEmail;
    private final OwnerDirectory owners;

    TagOwnerRouter(int threshold, @Nullable String adminEmail, OwnerDirectory owners) {
        if (threshold < 0 || threshold > 100) {
            throw new IllegalArgumentException("confidence threshold must be a percentage from 0 to 100, got "
                    + threshold + "; pass e.g. 60 (the default)");
        }
        if (adminEmail != null && adminEmail.isBlank()) {
            throw new IllegalArgumentException("adminEmail must not be blank; pass the address that gets questions"
                    + " no owner is found for (RAG_ADMIN_EMAIL)");
        }
        this.threshold = threshold;
        this.adminEmail = adminEmail == null ? null : adminEmail.strip();
        this.owners = Objects.requireNonNull(owners, "owners");
    }

    @Override
    public Routing route(String tenant, int confidence, List<ContextBlock> used) {
        Objects.requireNonNull(tenant, "tenant");
        Objects.requireNonNull(used, "used");
        if (confidence < 0 || confidence > 100) {
            throw new IllegalArgumentException("confidence must be 0-100, got " + confidence
                    + "; pass ConfidenceScore.overall()");
        }
        if (confidence >= threshold) {
            return new Routing(Action.CITE, null);
        }
        return new Routing(Action.ROUTE, target(tenant, confidence, used));
    }

    private RouteTarget target(String tenant, int confidence, List<ContextBlock> used) {
        if (used.isEmpty()) {
            return toAdministrator(NO_CONTEXT_REASON);
        }
        String why = "Confidence " + confidence + "% is below the threshold of " + threshold + "%";
        String tag = primaryTag(used);
        if (tag == null) {
            return toAdministrator(why + ". No specific tags in context - routing to admin");
        }
        Optional<Owner> owner;
        try {
            owner = Objects.requireNonNull(owners.ownerOf(tenant, tag), "OwnerDirectory.ownerOf returned null");
        } catch (RuntimeException e) {
            LOG.warn("Owner lookup failed for tag '{}' of tenant '{}'; routing to the administrator instead", tag,
                    tenant, e);
            return toAdministrator(why + ". Owner lookup failed for tag '" + tag + "' ("
                    + e.getClass().getSimpleName() + ") - routing to admin");
        }
        if (owner.isEmpty()) {
            return toAdministrator(why + ". No owner for tag '" + tag + "' - routing to admin");
        }
        return new RouteTarget(tag, owner.get().id(), owner.get().email(), why + " - routing to the owner of '"
                + tag + "'", false);
    }

    /** @return the most frequent routing tag of the blocks, ties to the alphabetically first; null when none */
    static @Nullable String primaryTag(List<ContextBlock> used) {
        Map<String, Integer> counts = new HashMap<>();
        for (ContextBlock block : used) {
            StoredDocument document = block.document();
            String ownerTag = document.ownerTag();
            if (ownerTag != null) {
                count(ownerTag, counts);
            } else {
                for (String tag : document.accessTags()) {
                    count(tag, counts);
                }
            }
        }
        String best = null;
        int bestCount = 0;
        for (Map.Entry<String, Integer> entry : counts.entrySet()) {
            int n = entry.getValue();
            if (best == null || n > bestCount || (n == bestCount && entry.getKey().compareTo(best) < 0)) {
                best = entry.getKey();
                bestCount = n;
            }
        }
        return best;
    }

    private static void count(String tag, Map<String, Integer> counts) {
        if (!tag.toLowerCase(Locale.ROOT).equals(PUBLIC_TAG)) {
            counts.merge(tag, 1, Integer::sum);
        }
    }

    @Override
    public RouteTarget toAdministrator(String reason) {
        Objects.requireNonNull(reason, "reason");
        return new RouteTarget(SYSTEM_TAG, null, adminEmail, adminEmail == null ? reason + " - " + NO_OWNER_CONFIGURED
                : reason, true);
    }

    @Override
    public String toString() {
        return "TagOwnerRouter[threshold=" + threshold + "%, admin=" + (adminEmail == null ? "none" : adminEmail) + "]";
    }
}
