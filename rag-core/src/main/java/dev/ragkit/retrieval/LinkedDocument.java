package dev.ragkit.retrieval;

import dev.ragkit.store.StoredChunk;
import dev.ragkit.store.StoredDocument;
import java.util.List;
import java.util.Objects;

/**
 * A document added to the context because a relevant document links to it.
 *
 * @param document   the linked document
 * @param linkedFrom the path of the document whose link led here
 * @param depth      how many links away from the relevant documents, from 1
 * @param chunks     its chunks (without embeddings) in index order, as the retriever hands the context on; empty
 *                   where a {@link LinkResolver} names the document and its chunks are not loaded yet
 */
public record LinkedDocument(StoredDocument document, String linkedFrom, int depth, List<StoredChunk> chunks) {

    /**
     * Validates the arguments.
     *
     * @throws IllegalArgumentException when {@code depth < 1}
     */
    public LinkedDocument {
        Objects.requireNonNull(document, "document");
        Objects.requireNonNull(linkedFrom, "linkedFrom");
        chunks = List.copyOf(Objects.requireNonNull(chunks, "chunks"));
        if (depth < 1) {
            throw new IllegalArgumentException("depth must be at least 1, got " + depth);
        }
    }

    /**
     * A linked document whose chunks are not loaded yet: what a {@link LinkResolver} returns.
     *
     * @param document   the linked document
     * @param linkedFrom the path of the document whose link led here
     * @param depth      how many links away from the relevant documents, from 1
     */
    public LinkedDocument(StoredDocument document, String linkedFrom, int depth) {
        this(document, linkedFrom, depth, List.of());
    }

    /**
     * @param loaded the document's chunks in index order
     * @return this link with its chunks
     */
    public LinkedDocument withChunks(List<StoredChunk> loaded) {
        return new LinkedDocument(document, linkedFrom, depth, loaded);
    }
}
