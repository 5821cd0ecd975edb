package dev.ragkit.docs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ragkit.embedding.Embedder;
import dev.ragkit.ingest.IndexReport;
import dev.ragkit.ingest.Indexer;
import dev.ragkit.store.inmemory.InMemoryDocumentStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The pages a new user indexes first — this repository's README and {@code docs/} — lose no words to secret
 * redaction: they hold no secret, and a line of the README once lost "RagKit" to it ("…cannot count its tokens:
 * RagKit" where a wrapped line ends read as a token's value), so a citation showed {@code [REDACTED: secret]}.
 */
final class OwnPagesRedactionTest {

    @TempDir
    Path temp;

    @Test
    void indexingTheReadmeAndTheUserGuide_redactsNothing() throws IOException {
        Path root = DocsCompileTest.docsRoot();
        Path pages = Files.createDirectories(temp.resolve("pages"));
        Files.copy(root.resolve("README.md"), pages.resolve("README.md"));
        try (var files = Files.walk(root.resolve("docs"))) {
            for (Path page : files.filter(p -> p.toString().endsWith(".md")).toList()) {
                Path copy = pages.resolve("docs").resolve(root.resolve("docs").relativize(page).toString());
                Files.createDirectories(copy.getParent());
                Files.copy(page, copy);
            }
        }

        IndexReport report;
        try (InMemoryDocumentStore store = InMemoryDocumentStore.builder().build()) {
            report = Indexer.builder().store(store).embedder(new Constant()).tenant("default").build().index(pages);
        }

        assertThat(report.filesIndexed()).as("README.md and the docs' pages").isGreaterThan(10);
        assertThat(report.filesRedacted()).isEmpty();
    }

    /** Vectors do not matter here: one for every text. */
    private static final class Constant implements Embedder {
        @Override
        public float[][] embed(List<String> texts) {
            float[][] vectors = new float[texts.size()][];
            for (int i = 0; i < vectors.length; i++) {
                vectors[i] = new float[] {1f, 0f, 0f, 0f};
            }
            return vectors;
        }

        @Override
        public int dimension() {
            return 4;
        }

        @Override
        public String name() {
            return "constant";
        }
    }
}
