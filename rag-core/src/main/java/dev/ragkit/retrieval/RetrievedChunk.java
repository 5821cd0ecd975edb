package dev.ragkit.retrieval;

import dev.ragkit.store.StoredChunk;
import dev.ragkit.store.StoredDocument;
import java.util.Objects;

/**
 * A chunk that retrieval kept, with every score it went through, so a response can show both the raw and
 * the boosted relevance.
 *
 * @param chunk        the chunk (without its embedding)
 * @param document     its document
 * @param similarity   the raw cosine similarity from the store, in [0, 1], or {@code NaN} for keyword-only hits
 * @param relevance    the relevance the threshold compares, in [0, 1]: by default the calibrated estimate that the
 *                     chunk holds the answer ({@link RelevanceModel})
 * @param boosted      the score retrieval ranks by, in [0, 1]: the store's scores fused ({@link ScoreFusion}: the
 *                     cosine, or cosine and BM25 combined) after the promotion boost
 */
public record RetrievedChunk(StoredChunk chunk, StoredDocument document, double similarity, double relevance,
        double boosted, double reranked) {

    /**
     * A chunk not reranked ({@link #reranked()} is NaN).
     *
     * @param chunk      the chunk
     * @param document   its document
     * @param similarity the raw cosine similarity, or NaN
     * @param relevance  the fused score
     * @param boosted    the fused score after promotion boosts
     */
    public RetrievedChunk(StoredChunk chunk, StoredDocument document, double similarity, double relevance,
            double boosted) {
        this(chunk, document, similarity, relevance, boosted, Double.NaN);
    }

    /**
     * Validates the arguments.
     *
     * @throws IllegalArgumentException when a score is outside [0, 1] (the similarity may also be NaN) or the
     *                                  chunk does not belong to the document
     */
    public RetrievedChunk {
        Objects.requireNonNull(chunk, "chunk");
        Objects.requireNonNull(document, "document");
        if (!chunk.documentId().equals(document.id())) {
            throw new IllegalArgumentException("chunk " + chunk.sourceId() + " does not belong to " + document.id());
        }
        if (!Double.isNaN(similarity)) {
            requireUnit(similarity, "similarity");
        }
        requireUnit(relevance, "relevance");
        requireUnit(boosted, "boosted");
        if (!Double.isNaN(reranked)) {
            requireUnit(reranked, "reranked");
        }
    }

    /**
     * @return the chunk's citation id, {@code documentId:index}
     */
    public String sourceId() {
        return chunk.sourceId();
    }

    private static void requireUnit(double value, String name) {
        if (!(value >= 0 && value <= 1)) {
            throw new IllegalArgumentException(name + " must be in [0, 1], got " + value);
        }
    }
}
