package dev.ragkit.testing;

import dev.ragkit.embedding.Embedder;

import dev.ragkit.error.RagException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * A deterministic test embedder: a hashed bag of words (lower-cased runs of letters and digits), plus one
 * constant component so no vector is all zero. It records every call, can fail on texts containing a marker,
 * and can pass its output through a function to produce garbage on purpose.
 */
public final class RecordingEmbedder implements Embedder {

    private final String name;
    private final int dimension;
    private final List<List<String>> calls = new ArrayList<>();
    private volatile String failMarker = null;
    private volatile UnaryOperator<float[][]> tamper = UnaryOperator.identity();

    public RecordingEmbedder() {
        this("fake-bow", 64);
    }

    public RecordingEmbedder(String name, int dimension) {
        this.name = name;
        this.dimension = dimension;
    }

    /** Makes every batch that contains a text with {@code marker} fail with a {@link RagException}. */
    public RecordingEmbedder failOn(String marker) {
        this.failMarker = marker;
        return this;
    }

    /** Passes every answer through {@code tamper} before returning it. */
    public RecordingEmbedder tamper(UnaryOperator<float[][]> tamper) {
        this.tamper = tamper;
        return this;
    }

    @Override
    public float[][] embed(List<String> texts) {
        synchronized (calls) {
            calls.add(List.copyOf(texts));
        }
        String marker = failMarker;
        float[][] out = new float[texts.size()][];
        for (int i = 0; i < texts.size(); i++) {
            String text = texts.get(i);
            if (marker != null && text.contains(marker)) {
                throw new RagException("embedding model '" + name + "' is unreachable (test failure)");
            }
            out[i] = vector(text, dimension);
        }
        return tamper.apply(out);
    }

    /** The vector this embedder gives {@code text}. */
    public static float[] vector(String text, int dimension) {
        return HashedBagOfWordsEmbedder.vector(text, dimension);
    }

    public float[] vector(String text) {
        return vector(text, dimension);
    }

    @Override
    public int dimension() {
        return dimension;
    }

    @Override
    public String name() {
        return name;
    }

    /** Every batch received, in order. */
    public List<List<String>> calls() {
        synchronized (calls) {
            return List.copyOf(calls);
        }
    }

    /** How many texts were received in all. */
    public int textsEmbedded() {
        synchronized (calls) {
            return calls.stream().mapToInt(List::size).sum();
        }
    }
}
