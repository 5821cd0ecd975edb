package dev.ragkit.benchmarks;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A stand-in for an Ollama server that answers {@code POST /api/embed} at once with a deterministic unit vector per
 * text (seeded by the text's hash), for measuring what {@code ragkit index} itself costs — its memory, its progress
 * line, its restarts — over a folder too large to embed with a real model in the time at hand (a million chunks of
 * all-MiniLM-L6-v2 take about 80 minutes on two cores). The vectors mean nothing: retrieval quality is measured
 * elsewhere. {@code /api/version} and {@code /api/tags} answer too, so that {@code ragkit health} sees a server.
 *
 * <pre>{@code
 * java -cp benchmarks/target/benchmarks.jar dev.ragkit.benchmarks.HashEmbeddingServer 11435 384 &
 * OLLAMA_BASE_URL=http://127.0.0.1:11435 bin/ragkit index big --embedder ollama:hash --chunk-tokens 120
 * }</pre>
 */
public final class HashEmbeddingServer {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private HashEmbeddingServer() {
    }

    /**
     * Serves until killed.
     *
     * @param args the port (0: any free one, printed), the dimension (384)
     * @throws IOException when the port cannot be bound
     */
    public static void main(String[] args) throws IOException {
        int port = args.length > 0 ? Integer.parseInt(args[0]) : 11435;
        int dimension = args.length > 1 ? Integer.parseInt(args[1]) : 384;
        AtomicLong texts = new AtomicLong();
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 64);
        server.setExecutor(Executors.newFixedThreadPool(2));
        server.createContext("/api/embed", exchange -> {
            JsonNode request = MAPPER.readTree(exchange.getRequestBody());
            StringBuilder reply = new StringBuilder(64 + request.path("input").size() * dimension * 12);
            reply.append("{\"model\":").append(MAPPER.writeValueAsString(request.path("model").asText()))
                    .append(",\"embeddings\":[");
            int i = 0;
            for (JsonNode text : request.path("input")) {
                reply.append(i++ == 0 ? "[" : ",[");
                vector(reply, text.asText(), dimension);
                reply.append(']');
            }
            reply.append("]}");
            texts.addAndGet(i);
            send(exchange, 200, reply.toString());
        });
        server.createContext("/api/version", exchange -> send(exchange, 200, "{\"version\":\"0.0.0-hash\"}"));
        server.createContext("/api/tags", exchange -> send(exchange, 200,
                "{\"models\":[{\"name\":\"hash:latest\",\"model\":\"hash:latest\"}]}"));
        server.start();
        System.out.println("HashEmbeddingServer on http://127.0.0.1:" + server.getAddress().getPort()
                + " (" + dimension + " dimensions)");
        Runtime.getRuntime().addShutdownHook(new Thread(() -> System.out.println("embedded " + texts.get()
                + " texts")));
    }

    private static void vector(StringBuilder out, String text, int dimension) {
        SplittableRandom random = new SplittableRandom(text.hashCode() * 0x9E3779B97F4A7C15L);
        double[] v = new double[dimension];
        double norm = 0;
        for (int d = 0; d < dimension; d++) {
            v[d] = random.nextDouble() - 0.5;
            norm += v[d] * v[d];
        }
        norm = Math.sqrt(norm);
        for (int d = 0; d < dimension; d++) {
            out.append(d == 0 ? "" : ",").append((float) (v[d] / norm));
        }
    }

    private static void send(HttpExchange exchange, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }
}
