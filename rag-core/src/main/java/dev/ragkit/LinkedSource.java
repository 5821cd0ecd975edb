package dev.ragkit;

import java.util.Objects;

/**
 * A document in the prompt because a relevant document links to it.
 *
 * @param documentId the document's id
 * @param path       its path
 * @param title      its title
 * @param charCount  its length in characters
 * @param linkedFrom the path of the document whose link led here
 */
public record LinkedSource(String documentId, String path, String title, long charCount, String linkedFrom) {

    /** Validates the arguments. */
    public LinkedSource {
        Objects.requireNonNull(documentId, "documentId");
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(title, "title");
        Objects.requireNonNull(linkedFrom, "linkedFrom");
    }
}
