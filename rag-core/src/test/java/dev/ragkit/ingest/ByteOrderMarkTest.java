package dev.ragkit.ingest;

import dev.ragkit.parse.ContentSniffer;
import dev.ragkit.parse.DocumentSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ragkit.error.IngestException;
import dev.ragkit.store.Scope;
import dev.ragkit.store.StoredChunk;
import dev.ragkit.store.StoredDocument;
import dev.ragkit.store.inmemory.InMemoryDocumentStore;
import dev.ragkit.testing.HashedBagOfWordsEmbedder;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Text in UTF-16 with its byte order mark (issue 28): the sniffer reads it as text or HTML, not binary, and the
 * text parsers decode it, strictly, as they decode UTF-8.
 */
final class ByteOrderMarkTest {
    private static final String MARKDOWN = "# Backups\n\nBackups run nightly at 02:00 \u2014 caf\u00e9 \u00fcber "
            + "\uD83D\uDE80.\n";
    private static final String HTML = "<!doctype html><html><body><p>caf\u00e9</p></body></html>";

    @TempDir
    Path temp;

    /** The text in a UTF-16 byte order, after its byte order mark, as an editor saving "UTF-16" writes it. */
    private static byte[] utf16(String text, Charset order) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] bom = order.equals(StandardCharsets.UTF_16LE) ? new byte[] {(byte) 0xFF, (byte) 0xFE}
                : new byte[] {(byte) 0xFE, (byte) 0xFF};
        out.writeBytes(bom);
        out.writeBytes(text.getBytes(order));
        return out.toByteArray();
    }

    private static byte[] utf8WithBom(String text) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(new byte[] {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF});
        out.writeBytes(text.getBytes(StandardCharsets.UTF_8));
        return out.toByteArray();
    }

    @Test
    void sniff_utf16WithItsByteOrderMark_isTextOrHtmlNotBinary() {
        for (Charset order : List.of(StandardCharsets.UTF_16LE, StandardCharsets.UTF_16BE)) {
            assertThat(ContentSniffer.sniff(utf16(HTML, order))).as(order.name()).isEqualTo(ContentSniffer.Kind.HTML);
            assertThat(ContentSniffer.sniff(utf16("  \n<html lang=en>", order))).isEqualTo(ContentSniffer.Kind.HTML);
            assertThat(ContentSniffer.sniff(utf16(MARKDOWN, order))).as(order.name())
                    .isEqualTo(ContentSniffer.Kind.TEXT);
            assertThat(ContentSniffer.sniff(utf16("a\u0000b", order))).as("a NUL character is binary")
                    .isEqualTo(ContentSniffer.Kind.BINARY);
            assertThat(ContentSniffer.sniff(HTML.getBytes(order))).as("without the mark the order is unknown")
                    .isEqualTo(ContentSniffer.Kind.BINARY);
        }
        assertThat(ContentSniffer.sniff(utf8WithBom(HTML))).isEqualTo(ContentSniffer.Kind.HTML);
        assertThat(ContentSniffer.sniff(HTML.getBytes(StandardCharsets.UTF_8))).isEqualTo(ContentSniffer.Kind.HTML);
        assertThat(ContentSniffer.sniff(MARKDOWN.getBytes(StandardCharsets.UTF_8)))
                .isEqualTo(ContentSniffer.Kind.TEXT);
    }

    @Test
    void text_decodesUtf16ByItsByteOrderMarkAndDropsTheMark() {
        for (byte[] bytes : List.of(utf16(MARKDOWN, StandardCharsets.UTF_16LE),
                utf16(MARKDOWN, StandardCharsets.UTF_16BE), utf8WithBom(MARKDOWN))) {
            assertThat(DocumentSource.of("notes.md", bytes).text()).isEqualTo(MARKDOWN);
        }
    }

    @Test
    void text_brokenUtf16_failsNamingTheEncodingAndTheLine() {
        ByteArrayOutputStream unpaired = new ByteArrayOutputStream();     // Java's encoder would replace it by '?'
        unpaired.writeBytes(utf16("line one\nline ", StandardCharsets.UTF_16LE));
        unpaired.writeBytes(new byte[] {0x00, (byte) 0xD8});                 // U+D800, a high surrogate alone
        unpaired.writeBytes("two".getBytes(StandardCharsets.UTF_16LE));
        byte[] lone = unpaired.toByteArray();
        byte[] odd = utf16("line one\nline two", StandardCharsets.UTF_16BE);
        byte[] oddLength = java.util.Arrays.copyOf(odd, odd.length - 1);
        byte[] nul = utf16("line one\nline two\nthree\u0000", StandardCharsets.UTF_16BE);

        assertThatThrownBy(() -> DocumentSource.of("a.txt", lone).text()).isInstanceOfSatisfying(
                IngestException.class, e -> assertThat(e.line()).isEqualTo(2))
                .hasMessageContaining("not valid UTF-16LE").hasMessageContaining("save it as UTF-8");
        assertThatThrownBy(() -> DocumentSource.of("a.txt", oddLength).text()).isInstanceOfSatisfying(
                IngestException.class, e -> assertThat(e.line()).isEqualTo(2))
                .hasMessageContaining("not valid UTF-16BE");
        assertThatThrownBy(() -> DocumentSource.of("a.txt", nul).text()).isInstanceOfSatisfying(
                IngestException.class, e -> assertThat(e.line()).isEqualTo(3))
                .hasMessageContaining("NUL character");
    }

    @Test
    void index_utf16MarkdownAndTextFilesOnDisk_areIndexedLikeUtf8() throws IOException {
        Path root = Files.createDirectories(temp.resolve("docs"));
        Files.write(root.resolve("backups.md"), utf16(MARKDOWN, StandardCharsets.UTF_16LE));
        Files.write(root.resolve("restore.txt"), utf16("Restores take an hour.\nAsk the on-call engineer.\n",
                StandardCharsets.UTF_16BE));
        Files.write(root.resolve("plain.md"), "# Plain\n\nUTF-8 as before.\n".getBytes(StandardCharsets.UTF_8));

        try (InMemoryDocumentStore store = InMemoryDocumentStore.builder().build()) {
            IndexReport report = Indexer.builder().store(store).embedder(new HashedBagOfWordsEmbedder("hash-64", 64))
                    .tenant("t").build().index(root);

            assertThat(report.filesSkipped()).isEmpty();
            assertThat(report.filesFailed()).isEmpty();
            assertThat(report.filesIndexed()).isEqualTo(3);
            assertThat(text(store, "backups.md")).contains("Backups run nightly at 02:00 \u2014 caf\u00e9 \u00fcber "
                    + "\uD83D\uDE80.").doesNotContain("\uFEFF").doesNotContain("\u0000");
            assertThat(text(store, "restore.txt")).contains("Restores take an hour.", "Ask the on-call engineer.");
            assertThat(store.documents(Scope.of("t")).stream().filter(d -> d.path().equals("backups.md"))
                    .map(StoredDocument::title).toList()).containsExactly("Backups");
        }
    }

    private static String text(InMemoryDocumentStore store, String path) {
        return store.chunks(Scope.of("t"), StoredDocument.idFor("t", path)).stream().map(StoredChunk::text)
                .collect(Collectors.joining("\n"));
    }
}
