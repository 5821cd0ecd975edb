package dev.ragkit.grounding;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Who should get a question the pipeline will not answer on its own.
 *
 * @param tag        the access tag the question was routed by, or {@code system} for the administrator fallback
 * @param ownerId    the owner's id, or {@code null} when falling back to the administrator
 * @param ownerEmail where to send it: the owner's address, or the administrator's; {@code null} when neither is
 *                   configured (the reason then says how to configure one)
 * @param reason     why it routes, then where to, e.g. {@code Confidence 45% is below the threshold of 60%. No
 *                   owner for tag 'hr' - routing to admin}
 * @param fallback   whether no owner was found and the administrator gets it
 */
public record RouteTarget(String tag, @Nullable String ownerId, @Nullable String ownerEmail, String reason,
        boolean fallback) {

    /** Validates the arguments. */
    public RouteTarget {
        Objects.requireNonNull(tag, "tag");
        Objects.requireNonNull(reason, "reason");
    }
}
