package dev.ragkit.ingest;

import java.util.List;

/**
 * Turns texts into vectors. Implementations are thread-safe. Wrap one in {@link CachingEmbedder} to avoid
 * embedding the same text twice.
 */
public interface Embedder {

    /**
     * Embeds a batch of texts.
     *
     * @param texts the texts, not empty
     * @return one vector per text, in the same order, each of {@link #dimension()} finite values
     * @throws dev.ragkit.error.RagException when the model cannot be reached or answers garbage
     */
    float[][] embed(List<String> texts);

    /**
     * @return the length of every vector this embedder returns
     */
    int dimension();

    /**
     * The model's name, used in cache keys and reports.
     *
     * @return e.g. {@code all-minilm-l6-v2}
     */
    String name();
}
