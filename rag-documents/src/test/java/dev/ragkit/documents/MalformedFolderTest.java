package dev.ragkit.documents;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ragkit.ingest.IndexReport;
import dev.ragkit.ingest.Indexer;
import dev.ragkit.parse.SkipReason;
import dev.ragkit.store.Scope;
import dev.ragkit.store.inmemory.InMemoryDocumentStore;
import dev.ragkit.testing.HashedBagOfWordsEmbedder;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One indexing run over good and malformed files of every type: each bad file is reported as failed or skipped
 * with its reason, every good one is indexed, and the run completes.
 */
class MalformedFolderTest {
    @TempDir
    Path root;

    @Test
    void badFilesAreReportedAndTheRestIsIndexed() throws IOException {
        byte[] pdf = Fixtures.bytes("handbook.pdf");
        write("good/handbook.pdf", pdf);
        write("good/guide.docx", Fixtures.bytes("guide.docx"));
        write("good/handbook.html", Fixtures.bytes("handbook.html"));
        write("good/notes.txt", "Backups run nightly.\n".getBytes(StandardCharsets.UTF_8));
        write("bad/truncated.pdf", Arrays.copyOf(pdf, pdf.length / 3));
        write("bad/scan.pdf", Fixtures.bytes("scan.pdf"));
        write("bad/locked.pdf", Fixtures.bytes("handbook-locked.pdf"));
        write("bad/zip.docx", zip());
        write("bad/deep.html", ("<html><body>" + "<div>".repeat(10_000) + "deep" + "</div>".repeat(10_000)
                + "</body></html>").getBytes(StandardCharsets.UTF_8));
        for (String empty : List.of("empty.pdf", "empty.docx", "empty.html", "empty.txt", "empty.md", "Empty.java")) {
            write("bad/" + empty, new byte[0]);
        }
        write("bad/binary.txt", new byte[] {'a', 0, 1, 2, (byte) 0xFF, 'b'});
        write("bad/image.md", new byte[] {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n', 0, 0});

        InMemoryDocumentStore store = InMemoryDocumentStore.builder().build();
        IndexReport report = Indexer.builder().store(store).embedder(new HashedBagOfWordsEmbedder("hash-64", 64)).tenant("t").build()
                .index(root);

        Map<String, String> outcome = new java.util.TreeMap<>();
        report.filesSkipped().forEach(s -> outcome.put(s.path(), s.reason().name()));
        report.filesFailed().forEach(f -> outcome.put(f.path(), "FAILED: " + f.message()));
        assertThat(outcome).containsEntry("bad/scan.pdf", SkipReason.NO_TEXT_LAYER.name())
                .containsEntry("bad/locked.pdf", SkipReason.ENCRYPTED.name());
        assertThat(outcome.get("bad/truncated.pdf")).startsWith("FAILED").contains("bad/truncated.pdf");
        assertThat(outcome.get("bad/zip.docx")).isEqualTo(SkipReason.UNSUPPORTED_TYPE.name());
        assertThat(outcome.get("bad/binary.txt")).isEqualTo(SkipReason.UNSUPPORTED_TYPE.name());
        assertThat(outcome.get("bad/image.md")).isEqualTo(SkipReason.UNSUPPORTED_TYPE.name());
        // 0 bytes: not a PDF or Word document at all (failed); an empty text, markdown, code or HTML file is an
        // empty document (stored without chunks, so it replaces an older version), as it always was for markdown.
        assertThat(outcome.get("bad/empty.pdf")).startsWith("FAILED").contains("save it again");
        assertThat(outcome.get("bad/empty.docx")).startsWith("FAILED").contains("save it again");
        assertThat(outcome.keySet()).noneMatch(path -> path.startsWith("good/"));
        assertThat(outcome.keySet()).doesNotContain("bad/deep.html");      // nested markup is read, not a crash

        List<String> indexed = store.documents(Scope.of("t")).stream().map(d -> d.path()).sorted()
                .collect(Collectors.toList());
        assertThat(indexed).contains("good/handbook.pdf", "good/guide.docx", "good/handbook.html", "good/notes.txt",
                "bad/deep.html", "bad/empty.html", "bad/empty.txt", "bad/empty.md", "bad/Empty.java");
        assertThat(report.types()).containsKeys("pdf", "docx", "html", "text");
        assertThat(report.types().get("pdf").indexed()).isEqualTo(1);
        assertThat(report.types().get("pdf").skipped() + report.types().get("pdf").failed()).isEqualTo(4);
    }

    private void write(String path, byte[] bytes) throws IOException {
        Path file = root.resolve(path);
        Files.createDirectories(file.getParent());
        Files.write(file, bytes);
    }

    private static byte[] zip() throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ZipOutputStream out = new ZipOutputStream(bytes)) {
            out.putNextEntry(new ZipEntry("readme.txt"));
            out.write("not a word document".getBytes(StandardCharsets.UTF_8));
        }
        return bytes.toByteArray();
    }
}
