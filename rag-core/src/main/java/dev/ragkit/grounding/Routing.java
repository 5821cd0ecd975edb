package dev.ragkit.grounding;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A routing decision.
 *
 * @param action the action
 * @param target who gets the question when the action is {@link Action#ROUTE}; otherwise {@code null}
 */
public record Routing(Action action, @Nullable RouteTarget target) {

    /** Validates the arguments. */
    public Routing {
        Objects.requireNonNull(action, "action");
        if ((action == Action.ROUTE) != (target != null)) {
            throw new IllegalArgumentException("a route target is required for ROUTE and only for it");
        }
    }
}
