package dev.ragkit.langchain4j;

import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.model.output.Response;
import dev.langchain4j.model.scoring.ScoringModel;
import dev.ragkit.error.RagException;
import dev.ragkit.retrieval.Reranker;
import dev.ragkit.retrieval.RetrievedChunk;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A {@link Reranker} on any LangChain4j {@link ScoringModel}: in-process ONNX cross-encoders
 * ({@code langchain4j-onnx-scoring}) or hosted rerankers (Cohere, Jina, Voyage, …). Each candidate is scored as
 * "the section path, then the chunk text" against the question; scores already in [0, 1] are used as they are,
 * others (a cross-encoder's logits) go through the logistic function. Thread-safe when the model is.
 */
public final class LangChain4jReranker implements Reranker {
    private final ScoringModel model;
    private final String name;

    /**
     * @param model the scoring model
     * @param name  its name, for messages
     */
    public LangChain4jReranker(ScoringModel model, String name) {
        this.model = Objects.requireNonNull(model, "model");
        this.name = Objects.requireNonNull(name, "name");
    }

    @Override
    public double[] scores(String query, List<RetrievedChunk> candidates) {
        List<TextSegment> segments = new ArrayList<>(candidates.size());
        for (RetrievedChunk c : candidates) {
            String section = c.chunk().section();
            segments.add(TextSegment.from(section == null ? c.chunk().text() : section + "\n" + c.chunk().text()));
        }
        Response<List<Double>> response;
        try {
            response = model.scoreAll(segments, query);
        } catch (RuntimeException e) {
            throw new RagException("the reranker " + name + " failed: " + e.getMessage(), e);
        }
        List<Double> raw = response == null ? null : response.content();
        if (raw == null || raw.size() != candidates.size()) {
            throw new RagException("the reranker " + name + " returned " + (raw == null ? "nothing" : raw.size()
                    + " scores") + " for " + candidates.size() + " candidates");
        }
        boolean unit = raw.stream().allMatch(s -> s != null && s >= 0 && s <= 1);
        double[] out = new double[raw.size()];
        for (int i = 0; i < out.length; i++) {
            Double s = raw.get(i);
            if (s == null || s.isNaN()) {
                throw new RagException("the reranker " + name + " returned " + s + " for candidate " + i);
            }
            out[i] = unit ? s : 1 / (1 + Math.exp(-s));
        }
        return out;
    }

    @Override
    public String toString() {
        return "LangChain4jReranker[" + name + "]";
    }
}
