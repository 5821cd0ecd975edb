package dev.ragkit.retrieval;

import dev.ragkit.store.StoredDocument;
import java.util.Objects;

/**
 * A document added to the context because a relevant document links to it.
 *
 * @param document   the linked document
 * @param linkedFrom the path of the document whose link led here
 * @param depth      how many links away from the relevant documents, from 1
 */
public record LinkedDocument(StoredDocument document, String linkedFrom, int depth) {

    /**
     * Validates the arguments.
     *
     * @throws IllegalArgumentException when {@code depth < 1}
     */
    public LinkedDocument {
        Objects.requireNonNull(document, "document");
        Objects.requireNonNull(linkedFrom, "linkedFrom");
        if (depth < 1) {
            throw new IllegalArgumentException("depth must be at least 1, got " + depth);
        }
    }
}
