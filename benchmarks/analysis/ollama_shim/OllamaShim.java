import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpServer;
import dev.ragkit.embedding.Embedder;
import java.lang.reflect.Method;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.zip.ZipFile;

/**
 * Analysis only (not built, not tested): an Ollama-shaped {@code POST /api/embed} over ONNX embedding models from
 * LangChain4j's model jars, so that {@code ragkit eval --embedder ollama:<model>} runs through RagKit's own Ollama
 * client on an embedder that states no similarity scale and cannot count its tokens, as a real Ollama model. Vectors
 * are L2-normalised, as Ollama returns them; no query instruction is added, as Ollama adds none. Reaches the
 * package-private {@code OnnxEmbedder.load} by reflection, to serve a model RagKit does not name (e5-small-v2).
 *
 * <pre>
 * java -cp rag-cli/target/rag-cli-0.1.0-SNAPSHOT.jar benchmarks/analysis/ollama_shim/OllamaShim.java 11500 \
 *     all-minilm=&lt;all-minilm-l6-v2-q jar&gt;:all-minilm-l6-v2-q:MEAN:256 \
 *     bge-small=&lt;bge-small-en-v15-q jar&gt;:bge-small-en-v1.5-q:CLS:512 \
 *     e5-small=&lt;e5-small-v2-q jar&gt;:e5-small-v2-q:MEAN:512
 * OLLAMA_BASE_URL=http://127.0.0.1:11500 java -jar rag-cli.jar eval &lt;set&gt; --embedder ollama:all-minilm
 * </pre>
 * Arguments: the port, then {@code name=jar:file:pooling:maxTokens} per model (the jar's {@code file.onnx} and
 * {@code file-tokenizer.json}, MEAN or CLS pooling, the word pieces it reads).
 */
public class OllamaShim {
    public static void main(String[] args) throws Exception {
        ObjectMapper json = new ObjectMapper();
        Map<String, Embedder> models = new HashMap<>();
        Class<?> onnx = Class.forName("dev.ragkit.onnx.OnnxEmbedder");
        Class<?> pooling = Class.forName("dev.ragkit.onnx.OnnxEmbedder$Pooling");
        Method load = null;
        for (Method m : onnx.getDeclaredMethods()) {
            if (m.getName().equals("load") && m.getParameterCount() == 9) {
                load = m;
            }
        }
        load.setAccessible(true);
        for (int i = 1; i < args.length; i++) {
            String[] nv = args[i].split("=", 2);
            String[] p = nv[1].split(":");
            byte[] model;
            byte[] tok;
            try (ZipFile z = new ZipFile(p[0])) {
                model = z.getInputStream(z.getEntry(p[1] + ".onnx")).readAllBytes();
                tok = z.getInputStream(z.getEntry(p[1] + "-tokenizer.json")).readAllBytes();
            }
            @SuppressWarnings({"unchecked", "rawtypes"})
            Object pool = Enum.valueOf((Class) pooling, p[2]);
            models.put(nv[0], (Embedder) load.invoke(null, nv[0], model, tok, pool, Integer.parseInt(p[3]), 384, "",
                    null, 2));
            System.err.println("loaded " + nv[0]);
        }
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", Integer.parseInt(args[0])), 16);
        server.setExecutor(Executors.newFixedThreadPool(2));
        server.createContext("/api/embed", ex -> {
            try {
                JsonNode body = json.readTree(ex.getRequestBody());
                Embedder e = models.get(body.get("model").asText());
                byte[] out;
                int code;
                if (e == null) {
                    code = 404;
                    out = json.writeValueAsBytes(Map.of("error", "model not found"));
                } else {
                    List<String> in = new ArrayList<>();
                    JsonNode input = body.get("input");
                    if (input.isArray()) {
                        input.forEach(t -> in.add(t.asText()));
                    } else {
                        in.add(input.asText());
                    }
                    float[][] v = e.embed(in);
                    ObjectNode r = json.createObjectNode().put("model", body.get("model").asText());
                    ArrayNode a = r.putArray("embeddings");
                    for (float[] x : v) {
                        double n = 0;
                        for (float f : x) {
                            n += f * f;
                        }
                        n = Math.sqrt(n);
                        ArrayNode row = a.addArray();
                        for (float f : x) {
                            row.add(f / n);
                        }
                    }
                    code = 200;
                    out = json.writeValueAsBytes(r);
                }
                ex.getResponseHeaders().add("Content-Type", "application/json");
                ex.sendResponseHeaders(code, out.length);
                ex.getResponseBody().write(out);
            } catch (Exception t) {
                t.printStackTrace();
                byte[] out = ("{\"error\":\"" + t + "\"}").getBytes();
                ex.sendResponseHeaders(500, out.length);
                ex.getResponseBody().write(out);
            } finally {
                ex.close();
            }
        });
        server.start();
        System.err.println("listening " + args[0]);
    }
}
