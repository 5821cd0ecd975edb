package dev.ragkit.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The docs-compile test can fail: markdown pages written here, with snippets that do and do not compile, go through
 * the same extractor and compiler as README.md and docs/, and a broken snippet is reported with its page, line and
 * the compiler's message.
 */
final class SnippetCompilerTest {

    private static final String CLASS_PATH = System.getProperty("java.class.path");

    private static SnippetCompiler.Report compile(String... pagesAndTexts) {
        List<Snippet> snippets = new ArrayList<>();
        for (int i = 0; i < pagesAndTexts.length; i += 2) {
            snippets.addAll(SnippetExtractor.extract(pagesAndTexts[i], pagesAndTexts[i + 1]));
        }
        return SnippetCompiler.compile(snippets, CLASS_PATH);
    }

    @Test
    void compile_ragConfigPassedWhereOllamaConfigIsNeeded_failsNamingPageLineAndMessage() {
        String page = """
                # Guide

                Ask the local server:

                ```java
                RagConfig config = RagConfig.fromEnvironment();
                Embedder embedder = OllamaEmbedder.builder().config(config).model("nomic-embed-text").build();
                ```
                """;

        SnippetCompiler.Report report = compile("docs/guide.md", page);

        assertThat(report.compiled()).isEqualTo(1);
        assertThat(report.failures()).singleElement().asString()
                .startsWith("docs/guide.md:7: error: incompatible types: dev.ragkit.RagConfig cannot be converted to "
                        + "dev.ragkit.ollama.OllamaConfig")
                .contains("Embedder embedder = OllamaEmbedder.builder().config(config)");
    }

    @Test
    void compile_sameSnippetWithOllamaConfig_compiles() {
        String page = """
                # Guide

                ```java
                OllamaConfig server = OllamaConfig.fromEnvironment();
                Embedder embedder = OllamaEmbedder.builder().config(server).model("nomic-embed-text").build();
                ```
                """;

        SnippetCompiler.Report report = compile("docs/guide.md", page);

        assertThat(report.failures()).isEmpty();
        assertThat(report.compiled()).isEqualTo(1);
    }

    @Test
    void compile_controllerCallingAMethodDefinedNowhere_failsAtThatLine() {
        String page = """
                ```java
                @RestController
                class AskController {
                    private final RagPipeline rag;
                    AskController(RagPipeline rag) { this.rag = rag; }

                    @GetMapping("/ask")
                    String ask(@RequestParam String q, Principal user) {
                        return rag.ask(RagRequest.of(q, Scope.of("acme", tagsOf(user)))).answer();
                    }
                }
                ```
                """;

        SnippetCompiler.Report report = compile("README.md", page);

        assertThat(report.failures()).singleElement().asString()
                .startsWith("README.md:9: error: cannot find symbol")
                .contains("method tagsOf(java.security.Principal)");
    }

    @Test
    void compile_variableNeitherDeclaredNorGiven_failsAndAGivenMarkerFixesIt() {
        String undeclared = """
                ```java
                store.upsert(document, List.of());
                ```
                """;
        String given = """
                <!-- snippet: given="DocumentStore store; StoredDocument document" -->
                ```java
                store.upsert(document, List.of());
                ```
                """;

        assertThat(compile("a.md", undeclared).failures()).hasSize(2)
                .allSatisfy(f -> assertThat(f).startsWith("a.md:2: error: cannot find symbol"));
        assertThat(compile("b.md", given).failures()).isEmpty();
    }

    @Test
    void compile_continuedSnippet_seesTheEarlierOnesVariables() {
        String page = """
                <!-- snippet: id=setup given="DocumentStore store" -->
                ```java
                Scope scope = Scope.of("acme", "hr");
                ```

                Then:

                <!-- snippet: continues=setup -->
                ```java
                List<SearchHit> hits = store.search(SearchRequest.builder(scope).text("vacation").k(3).build());
                ```

                ```java
                List<SearchHit> alone = store.search(SearchRequest.builder(scope).text("vacation").k(3).build());
                ```
                """;

        SnippetCompiler.Report report = compile("docs/p.md", page);

        assertThat(report.compiled()).isEqualTo(3);
        assertThat(report.failures()).hasSize(2)
                .allSatisfy(f -> assertThat(f).startsWith("docs/p.md:14: error: cannot find symbol"));
    }

    @Test
    void compile_continuesAnUnknownId_isAFailureNamingTheMarker() {
        String page = """
                <!-- snippet: continues=setup -->
                ```java
                int x = 1;
                ```
                """;

        assertThat(compile("docs/p.md", page).failures()).singleElement().asString()
                .startsWith("docs/p.md:1: continues=setup names no earlier snippet of this page");
    }

    @Test
    void compile_syntaxErrorInOnePage_doesNotHideATypeErrorInAnother() {
        String broken = """
                ```java
                .contentRetriever(retriever)
                ```
                """;
        String wrongType = """
                ```java
                int tokens = "many";
                ```
                """;

        SnippetCompiler.Report report = compile("README.md", broken, "docs/z.md", wrongType);

        assertThat(report.failures()).anySatisfy(f -> assertThat(f).startsWith("README.md:2: error: "));
        assertThat(report.failures()).anySatisfy(f -> assertThat(f)
                .startsWith("docs/z.md:2: error: incompatible types: java.lang.String cannot be converted to int"));
    }

    @Test
    void compile_wholeSourceFile_getsNoStandardImports() {
        String page = """
                ```java
                import java.util.List;

                public final class App {
                    static RagConfig config = RagConfig.fromEnvironment();
                }
                ```
                """;

        assertThat(compile("docs/app.md", page).failures()).isNotEmpty()
                .allSatisfy(f -> assertThat(f).startsWith("docs/app.md:5: error: cannot find symbol"));
    }

    @Test
    void compile_apiMarkedForRemoval_isAFailure() {
        String page = """
                ```java
                Integer boxed = new Integer(5);
                ```
                """;

        assertThat(compile("docs/old.md", page).failures()).singleElement().asString()
                .startsWith("docs/old.md:2: warning: Integer(int) in java.lang.Integer has been deprecated and marked for "
                        + "removal");
    }

    @Test
    void compile_givenDeclarationThatDoesNotCompile_pointsAtTheMarker() {
        String page = """
                Intro.

                <!-- snippet: given="NoSuchType thing" -->
                ```java
                System.out.println(thing);
                ```
                """;

        assertThat(compile("docs/m.md", page).failures()).singleElement().asString()
                .startsWith("docs/m.md:3: error: cannot find symbol")
                .contains("in the code wrapped around the snippet at docs/m.md:4");
    }

    @Test
    void compile_skippedSnippet_isCountedAndNotCompiled() {
        String page = """
                <!-- snippet: skip="the shape of the interface, with its javadoc left out" -->
                ```java
                interface DocumentStore { void upsert(StoredDocument d, List<StoredChunk> c) }
                ```
                """;

        SnippetCompiler.Report report = compile("docs/s.md", page);

        assertThat(report.failures()).isEmpty();
        assertThat(report.compiled()).isZero();
        assertThat(report.skipped()).singleElement()
                .satisfies(s -> assertThat(s.where()).isEqualTo("docs/s.md:2"));
    }

    @Test
    void compile_sameIdTwiceInAPage_isAFailure() {
        String page = """
                <!-- snippet: id=a -->
                ```java
                int x = 1;
                ```
                <!-- snippet: id=a -->
                ```java
                int y = 2;
                ```
                """;

        assertThat(compile("docs/d.md", page).failures())
                .containsExactly("docs/d.md:5: snippet id 'a' is used twice in this page");
    }

    @Test
    void kind_followsTheFirstCodeLine() {
        assertThat(SnippetCompiler.kind(snippet("import java.util.List;", "class A {}"))).isEqualTo(Snippet.Kind.UNIT);
        assertThat(SnippetCompiler.kind(snippet("// a comment", "package a.b;"))).isEqualTo(Snippet.Kind.UNIT);
        assertThat(SnippetCompiler.kind(snippet("@RestController", "class A {}"))).isEqualTo(Snippet.Kind.MEMBERS);
        assertThat(SnippetCompiler.kind(snippet("final class T extends C {}"))).isEqualTo(Snippet.Kind.MEMBERS);
        assertThat(SnippetCompiler.kind(snippet("@Override public String id() { return \"x\"; }")))
                .isEqualTo(Snippet.Kind.STATEMENTS);
        assertThat(SnippetCompiler.kind(snippet("Scope s = Scope.of(\"acme\");"))).isEqualTo(Snippet.Kind.STATEMENTS);
    }

    private static Snippet snippet(String... lines) {
        return new Snippet("x.md", 1, List.of(lines), Snippet.Marker.NONE);
    }
}
