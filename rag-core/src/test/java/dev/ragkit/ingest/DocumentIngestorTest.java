package dev.ragkit.ingest;

import dev.ragkit.testing.RecordingEmbedder;

import dev.ragkit.parse.ContentSniffer;
import dev.ragkit.parse.DocumentParser;
import dev.ragkit.parse.DocumentParsers;
import dev.ragkit.parse.DocumentSkippedException;
import dev.ragkit.parse.DocumentSource;
import dev.ragkit.parse.ParsedDocument;
import dev.ragkit.parse.SkipReason;
import dev.ragkit.parse.TextDocumentParser;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.ragkit.error.IngestException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import dev.ragkit.store.StoredChunk;
import java.util.List;
import java.util.Random;
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
    void prepare_sourceWithASmallerCharacterLimitThanTheIngestors_keepsItsOwnLimit() {
        byte[] bytes = "a line of some forty characters or so.\n".repeat(10).getBytes(StandardCharsets.UTF_8);

        assertThatThrownBy(() -> ingestor().prepare(new DocumentSource("long.txt", bytes, 100)))
                .isInstanceOf(IngestException.class).hasMessageContaining("100");
        assertThatThrownBy(() -> DocumentIngestor.builder().embedder(embedder).tenant("acme").maxChars(100).build()
                .prepare(DocumentSource.of("long.txt", bytes))).isInstanceOf(IngestException.class)
                .hasMessageContaining("100");
        assertThat(ingestor().prepare(new DocumentSource("long.txt", bytes, 10_000)).chunks()).isNotEmpty();
    }

    @Test
    void prepare_withTheHashTheIndexerMade_storesThatHashAndTimesParseAndChunk() {
        java.util.Map<IndexRun.Stage, Long> timed = new java.util.EnumMap<>(IndexRun.Stage.class);
        DocumentSource source = source("a.md", "# A\n\nSome text.\n");

        DocumentIngestor.Prepared prepared = ingestor().prepare(source, "hash-made-once", timed::put);

        assertThat(prepared.document().metadata()).containsEntry(DocumentIngestor.CONTENT_HASH_KEY, "hash-made-once");
        assertThat(timed).containsOnlyKeys(IndexRun.Stage.PARSE, IndexRun.Stage.CHUNK);
        assertThat(ingestor().prepare(source).document().metadata()).containsEntry(DocumentIngestor.CONTENT_HASH_KEY,
                DocumentIngestor.sha256(source.bytes()));
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

    /** A runbook with a token in its front matter, its heading, its prose and a password line (issue 28). */
    private static String runbook(String token, String password) {
        return "---\ntitle: Deploy runbook\nci_token: " + token + "\n---\n"     // lines 1-4
                + "# Deploy with " + token + "\n"                                 // 5
                + "\n"                                                              // 6
                + "Clone the repository with " + token + " and run make.\n"       // 7
                + "The database password=" + password + " lives in the vault.\n"   // 8
                + "Then restart the reporting service.\n"                          // 9
                + "Check the dashboard for errors.\n"                              // 10
                + "Tell the release channel when it is done.\n"                    // 11
                + "Roll back with the previous tag if the checks fail.\n"          // 12
                + "Write down what went wrong in the deploy log.\n";               // 13
    }

    @Test
    void ingest_secretsInsideADocument_areRedactedBeforeChunkingAndEmbeddingAndTheRestIsKept() {
        String token = SecretSamples.githubToken(new Random(1));
        String password = SecretSamples.password(new Random(2));
        String text = runbook(token, password);

        DocumentIngestor.Ingested doc = ingestor().ingest(source("ops/deploy.md", text));

        assertThat(doc.secrets()).isEqualTo(new SecretRedactions(List.of(3, 5, 7, 8),
                List.of("github-token", "password")));
        assertThat(doc.parsed().lines()).hasSize(text.split("\n").length)
                .contains("Clone the repository with [REDACTED: github-token] and run make.",
                        "The database password=[REDACTED: password] lives in the vault.",
                        "Then restart the reporting service.");
        String stored = doc.document() + "\n" + doc.chunks().stream().map(c -> c.text() + " " + c.section())
                .reduce("", String::concat);
        assertThat(stored).doesNotContain(token).doesNotContain(password)
                .contains("Then restart the reporting service.");
        assertThat(doc.document().metadata()).containsEntry("ci_token", "[REDACTED: github-token]")
                .containsEntry(DocumentIngestor.SECRETS_KEY, "redacted-" + SecretScanner.VERSION);
        assertThat(doc.document().title()).isEqualTo("Deploy runbook");
        assertThat(doc.chunks()).extracting(StoredChunk::section).containsOnly("Deploy with [REDACTED: github-token]");
        assertThat(doc.chunks()).filteredOn(c -> c.text().contains("restart")).singleElement()
                .satisfies(c -> assertThat(List.of(c.startLine(), c.endLine())).as("the file's own line numbers")
                        .containsExactly(5, 13));
        assertThat(embedder.calls()).isNotEmpty().allSatisfy(call -> assertThat(String.join(" ", call))
                .doesNotContain(token).doesNotContain(password));
    }

    @Test
    void ingest_aProgramAssigningAVariableToAPassword_keepsTheLine_aShellScriptDoesNot() {
        String text = "def login(credentials):\n    self.username, self.password = credentials\n";

        DocumentIngestor.Ingested python = ingestor().ingest(source("mail/handler.py", text));
        DocumentIngestor.Ingested shell = ingestor().ingest(source("mail/handler.sh", text));

        assertThat(python.secrets().lines()).isEmpty();
        assertThat(python.parsed().lines()).contains("    self.username, self.password = credentials");
        assertThat(shell.secrets().lines()).containsExactly(2);
    }

    @Test
    void ingest_redactSecretsOff_indexesTheTextAsItIsButStillRefusesAKeyBlock() {
        String token = SecretSamples.githubToken(new Random(1));
        DocumentIngestor verbatim = DocumentIngestor.builder().embedder(embedder).tenant("acme").redactSecrets(false)
                .build();
        String keyBody = SecretSamples.fill("MHcCAQEE{s56}", new Random(3));
        String key = "Notes on the old server.\nIt runs the batch jobs.\nThey start at two.\n"
                + "Its key is below.\n-----BEGIN EC PRIVATE KEY-----\n" + keyBody + "\n"
                + "-----END EC PRIVATE KEY-----\nDo not use it.\n";

        DocumentIngestor.Ingested doc = verbatim.ingest(source("ops/deploy.md", runbook(token, "s3cretPassw0rd")));
        DocumentSkippedException refused = catchThrowableOfType(DocumentSkippedException.class,
                () -> verbatim.prepare(source("ops/server.md", key)));
        DocumentIngestor.Prepared redacted = ingestor().prepare(source("ops/server.md", key));

        assertThat(doc.secrets()).isEqualTo(SecretRedactions.NONE);
        assertThat(doc.chunks()).anySatisfy(c -> assertThat(c.text()).contains(token));
        assertThat(doc.document().metadata()).containsEntry(DocumentIngestor.SECRETS_KEY, "off");
        assertThat(refused.reason()).isEqualTo(SkipReason.SECRET_CONTENT);
        assertThat(refused.detail()).contains("a private key block at line 5");
        assertThat(redacted.secrets().lines()).containsExactly(5, 6, 7);
        assertThat(redacted.chunks()).allSatisfy(c -> assertThat(c.text()).doesNotContain(keyBody));
        assertThat(String.join("\n", redacted.parsed().lines())).contains("It runs the batch jobs.", "Do not use it.");
    }

    @Test
    void unchanged_documentIndexedWithAnotherSecretHandling_isReadAgain() {
        byte[] bytes = "# A\n\ntext\n".getBytes(StandardCharsets.UTF_8);
        DocumentIngestor off = DocumentIngestor.builder().embedder(embedder).tenant("acme").redactSecrets(false)
                .build();
        var storedOff = off.ingest(DocumentSource.of("a.md", bytes)).document();
        var storedOn = ingestor().ingest(DocumentSource.of("a.md", bytes)).document();
        var storedBefore = storedOn.toBuilder().metadata(java.util.Map.of(DocumentIngestor.CONTENT_HASH_KEY,
                DocumentIngestor.sha256(bytes), DocumentIngestor.EMBEDDER_KEY, embedder.name())).build();

        assertThat(ingestor().unchanged(storedOn, DocumentIngestor.sha256(bytes))).isTrue();
        assertThat(ingestor().unchanged(storedOff, DocumentIngestor.sha256(bytes))).isFalse();
        assertThat(off.unchanged(storedOn, DocumentIngestor.sha256(bytes))).isFalse();
        assertThat(ingestor().unchanged(storedBefore, DocumentIngestor.sha256(bytes)))
                .as("indexed before secrets were redacted").isFalse();
    }

    @Test
    void unchanged_documentReadByAnOlderReader_isReadAgain() {
        byte[] bytes = "# A\n\ntext\n".getBytes(StandardCharsets.UTF_8);
        var stored = ingestor().ingest(DocumentSource.of("a.md", bytes)).document();
        var metadata = new java.util.HashMap<>(stored.metadata());
        metadata.remove(DocumentIngestor.READER_KEY);
        var readByVersion1 = stored.toBuilder().metadata(metadata).build();
        metadata.put(DocumentIngestor.READER_KEY, String.valueOf(DocumentIngestor.READER_VERSION - 1));
        var readByTheLastVersion = stored.toBuilder().metadata(metadata).build();

        assertThat(stored.metadata()).containsEntry(DocumentIngestor.READER_KEY,
                String.valueOf(DocumentIngestor.READER_VERSION));
        assertThat(ingestor().unchanged(stored, DocumentIngestor.sha256(bytes))).isTrue();
        assertThat(ingestor().unchanged(readByVersion1, DocumentIngestor.sha256(bytes))).isFalse();
        assertThat(ingestor().unchanged(readByTheLastVersion, DocumentIngestor.sha256(bytes))).isFalse();
    }

    @Test
    void prepare_parseErrorQuotingASecret_reportsItRedacted() {
        String token = SecretSamples.githubToken(new Random(4));

        IngestException e = catchThrowableOfType(IngestException.class,
                () -> ingestor().prepare(source("bad.md", "---\ndate: " + token + "\n---\nBody.\n")));
        IngestException verbatim = catchThrowableOfType(IngestException.class,
                () -> DocumentIngestor.builder().embedder(embedder).tenant("acme").redactSecrets(false).build()
                        .prepare(source("bad.md", "---\ndate: " + token + "\n---\nBody.\n")));

        assertThat(verbatim.getMessage()).as("the parser quotes the value").contains(token);
        assertThat(e.getMessage()).doesNotContain(token).contains("[REDACTED: github-token]").startsWith("bad.md:2: ");
        assertThat(e.getCause()).isNull();
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
