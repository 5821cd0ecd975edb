package dev.ragkit.documents;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ragkit.error.IngestException;
import dev.ragkit.parse.DocumentSource;
import dev.ragkit.ingest.IndexReport;
import dev.ragkit.ingest.Indexer;
import dev.ragkit.store.inmemory.InMemoryDocumentStore;
import dev.ragkit.testing.HashedBagOfWordsEmbedder;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import java.util.Random;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.apache.poi.openxml4j.util.ZipArchiveFakeEntry;
import org.apache.poi.openxml4j.util.ZipSecureFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 28: a hostile {@code .docx} — a zip whose document part expands enormously — is reported as what it is
 * (a zip bomb, or too large when expanded) with the limit it broke, not with Apache POI's advice to change its
 * settings or open a bug report.
 */
final class DocxZipBombTest {
    private static final String CONTENT_TYPES = "<?xml version=\"1.0\" encoding=\"UTF-8\"?><Types xmlns=\"http://"
            + "schemas.openxmlformats.org/package/2006/content-types\"><Default Extension=\"rels\" ContentType=\""
            + "application/vnd.openxmlformats-package.relationships+xml\"/><Default Extension=\"xml\" ContentType=\""
            + "application/xml\"/><Override PartName=\"/word/document.xml\" ContentType=\"application/vnd."
            + "openxmlformats-officedocument.wordprocessingml.document.main+xml\"/></Types>";
    private static final String RELS = "<?xml version=\"1.0\" encoding=\"UTF-8\"?><Relationships xmlns=\"http://"
            + "schemas.openxmlformats.org/package/2006/relationships\"><Relationship Id=\"rId1\" Type=\"http://"
            + "schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument\" Target=\""
            + "word/document.xml\"/></Relationships>";

    @TempDir
    Path root;

    /**
     * A minimal package whose {@code word/document.xml} holds {@code filler} bytes inside an XML comment: spaces
     * only (deflate packs them about 1000 to 1), or with a random letter every 8 bytes ({@code mixed}: about 30 to 1,
     * under POI's ratio guard).
     */
    private static byte[] docx(long filler, boolean mixed) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ZipOutputStream zip = new ZipOutputStream(bytes)) {
            zip.putNextEntry(new ZipEntry("[Content_Types].xml"));
            zip.write(CONTENT_TYPES.getBytes(StandardCharsets.UTF_8));
            zip.putNextEntry(new ZipEntry("_rels/.rels"));
            zip.write(RELS.getBytes(StandardCharsets.UTF_8));
            zip.putNextEntry(new ZipEntry("word/document.xml"));
            zip.write(("<?xml version=\"1.0\" encoding=\"UTF-8\"?><w:document xmlns:w=\"http://schemas.openxmlformats"
                    + ".org/wordprocessingml/2006/main\"><w:body><w:p><w:r><w:t>Hello</w:t></w:r></w:p><!--")
                    .getBytes(StandardCharsets.UTF_8));
            byte[] block = new byte[1 << 16];
            Random random = new Random(28);
            for (long written = 0; written < filler; written += block.length) {
                Arrays.fill(block, (byte) ' ');
                for (int i = 0; mixed && i < block.length; i += 8) {
                    block[i] = (byte) (random.nextBoolean() ? 'a' : 'b');
                }
                zip.write(block);
            }
            zip.write("--></w:body></w:document>".getBytes(StandardCharsets.UTF_8));
            zip.closeEntry();
        }
        return bytes.toByteArray();
    }

    @Test
    void aZipBomb_isReportedAsOneWithTheRatioLimit_withoutPoisText() throws IOException {
        byte[] bomb = docx(50L << 20, false);
        assertThat(bomb.length).as("50 MiB packed small").isLessThan(200_000);
        Path file = root.resolve("docs/bomb.docx");
        Files.createDirectories(file.getParent());
        Files.write(file, bomb);

        IndexReport report = Indexer.builder().store(InMemoryDocumentStore.builder().build())
                .embedder(new HashedBagOfWordsEmbedder("hash-64", 64)).tenant("t").build().index(root);

        assertThat(report.filesFailed()).singleElement().satisfies(failed -> {
            assertThat(failed.path()).isEqualTo("docs/bomb.docx");
            assertThat(failed.message()).contains("the file looks like a zip bomb: its part word/document.xml "
                    + "expands more than " + String.format(Locale.ROOT, "%,d", Math.round(1
                    / ZipSecureFile.getMinInflateRatio())) + " times its packed size")
                    .doesNotContainIgnoringCase("bugzilla").doesNotContain("ZipSecureFile")
                    .doesNotContain("Zip bomb detected").doesNotContain("\n");
        });
    }

    @Test
    void aPartTooLargeWhenExpanded_saysSoWithTheLimit_withoutPoisText() throws IOException {
        // POI's limit for one part is 100,000,000 bytes; lowered here so that the test need not inflate 100 MB
        int limit = ZipArchiveFakeEntry.getMaxEntrySize();
        ZipArchiveFakeEntry.setMaxEntrySize(2_000_000);
        try {
            byte[] large = docx(3L << 20, true);

            assertThatThrownBy(() -> new DocxDocumentParser().parse(DocumentSource.of("big.docx", large)))
                    .isInstanceOf(IngestException.class)
                    .hasMessage("big.docx: the file is too large when expanded: a part of it unpacks to more than "
                            + "2,000,000 bytes (the limit); split the document into smaller files");
        } finally {
            ZipArchiveFakeEntry.setMaxEntrySize(limit);
        }
    }
}
