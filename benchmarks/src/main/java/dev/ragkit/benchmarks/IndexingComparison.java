package dev.ragkit.benchmarks;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.langchain4j.data.document.Document;
import dev.langchain4j.data.document.loader.FileSystemDocumentLoader;
import dev.langchain4j.data.document.DocumentParser;
import dev.langchain4j.data.document.parser.TextDocumentParser;
import dev.langchain4j.data.document.parser.apache.pdfbox.ApachePdfBoxDocumentParser;
import dev.langchain4j.data.document.splitter.DocumentSplitters;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.langchain4j.model.embedding.onnx.allminilml6v2.AllMiniLmL6V2EmbeddingModel;
import dev.langchain4j.model.embedding.onnx.allminilml6v2q.AllMiniLmL6V2QuantizedEmbeddingModel;
import dev.langchain4j.store.embedding.EmbeddingStoreIngestor;
import dev.langchain4j.store.embedding.inmemory.InMemoryEmbeddingStore;
import dev.ragkit.chunk.TokenWindowChunker;
import dev.ragkit.embedding.Embedder;
import dev.ragkit.embedding.Embedders;
import dev.ragkit.ingest.IndexReport;
import dev.ragkit.ingest.Indexer;
import dev.ragkit.langchain4j.LangChain4jEmbedder;
import dev.ragkit.store.inmemory.InMemoryDocumentStore;
import dev.ragkit.tokens.TokenCounters;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Indexing throughput, side by side in one JVM: a folder of the corpus's documents as text files, indexed by
 * RagKit's {@code Indexer} (into its in-memory store) and by LangChain4j's {@code EmbeddingStoreIngestor} (loading
 * the same files with its {@code FileSystemDocumentLoader}, splitting with {@code DocumentSplitters.recursive(500,
 * 50)} on the same cl100k_base token counts, into its {@code InMemoryEmbeddingStore}), both with the same in-process
 * all-MiniLM-L6-v2 model instance. The model is warmed up first; the two run alternately, three rounds each.
 *
 * <pre>{@code
 * mvn -B -q -pl benchmarks -am package -DskipTests
 * java -cp benchmarks/target/benchmarks.jar dev.ragkit.benchmarks.IndexingComparison ../shared/datasets/cranfield 1400
 * # the quantized model, for both libraries
 * java -cp benchmarks/target/benchmarks.jar dev.ragkit.benchmarks.IndexingComparison ../shared/datasets/cranfield 1400 q
 * # the same documents as PDFs (written by PDFBox first), parsed by RagKit's PdfDocumentParser and by LangChain4j's
 * # ApachePdfBoxDocumentParser, the same chunks on both sides
 * java -cp benchmarks/target/benchmarks.jar dev.ragkit.benchmarks.IndexingComparison <scifact> 1500 q own same-chunks pdf
 * }</pre>
 */
public final class IndexingComparison {
    private IndexingComparison() {
    }

    /**
     * @param args the BEIR dataset folder, how many documents (default all), {@code q} for the quantized model (else
     *             {@code f}), {@code lc4j-model} to give RagKit LangChain4j's model instance (else {@code own}), and
     *             {@code same-chunks} to give RagKit LangChain4j's chunking (else {@code own}), and {@code pdf} to write
     *             the documents as PDFs (else text files)
     * @throws IOException when the files cannot be written
     */
    public static void main(String[] args) throws IOException {
        Path dataset = Path.of(args.length > 0 ? args[0] : "../shared/datasets/cranfield");
        int limit = args.length > 1 ? Integer.parseInt(args[1]) : Integer.MAX_VALUE;
        Path folder = Files.createTempDirectory("ragkit-indexing");
        boolean pdf = args.length > 5 && args[5].equals("pdf");
        int docs = writeCorpus(dataset.resolve("corpus.jsonl"), folder, limit, pdf);
        boolean quantized = args.length > 2 && args[2].equals("q");
        EmbeddingModel model = quantized ? new AllMiniLmL6V2QuantizedEmbeddingModel() : new AllMiniLmL6V2EmbeddingModel();
        String name = quantized ? "all-minilm-l6-v2-q" : "all-minilm-l6-v2";
        // RagKit embeds with its own run of the same ONNX and tokenizer files (Embedders.load), LangChain4j with its
        // model class; the vectors are the same (InProcessEmbedderProviderTest). "lc4j-model" as the fourth argument
        // gives RagKit LangChain4j's model instance instead, to compare the indexing pipelines alone.
        boolean sameInstance = args.length > 3 && args[3].equals("lc4j-model");
        // "same-chunks" as the fifth argument gives RagKit LangChain4j's chunking (500 cl100k tokens, 50 overlap, of
        // which the model reads the first 128 word pieces): the same embedding work on both sides. Without it each
        // library cuts as it does by default, and RagKit embeds all the text in windows the model reads whole.
        boolean sameChunks = args.length > 4 && args[4].equals("same-chunks");
        Embedder ragkitEmbedder = sameInstance ? LangChain4jEmbedder.of(model, name, 384) : Embedders.load(name);
        ragkitEmbedder.embed(List.of("warm up the model"));
        model.embed("warm up the model");
        DocumentParser peerParser = pdf ? new ApachePdfBoxDocumentParser() : new TextDocumentParser();
        System.out.printf(Locale.ROOT, "%d %s documents from %s, %s, %d cores, RagKit chunks: %s%n", docs,
                pdf ? "PDF" : "text", dataset, name, Runtime.getRuntime().availableProcessors(), sameChunks ? "LangChain4j's (500/50 cl100k)"
                        : "its default (windows the embedder reads whole)");
        for (int round = 1; round <= 3; round++) {
            long t = System.nanoTime();
            IndexReport report;
            try (InMemoryDocumentStore store = InMemoryDocumentStore.builder().build()) {
                Indexer.Builder indexer = Indexer.builder().store(store).embedder(ragkitEmbedder).tenant("bench");
                if (sameChunks) {
                    indexer.chunker(TokenWindowChunker.builder().counter(TokenCounters.jtokkit())
                            .maxTokens(TokenWindowChunker.DEFAULT_MAX_TOKENS)
                            .overlapTokens(TokenWindowChunker.DEFAULT_OVERLAP_TOKENS).build());
                }
                report = indexer.build().index(folder);
            }
            double ragkit = (System.nanoTime() - t) / 1e9;
            t = System.nanoTime();
            List<Document> loaded = FileSystemDocumentLoader.loadDocuments(folder, peerParser);
            InMemoryEmbeddingStore<TextSegment> store = new InMemoryEmbeddingStore<>();
            EmbeddingStoreIngestor.builder().documentSplitter(DocumentSplitters.recursive(500, 50,
                    new JtokkitTokenCountEstimator(com.knuddels.jtokkit.Encodings.newDefaultEncodingRegistry()
                            .getEncoding(com.knuddels.jtokkit.api.EncodingType.CL100K_BASE)))).embeddingModel(model).embeddingStore(store).build()
                    .ingest(loaded);
            double peer = (System.nanoTime() - t) / 1e9;
            System.out.printf(Locale.ROOT, "round %d: RagKit Indexer %.1f s (%.1f documents/s, %d chunks), LangChain4j "
                    + "EmbeddingStoreIngestor %.1f s (%.1f documents/s); ratio %.2f%n", round, ragkit, docs / ragkit,
                    report.chunks(), peer, docs / peer, peer / ragkit);
        }
    }

    private static int writeCorpus(Path corpus, Path folder, int limit, boolean pdf) throws IOException {
        ObjectMapper json = new ObjectMapper();
        int n = 0;
        try (BufferedReader in = Files.newBufferedReader(corpus, StandardCharsets.UTF_8)) {
            for (String line; (line = in.readLine()) != null && n < limit; ) {
                if (line.isBlank()) {
                    continue;
                }
                JsonNode doc = json.readTree(line);
                String text = (doc.path("title").asText("") + "\n" + doc.path("text").asText("")).strip();
                if (text.isEmpty()) {
                    continue;
                }
                if (pdf) {
                    writePdf(folder.resolve("doc-" + doc.path("_id").asText() + ".pdf"), text);
                } else {
                    Files.writeString(folder.resolve("doc-" + doc.path("_id").asText() + ".txt"), text + "\n",
                            StandardCharsets.UTF_8);
                }
                n++;
            }
        }
        return n;
    }

    /**
     * Writes the text as a PDF of A4 pages, 45 lines of at most 95 characters a page, in Times (a standard font, so
     * characters outside printable ASCII become spaces).
     */
    private static void writePdf(Path file, String text) throws IOException {
        StringBuilder ascii = new StringBuilder(text.length());
        text.chars().forEach(c -> ascii.append(c >= 0x20 && c < 0x7f ? (char) c : ' '));
        List<String> lines = new ArrayList<>();
        for (String paragraph : ascii.toString().split("\n")) {
            StringBuilder line = new StringBuilder();
            for (String word : paragraph.trim().split(" +")) {
                if (line.length() > 0 && line.length() + 1 + word.length() > 95) {
                    lines.add(line.toString());
                    line.setLength(0);
                }
                line.append(line.length() > 0 ? " " : "").append(word);
            }
            lines.add(line.toString());
        }
        Files.write(file, PdfPages.write(lines, 45));
    }
}
