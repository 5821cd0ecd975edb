package dev.ragkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The packages of rag-core form a graph without cycles, so each stage can be read (and replaced) on its own. */
final class PackageDependenciesTest {
    private static final Path SOURCES = Path.of("src/main/java");
    private static final Pattern PACKAGE = Pattern.compile("(?m)^package\\s+([\\w.]+);");
    private static final Pattern IMPORT = Pattern.compile("(?m)^import\\s+(?:static\\s+)?(dev\\.ragkit(?:\\.[a-z]\\w*)*)\\.[A-Z]");

    @Test
    void mainPackages_importGraph_hasNoCycle() throws IOException {
        Map<String, Set<String>> graph = importGraph();

        assertThat(graph).containsKeys("dev.ragkit", "dev.ragkit.generation", "dev.ragkit.prompt",
                "dev.ragkit.budget", "dev.ragkit.grounding");
        assertThat(cycle(graph)).as("a package cycle").isEmpty();
    }

    @Test
    void cycle_graphWithBackEdge_isFound() {
        // the check itself can fail: a root package that imports a sub-package which imports it back
        Map<String, Set<String>> graph = new TreeMap<>(Map.of(
                "dev.ragkit", Set.of("dev.ragkit.budget"),
                "dev.ragkit.budget", Set.of("dev.ragkit.prompt"),
                "dev.ragkit.prompt", Set.of("dev.ragkit")));

        assertThat(cycle(graph)).containsExactly("dev.ragkit", "dev.ragkit.budget", "dev.ragkit.prompt",
                "dev.ragkit");
    }

    /** The query side reads what the write side stored, through the store; it never needs the write side itself. */
    private static final Set<String> QUERY_SIDE = Set.of("dev.ragkit", "dev.ragkit.retrieval", "dev.ragkit.eval",
            "dev.ragkit.prompt", "dev.ragkit.budget", "dev.ragkit.generation", "dev.ragkit.grounding",
            "dev.ragkit.audit");
    private static final Set<String> WRITE_SIDE = Set.of("dev.ragkit.ingest", "dev.ragkit.chunk");

    @Test
    void querySide_importsNothingOfTheWriteSide() throws IOException {
        Map<String, Set<String>> graph = importGraph();

        assertThat(graph).containsKeys("dev.ragkit.ingest", "dev.ragkit.chunk", "dev.ragkit.parse",
                "dev.ragkit.embedding", "dev.ragkit.retrieval");
        assertThat(writeSideImports(graph)).as("query-side packages importing the write side").isEmpty();
        assertThat(graph.get("dev.ragkit.retrieval")).as("retrieval needs the Embedder SPI only")
                .doesNotContain("dev.ragkit.ingest", "dev.ragkit.parse", "dev.ragkit.chunk");
    }

    @Test
    void writeSideImports_plantedViolation_isFound() {
        // the rule itself can fail: retrieval borrowing the indexer
        Map<String, Set<String>> graph = new TreeMap<>(Map.of(
                "dev.ragkit.retrieval", Set.of("dev.ragkit.embedding", "dev.ragkit.ingest"),
                "dev.ragkit.ingest", Set.of("dev.ragkit.embedding")));

        assertThat(writeSideImports(graph)).containsExactly("dev.ragkit.retrieval -> dev.ragkit.ingest");
    }

    private static List<String> writeSideImports(Map<String, Set<String>> graph) {
        List<String> found = new ArrayList<>();
        graph.forEach((from, targets) -> targets.stream().filter(WRITE_SIDE::contains).sorted()
                .filter(t -> QUERY_SIDE.contains(from)).forEach(t -> found.add(from + " -> " + t)));
        return found;
    }

    @Test
    void coreSources_importNoLangChain4j() throws IOException {
        try (Stream<Path> files = Files.walk(SOURCES)) {
            List<Path> offenders = files.filter(p -> p.toString().endsWith(".java"))
                    .filter(p -> read(p).contains("import dev.langchain4j")).toList();
            assertThat(offenders).as("rag-core must not need langchain4j-core").isEmpty();
        }
    }

    private static Map<String, Set<String>> importGraph() throws IOException {
        Map<String, Set<String>> graph = new TreeMap<>();
        try (Stream<Path> files = Files.walk(SOURCES)) {
            for (Path file : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                String source = read(file);
                Matcher pkg = PACKAGE.matcher(source);
                if (!pkg.find()) {
                    continue;
                }
                Set<String> targets = graph.computeIfAbsent(pkg.group(1), k -> new TreeSet<>());
                Matcher imp = IMPORT.matcher(source);
                while (imp.find()) {
                    String target = imp.group(1);
                    // the store SPI is another module, below all of rag-core
                    if (!target.equals(pkg.group(1)) && !target.startsWith("dev.ragkit.store")) {
                        targets.add(target);
                    }
                }
            }
        }
        return graph;
    }

    /** @return one cycle as a path that ends where it starts, or an empty list */
    private static List<String> cycle(Map<String, Set<String>> graph) {
        Set<String> done = new TreeSet<>();
        for (String start : graph.keySet()) {
            Deque<String> path = new ArrayDeque<>();
            List<String> found = visit(start, graph, path, done);
            if (!found.isEmpty()) {
                return found;
            }
        }
        return List.of();
    }

    private static List<String> visit(String node, Map<String, Set<String>> graph, Deque<String> path,
            Set<String> done) {
        if (path.contains(node)) {
            List<String> cycle = new ArrayList<>();
            boolean in = false;
            for (String p : (Iterable<String>) path::descendingIterator) {
                in |= p.equals(node);
                if (in) {
                    cycle.add(p);
                }
            }
            cycle.add(node);
            return cycle;
        }
        if (done.contains(node)) {
            return List.of();
        }
        path.push(node);
        for (String next : graph.getOrDefault(node, Set.of())) {
            List<String> found = visit(next, graph, path, done);
            if (!found.isEmpty()) {
                return found;
            }
        }
        path.pop();
        done.add(node);
        return List.of();
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
