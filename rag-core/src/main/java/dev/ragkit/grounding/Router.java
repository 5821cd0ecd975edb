package dev.ragkit.grounding;

import dev.ragkit.prompt.ContextBlock;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Decides between citing the answer and handing the question to a human. Thread-safe.
 */
public interface Router {

    /**
     * @param tenant     the tenant asking
     * @param confidence the answer's overall confidence, 0–100
     * @param used       the context blocks in the prompt
     * @return {@link Action#CITE} when confidence reaches the threshold, else {@link Action#ROUTE} to the owner of
     *         the most common non-{@code public} access tag among the sources, or to the administrator
     */
    Routing route(String tenant, int confidence, List<ContextBlock> used);

    /**
     * @param reason why, e.g. {@code No relevant documents found}
     * @return a route to the administrator
     */
    RouteTarget toAdministrator(String reason);

    /**
     * @param threshold      the lowest confidence that is cited, 0–100 (default 60)
     * @param adminEmail     where questions go when no owner is found, or {@code null} when nobody is configured
     *                       (routes then say so instead of naming an address)
     * @param owners         who owns which tag
     * @return the default router
     */
    static Router standard(int threshold, @Nullable String adminEmail, OwnerDirectory owners) {
        return new TagOwnerRouter(threshold, adminEmail, owners);
    }
}
