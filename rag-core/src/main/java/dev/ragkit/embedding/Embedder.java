package dev.ragkit.embedding;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Turns texts into vectors. Implementations are thread-safe. Wrap one in {@link CachingEmbedder} to avoid
 * embedding the same text twice; load one by name with {@link Embedders#load(String)}.
 *
 * <p>Documents and search queries may be embedded differently: models trained with a query instruction (BAAI's bge
 * family: "Represent this sentence for searching relevant passages: ") want it before queries only, so retrieval
 * calls {@link #embedQueries(List)} and indexing calls {@link #embed(List)}.
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
     * Embeds search queries, to be compared with vectors that {@link #embed(List)} made of documents. The default
     * embeds them like documents; a model that wants a query instruction adds it here.
     *
     * @param queries the queries, not empty
     * @return one vector per query, in the same order, each of {@link #dimension()} finite values
     * @throws dev.ragkit.error.RagException when the model cannot be reached or answers garbage
     */
    default float[][] embedQueries(List<String> queries) {
        return embed(queries);
    }

    /**
     * The most tokens of the model's own tokenizer it reads from one text (special tokens included): longer texts
     * are truncated or embedded in parts and averaged, either way worse. The indexer reports chunks over it.
     *
     * @return the limit, or 0 when unknown or unlimited
     */
    default int maxInputTokens() {
        return 0;
    }

    /**
     * How many tokens of the model's own tokenizer {@code text} is, as {@link #maxInputTokens()} counts them.
     *
     * @param text the text
     * @return the count, or -1 when this embedder cannot tell
     */
    default int inputTokens(String text) {
        return -1;
    }

    /**
     * Where this model's cosine similarities lie for unrelated texts, so that retrieval can compare them with other
     * models' ({@link SimilarityScale}). The default, {@code null}, lets retrieval measure the scale once on RagKit's
     * unrelated question and passage pairs ({@link SimilarityScale#estimate}); a model whose scale is known states
     * it, and a wrapper passes its delegate's on.
     *
     * @return the scale, or {@code null} to have it measured
     */
    default @Nullable SimilarityScale similarityScale() {
        return null;
    }

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
