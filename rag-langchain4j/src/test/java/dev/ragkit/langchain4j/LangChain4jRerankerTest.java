package dev.ragkit.langchain4j;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.model.output.Response;
import dev.langchain4j.model.scoring.ScoringModel;
import dev.ragkit.error.RagException;
import dev.ragkit.retrieval.RetrievedChunk;
import dev.ragkit.store.StoredChunk;
import dev.ragkit.store.StoredDocument;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class LangChain4jRerankerTest {
    private final StoredDocument doc = StoredDocument.builder().tenant("t").path("keys.md").build();
    private final List<RetrievedChunk> candidates = List.of(
            new RetrievedChunk(new StoredChunk(doc.id(), 0, "The office closes in August.", null, 5, 1, 1, null, null),
                    doc, 0.6, 0.6, 0.6),
            new RetrievedChunk(new StoredChunk(doc.id(), 1, "API keys rotate every ninety days.", null, 5, 2, 2,
                    "Keys > Rotation", null), doc, 0.5, 0.5, 0.5));

    /** Scores each segment by whether it mentions "rotate", as logits. */
    private final List<String> seen = new ArrayList<>();
    private final ScoringModel logits = (segments, query) -> {
        segments.forEach(s -> seen.add(s.text()));
        return Response.from(segments.stream().map(s -> s.text().contains("rotate") ? 3.0 : -2.0).toList());
    };

    @Test
    void logitsBecomeUnitScoresAndTheSectionIsScoredWithTheText() {
        double[] scores = new LangChain4jReranker(logits, "test-cross-encoder").scores("How often do keys rotate?",
                candidates);

        assertThat(scores[1]).isGreaterThan(0.9);
        assertThat(scores[0]).isLessThan(0.2);
        assertThat(seen.get(1)).startsWith("Keys > Rotation\n");
    }

    @Test
    void aModelReturningTheWrongNumberOfScoresOrFailing_isARagExceptionNamingIt() {
        ScoringModel one = (segments, query) -> Response.from(List.of(0.5));
        ScoringModel failing = (segments, query) -> {
            throw new IllegalStateException("HTTP 500");
        };
        assertThatThrownBy(() -> new LangChain4jReranker(one, "short").scores("q", candidates))
                .isInstanceOf(RagException.class).hasMessageContaining("short").hasMessageContaining("1 scores for 2");
        assertThatThrownBy(() -> new LangChain4jReranker(failing, "remote").scores("q", candidates))
                .isInstanceOf(RagException.class).hasMessageContaining("remote").hasMessageContaining("HTTP 500");
    }
}
