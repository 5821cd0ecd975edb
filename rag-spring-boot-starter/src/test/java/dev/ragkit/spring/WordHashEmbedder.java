package dev.ragkit.spring;

import dev.ragkit.ingest.Embedder;
import java.util.List;
import java.util.Locale;

/** A deterministic bag-of-words embedder for tests: no model to download. */
final class WordHashEmbedder implements Embedder {
    @Override
    public float[][] embed(List<String> texts) {
        float[][] out = new float[texts.size()][];
        for (int i = 0; i < out.length; i++) {
            float[] v = new float[64];
            v[63] = 1;
            for (String w : texts.get(i).toLowerCase(Locale.ROOT).split("[^a-z0-9]+")) {
                if (!w.isEmpty()) {
                    v[Math.floorMod(w.hashCode(), 63)] += 1;
                }
            }
            out[i] = v;
        }
        return out;
    }

    @Override
    public int dimension() {
        return 64;
    }

    @Override
    public String name() {
        return "word-hash-64";
    }
}
