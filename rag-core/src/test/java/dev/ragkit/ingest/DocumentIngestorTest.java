package dev.ragkit.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.ragkit.error.IngestException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

final class DocumentIngestorTest {
    private final RecordingEmbedder embedder = new RecordingEmbedder();

    private DocumentIngestor ingestor() {
        return DocumentIngestor.builder().embedder(embedder).tenant("acme").build();
    }

    private static DocumentSource source(String path, String text) {
        return DocumentSource.of(path, text.getBytes(StandardCharsets.UTF_8));
    }

    /** A parser for the given kinds that reports which one it was and reads the text as lines. */
    private static DocumentParser parser(String id, Set<String> extensions, Set<ContentSniffer.Kind> kinds) {
        return new DocumentParser() {
            @Override
            public String id() {
                return id;
            }

            @Override
            public Set<String> extensions() {
                return extensions;
            }

            @Override
            public Set<ContentSniffer.Kind> kinds() {
                return kinds;
            }

            @Override
            public ParsedDocument parse(DocumentSource source) {
                return ParsedDocument.builder(source.path()).title(id).lines(List.of("read by " + id)).build();
            }
        };
    }

    @Test
    void ingest_markdown_storesTheDocumentWithHashEmbedderAndChunks() {
        DocumentIngestor.Ingested doc = ingestor().ingest(source("guide/a.md", "# A\n\nSome text.\n"));

        assertThat(doc.document().path()).isEqualTo("guide/a.md");
        assertThat(doc.document().metadata()).containsEntry(DocumentIngestor.EMBEDDER_KEY, embedder.name())
                .containsEntry(DocumentIngestor.CONTENT_HASH_KEY,
                        DocumentIngestor.sha256("# A\n\nSome text.\n".getBytes(StandardCharsets.UTF_8)));
        assertThat(doc.chunks()).isNotEmpty().allSatisfy(c -> assertThat(c.embedding()).isNotNull());
        assertThat(embedder.calls()).hasSize(1);
    }

    @Test
    void prepare_bytesThatSayAnotherKind_goToThatKindsParser() {
        DocumentParsers parsers = DocumentParsers.of(List.of(new TextDocumentParser(),
                parser("pdf", Set.of("pdf"), Set.of(ContentSniffer.Kind.PDF)),
                parser("html", Set.of("html"), Set.of(ContentSniffer.Kind.HTML))));
        DocumentIngestor ingestor = DocumentIngestor.builder().embedder(embedder).tenant("acme").parsers(parsers)
                .build();

        DocumentIngestor.Prepared htmlNamedPdf = ingestor.prepare(source("report.pdf", "<!doctype html><p>x</p>"));
        DocumentIngestor.Prepared pdfNamedTxt = ingestor.prepare(DocumentSource.of("scan.txt",
                "%PDF-1.4\n...".getBytes(StandardCharsets.US_ASCII)));

        assertThat(htmlNamedPdf.parser()).isEqualTo("html");
        assertThat(pdfNamedTxt.parser()).isEqualTo("pdf");
    }

    @Test
    void prepare_bytesNoParserReads_areSkippedWithTheReason() {
        DocumentIngestor ingestor = ingestor();
        byte[] legacyDoc = {(byte) 0xD0, (byte) 0xCF, 0x11, (byte) 0xE0, (byte) 0xA1, (byte) 0xB1, 0x1A, (byte) 0xE1};
        byte[] png = {(byte) 0x89, 'P', 'N', 'G', 0, 0, 0, 0};

        DocumentSkippedException doc = catchThrowableOfType(DocumentSkippedException.class,
                () -> ingestor.prepare(DocumentSource.of("old.txt", legacyDoc)));
        DocumentSkippedException image = catchThrowableOfType(DocumentSkippedException.class,
                () -> ingestor.prepare(DocumentSource.of("notes.md", png)));

        assertThat(doc.reason()).isEqualTo(SkipReason.UNSUPPORTED_TYPE);
        assertThat(doc.detail()).contains("legacy Office file").contains("save it as .docx");
        assertThat(image.reason()).isEqualTo(SkipReason.UNSUPPORTED_TYPE);
        assertThat(image.detail()).contains("binary content under a .md name");
    }

    @Test
    void prepare_privateKeyInAnyFile_isSkippedAsSecretAndNeverEmbedded() {
        String key = "Server notes\n-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmU\n"
                + "-----END OPENSSH PRIVATE KEY-----\n";

        DocumentSkippedException e = catchThrowableOfType(DocumentSkippedException.class,
                () -> ingestor().ingest(source("ops/server.key.md", key)));

        assertThat(e.reason()).isEqualTo(SkipReason.SECRET_CONTENT);
        assertThat(e.detail()).contains("a private key block at line 2");
        assertThat(embedder.calls()).isEmpty();
    }

    @Test
    void prepare_textMostlyCredentials_isSkippedButAMentionIsNot() {
        String env = "# production\nDB_PASSWORD=hunter2hunter2\nexport STRIPE_API_KEY=sk_live_abcdef123456\n"
                + "REGION=eu\n";
        String prose = "# Passwords\n\nRotate each password every ninety days.\n\n"
                + "Set `password: <your password>` in the form.\nUse the vault for the rest.\n";

        assertThat(catchThrowableOfType(DocumentSkippedException.class,
                () -> ingestor().prepare(source("config.txt", env))).reason()).isEqualTo(SkipReason.SECRET_CONTENT);
        assertThat(ingestor().prepare(source("policy.md", prose)).chunks()).isNotEmpty();
    }

    @Test
    void prepare_parserThatHangs_isGivenUpAfterTheTimeLimit() {
        DocumentParser hangs = new DocumentParser() {
            @Override
            public String id() {
                return "slow";
            }

            @Override
            public Set<String> extensions() {
                return Set.of("slow");
            }

            @Override
            public ParsedDocument parse(DocumentSource source) {
                try {
                    Thread.sleep(60_000);            // stands for a parser stuck on a hostile file
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();  // the ingestor interrupts it when it gives up
                }
                throw new IllegalStateException("interrupted");
            }
        };
        DocumentIngestor ingestor = DocumentIngestor.builder().embedder(embedder).tenant("acme")
                .parsers(DocumentParsers.of(List.of(hangs))).parseTimeout(Duration.ofMillis(200)).build();

        assertThatThrownBy(() -> ingestor.prepare(source("a.slow", "x")))
                .isInstanceOf(IngestException.class)
                .hasMessageContaining("a.slow: parsing with the slow parser took longer than 0 s and was given up");
    }

    @Test
    void prepare_parserRunningOutOfMemory_failsTheFileOnly() {
        DocumentParser greedy = parser("greedy", Set.of("big"), Set.of());
        DocumentParser oom = new DocumentParser() {
            @Override
            public String id() {
                return "greedy";
            }

            @Override
            public Set<String> extensions() {
                return greedy.extensions();
            }

            @Override
            public ParsedDocument parse(DocumentSource source) {
                throw new OutOfMemoryError("Java heap space");
            }
        };
        DocumentIngestor ingestor = DocumentIngestor.builder().embedder(embedder).tenant("acme")
                .parsers(DocumentParsers.of(List.of(oom))).build();

        assertThatThrownBy(() -> ingestor.prepare(source("a.big", "x")))
                .isInstanceOf(IngestException.class).hasMessageContaining("ran out of memory");
    }

    @Test
    void unchanged_sameBytesAndEmbedderOnly() {
        DocumentIngestor ingestor = ingestor();
        DocumentIngestor.Ingested doc = ingestor.ingest(source("a.md", "text"));
        String hash = DocumentIngestor.sha256("text".getBytes(StandardCharsets.UTF_8));

        assertThat(ingestor.unchanged(doc.document(), hash)).isTrue();
        assertThat(ingestor.unchanged(doc.document(), DocumentIngestor.sha256(new byte[] {1}))).isFalse();
        assertThat(ingestor.unchanged(null, hash)).isFalse();
        DocumentIngestor other = DocumentIngestor.builder().embedder(new RecordingEmbedder("other-model", 64))
                .tenant("acme").build();
        assertThat(other.unchanged(doc.document(), hash)).isFalse();
    }

    @Test
    void build_missingSettings_areAllNamed() {
        assertThatThrownBy(() -> DocumentIngestor.builder().build()).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("embedder(...) and tenant(...)");
    }
}
