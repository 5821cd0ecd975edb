package dev.ragkit.testing;

import dev.ragkit.embedding.Embedder;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * The one toy embedder of RagKit's tests and example: lower-cased runs of letters and digits hashed into
 * {@code dimension − 1} buckets, plus a constant first component so that no vector is ever all zero.
 * Deterministic and offline; it carries lexical overlap only, no meaning.
 */
public class HashedBagOfWordsEmbedder implements Embedder {
    private final String name;
    private final int dimension;

    /**
     * @param name      the model name it reports
     * @param dimension the vector length, at least 2
     */
    public HashedBagOfWordsEmbedder(String name, int dimension) {
        if (dimension < 2) {
            throw new IllegalArgumentException("dimension must be at least 2, got " + dimension);
        }
        this.name = Objects.requireNonNull(name, "name");
        this.dimension = dimension;
    }

    /**
     * The vector of {@code text}.
     *
     * @param text      any text
     * @param dimension the vector length, at least 2
     * @return a new vector
     */
    public static float[] vector(String text, int dimension) {
        float[] v = new float[dimension];
        v[0] = 0.5f;
        for (String word : text.toLowerCase(Locale.ROOT).split("[^\\p{L}\\p{N}]+")) {
            if (!word.isEmpty()) {
                v[1 + Math.floorMod(word.hashCode(), dimension - 1)] += 1f;
            }
        }
        return v;
    }

    @Override
    public float[][] embed(List<String> texts) {
        float[][] out = new float[texts.size()][];
        for (int i = 0; i < out.length; i++) {
            out[i] = vector(texts.get(i), dimension);
        }
        return out;
    }

    @Override
    public int dimension() {
        return dimension;
    }

    @Override
    public String name() {
        return name;
    }
}
