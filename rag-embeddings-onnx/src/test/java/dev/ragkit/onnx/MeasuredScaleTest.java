package dev.ragkit.onnx;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ragkit.embedding.Embedder;
import dev.ragkit.embedding.Embedders;
import dev.ragkit.embedding.SimilarityScale;
import dev.ragkit.internal.Vectors;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The scale RagKit measures for an embedder that states none agrees with the scales the in-process models state
 * (fitted on public question-answering data): each model, its stated scale hidden as an Ollama model or a user's own
 * has none, is measured, and questions with an answering, a related and an unrelated passage land where the stated
 * scale puts them. A scale measured on unrelated text alone put all-MiniLM-L6-v2's answers 1.2 to 1.6 spreads
 * higher.
 */
final class MeasuredScaleTest {

    /** Question, answering passage, passage on the subject that does not answer, unrelated passage. */
    private static final List<List<String>> PROBES = List.of(
            List.of("When did the Berlin Wall fall?",
                    "The Berlin Wall fell on 9 November 1989, when East Germany opened its border crossings.",
                    "Berlin is the capital of Germany and its largest city, with about 3.8 million inhabitants.",
                    "A good espresso needs finely ground coffee and water at about 93 degrees."),
            List.of("How deep is Lake Baikal?",
                    "Lake Baikal reaches a depth of 1,642 metres, which makes it the deepest lake on Earth.",
                    "Lake Baikal lies in southern Siberia and is home to the Baikal seal.",
                    "The offside rule in football was first written down in 1863."),
            List.of("What does a thermostat do in a heating system?",
                    "A thermostat measures the room temperature and switches the boiler on or off to keep it at the "
                            + "chosen setting.",
                    "Central heating became common in European homes after the Second World War.",
                    "Penguins live almost exclusively in the Southern Hemisphere."));

    @Test
    void estimate_ofEachInProcessModelWithItsScaleHidden_agreesWithItsStatedScale() {
        for (String name : List.of("all-minilm-l6-v2-q", "all-minilm-l6-v2", "bge-small-en-v1.5-q",
                "bge-small-en-v1.5")) {
            Embedder model = Embedders.load(name);
            SimilarityScale stated = model.similarityScale();
            SimilarityScale measured = SimilarityScale.estimate(model);
            for (List<String> probe : PROBES) {
                float[] question = model.embedQueries(List.of(probe.get(0)))[0];
                float[][] passages = model.embed(probe.subList(1, 4));
                for (float[] passage : passages) {
                    double cosine = Vectors.cosine(question, passage);
                    assertThat(measured.standardise(cosine)).as("%s, %s", name, probe.get(0))
                            .isCloseTo(stated.standardise(cosine), org.assertj.core.data.Offset.offset(0.6));
                }
                // and the scale still tells the answer from the rest
                assertThat(measured.standardise(Vectors.cosine(question, passages[0])))
                        .isGreaterThan(measured.standardise(Vectors.cosine(question, passages[2])) + 3);
            }
        }
    }
}
