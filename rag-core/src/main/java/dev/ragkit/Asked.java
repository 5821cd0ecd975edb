package dev.ragkit;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The question as it will be answered: the first stages' result (the model checked, a follow-up made standalone).
 *
 * @param model          the model that will answer (resolved, allowed and present), or {@value
 *                       dev.ragkit.generation.ExtractiveBackend#MODEL} once quoted answers stood in for it
 * @param retrievalQuery the standalone question retrieval uses when a follow-up was rewritten, else {@code null}
 */
record Asked(String model, @Nullable String retrievalQuery) {

    Asked {
        Objects.requireNonNull(model, "model");
    }

    /** @return what retrieval searches for: the rewritten question, or the question as asked */
    String query(RagRequest request) {
        return retrievalQuery != null ? retrievalQuery : request.query();
    }

    /** @return the same question, answered by {@code other} */
    Asked answeredBy(String other) {
        return other.equals(model) ? this : new Asked(other, retrievalQuery);
    }
}
