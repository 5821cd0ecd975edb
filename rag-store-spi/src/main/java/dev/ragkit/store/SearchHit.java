package dev.ragkit.store;

import java.util.Objects;

/**
 * One result of {@link DocumentStore#search(SearchRequest)}.
 *
 * @param chunk        the matching chunk, without its embedding
 * @param document     the chunk's document
 * @param similarity   the cosine similarity between the query vector and the chunk's embedding, clamped to
 *                     [0, 1] (negative cosines become 0; nothing is rescaled); {@code NaN} when the request had
 *                     no query vector
 * @param keywordScore the chunk's BM25 score for the query text (0 when no query term occurs in it), or
 *                     {@code NaN} when the request had no text or the store has no keyword index
 */
public record SearchHit(StoredChunk chunk, StoredDocument document, double similarity, double keywordScore) {

    /**
     * Validates the arguments.
     *
     * @throws IllegalArgumentException when the chunk does not belong to the document, the similarity is
     *                                  outside [0, 1], or the keyword score is negative or infinite
     */
    public SearchHit {
        Objects.requireNonNull(chunk, "chunk");
        Objects.requireNonNull(document, "document");
        if (!chunk.documentId().equals(document.id())) {
            throw new IllegalArgumentException("chunk " + chunk.sourceId() + " does not belong to document "
                    + document.id());
        }
        if (!Double.isNaN(similarity) && (similarity < 0 || similarity > 1)) {
            throw new IllegalArgumentException("similarity must be in [0, 1] or NaN, got " + similarity);
        }
        if (!Double.isNaN(keywordScore) && (keywordScore < 0 || Double.isInfinite(keywordScore))) {
            throw new IllegalArgumentException("keywordScore must be finite and not negative, or NaN, got "
                    + keywordScore);
        }
    }

    /**
     * The citation id of the hit's chunk.
     *
     * @return {@code documentId:chunkIndex}
     */
    public String sourceId() {
        return chunk.sourceId();
    }
}
