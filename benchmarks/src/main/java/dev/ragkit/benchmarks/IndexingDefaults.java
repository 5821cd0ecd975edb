package dev.ragkit.benchmarks;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ragkit.chunk.Chunker;
import dev.ragkit.embedding.Embedder;
import dev.ragkit.embedding.Embedders;
import dev.ragkit.ingest.IndexReport;
import dev.ragkit.ingest.Indexer;
import dev.ragkit.chunk.TokenWindowChunker;
import dev.ragkit.store.inmemory.InMemoryDocumentStore;
import dev.ragkit.tokens.TokenCounters;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What reading every word costs: the indexer with the chunking RagKit used before (windows of 500 cl100k tokens with
 * 50 overlap, of which all-MiniLM-L6-v2 reads the first 128 word pieces) beside today's default
 * ({@link TokenWindowChunker#forEmbedder}: windows the model reads whole), on the same files, the same model, in one
 * JVM, alternating, three rounds. Documents/s, chunks and the word pieces the model reads.
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar dev.ragkit.benchmarks.IndexingDefaults &lt;beir-dir&gt; [documents]
 *      [embedder]
 * </pre>
 */
public final class IndexingDefaults {

    private IndexingDefaults() {
    }

    /**
     * @param args a BEIR dataset folder (its corpus becomes one text file per document), how many documents (default
     *             600), the embedder (default all-minilm-l6-v2-q)
     * @throws IOException when a file cannot be read or written
     */
    public static void main(String[] args) throws IOException {
        Path corpus = Path.of(args[0]).resolve("corpus.jsonl");
        int limit = args.length > 1 ? Integer.parseInt(args[1]) : 600;
        String name = args.length > 2 ? args[2] : "all-minilm-l6-v2-q";
        Path folder = Files.createTempDirectory("ragkit-indexing-defaults");
        ObjectMapper json = new ObjectMapper();
        int n = 0;
        for (String line : Files.readAllLines(corpus)) {
            if (n == limit) {
                break;
            }
            JsonNode d = json.readTree(line);
            Files.writeString(folder.resolve("doc-" + n++ + ".txt"),
                    (d.path("title").asText("") + "\n" + d.path("text").asText("")).strip());
        }
        Embedder embedder = Embedders.load(name);
        embedder.embed(List.of("warm up"));
        Map<String, Chunker> configurations = new LinkedHashMap<>();
        configurations.put("before: 500/50 cl100k", TokenWindowChunker.builder().counter(TokenCounters.jtokkit())
                .build());
        configurations.put("after: forEmbedder", TokenWindowChunker.forEmbedder(embedder));
        System.out.printf(Locale.ROOT, "%d documents of %s, %s%n", n, corpus, name);
        for (int round = 1; round <= 3; round++) {
            for (Map.Entry<String, Chunker> c : configurations.entrySet()) {
                try (InMemoryDocumentStore store = InMemoryDocumentStore.builder().build()) {
                    long start = System.nanoTime();
                    IndexReport r = Indexer.builder().store(store).embedder(embedder).tenant("t")
                            .chunker(c.getValue()).incremental(false).build().index(folder);
                    double seconds = (System.nanoTime() - start) / 1e9;
                    long read = 0;
                    for (var d : store.documents(dev.ragkit.store.Scope.of("t"))) {
                        for (var chunk : store.chunksWithoutEmbeddings(dev.ragkit.store.Scope.of("t"), d.id())) {
                            int tokens = embedder.inputTokens(chunk.text());
                            read += embedder.maxInputTokens() > 0 ? Math.min(tokens, embedder.maxInputTokens())
                                    : tokens;
                        }
                    }
                    System.out.printf(Locale.ROOT, "round %d  %-24s %5d chunks  %8d word pieces read  %5.1f s  "
                            + "%6.1f documents/s%n", round, c.getKey(), r.chunks(), read, seconds,
                            r.filesIndexed() / seconds);
                }
            }
        }
    }
}
