package dev.ragkit.docs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.util.List;
import org.junit.jupiter.api.Test;

final class SnippetExtractorTest {

    @Test
    void extract_takesJavaBlocksOnly_withTheirLinesAndIndentRemoved() {
        String page = """
                # Title

                ```bash
                mvn verify
                ```

                1. In a list:

                   ```java
                   Scope scope = Scope.of("acme");
                       // indented more
                   ```
                """;

        List<Snippet> snippets = SnippetExtractor.extract("docs/a.md", page);

        assertThat(snippets).singleElement().satisfies(s -> {
            assertThat(s.file()).isEqualTo("docs/a.md");
            assertThat(s.fenceLine()).isEqualTo(9);
            assertThat(s.pageLine(0)).isEqualTo(10);
            assertThat(s.lines()).containsExactly("Scope scope = Scope.of(\"acme\");", "    // indented more");
            assertThat(s.marker()).isEqualTo(Snippet.Marker.NONE);
        });
    }

    @Test
    void extract_readsEveryMarkerKey() {
        String page = """
                <!-- snippet: id=ask continues=setup kind=statements given="Map<String, String> env; RagPipeline rag" -->

                ```java
                rag.ask(RagRequest.of("q", Scope.of("acme")));
                ```
                <!-- snippet: skip="shows the interface's shape, not code" -->
                ```java
                interface X { void y() }
                ```
                """;

        List<Snippet> snippets = SnippetExtractor.extract("p.md", page);

        assertThat(snippets).hasSize(2);
        Snippet.Marker first = snippets.get(0).marker();
        assertThat(first.line()).isEqualTo(1);
        assertThat(first.id()).isEqualTo("ask");
        assertThat(first.continues()).isEqualTo("setup");
        assertThat(first.kind()).isEqualTo(Snippet.Kind.STATEMENTS);
        assertThat(first.given()).containsExactly("Map<String, String> env", "RagPipeline rag");
        assertThat(first.skipReason()).isNull();
        assertThat(snippets.get(1).marker().skipReason()).isEqualTo("shows the interface's shape, not code");
    }

    @Test
    void extract_skipWithoutReason_isRejectedWithPageAndLine() {
        String page = """
                Text.
                <!-- snippet: skip="" -->
                ```java
                x
                ```
                """;

        assertThatIllegalArgumentException().isThrownBy(() -> SnippetExtractor.extract("docs/s.md", page))
                .withMessageStartingWith("docs/s.md:2: skip needs a reason");
    }

    @Test
    void extract_unknownKey_isRejectedNamingTheKnownOnes() {
        String page = """
                <!-- snippet: context=pipeline -->
                ```java
                x
                ```
                """;

        assertThatIllegalArgumentException().isThrownBy(() -> SnippetExtractor.extract("docs/k.md", page))
                .withMessage("docs/k.md:1: unknown snippet marker key 'context'; known: "
                        + "[id, continues, given, kind, skip]");
    }

    @Test
    void extract_markerNotRightBeforeAJavaBlock_isRejected() {
        String beforeText = """
                <!-- snippet: given="RagPipeline rag" -->
                A paragraph.

                ```java
                x
                ```
                """;
        String beforeBash = """
                <!-- snippet: skip="not java" -->
                ```bash
                ls
                ```
                """;

        assertThatIllegalArgumentException().isThrownBy(() -> SnippetExtractor.extract("docs/t.md", beforeText))
                .withMessageStartingWith("docs/t.md:1: a snippet marker must be the last non-blank line before");
        assertThatIllegalArgumentException().isThrownBy(() -> SnippetExtractor.extract("docs/b.md", beforeBash))
                .withMessageStartingWith("docs/b.md:1: a snippet marker must be the last non-blank line before");
    }

    @Test
    void extract_unclosedFence_isRejected() {
        String page = """
                Text.

                ```java
                int x = 1;
                """;

        assertThatIllegalArgumentException().isThrownBy(() -> SnippetExtractor.extract("docs/u.md", page))
                .withMessage("docs/u.md:3: the code block is never closed with ```");
    }

    @Test
    void extract_badKind_isRejected() {
        String page = """
                <!-- snippet: kind=expression -->
                ```java
                1 + 1
                ```
                """;

        assertThatIllegalArgumentException().isThrownBy(() -> SnippetExtractor.extract("docs/e.md", page))
                .withMessageStartingWith("docs/e.md:1: kind must be unit, members or statements");
    }
}
