package dev.ragkit.documents;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ragkit.parse.DocumentSource;
import dev.ragkit.ingest.IndexReport;
import dev.ragkit.ingest.Indexer;
import dev.ragkit.parse.ParsedDocument;
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
 * HTML a hostile-input probe sent (issue 28): text a browser does not show is not indexed, and UTF-16 pages with a
 * byte order mark are read, not skipped as binary.
 */
class HostileHtmlTest {
    private final HtmlDocumentParser parser = new HtmlDocumentParser();

    @TempDir
    Path root;

    private ParsedDocument parse(String page) {
        return parser.parse(DocumentSource.of("page.html", page.getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void textABrowserDoesNotShow_isNotRead() {
        ParsedDocument doc = parse("<html><body><main><p>visible one</p>"
                + "<p style=\"display:none\">styled none</p>"
                + "<p style=\"color: red; DISPLAY : None !important;\">styled none important</p>"
                + "<div style=\"display: none\"><p>inside a styled none</p></div>"
                + "<p style=\"visibility:hidden\">styled invisible</p>"
                + "<p hidden>attribute hidden</p><div hidden=\"hidden\"><p>inside hidden</p></div>"
                + "<template><p>template text</p></template>"
                + "<span aria-hidden=\"true\">aria hidden</span>"
                + "<p style=\"display: block\">visible block</p>"
                + "<p style=\"--display:none; color: blue\">visible custom property</p>"
                + "<p aria-hidden=\"false\">visible aria</p>"
                + "<div hidden=\"until-found\">visible until found</div>"
                + "</main></body></html>");
        String text = String.join("\n", doc.lines());

        assertThat(text).contains("visible one", "visible block", "visible custom property", "visible aria",
                "visible until found");
        assertThat(text).doesNotContain("styled", "hidden", "template", "inside");
    }

    @Test
    void aHiddenMainOrArticle_isNotTheContent() {
        ParsedDocument hiddenMain = parse("<html><body><main style=\"display:none\">secret main</main>"
                + "<p>body text</p></body></html>");
        ParsedDocument hiddenArticle = parse("<html><body><article hidden>secret article</article>"
                + "<article><p>shown article</p></article></body></html>");
        ParsedDocument insideHidden = parse("<html><body><div style=\"display:none\"><main>secret main</main></div>"
                + "<p>body text</p></body></html>");

        assertThat(hiddenMain.lines()).containsExactly("body text");
        assertThat(hiddenArticle.lines()).containsExactly("shown article");
        assertThat(insideHidden.lines()).containsExactly("body text");
    }

    @Test
    void aWhollyHiddenPage_isAnEmptyDocument() {
        for (String page : List.of("<html><body hidden><p>secret</p></body></html>",
                "<html style=\"display:none\"><head><title>T</title></head><body><p>secret</p></body></html>")) {
            assertThat(parse(page).lines()).as(page).isEmpty();
        }
    }

    /** The page in a UTF-16 byte order after its byte order mark, as an editor saving "UTF-16" writes it. */
    private static byte[] utf16(String page, Charset order) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(order.equals(StandardCharsets.UTF_16LE) ? new byte[] {(byte) 0xFF, (byte) 0xFE}
                : new byte[] {(byte) 0xFE, (byte) 0xFF});
        out.writeBytes(page.getBytes(order));
        return out.toByteArray();
    }

    @Test
    void utf16PagesWithAByteOrderMark_areIndexedNotSkippedAsBinary() throws IOException {
        String page = "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>Caf\u00e9 \u00fcber</title></head>"
                + "<body><h1>Men\u00fc</h1><p>Cr\u00e8me br\u00fbl\u00e9e costs \u20ac4 \uD83C\uDF6E.</p>"
                + "<p style=\"display:none\">hidden price</p></body></html>";
        Files.write(root.resolve("le.html"), utf16(page, StandardCharsets.UTF_16LE));
        Files.write(root.resolve("be.htm"), utf16(page, StandardCharsets.UTF_16BE));

        try (InMemoryDocumentStore store = InMemoryDocumentStore.builder().build()) {
            IndexReport report = Indexer.builder().store(store).embedder(new HashedBagOfWordsEmbedder("hash-64", 64))
                    .tenant("t").build().index(root);

            assertThat(report.filesSkipped()).isEmpty();
            assertThat(report.filesFailed()).isEmpty();
            assertThat(report.types().get("html").indexed()).isEqualTo(2);
            for (String path : List.of("le.html", "be.htm")) {
                StoredDocument doc = store.documents(Scope.of("t")).stream().filter(d -> d.path().equals(path))
                        .findFirst().orElseThrow();
                assertThat(doc.title()).as(path).isEqualTo("Caf\u00e9 \u00fcber");
                assertThat(doc.docType()).isEqualTo("html");
                String text = store.chunks(Scope.of("t"), doc.id()).stream().map(StoredChunk::text)
                        .collect(Collectors.joining("\n"));
                assertThat(text).as(path).contains("Cr\u00e8me br\u00fbl\u00e9e costs \u20ac4 \uD83C\uDF6E.")
                        .doesNotContain("hidden price").doesNotContain("\u0000");
            }
        }
    }
}
