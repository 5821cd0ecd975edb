package dev.ragkit.example;

import dev.ragkit.embedding.Embedder;
import dev.ragkit.ingest.IndexReport;
import dev.ragkit.ingest.Indexer;
import dev.ragkit.store.Scope;
import dev.ragkit.store.SearchHit;
import dev.ragkit.store.SearchRequest;
import dev.ragkit.store.StoredChunk;
import dev.ragkit.store.inmemory.InMemoryDocumentStore;
import dev.ragkit.testing.HashedBagOfWordsEmbedder;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * The runnable example until the {@code ragkit} CLI exists: indexes the markdown files under a folder with the
 * real ingestion pipeline (front matter, CommonMark links and sections, 500-token chunks counted with
 * {@code cl100k_base}) into the in-memory store, saves and reloads a snapshot, and answers a few searches in
 * vector, keyword and hybrid mode, printing {@code path:lines} and the section of each hit.
 *
 * <p>It embeds with a <em>toy</em> embedder ({@link HashedBagOfWordsEmbedder}, 256 dimensions) so that it
 * runs without any model; real applications plug in a real {@link Embedder}.
 *
 * <p>Run: {@code mvn -B -q -DskipTests -pl rag-core -am test-compile exec:java} (arguments:
 * {@code -Dexec.args="<folder> <query>..."}; default: this repository and three sample queries).
 */
public final class QuickStartExample {

    private QuickStartExample() {
    }

    /**
     * @param args the folder to index, then queries
     * @throws IOException when the snapshot cannot be written
     */
    public static void main(String[] args) throws IOException {
        Path root = Path.of(args.length > 0 ? args[0] : ".").toAbsolutePath().normalize();
        List<String> queries = args.length > 1 ? List.of(args).subList(1, args.length)
                : List.of("how do I run the tests", "snapshot checksum", "vector search benchmark");
        run(root, queries, Files.createTempDirectory("ragkit-example"), System.out);
    }

    static void run(Path root, List<String> queries, Path workDir, PrintStream out) throws IOException {
        Embedder embedder = new HashedBagOfWordsEmbedder("toy-hashed-bag-of-words", 256);
        InMemoryDocumentStore store = InMemoryDocumentStore.builder().dimension(embedder.dimension()).build();
        IndexReport report = Indexer.builder().store(store).embedder(embedder).tenant("example")
                .include("**/*.md", "**/*.markdown").build().index(root);
        out.printf(Locale.ROOT, "indexed %d files (%d chunks, %d tokens) under %s; skipped %d, failed %d%n",
                report.filesIndexed(), report.chunks(), report.tokens(), root, report.filesSkipped().size(),
                report.filesFailed().size());
        report.filesFailed().forEach(f -> out.printf(Locale.ROOT, "  failed: %s%n", f));

        Path snapshot = workDir.resolve("example-index.bin");
        store.save(snapshot);
        InMemoryDocumentStore reloaded = InMemoryDocumentStore.load(snapshot);
        out.printf(Locale.ROOT, "saved and reloaded a snapshot of %d bytes (kernel %s)%n", Files.size(snapshot),
                reloaded.kernelName());

        Scope scope = Scope.of("example");
        for (String query : queries) {
            float[] vector = embedder.embed(List.of(query))[0];
            out.printf(Locale.ROOT, "%nquery: %s%n", query);
            print(out, "vector ", reloaded.search(SearchRequest.builder(scope).vector(vector).k(3).build()));
            print(out, "keyword", reloaded.search(SearchRequest.builder(scope).text(query).k(3).build()));
            print(out, "hybrid ", reloaded.search(SearchRequest.builder(scope).vector(vector).text(query).k(3)
                    .build()));
        }
    }

    private static void print(PrintStream out, String mode, List<SearchHit> hits) {
        if (hits.isEmpty()) {
            out.printf(Locale.ROOT, "  %s  (no match)%n", mode);
        }
        for (SearchHit hit : hits) {
            StoredChunk c = hit.chunk();
            out.printf(Locale.ROOT, "  %s  %-40s cosine %5s  bm25 %5s  %s%n", mode,
                    hit.document().path() + ":" + c.startLine() + "-" + c.endLine(), score(hit.similarity(), 3),
                    score(hit.keywordScore(), 2), c.section() == null ? "" : c.section());
        }
    }

    private static String score(double value, int decimals) {
        return Double.isNaN(value) ? "-" : String.format(Locale.ROOT, "%." + decimals + "f", value);
    }
}
