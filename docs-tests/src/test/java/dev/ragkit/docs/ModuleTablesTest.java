package dev.ragkit.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The module tables a user reads to choose dependencies — the README's and the user guide's (docs/index.md) — name
 * every artifact the BOM publishes, and only modules the build has: the guide's table once stopped at nine modules and
 * sent LangChain4j users to a package that had moved out of {@code rag-core}.
 */
final class ModuleTablesTest {

    /** A BOM entry's RagKit artifact id. */
    private static final Pattern BOM_ARTIFACT = Pattern.compile("<artifactId>(rag-[a-z0-9-]+)</artifactId>");
    /** A module of the root build. */
    private static final Pattern MODULE = Pattern.compile("<module>(rag-[a-z0-9-]+)</module>");
    /** A table row naming an artifact in its first cell. */
    private static final Pattern ROW = Pattern.compile("(?m)^\\| `(rag-[a-z0-9-]+)` \\|");

    @Test
    void readmeAndUserGuide_nameEveryPublishedModuleInTheirModuleTables() throws IOException {
        Path root = DocsCompileTest.docsRoot();
        Set<String> published = matches(BOM_ARTIFACT, read(root.resolve("rag-bom/pom.xml")));
        assertThat(published).as("the BOM's artifacts were read").contains("rag-bom", "rag-core", "rag-store-lucene")
                .hasSizeGreaterThanOrEqualTo(15);
        Set<String> modules = matches(MODULE, read(root.resolve("pom.xml")));
        for (String page : new String[] {"README.md", "docs/index.md"}) {
            Set<String> rows = matches(ROW, read(root.resolve(page)));
            assertThat(rows).as("the artifacts in the module table of %s", page).containsAll(published);
            assertThat(modules).as("the build's modules, against the table of %s", page).containsAll(rows);
        }
    }

    private static Set<String> matches(Pattern pattern, String text) {
        Set<String> found = new LinkedHashSet<>();
        for (Matcher m = pattern.matcher(text); m.find(); ) {
            found.add(m.group(1));
        }
        return found;
    }

    private static String read(Path file) throws IOException {
        return Files.readString(file, StandardCharsets.UTF_8);
    }
}
