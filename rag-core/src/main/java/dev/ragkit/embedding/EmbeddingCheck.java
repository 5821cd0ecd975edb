package dev.ragkit.embedding;

import dev.ragkit.error.RagException;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Checks what an {@link Embedder} returned before anything is cached or stored, so that a model answering
 * garbage fails loudly, naming the model, instead of poisoning the store.
 */
public final class EmbeddingCheck {

    private EmbeddingCheck() {
    }

    /**
     * Checks one batch's vectors.
     *
     * @param embedder the embedder that produced them (for its name and dimension)
     * @param expected how many texts were sent
     * @param vectors  what came back
     * @return {@code vectors}, checked
     * @throws RagException when the count, a dimension or a value is wrong
     */
    public static float[][] check(Embedder embedder, int expected, float @Nullable [][] vectors) {
        String model = "embedding model '" + embedder.name() + "'";
        if (vectors == null) {
            throw new RagException(model + " returned no vectors for " + expected + " texts;"
                    + " check the model or its server");
        }
        if (vectors.length != expected) {
            throw new RagException(model + " returned " + vectors.length + " vectors for " + expected
                    + " texts; check the model or its server");
        }
        int dimension = embedder.dimension();
        for (int i = 0; i < vectors.length; i++) {
            float[] vector = vectors[i];
            if (vector == null) {
                throw new RagException(model + " returned no vector for text " + i + " of " + expected
                        + "; check the model or its server");
            }
            if (vector.length != dimension) {
                throw new RagException(model + " returned a vector of dimension " + vector.length + " for text "
                        + i + ", but declares dimension " + dimension
                        + "; fix the embedder's dimension() or the model it calls");
            }
            boolean nonZero = false;
            for (int j = 0; j < vector.length; j++) {
                float v = vector[j];
                if (!Float.isFinite(v)) {
                    throw new RagException(model + " returned a non-finite value (" + v + ") at position " + j
                            + " of the vector for text " + i + "; the model's output is unusable,"
                            + " check the model or its server");
                }
                nonZero |= v != 0f;
            }
            if (!nonZero) {
                throw new RagException(model + " returned an all-zero vector for text " + i
                        + ", which has no direction for cosine similarity; check the model or its server");
            }
        }
        return vectors;
    }

    /**
     * The input check every embedder makes: a non-empty list of non-blank texts.
     *
     * @param texts the texts or queries
     * @param what  {@code "text"} or {@code "query"}, for the messages
     * @return {@code texts}
     * @throws IllegalArgumentException when the list is empty or a text is blank (models reject or misread those)
     */
    public static List<String> texts(List<String> texts, String what) {
        Objects.requireNonNull(texts, what + "s");
        if (texts.isEmpty()) {
            throw new IllegalArgumentException(what + "s must not be empty");
        }
        for (int i = 0; i < texts.size(); i++) {
            String text = Objects.requireNonNull(texts.get(i), what);
            if (text.isBlank()) {
                throw new IllegalArgumentException(what + " " + i + " of " + texts.size() + " is blank; embedding "
                        + "models reject blank texts, so leave it out");
            }
        }
        return texts;
    }
}
