package dev.ragkit.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every {@code ```java} block of README.md and docs/*.md compiles against the current API (issue 24): the blocks
 * are extracted with their markers ({@link SnippetExtractor}) and compiled in one run of the JDK's compiler on this
 * module's test class path, which holds every published module ({@link SnippetCompiler}). A failure lists each
 * rejected line as {@code page:line: message}.
 */
final class DocsCompileTest {

    /** At most this many blocks may be marked {@code skip}; each must say why. */
    static final int MAX_SKIPPED = 2;

    private static final Pattern JAVA_FENCE = Pattern.compile("(?m)^\\s*```java\\s*$");

    @Test
    void everyJavaSnippetInReadmeAndDocs_compilesAgainstTheApi() throws IOException {
        Path root = docsRoot();
        List<Snippet> snippets = new ArrayList<>();
        int fences = 0;
        for (Path page : pages(root)) {
            String markdown = Files.readString(page, StandardCharsets.UTF_8);
            String name = root.relativize(page).toString().replace('\\', '/');
            snippets.addAll(SnippetExtractor.extract(name, markdown));
            fences += (int) JAVA_FENCE.matcher(markdown).results().count();
        }

        SnippetCompiler.Report report = SnippetCompiler.compile(snippets, System.getProperty("java.class.path"));

        assertThat(report.failures())
                .withFailMessage("%d line(s) of Java snippets in README.md and docs/ do not compile (conventions: "
                        + "docs/design-notes.md, \"Docs whose code compiles\"):%n%s", report.failures().size(),
                        String.join(System.lineSeparator(), report.failures()))
                .isEmpty();
        assertThat(snippets).as("every ```java block of the pages is extracted").hasSize(fences);
        assertThat(fences).as("the pages' Java blocks were found at all").isGreaterThanOrEqualTo(25);
        assertThat(report.compiled() + report.skipped().size()).isEqualTo(snippets.size());
        assertThat(report.skipped()).as("blocks marked skip (keep them rare)").hasSizeLessThanOrEqualTo(MAX_SKIPPED);
        assertThat(report.skipped()).allSatisfy(s -> assertThat(s.marker().skipReason())
                .as("the reason %s gives for not compiling", s.where()).hasSizeGreaterThanOrEqualTo(20));
    }

    /** README.md and every markdown page under docs/. */
    static List<Path> pages(Path root) throws IOException {
        List<Path> pages = new ArrayList<>();
        pages.add(root.resolve("README.md"));
        try (Stream<Path> docs = Files.walk(root.resolve("docs"))) {
            docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(pages::add);
        }
        return pages;
    }

    /** The repository root: from the build ({@code ragkit.docs.root}), else the first parent that holds docs/. */
    static Path docsRoot() {
        String configured = System.getProperty("ragkit.docs.root");
        Path start = Path.of(configured != null ? configured : "").toAbsolutePath().normalize();
        for (Path dir = start; dir != null; dir = dir.getParent()) {
            if (Files.isRegularFile(dir.resolve("README.md")) && Files.isDirectory(dir.resolve("docs"))) {
                return dir;
            }
        }
        throw new IllegalStateException("no README.md with a docs/ folder at or above " + start
                + "; run the test from the repository or set -Dragkit.docs.root");
    }
}
