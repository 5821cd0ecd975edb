package dev.ragkit.grounding;

import java.util.Objects;

/**
 * The person or team that owns a topic.
 *
 * @param id    a stable id (user id, team id)
 * @param email where routed questions go
 */
public record Owner(String id, String email) {

    /** Validates the arguments. */
    public Owner {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(email, "email");
        if (id.isBlank() || email.isBlank()) {
            throw new IllegalArgumentException("owner id and email must not be blank");
        }
    }
}
