package dev.ragkit.benchmarks;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.langchain4j.data.embedding.Embedding;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.langchain4j.model.embedding.onnx.allminilml6v2.AllMiniLmL6V2EmbeddingModel;
import dev.langchain4j.model.embedding.onnx.allminilml6v2q.AllMiniLmL6V2QuantizedEmbeddingModel;
import dev.ragkit.embedding.Embedder;
import dev.ragkit.embedding.Embedders;
import dev.ragkit.internal.Vectors;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Embedding alone, side by side in one JVM: the same texts through LangChain4j's in-process model class
 * ({@code embedAll}) and through RagKit's {@code OnnxEmbedder} on the same model files ({@code Embedders.load}),
 * alternately, two rounds; then how close the two vectors of each text are.
 *
 * <pre>{@code
 * mvn -B -q -pl benchmarks -am package -DskipTests
 * java -cp benchmarks/target/benchmarks.jar dev.ragkit.benchmarks.EmbedderThroughput ../shared/datasets/cranfield 600
 * java -cp benchmarks/target/benchmarks.jar dev.ragkit.benchmarks.EmbedderThroughput <scifact> 600 q
 * }</pre>
 */
public final class EmbedderThroughput {
    private EmbedderThroughput() {
    }

    /**
     * @param args the BEIR dataset folder, how many texts (default 600), and {@code q} for the quantized model
     * @throws IOException when the corpus cannot be read
     */
    public static void main(String[] args) throws IOException {
        Path corpus = Path.of(args.length > 0 ? args[0] : "../shared/datasets/cranfield").resolve("corpus.jsonl");
        int limit = args.length > 1 ? Integer.parseInt(args[1]) : 600;
        boolean quantized = args.length > 2 && args[2].equals("q");
        ObjectMapper json = new ObjectMapper();
        List<String> texts = new ArrayList<>();
        for (String line : Files.readAllLines(corpus)) {
            JsonNode doc = json.readTree(line);
            String text = (doc.path("title").asText("") + "\n" + doc.path("text").asText("")).strip();
            if (!text.isEmpty() && texts.size() < limit) {
                texts.add(text);
            }
        }
        EmbeddingModel theirs = quantized ? new AllMiniLmL6V2QuantizedEmbeddingModel() : new AllMiniLmL6V2EmbeddingModel();
        Embedder ours = Embedders.load(quantized ? "all-minilm-l6-v2-q" : "all-minilm-l6-v2");
        List<TextSegment> segments = texts.stream().map(TextSegment::from).toList();
        theirs.embed("warm up");
        ours.embed(List.of("warm up"));
        System.out.printf(Locale.ROOT, "%d texts from %s, %s, %d cores%n", texts.size(), corpus, ours.name(),
                Runtime.getRuntime().availableProcessors());
        List<Embedding> theirVectors = null;
        float[][] ourVectors = null;
        for (int round = 1; round <= 2; round++) {
            long t = System.nanoTime();
            theirVectors = theirs.embedAll(segments).content();
            double peer = (System.nanoTime() - t) / 1e9;
            t = System.nanoTime();
            ourVectors = ours.embed(texts);
            double ragkit = (System.nanoTime() - t) / 1e9;
            System.out.printf(Locale.ROOT, "round %d: LangChain4j %.1f texts/s, RagKit OnnxEmbedder %.1f texts/s; "
                    + "ratio %.2f%n", round, texts.size() / peer, texts.size() / ragkit, peer / ragkit);
        }
        double min = 1;
        for (int i = 0; i < texts.size(); i++) {
            min = Math.min(min, Vectors.cosine(ourVectors[i], theirVectors.get(i).vector()));
        }
        System.out.printf(Locale.ROOT, "lowest cosine between the two vectors of a text: %.6f%n", min);
    }
}
