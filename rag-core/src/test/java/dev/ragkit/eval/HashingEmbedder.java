package dev.ragkit.eval;

import dev.ragkit.ingest.Embedder;
import java.util.List;
import java.util.Locale;

/**
 * A toy embedder for tests: hashed bag of lower-cased words into {@value #DIMENSION} buckets, L2-normalised.
 * Deterministic and offline; it carries lexical overlap only, no semantics.
 */
final class HashingEmbedder implements Embedder {
    static final int DIMENSION = 64;

    @Override
    public float[][] embed(List<String> texts) {
        float[][] out = new float[texts.size()][];
        for (int i = 0; i < out.length; i++) {
            out[i] = embedOne(texts.get(i));
        }
        return out;
    }

    private static float[] embedOne(String text) {
        float[] v = new float[DIMENSION];
        for (String word : text.toLowerCase(Locale.ROOT).split("[^\\p{L}\\p{N}]+")) {
            if (!word.isEmpty()) {
                int h = word.hashCode() * 0x9E3779B9;
                v[Math.floorMod(h, DIMENSION)] += (h & 0x4000_0000) == 0 ? 1f : -1f;
            }
        }
        double norm = 0;
        for (float x : v) {
            norm += x * x;
        }
        if (norm == 0) {
            v[0] = 1f;
            return v;
        }
        for (int i = 0; i < v.length; i++) {
            v[i] /= (float) Math.sqrt(norm);
        }
        return v;
    }

    @Override
    public int dimension() {
        return DIMENSION;
    }

    @Override
    public String name() {
        return "test-hashing-bow-64";
    }
}
