package dev.ragkit.store.inmemory.example;

import dev.ragkit.store.Scope;
import dev.ragkit.store.SearchHit;
import dev.ragkit.store.SearchRequest;
import dev.ragkit.store.StoredChunk;
import dev.ragkit.store.StoredDocument;
import dev.ragkit.store.inmemory.InMemoryDocumentStore;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The runnable example until the {@code ragkit} CLI exists: indexes the markdown files under a folder into
 * the in-memory store (one chunk per paragraph), saves and reloads a snapshot, and answers a few searches
 * in vector, keyword and hybrid mode, printing {@code path:lines} for each hit.
 *
 * <p>It embeds text with a <em>toy</em> embedder (hashed bag of words, 256 dimensions) so it runs with no
 * model at all; real applications embed with a real model.
 *
 * <p>Run: {@code mvn -B -q -DskipTests -pl rag-store-inmemory -am test-compile exec:java} (arguments:
 * {@code -Dexec.args="<folder> <query>..."}; default: this repository and three sample queries).
 */
public final class QuickStartExample {
    static final int DIMENSION = 256;

    private QuickStartExample() {
    }

    /**
     * @param args the folder to index, then queries
     * @throws IOException when the folder cannot be read
     */
    public static void main(String[] args) throws IOException {
        Path root = Path.of(args.length > 0 ? args[0] : ".").toAbsolutePath().normalize();
        List<String> queries = args.length > 1 ? List.of(args).subList(1, args.length)
                : List.of("how do I run the tests", "snapshot checksum", "vector search benchmark");
        run(root, queries, Files.createTempDirectory("ragkit-example"), System.out);
    }

    static void run(Path root, List<String> queries, Path workDir, PrintStream out) throws IOException {
        InMemoryDocumentStore store = InMemoryDocumentStore.builder().dimension(DIMENSION).build();
        int documents = 0;
        int chunks = 0;
        for (Path file : markdownFiles(root)) {
            String path = root.relativize(file).toString().replace('\\', '/');
            List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
            StoredDocument document = StoredDocument.builder().tenant("example").path(path)
                    .title(title(lines, path)).charCount(String.join("\n", lines).length()).build();
            List<StoredChunk> paragraphs = paragraphs(document.id(), lines);
            store.upsert(document, paragraphs);
            documents++;
            chunks += paragraphs.size();
        }
        out.printf(Locale.ROOT, "indexed %d markdown files (%d paragraphs) under %s, kernel %s%n", documents, chunks,
                root, store.kernelName());

        Path snapshot = workDir.resolve("example-index.bin");
        store.save(snapshot);
        InMemoryDocumentStore reloaded = InMemoryDocumentStore.load(snapshot);
        out.printf(Locale.ROOT, "saved and reloaded a snapshot of %d bytes%n", Files.size(snapshot));

        Scope scope = Scope.of("example");
        for (String query : queries) {
            out.printf(Locale.ROOT, "%nquery: %s%n", query);
            print(out, "vector ", reloaded.search(SearchRequest.builder(scope).vector(embed(query)).k(3).build()));
            print(out, "keyword", reloaded.search(SearchRequest.builder(scope).text(query).k(3).build()));
            print(out, "hybrid ", reloaded.search(SearchRequest.builder(scope).vector(embed(query)).text(query).k(3)
                    .build()));
        }
    }

    private static void print(PrintStream out, String mode, List<SearchHit> hits) {
        if (hits.isEmpty()) {
            out.printf(Locale.ROOT, "  %s  (no match)%n", mode);
        }
        for (SearchHit hit : hits) {
            StoredChunk c = hit.chunk();
            String firstLine = c.text().lines().findFirst().orElse("").strip();
            out.printf(Locale.ROOT, "  %s  %-40s cosine %5s  bm25 %5s  %s%n", mode,
                    hit.document().path() + ":" + c.startLine() + "-" + c.endLine(), score(hit.similarity(), 3),
                    score(hit.keywordScore(), 2), firstLine.length() > 60 ? firstLine.substring(0, 60) + "…" : firstLine);
        }
    }

    private static String score(double value, int decimals) {
        return Double.isNaN(value) ? "-" : String.format(Locale.ROOT, "%." + decimals + "f", value);
    }

    private static List<Path> markdownFiles(Path root) throws IOException {
        try (Stream<Path> walk = Files.walk(root)) {
            return walk.filter(p -> p.toString().endsWith(".md") && Files.isRegularFile(p))
                    .filter(p -> !hiddenOrBuild(root.relativize(p)))
                    .sorted().collect(Collectors.toList());
        }
    }

    private static boolean hiddenOrBuild(Path relative) {
        for (Path part : relative) {
            String name = part.toString();
            if ((name.startsWith(".") && !name.equals(".")) || name.equals("target") || name.equals("node_modules")) {
                return true;
            }
        }
        return false;
    }

    private static String title(List<String> lines, String path) {
        for (String line : lines) {
            if (line.startsWith("# ")) {
                return line.substring(2).strip();
            }
        }
        return path;
    }

    /** One chunk per blank-line-separated paragraph, with its 1-based line range. */
    private static List<StoredChunk> paragraphs(String documentId, List<String> lines) {
        List<StoredChunk> chunks = new ArrayList<>();
        int start = -1;
        for (int i = 0; i <= lines.size(); i++) {
            boolean blank = i == lines.size() || lines.get(i).isBlank();
            if (!blank && start < 0) {
                start = i;
            } else if (blank && start >= 0) {
                String text = String.join("\n", lines.subList(start, i));
                float[] vector = embed(text);
                if (vector != null) {
                    chunks.add(new StoredChunk(documentId, chunks.size(), text, vector,
                            text.split("\\s+").length, start + 1, i, null, null));
                }
                start = -1;
            }
        }
        return chunks;
    }

    /** A toy embedding: words hashed into {@value #DIMENSION} buckets; null for text without words. */
    static float[] embed(String text) {
        float[] v = new float[DIMENSION];
        boolean any = false;
        for (String word : text.toLowerCase(Locale.ROOT).split("[^\\p{L}\\p{N}]+")) {
            if (word.length() > 2) {
                v[Math.floorMod(word.hashCode(), DIMENSION)] += 1f;
                any = true;
            }
        }
        return any ? v : null;
    }

}
