package dev.ragkit.retrieval;

import dev.ragkit.internal.KeyTerms;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * A cheap reranker without a model: the boosted score blended with how many of the question's key terms the chunk,
 * its section and its title contain (a term counts when a word starts with its first five letters, a crude stem
 * that matches "rotate", "rotation" and "rotating"). {@code weight} is the share of the overlap in the blend.
 */
final class TermOverlapReranker implements Reranker {
    private static final int STEM = 5;
    private final double weight;

    /** @param weight the overlap's share of the new score, in [0, 1] (e.g. 0.3) */
    TermOverlapReranker(double weight) {
        if (!(weight >= 0 && weight <= 1)) {
            throw new IllegalArgumentException("weight must be in [0, 1], got " + weight);
        }
        this.weight = weight;
    }

    @Override
    public double[] scores(String query, List<RetrievedChunk> candidates) {
        Set<String> terms = stems(KeyTerms.of(query.toLowerCase(Locale.ROOT)));
        double[] out = new double[candidates.size()];
        for (int i = 0; i < out.length; i++) {
            RetrievedChunk c = candidates.get(i);
            double overlap = 0;
            if (!terms.isEmpty()) {
                Set<String> words = stems(KeyTerms.of((c.chunk().text() + " " + c.document().title() + " "
                        + (c.chunk().section() == null ? "" : c.chunk().section())).toLowerCase(Locale.ROOT)));
                int found = 0;
                for (String t : terms) {
                    if (words.contains(t)) {
                        found++;
                    }
                }
                overlap = (double) found / terms.size();
            }
            out[i] = (1 - weight) * c.boosted() + weight * overlap;
        }
        return out;
    }

    private static Set<String> stems(Set<String> words) {
        Set<String> out = new HashSet<>();
        for (String w : words) {
            out.add(w.length() > STEM ? w.substring(0, STEM) : w);
        }
        return out;
    }
}
