package dev.ragkit.ingest;

import dev.ragkit.testing.RecordingEmbedder;

import dev.ragkit.chunk.Chunker;
import dev.ragkit.chunk.TextChunk;
import dev.ragkit.chunk.TokenWindowChunker;
import dev.ragkit.embedding.CachingEmbedder;
import dev.ragkit.embedding.Embedder;
import dev.ragkit.parse.MarkdownDocumentParser;
import dev.ragkit.parse.SkipReason;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.ragkit.error.IngestException;
import dev.ragkit.store.PromotionLevel;
import dev.ragkit.store.Scope;
import dev.ragkit.store.SearchHit;
import dev.ragkit.store.SearchRequest;
import dev.ragkit.store.StoredChunk;
import dev.ragkit.store.StoredDocument;
import dev.ragkit.store.inmemory.InMemoryDocumentStore;
import dev.ragkit.testing.HashedBagOfWordsEmbedder;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class IndexerTest {

    private static final String TENANT = "acme";
    private static final Scope ADMIN = Scope.unrestricted(TENANT);
    /** Every test that could open a file it must not should fail, not hang, if it does. */
    private static final Duration NO_HANG = Duration.ofSeconds(30);

    /** One chunk per non-blank body line; token count = word count. Simple and predictable. */
    private static final Chunker LINES = document -> {
        List<TextChunk> chunks = new ArrayList<>();
        for (int line = document.firstBodyLine(); line <= document.lines().size(); line++) {
            String text = document.line(line);
            if (!text.isBlank()) {
                chunks.add(new TextChunk(chunks.size(), text, text.trim().split("\\s+").length, line, line,
                        document.section(line)));
            }
        }
        return chunks;
    };

    @TempDir
    Path temp;

    private final InMemoryDocumentStore store = InMemoryDocumentStore.builder().build();
    private final RecordingEmbedder embedder = new RecordingEmbedder();

    @AfterEach
    void closeStore() {
        store.close();
    }

    private Indexer.Builder indexer() {
        return Indexer.builder().store(store).embedder(embedder).tenant(TENANT).chunker(LINES);
    }

    private Path root() throws IOException {
        return Files.createDirectories(temp.resolve("docs"));
    }

    private static Path write(Path root, String path, String content) throws IOException {
        Path file = root.resolve(path);
        Files.createDirectories(file.getParent());
        return Files.writeString(file, content, StandardCharsets.UTF_8);
    }

    @Test
    void index_secondRunOnAnUnchangedFolder_readsButNeitherParsesNorEmbeds() throws IOException {
        Path root = root();
        write(root, "a.md", "alpha\nbeta\n");
        write(root, "b.txt", "gamma\n");
        indexer().build().index(root);
        int calls = embedder.calls().size();
        List<String> unchanged = new ArrayList<>();

        IndexReport again = indexer().listener(new IndexListener() {
            @Override
            public void onFileUnchanged(String path) {
                unchanged.add(path);
            }
        }).build().index(root);

        assertThat(again.filesUnchanged()).isEqualTo(2);
        assertThat(again.filesIndexed()).isZero();
        assertThat(unchanged).containsExactly("a.md", "b.txt");
        assertThat(embedder.calls()).hasSize(calls);
        assertThat(again.types().get("markdown")).isEqualTo(new IndexReport.TypeCounts(0, 1, 0, 0));
    }

    @Test
    void index_anotherEmbedderOrIncrementalOff_embedsAgain() throws IOException {
        Path root = root();
        write(root, "a.md", "alpha\n");
        indexer().build().index(root);
        RecordingEmbedder other = new RecordingEmbedder("other-model", 64);

        IndexReport switched = Indexer.builder().store(store).embedder(other).tenant(TENANT).chunker(LINES).build()
                .index(root);
        IndexReport forced = indexer().incremental(false).build().index(root);

        assertThat(switched.filesIndexed()).isEqualTo(1);
        assertThat(other.calls()).hasSize(1);
        assertThat(forced.filesIndexed()).isEqualTo(1);
    }

    @Test
    void index_keyInADocumentOfAnyName_isSkippedAsSecretAndNeverStored() throws IOException {
        Path root = root();
        write(root, "id_rsa.md", "-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA\n-----END RSA PRIVATE KEY-----\n");
        write(root, "ok.md", "fine\n");

        IndexReport report = indexer().build().index(root);

        assertThat(report.filesSkipped()).extracting(IndexReport.SkippedFile::path, IndexReport.SkippedFile::reason)
                .containsExactly(tuple("id_rsa.md", SkipReason.SECRET_CONTENT));
        assertThat(storedPaths()).containsExactly("ok.md");
        assertThat(embedder.calls()).noneSatisfy(call -> assertThat(String.join(" ", call)).contains("MIIE"));
    }

    @Test
    void index_secretsInsideDocuments_areRedactedReportedAndNeverFoundWhileTheRestIs() throws IOException {
        Path root = root();
        Random random = new Random(28);
        String token = SecretSamples.githubToken(random);
        String slack = SecretSamples.slackToken(random);
        String[] aws = SecretSamples.awsKeyPair(random);
        write(root, "ops/deploy.md", "# Deploy\n\nThe pipeline clones with " + token + " every night.\n"
                + "Restart the reporting service after the deploy.\nCheck the dashboard.\n");
        write(root, "ops/alerts.txt", "Alerts go to the on-call channel.\nThe bot posts with " + slack + "\n"
                + "aws_access_key_id = " + aws[0] + "\naws_secret_access_key = " + aws[1] + "\n"
                + "Escalate after fifteen minutes.\nPage the database team for replication lag.\n"
                + "Close the incident in the tracker.\n");
        write(root, "clean.md", "# Clean\n\nNothing secret here.\n");
        List<dev.ragkit.audit.AuditRecord> records = new ArrayList<>();

        IndexReport report = indexer().auditSink(records::add).build().index(root);

        assertThat(report.filesIndexed()).isEqualTo(3);
        assertThat(report.filesSkipped()).isEmpty();
        assertThat(report.filesRedacted()).containsExactly(
                new IndexReport.RedactedFile("ops/alerts.txt", List.of(2, 3, 4),
                        List.of("aws-access-key-id", "secret", "slack-token")),
                new IndexReport.RedactedFile("ops/deploy.md", List.of(3), List.of("github-token")));
        assertThat(report.linesRedacted()).isEqualTo(4);
        String everything = allStoredText();
        for (String secret : List.of(token, slack, aws[0], aws[1])) {
            assertThat(everything).doesNotContain(secret);
            assertThat(store.search(SearchRequest.builder(ADMIN).text(secret).k(10).build())).as(secret).isEmpty();
            assertThat(embedder.calls()).noneSatisfy(call -> assertThat(String.join(" ", call)).contains(secret));
            assertThat(records.toString()).doesNotContain(secret);
        }
        assertThat(store.search(SearchRequest.builder(ADMIN).text("reporting service").k(10).build()))
                .extracting(h -> h.chunk().text()).anySatisfy(t -> assertThat(t).contains("Restart the reporting"));
        assertThat(chunksOf("ops/deploy.md")).extracting(StoredChunk::text, StoredChunk::startLine).contains(
                tuple("The pipeline clones with [REDACTED: github-token] every night.", 3),
                tuple("Restart the reporting service after the deploy.", 4));
        assertThat(records).singleElement().satisfies(r -> assertThat(r.counts())
                .containsEntry("redactedFiles", 2L).containsEntry("redactedLines", 4L));
    }

    @Test
    void index_redactSecretsOffThenOn_storesTheTokenThenReadsTheUnchangedFileAgainWithoutIt() throws IOException {
        Path root = root();
        String token = SecretSamples.githubToken(new Random(29));
        write(root, "deploy.md", "# Deploy\n\nClone with " + token + " first.\nThen run make.\nThen ship.\n");

        IndexReport off = indexer().redactSecrets(false).build().index(root);
        String storedOff = allStoredText();
        IndexReport on = indexer().build().index(root);
        IndexReport again = indexer().build().index(root);

        assertThat(off.filesRedacted()).isEmpty();
        assertThat(storedOff).contains(token);
        assertThat(on.filesIndexed()).as("switching redaction on re-reads the unchanged file").isEqualTo(1);
        assertThat(on.filesRedacted()).extracting(IndexReport.RedactedFile::path).containsExactly("deploy.md");
        assertThat(allStoredText()).doesNotContain(token).contains("Then run make.");
        assertThat(again.filesUnchanged()).isEqualTo(1);
        assertThat(again.filesRedacted()).as("a run reports what it read").isEmpty();
        assertThat(indexer().redactSecrets(false).build().toBuilder().build().ingestor().redactsSecrets()).isFalse();
    }

    @Test
    void index_chunksLongerThanTheEmbedderReads_areCountedOnceInTheReport() throws IOException {
        Path root = root();
        write(root, "a.md", "one two three\none two three four five six\n");
        write(root, "b.md", "one two three four five six seven eight\n");
        // Reads four "tokens" (words) of a text.
        Embedder shortSighted = new HashedBagOfWordsEmbedder("short-sighted", 64) {
            @Override
            public int maxInputTokens() {
                return 4;
            }

            @Override
            public int inputTokens(String text) {
                return text.trim().split("\\s+").length;
            }
        };

        IndexReport report = Indexer.builder().store(store).embedder(shortSighted).tenant(TENANT).chunker(LINES)
                .build().index(root);
        IndexReport unlimited = indexer().incremental(false).build().index(root);

        assertThat(report.inputLimit()).isEqualTo(new IndexReport.InputLimit("short-sighted", 4, 2, 8));
        assertThat(report.inputLimit().describe(report.chunks()))
                .startsWith("2 of 3 chunks are longer than the 4 tokens the embedder short-sighted reads")
                .contains("the longest has 8");
        assertThat(unlimited.inputLimit()).isEqualTo(new IndexReport.InputLimit("fake-bow", 0, 0, 0));
    }

    @Test
    void index_excludeGlobs_leaveFilesOutAndListThem() throws IOException {
        Path root = root();
        write(root, "a.md", "keep\n");
        write(root, "drafts/b.md", "draft\n");

        IndexReport report = indexer().exclude("**/drafts/**", "drafts/**").build().index(root);

        assertThat(storedPaths()).containsExactly("a.md");
        assertThat(report.filesSkipped()).extracting(IndexReport.SkippedFile::path, IndexReport.SkippedFile::reason)
                .containsExactly(tuple("drafts/b.md", SkipReason.EXCLUDED));
    }

    @Test
    void index_withAnAuditSink_writesOneIndexRecordPerRun() throws IOException {
        Path root = root();
        write(root, "a.md", "alpha\n");
        write(root, "b.png", "not text");
        List<dev.ragkit.audit.AuditRecord> records = new ArrayList<>();

        indexer().auditSink(records::add).build().index(root);

        assertThat(records).singleElement().satisfies(r -> {
            assertThat(r.operation()).isEqualTo(dev.ragkit.audit.AuditOperation.INDEX);
            assertThat(r.outcome()).isEqualTo(dev.ragkit.audit.AuditOutcome.INDEXED);
            assertThat(r.tenant()).isEqualTo(TENANT);
            assertThat(r.counts()).containsEntry("indexed", 1L).containsEntry("skipped", 1L)
                    .containsEntry("failed", 0L);
            assertThat(r.query()).isEqualTo(root.toString());
        });
    }

    @Test
    void index_linksLeavingTheRootOrPointingNowhere_areCountedApart() throws IOException {
        Path root = root();
        write(root, "a.md", "# A\n\nSee [b](b.md), [gone](gone.md), [out](../outside.md) and [web](https://x.org).\n");
        write(root, "b.md", "# B\n\nBack to [a](a.md).\n");

        IndexReport report = indexer().pathPrefix("docs").build().index(root);

        assertThat(report.linksDropped()).isEqualTo(1);             // ../outside.md leaves the root
        assertThat(report.linksBroken()).isEqualTo(1);              // gone.md points nowhere
        assertThat(store.documents(ADMIN)).filteredOn(d -> d.path().equals("docs/a.md")).singleElement()
                .satisfies(d -> assertThat(d.links()).containsExactly("docs/b.md", "docs/gone.md"));
    }

    private List<String> storedPaths() {
        return store.documents(ADMIN).stream().map(StoredDocument::path).collect(Collectors.toList());
    }

    private StoredDocument stored(String path) {
        return store.findByPaths(ADMIN, List.of(path)).get(0);
    }

    private List<StoredChunk> chunksOf(String path) {
        return store.chunks(ADMIN, StoredDocument.idFor(TENANT, path));
    }

    private String allStoredText() {
        StringBuilder text = new StringBuilder();
        for (StoredDocument document : store.documents(ADMIN)) {
            text.append(document).append('\n');
            for (StoredChunk chunk : store.chunks(ADMIN, document.id())) {
                text.append(chunk.text()).append('\n');
            }
        }
        return text.toString();
    }

    private static void mkfifo(Path path) throws Exception {
        Files.createDirectories(path.getParent());
        Process process = new ProcessBuilder("mkfifo", path.toString()).redirectErrorStream(true).start();
        Assumptions.assumeTrue(process.waitFor(10, TimeUnit.SECONDS) && process.exitValue() == 0,
                "mkfifo is needed to prove that skipped files are never opened (opening a pipe would block)");
    }

    // ---------------------------------------------------------------------------------------------------------
    // What is indexed

    @Test
    void index_nestedFoldersAndRootFiles_indexesEveryMatchingFileUnderItsRelativePath() throws IOException {
        Path root = root();
        write(root, "readme.md", "# Readme\nwelcome text\n");
        write(root, "notes.txt", "plain notes\nsecond line\n");
        write(root, "guide/intro.markdown", "# Intro\nhello there\n");
        write(root, "guide/deep/er/leaf.md", "# Leaf\nleaf words\n");
        write(root, "guide/picture.png", "not a document");
        write(root, "data.json", "{}");

        IndexReport report = indexer().build().index(root);

        // every type some parser reads (data.json is code); the picture is listed as unsupported, not ignored
        assertThat(storedPaths()).containsExactly("data.json", "guide/deep/er/leaf.md", "guide/intro.markdown",
                "notes.txt", "readme.md");
        assertThat(report.filesIndexed()).isEqualTo(5);
        assertThat(report.filesSkipped()).extracting(IndexReport.SkippedFile::path, IndexReport.SkippedFile::reason)
                .containsExactly(tuple("guide/picture.png", SkipReason.UNSUPPORTED_TYPE));
        assertThat(report.filesFailed()).isEmpty();
        assertThat(report.chunks()).isEqualTo(9);
        assertThat(report.types()).containsEntry("markdown", new IndexReport.TypeCounts(3, 0, 0, 0))
                .containsEntry("text", new IndexReport.TypeCounts(1, 0, 0, 0))
                .containsEntry("code", new IndexReport.TypeCounts(1, 0, 0, 0))
                .containsEntry(".png", new IndexReport.TypeCounts(0, 0, 1, 0));
        assertThat(report.cancelled()).isFalse();
        assertThat(report.succeeded()).isTrue();
        assertThat(chunksOf("notes.txt")).extracting(StoredChunk::text, StoredChunk::startLine)
                .containsExactly(tuple("plain notes", 1), tuple("second line", 2));
        StoredChunk leaf = chunksOf("guide/deep/er/leaf.md").get(1);
        assertThat(leaf.embedding()).containsExactly(embedder.vector("leaf words"));
        assertThat(leaf.section()).isEqualTo("Leaf");
        assertThat(leaf.tokenCount()).isEqualTo(2);
    }

    @Test
    void index_frontMatter_mapsEveryFieldToTheStoredDocument() throws IOException {
        Path root = root();
        write(root, "team/policy.md", String.join("\n",
                "---",
                "title: Leave policy",
                "doc_type: policy",
                "promotion_level: critical",
                "date: 2024-03-01",
                "tags: [hr, managers]",
                "owner: hr-team",
                "summary: How to ask for leave.",
                "region: emea",
                "---",
                "# Asking",
                "Ask your manager. See [the form](../forms/leave.md#top) and [site](https://example.com).",
                ""));

        indexer().build().index(root);

        StoredDocument document = stored("team/policy.md");
        assertThat(document.id()).isEqualTo(StoredDocument.idFor(TENANT, "team/policy.md"));
        assertThat(document.tenant()).isEqualTo(TENANT);
        assertThat(document.title()).isEqualTo("Leave policy");
        assertThat(document.docType()).isEqualTo("policy");
        assertThat(document.promotionLevel()).isEqualTo(PromotionLevel.CRITICAL);
        assertThat(document.date()).isEqualTo(LocalDate.of(2024, 3, 1));
        assertThat(document.accessTags()).containsExactly("hr", "managers");
        assertThat(document.ownerTag()).isEqualTo("hr-team");
        assertThat(document.links()).containsExactly("forms/leave.md");
        assertThat(document.metadata()).containsEntry("region", "emea")
                .containsEntry(Indexer.SUMMARY_KEY, "How to ask for leave.");
        assertThat(document.charCount()).isPositive();
        assertThat(chunksOf("team/policy.md")).extracting(StoredChunk::startLine, StoredChunk::section)
                .containsExactly(tuple(11, "Asking"), tuple(12, "Asking"));
    }

    @Test
    void index_defaultChunker_storesTokenWindowChunksWithExactCounts() throws IOException {
        Path root = root();
        StringBuilder long_ = new StringBuilder("# Long\n\n");
        for (int i = 0; i < 400; i++) {
            long_.append("Sentence number ").append(i).append(" talks about indexing folders.\n");
        }
        write(root, "long.md", long_.toString());
        write(root, "short.md", "# Short\n\nOne line.\n");

        IndexReport report = Indexer.builder().store(store).embedder(embedder).tenant(TENANT).build().index(root);

        List<StoredChunk> chunks = chunksOf("long.md");
        assertThat(chunks).hasSizeGreaterThan(1);
        assertThat(chunks).allSatisfy(c -> assertThat(c.tokenCount()).isBetween(1, 500));
        assertThat(chunks.get(0).startLine()).isEqualTo(1);
        assertThat(chunks.get(chunks.size() - 1).endLine()).isEqualTo(402);
        long tokens = chunks.stream().mapToLong(StoredChunk::tokenCount).sum()
                + chunksOf("short.md").stream().mapToLong(StoredChunk::tokenCount).sum();
        assertThat(report.tokens()).isEqualTo(tokens);
    }

    @Test
    void index_emptyAndBlankFiles_storedWithoutChunks() throws IOException {
        Path root = root();
        write(root, "empty.md", "");
        write(root, "blank.md", "\n   \n");
        write(root, "only-front-matter.md", "---\ntitle: Nothing here\n---\n");

        IndexReport report = indexer().build().index(root);

        assertThat(report.filesIndexed()).isEqualTo(3);
        assertThat(report.chunks()).isZero();
        assertThat(storedPaths()).containsExactly("blank.md", "empty.md", "only-front-matter.md");
        assertThat(stored("only-front-matter.md").title()).isEqualTo("Nothing here");
        assertThat(embedder.calls()).isEmpty();
    }

    @Test
    void index_customGlobs_replaceTheDefaults() throws IOException {
        Path root = root();
        write(root, "a.md", "markdown");
        write(root, "b.txt", "plain text");
        write(root, "sub/c.txt", "nested plain text");

        IndexReport report = indexer().include("**/*.txt").build().index(root);

        assertThat(storedPaths()).containsExactly("b.txt", "sub/c.txt");
        assertThat(report.filesIndexed()).isEqualTo(2);
        assertThat(report.filesSkipped()).singleElement().satisfies(s -> {
            assertThat(s.path()).isEqualTo("a.md");
            assertThat(s.reason()).isEqualTo(SkipReason.EXCLUDED);
        });
    }

    @Test
    void index_embeddingBatches_neverLargerThanBatchSize() throws IOException {
        Path root = root();
        write(root, "five.md", "one\ntwo\nthree\nfour\nfive\n");

        indexer().batchSize(2).build().index(root);

        assertThat(embedder.calls()).containsExactly(List.of("one", "two"), List.of("three", "four"),
                List.of("five"));
        assertThat(chunksOf("five.md")).extracting(StoredChunk::index).containsExactly(0, 1, 2, 3, 4);
    }

    @Test
    void index_throughCachingEmbedder_reindexingUnchangedFilesCallsModelNoMore() throws IOException {
        Path root = root();
        write(root, "a.md", "alpha\nbeta\n");
        Indexer indexer = Indexer.builder().store(store).embedder(CachingEmbedder.of(embedder)).tenant(TENANT)
                .chunker(LINES).build();

        indexer.index(root);
        indexer.index(root);

        assertThat(embedder.calls()).hasSize(1);
        assertThat(chunksOf("a.md")).hasSize(2);
    }

    // ---------------------------------------------------------------------------------------------------------
    // Safety

    @Test
    void index_secretAndHiddenFiles_skippedWithReasonAndNeverOpened() throws Exception {
        Path root = root();
        write(root, "visible.md", "visible words");
        // Named pipes: opening one for reading blocks until a writer comes, so any read would hang the test.
        mkfifo(root.resolve(".env"));
        mkfifo(root.resolve("config/.env.local"));
        mkfifo(root.resolve("certs/key.pem"));
        mkfifo(root.resolve("certs/id.key"));
        mkfifo(root.resolve(".hidden.md"));
        mkfifo(root.resolve(".git/HEAD.md"));
        mkfifo(root.resolve("sub/.cache/inner.md"));
        write(root, "sub/kept.md", "kept words");

        IndexReport report = assertTimeoutPreemptively(NO_HANG, () -> indexer().build().index(root));

        assertThat(report.filesSkipped()).extracting(IndexReport.SkippedFile::path, IndexReport.SkippedFile::reason)
                .containsExactly(
                        tuple(".env", SkipReason.SECRET),
                        tuple(".git", SkipReason.HIDDEN),
                        tuple(".hidden.md", SkipReason.HIDDEN),
                        tuple("certs/id.key", SkipReason.SECRET),
                        tuple("certs/key.pem", SkipReason.SECRET),
                        tuple("config/.env.local", SkipReason.SECRET),
                        tuple("sub/.cache", SkipReason.HIDDEN));
        assertThat(report.filesSkipped()).filteredOn(s -> s.path().equals(".git"))
                .extracting(IndexReport.SkippedFile::detail).containsExactly("hidden folder, not entered");
        assertThat(report.filesFailed()).isEmpty();
        assertThat(storedPaths()).containsExactly("sub/kept.md", "visible.md");
    }

    @Test
    void index_secretNames_skippedEvenWhenTheGlobsWouldMatch() throws Exception {
        Path root = root();
        mkfifo(root.resolve("server.key"));
        mkfifo(root.resolve("ca.PEM"));
        write(root, "ok.txt", "fine");

        IndexReport report = assertTimeoutPreemptively(NO_HANG, () -> indexer().include("**/*").build().index(root));

        assertThat(report.filesSkipped()).extracting(IndexReport.SkippedFile::path, IndexReport.SkippedFile::reason)
                .containsExactly(tuple("ca.PEM", SkipReason.SECRET), tuple("server.key", SkipReason.SECRET));
        assertThat(storedPaths()).containsExactly("ok.txt");
    }

    @Test
    void index_fileAboveSizeLimit_skippedWithSizeAndNeverStored() throws IOException {
        Path root = root();
        write(root, "small.md", "x".repeat(100));
        write(root, "big.md", "BIGWORD " + "y".repeat(200));
        Path sparse = root.resolve("huge.md");
        try (RandomAccessFile file = new RandomAccessFile(sparse.toFile(), "rw")) {
            file.setLength(new MarkdownDocumentParser().maxBytes() + 1);
        }

        IndexReport small = indexer().maxFileBytes(100).build().index(root);

        assertThat(small.filesSkipped()).extracting(IndexReport.SkippedFile::path, IndexReport.SkippedFile::reason,
                IndexReport.SkippedFile::detail).containsExactly(
                        tuple("big.md", SkipReason.TOO_LARGE, "208 bytes, limit 100 for markdown files"),
                        tuple("huge.md", SkipReason.TOO_LARGE, (new MarkdownDocumentParser().maxBytes() + 1)
                                + " bytes, limit 100 for markdown files"));
        assertThat(storedPaths()).containsExactly("small.md");

        IndexReport defaults = indexer().build().index(root);
        assertThat(defaults.filesSkipped()).extracting(IndexReport.SkippedFile::path).containsExactly("huge.md");
        assertThat(storedPaths()).containsExactly("big.md", "small.md");
    }

    @Test
    void index_symlinksLeavingTheRoot_skippedAndTargetsNeverOpened() throws Exception {
        Path root = root();
        Path outside = Files.createDirectories(temp.resolve("outside"));
        mkfifo(outside.resolve("secret.md"));
        write(outside, "folder/leak.md", "LEAKWORD");
        write(root, "inside.md", "inside words");
        Files.createSymbolicLink(root.resolve("escape.md"), outside.resolve("secret.md"));
        Files.createSymbolicLink(root.resolve("relative-escape.md"), Path.of("../outside/secret.md"));
        Files.createSymbolicLink(root.resolve("escape-dir"), outside.resolve("folder"));

        IndexReport report = assertTimeoutPreemptively(NO_HANG, () -> indexer().build().index(root));

        assertThat(report.filesSkipped()).extracting(IndexReport.SkippedFile::path, IndexReport.SkippedFile::reason)
                .containsExactly(
                        tuple("escape-dir", SkipReason.SYMLINK_OUTSIDE_ROOT),
                        tuple("escape.md", SkipReason.SYMLINK_OUTSIDE_ROOT),
                        tuple("relative-escape.md", SkipReason.SYMLINK_OUTSIDE_ROOT));
        assertThat(storedPaths()).containsExactly("inside.md");
        assertThat(allStoredText()).doesNotContain("LEAKWORD");
    }

    @Test
    void index_symlinksInsideTheRoot_followedAndStoredUnderTheLinkPath() throws IOException {
        Path root = root();
        write(root, "real/page.md", "# Page\nshared words\n");
        Files.createSymbolicLink(root.resolve("alias.md"), root.resolve("real/page.md"));
        Files.createSymbolicLink(root.resolve("mirror"), Path.of("real"));

        IndexReport report = indexer().build().index(root);

        assertThat(report.filesSkipped()).isEmpty();
        assertThat(storedPaths()).containsExactly("alias.md", "mirror/page.md", "real/page.md");
        assertThat(chunksOf("mirror/page.md")).extracting(StoredChunk::text).containsExactly("# Page", "shared words");
    }

    @Test
    void index_symlinkLoopsAndBrokenLinks_skippedAndTheWalkEnds() throws Exception {
        Path root = root();
        write(root, "sub/page.md", "page words");
        Files.createSymbolicLink(root.resolve("sub/up"), Path.of(".."));
        Files.createSymbolicLink(root.resolve("self"), Path.of("."));
        Files.createSymbolicLink(root.resolve("dangling.md"), Path.of("missing.md"));
        Files.createSymbolicLink(root.resolve("ping.md"), Path.of("pong.md"));
        Files.createSymbolicLink(root.resolve("pong.md"), Path.of("ping.md"));

        IndexReport report = assertTimeoutPreemptively(NO_HANG, () -> indexer().build().index(root));

        assertThat(report.filesSkipped()).extracting(IndexReport.SkippedFile::path, IndexReport.SkippedFile::reason)
                .containsExactly(
                        tuple("dangling.md", SkipReason.BROKEN_SYMLINK),
                        tuple("ping.md", SkipReason.BROKEN_SYMLINK),
                        tuple("pong.md", SkipReason.BROKEN_SYMLINK),
                        tuple("self", SkipReason.SYMLINK_LOOP),
                        tuple("sub/up", SkipReason.SYMLINK_LOOP));
        assertThat(storedPaths()).containsExactly("sub/page.md");
    }

    @Test
    void index_namedPipeMatchingTheGlobs_skippedAsNotRegularAndNeverOpened() throws Exception {
        Path root = root();
        mkfifo(root.resolve("pipe.md"));
        write(root, "file.md", "file words");

        IndexReport report = assertTimeoutPreemptively(NO_HANG, () -> indexer().build().index(root));

        assertThat(report.filesSkipped()).extracting(IndexReport.SkippedFile::path, IndexReport.SkippedFile::reason)
                .containsExactly(tuple("pipe.md", SkipReason.NOT_REGULAR_FILE));
        assertThat(storedPaths()).containsExactly("file.md");
    }

    @Test
    void index_rootItselfHiddenOrALink_isWalked() throws IOException {
        Path hidden = Files.createDirectories(temp.resolve(".notes"));
        write(hidden, "a.md", "a words");
        Path link = Files.createSymbolicLink(temp.resolve("link-to-notes"), hidden);

        assertThat(indexer().build().index(hidden).filesIndexed()).isEqualTo(1);
        assertThat(indexer().build().index(link).filesUnchanged()).isEqualTo(1);   // same bytes, same path
        assertThat(storedPaths()).containsExactly("a.md");
    }

    // ---------------------------------------------------------------------------------------------------------
    // Idempotence and sync

    @Test
    void index_sameFolderTwice_replacesEachDocumentUnderTheSameId() throws IOException {
        Path root = root();
        write(root, "a.md", "first version\nsecond line\n");
        write(root, "b/c.md", "unchanged\n");
        Indexer indexer = indexer().build();
        indexer.index(root);
        List<StoredDocument> before = store.documents(ADMIN);

        write(root, "a.md", "rewritten version\n");
        IndexReport again = indexer.index(root);

        List<StoredDocument> after = store.documents(ADMIN);
        assertThat(after).extracting(StoredDocument::id).containsExactlyElementsOf(
                before.stream().map(StoredDocument::id).collect(Collectors.toList()));
        assertThat(after).hasSize(2);
        assertThat(chunksOf("a.md")).extracting(StoredChunk::text).containsExactly("rewritten version");
        assertThat(chunksOf("b/c.md")).extracting(StoredChunk::text).containsExactly("unchanged");
        assertThat(again.filesIndexed()).isEqualTo(1);                // a.md changed
        assertThat(again.filesUnchanged()).isEqualTo(1);              // b/c.md: same bytes, same embedder
        List<SearchHit> hits = store.search(SearchRequest.builder(ADMIN).text("first").k(10).build());
        assertThat(hits).isEmpty();
    }

    @Test
    void index_syncAfterFilesRemoved_deletesOnlyThisTenantsGoneDocuments() throws IOException {
        Path root = root();
        write(root, "keep.md", "keep");
        write(root, "gone.md", "gone");
        write(root, "dir/gone-too.md", "gone too");
        write(root, "other.txt", "no longer matched");
        indexer().build().index(root);
        Indexer.builder().store(store).embedder(embedder).tenant("other").chunker(LINES).build().index(root);

        Files.delete(root.resolve("gone.md"));
        Files.delete(root.resolve("dir/gone-too.md"));
        IndexReport withoutSync = indexer().include("**/*.md").build().index(root);
        assertThat(withoutSync.documentsDeleted()).isZero();
        assertThat(withoutSync.documentsGone()).isEqualTo(2);                // other.txt is left out, not gone
        assertThat(storedPaths()).hasSize(4);

        IndexReport report = indexer().include("**/*.md").sync(true).build().index(root);

        assertThat(report.documentsDeleted()).isEqualTo(2);
        assertThat(report.documentsGone()).isZero();
        assertThat(storedPaths()).containsExactly("keep.md", "other.txt");     // other.txt exists: not gone
        assertThat(store.documents(Scope.unrestricted("other"))).extracting(StoredDocument::path)
                .containsExactly("dir/gone-too.md", "gone.md", "keep.md", "other.txt");
    }

    @Test
    void index_twoFoldersWithPrefixesInOneTenant_keepTheirDocumentsApartAndSyncOnlyTheirOwn() throws IOException {
        Path docs = root();
        Path guides = Files.createDirectories(temp.resolve("guides"));
        write(docs, "index.md", "docs index, see [install](install.md)");
        write(docs, "install.md", "install steps");
        write(guides, "index.md", "guides index");
        indexer().pathPrefix("docs").build().index(docs);
        indexer().pathPrefix("guides/").build().index(guides);

        assertThat(storedPaths()).containsExactly("docs/index.md", "docs/install.md", "guides/index.md");
        StoredDocument docsIndex = store.findByPaths(ADMIN, List.of("docs/index.md")).get(0);
        assertThat(docsIndex.links()).containsExactly("docs/install.md");
        assertThat(docsIndex.id()).isNotEqualTo(store.findByPaths(ADMIN, List.of("guides/index.md")).get(0).id());

        Files.delete(docs.resolve("install.md"));
        IndexReport report = indexer().pathPrefix("docs").sync(true).build().index(docs);

        assertThat(report.documentsDeleted()).isEqualTo(1);
        assertThat(storedPaths()).containsExactly("docs/index.md", "guides/index.md");
    }

    @Test
    void index_syncWithGlobsThatLeaveFilesOut_deletesOnlyDocumentsWhoseFilesAreGone() throws IOException {
        Path root = root();
        write(root, "a.md", "alpha");
        write(root, "sub/a.md", "alpha below");
        write(root, "b.md", "beta");
        write(root, "notes.txt", "notes");
        write(root, "gone.md", "gone");
        indexer().build().index(root);
        Files.delete(root.resolve("gone.md"));

        IndexReport report = indexer().include("**/a.md").exclude("sub/**").sync(true).build().index(root);

        assertThat(report.documentsDeleted()).isEqualTo(1);
        assertThat(report.filesSkipped()).extracting(IndexReport.SkippedFile::path)
                .containsExactly("b.md", "notes.txt", "sub/a.md");
        assertThat(storedPaths()).containsExactly("a.md", "b.md", "notes.txt", "sub/a.md");
    }

    @Test
    void index_everyDocument_recordsTheFolderItCameFrom() throws IOException {
        Path root = root();
        write(root, "a.md", "alpha");

        indexer().build().index(root);

        assertThat(stored("a.md").metadata()).containsEntry(DocumentIngestor.ROOT_KEY,
                root.toRealPath().toString());
    }

    @Test
    void index_secondFolderOfTheSameNameUnderTheSamePrefix_isRefusedNamingTheOtherFolderAndThePrefixFix()
            throws IOException {
        Path x = Files.createDirectories(temp.resolve("x/docs"));
        Path y = Files.createDirectories(temp.resolve("y/docs"));
        write(x, "install.md", "install from x");
        write(x, "only-x.md", "only in x");
        write(y, "install.md", "install from y");
        indexer().pathPrefix("docs").sync(true).build().index(x);

        assertThatThrownBy(() -> indexer().pathPrefix("docs").sync(true).build().index(y))
                .isInstanceOf(IngestException.class).hasMessageContaining(x.toRealPath().toString())
                .hasMessageContaining("under 'docs/'").hasMessageContaining("--prefix y-docs")
                .hasMessageContaining("Nothing was indexed");

        assertThat(storedPaths()).containsExactly("docs/install.md", "docs/only-x.md");
        assertThat(chunksOf("docs/install.md")).extracting(StoredChunk::text).containsExactly("install from x");
        indexer().pathPrefix("y-docs").sync(true).build().index(y);
        assertThat(storedPaths()).containsExactly("docs/install.md", "docs/only-x.md", "y-docs/install.md");
        assertThat(Indexer.builder().store(store).embedder(embedder).tenant("other").chunker(LINES).pathPrefix("docs")
                .build().index(y).filesIndexed()).as("another tenant is another namespace").isEqualTo(1);
    }

    @Test
    void index_folderMovedElsewhere_keepsItsPrefixAndSyncsItsDocuments() throws IOException {
        Path old = Files.createDirectories(temp.resolve("old/docs"));
        write(old, "a.md", "alpha");
        write(old, "b.md", "beta");
        indexer().pathPrefix("docs").build().index(old);
        Path moved = Files.move(old, Files.createDirectories(temp.resolve("new")).resolve("docs"));
        Files.delete(moved.resolve("b.md"));

        IndexReport report = indexer().pathPrefix("docs").sync(true).build().index(moved);

        assertThat(report.filesUnchanged()).isEqualTo(1);
        assertThat(report.documentsDeleted()).isEqualTo(1);
        assertThat(storedPaths()).containsExactly("docs/a.md");
    }

    @Test
    void pathPrefix_absoluteOrEscaping_isRejected() {
        for (String bad : List.of("/abs", "../up", "a/../b", "a//b", "a\\b", ".")) {
            assertThatThrownBy(() -> Indexer.builder().pathPrefix(bad)).as(bad)
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("pathPrefix");
        }
    }

    @Test
    void index_syncWithFailedAndSkippedFiles_keepsTheirLastDocuments() throws IOException {
        Path root = root();
        write(root, "broken.md", "good version\n");
        write(root, "grown.md", "small\n");
        write(root, "fine.md", "fine\n");
        indexer().build().index(root);

        write(root, "broken.md", "---\ntitle: [unclosed\n---\nbad version\n");
        write(root, "grown.md", "z".repeat(500));
        IndexReport report = indexer().maxFileBytes(100).sync(true).build().index(root);

        assertThat(report.documentsDeleted()).isZero();
        assertThat(report.filesFailed()).extracting(IndexReport.FailedFile::path).containsExactly("broken.md");
        assertThat(report.filesSkipped()).extracting(IndexReport.SkippedFile::path).containsExactly("grown.md");
        assertThat(storedPaths()).containsExactly("broken.md", "fine.md", "grown.md");
        assertThat(chunksOf("broken.md")).extracting(StoredChunk::text).containsExactly("good version");
    }

    // ---------------------------------------------------------------------------------------------------------
    // Failures

    @Test
    void index_invalidFrontMatterInOneFile_reportedWithLineAndOthersIndexed() throws IOException {
        Path root = root();
        write(root, "a.md", "a words");
        write(root, "bad.md", "---\ntitle: ok\npromotion_level: legendary\n---\nbody\n");
        write(root, "c.md", "c words");

        IndexReport report = indexer().build().index(root);

        assertThat(report.filesIndexed()).isEqualTo(2);
        assertThat(report.filesFailed()).singleElement().satisfies(f -> {
            assertThat(f.path()).isEqualTo("bad.md");
            assertThat(f.message()).startsWith("bad.md:3: ").contains("legendary");
        });
        assertThat(report.succeeded()).isFalse();
        assertThat(storedPaths()).containsExactly("a.md", "c.md");
    }

    @Test
    void index_invalidUtf8OrBinaryFile_reportedWithLineAndOthersIndexed() throws IOException {
        Path root = root();
        write(root, "good.md", "good");
        Files.write(root.resolve("latin1.md"), "line one\ncaf\u00e9\n".getBytes(StandardCharsets.ISO_8859_1));
        Files.write(root.resolve("binary.txt"), new byte[] {'a', '\n', 'b', 0, 'c'});

        IndexReport report = indexer().build().index(root);

        // not UTF-8: fails with the line and the fix; binary bytes under a text name: skipped with that reason
        assertThat(report.filesFailed()).extracting(IndexReport.FailedFile::path, IndexReport.FailedFile::message)
                .containsExactly(
                        tuple("latin1.md", "latin1.md:2: the file is not valid UTF-8 (byte offset 12); save it as UTF-8"));
        assertThat(report.filesSkipped()).singleElement().satisfies(s -> {
            assertThat(s.path()).isEqualTo("binary.txt");
            assertThat(s.reason()).isEqualTo(SkipReason.UNSUPPORTED_TYPE);
            assertThat(s.detail()).contains("binary content under a .txt name");
        });
        assertThat(storedPaths()).containsExactly("good.md");
    }

    @Test
    void index_embedderFailsForOneFile_reportedNamingTheModelAndOthersIndexed() throws IOException {
        Path root = root();
        write(root, "a.md", "alpha");
        write(root, "b.md", "EXPLODE here");
        write(root, "c.md", "gamma");
        embedder.failOn("EXPLODE");
        List<String> failedPaths = new ArrayList<>();
        Indexer indexer = indexer().listener(new IndexListener() {
            @Override
            public void onFileFailed(String path, IngestException error) {
                failedPaths.add(path + " -> " + error.path());
            }
        }).build();

        IndexReport report = indexer.index(root);

        assertThat(report.filesFailed()).singleElement().satisfies(f -> {
            assertThat(f.path()).isEqualTo("b.md");
            assertThat(f.message()).contains("embedding failed").contains("'fake-bow'");
        });
        assertThat(failedPaths).containsExactly("b.md -> b.md");
        assertThat(storedPaths()).containsExactly("a.md", "c.md");
    }

    @Test
    void index_embedderAnswersGarbage_fileFailsAndNothingOfItIsStored() throws IOException {
        Path root = root();
        write(root, "a.md", "alpha\nbeta\n");
        embedder.tamper(v -> {
            v[v.length - 1][1] = Float.NaN;
            return v;
        });

        IndexReport report = indexer().build().index(root);

        assertThat(report.filesFailed()).singleElement().extracting(IndexReport.FailedFile::message).asString()
                .contains("'fake-bow'").contains("non-finite value (NaN)");
        assertThat(storedPaths()).isEmpty();
    }

    @Test
    void index_storeRejectsTheVectors_runEndsWithTheStoresException() throws IOException {
        Path root = root();
        write(root, "a.md", "alpha");
        write(root, "b.md", "beta");
        try (InMemoryDocumentStore narrow = InMemoryDocumentStore.builder().dimension(8).build()) {
            Indexer indexer = Indexer.builder().embedder(embedder).tenant(TENANT).chunker(LINES).store(narrow).build();

            assertThatThrownBy(() -> indexer.index(root)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("dimension");
            assertThat(embedder.calls()).hasSize(1);
        }
    }

    @Test
    void index_rootMissingOrAFile_throwsIngestExceptionSayingWhatToPass() throws IOException {
        Indexer indexer = indexer().build();
        Path file = write(temp, "file.md", "x");

        assertThatThrownBy(() -> indexer.index(temp.resolve("nope"))).isInstanceOf(IngestException.class)
                .hasMessageContaining("nope").hasMessageContaining("no such folder");
        assertThatThrownBy(() -> indexer.index(file)).isInstanceOf(IngestException.class)
                .hasMessageContaining("file.md").hasMessageContaining("not a folder");
    }

    @Test
    void index_emptyFolder_reportsNothingDone() throws IOException {
        List<IndexProgress> progress = new ArrayList<>();
        IndexReport report = indexer().sync(true).listener(new IndexListener() {
            @Override
            public void onProgress(IndexProgress p) {
                progress.add(p);
            }
        }).build().index(root());

        assertThat(report.filesIndexed()).isZero();
        assertThat(report.filesSkipped()).isEmpty();
        assertThat(report.filesFailed()).isEmpty();
        assertThat(report.chunks()).isZero();
        assertThat(report.cancelled()).isFalse();
        assertThat(progress).isNotEmpty().allSatisfy(p -> assertThat(p.fraction()).isEqualTo(1.0));
        assertThat(embedder.calls()).isEmpty();
    }

    // ---------------------------------------------------------------------------------------------------------
    // Listener and cancellation

    @Test
    void index_listener_seesEveryFileInOrderMonotonicProgressAndAFinalEventEqualToTheReport() throws Exception {
        Path root = root();
        write(root, "a.md", "one\ntwo\n");
        write(root, "b.md", "---\ndate: not-a-date\n---\nx\n");
        write(root, "c/d.md", "three\n");
        write(root, "e.txt", "four five\nsix\n");
        write(root, ".hidden.md", "hidden");
        List<String> events = new ArrayList<>();
        List<IndexProgress> progress = new ArrayList<>();
        IndexListener listener = new IndexListener() {
            @Override
            public void onStart(int totalFiles) {
                events.add("start " + totalFiles);
            }

            @Override
            public void onFileDone(String path, int chunks, long tokens) {
                events.add("done " + path + " " + chunks + " " + tokens);
            }

            @Override
            public void onFileSkipped(String path, SkipReason reason, String detail) {
                events.add("skipped " + path + " " + reason);
            }

            @Override
            public void onFileFailed(String path, IngestException error) {
                events.add("failed " + path);
            }

            @Override
            public void onProgress(IndexProgress p) {
                progress.add(p);
                events.add("progress " + p.filesDone() + "/" + p.filesTotal());
            }
        };

        IndexReport report = indexer().listener(listener).build().index(root);

        assertThat(events).containsExactly("start 4", "skipped .hidden.md HIDDEN", "progress 0/4",
                "done a.md 2 2", "progress 1/4", "failed b.md", "progress 2/4", "done c/d.md 1 1", "progress 3/4",
                "done e.txt 2 3", "progress 4/4", "progress 4/4");
        for (int i = 1; i < progress.size(); i++) {
            IndexProgress previous = progress.get(i - 1);
            IndexProgress current = progress.get(i);
            assertThat(current.filesDone()).isGreaterThanOrEqualTo(previous.filesDone());
            assertThat(current.chunks()).isGreaterThanOrEqualTo(previous.chunks());
            assertThat(current.tokens()).isGreaterThanOrEqualTo(previous.tokens());
            assertThat(current.elapsed()).isGreaterThanOrEqualTo(previous.elapsed());
        }
        IndexProgress last = progress.get(progress.size() - 1);
        long bytes = Files.size(root.resolve("a.md")) + Files.size(root.resolve("b.md"))
                + Files.size(root.resolve("c/d.md")) + Files.size(root.resolve("e.txt"));
        assertThat(last).isEqualTo(new IndexProgress(report.filesIndexed() + report.filesFailed().size(), 4,
                report.chunks(), report.tokens(), report.elapsed(), bytes, bytes));
        assertThat(report.chunks()).isEqualTo(5);
        assertThat(report.tokens()).isEqualTo(6);
    }

    @Test
    void index_manySmallFiles_fillSharedEmbeddingBatchesAndAFailingFileFailsAlone() throws IOException {
        Path root = root();
        for (int i = 0; i < 10; i++) {
            write(root, "f" + i + ".md", i == 6 ? "EXPLODE here\n" : "file " + i + "\n");
        }
        embedder.failOn("EXPLODE");

        IndexReport report = indexer().batchSize(4).build().index(root);

        assertThat(report.filesIndexed()).isEqualTo(9);
        assertThat(report.filesFailed()).extracting(IndexReport.FailedFile::path).containsExactly("f6.md");
        assertThat(storedPaths()).hasSize(9).doesNotContain("f6.md");
        // shared batches of 4 texts, then, for the batch with the bad file, each of its files on its own
        assertThat(embedder.calls().get(0)).hasSize(4);
        assertThat(embedder.calls()).filteredOn(call -> call.size() > 1).isNotEmpty();
        assertThat(embedder.calls().stream().mapToInt(List::size).sum()).isLessThan(10 + 4 + 4 + 1);
    }

    @Test
    void index_cancelledFromTheListenerAfterTheFirstFile_storesOnlyWholeDocuments() throws IOException {
        Path root = root();
        write(root, "a.md", "a1\na2\na3\n");
        write(root, "b.md", "b1\nb2\nb3\n");
        write(root, "c.md", "c1\n");
        AtomicBoolean stop = new AtomicBoolean();
        List<IndexProgress> progress = new ArrayList<>();
        Indexer indexer = indexer().sync(true).listener(new IndexListener() {
            @Override
            public void onFileDone(String path, int chunks, long tokens) {
                stop.set(true);
            }

            @Override
            public void onProgress(IndexProgress p) {
                progress.add(p);
            }
        }).build();

        IndexReport report = indexer.index(root, stop::get);

        assertThat(report.cancelled()).isTrue();
        assertThat(report.succeeded()).isFalse();
        assertThat(report.filesIndexed()).isEqualTo(1);
        assertThat(report.documentsDeleted()).isZero();
        assertThat(storedPaths()).containsExactly("a.md");
        assertThat(chunksOf("a.md")).extracting(StoredChunk::text).containsExactly("a1", "a2", "a3");
        long size = Files.size(root.resolve("a.md"));
        assertThat(progress.get(progress.size() - 1)).isEqualTo(new IndexProgress(1, 3, 3, 3, report.elapsed(),
                size, size + Files.size(root.resolve("b.md")) + Files.size(root.resolve("c.md"))));
    }

    @Test
    void index_cancelledBetweenBatchesOfAFile_keepsItsEarlierVersionWhole() throws IOException {
        Path root = root();
        write(root, "big.md", "old one\nold two\n");
        indexer().build().index(root);
        write(root, "big.md", "new1\nnew2\nnew3\nnew4\nnew5\n");
        AtomicInteger asked = new AtomicInteger();

        // Asked by the walk of the root (1), before the file (2), before each batch of 2 (3, 4): stops before
        // the second batch.
        IndexReport report = indexer().batchSize(2).build().index(root, () -> asked.incrementAndGet() > 3);

        assertThat(report.cancelled()).isTrue();
        assertThat(report.filesIndexed()).isZero();
        assertThat(chunksOf("big.md")).extracting(StoredChunk::text).containsExactly("old one", "old two");
    }

    @Test
    void index_cancelledBeforeStarting_readsNothing() throws IOException {
        Path root = root();
        write(root, "a.md", "a");

        IndexReport report = indexer().build().index(root, () -> true);

        assertThat(report.cancelled()).isTrue();
        assertThat(report.filesIndexed()).isZero();
        assertThat(storedPaths()).isEmpty();
        assertThat(embedder.calls()).isEmpty();
    }

    @Test
    void index_listenerThrows_runEndsWithItsExceptionAndStoredDocumentsStayWhole() throws IOException {
        Path root = root();
        write(root, "a.md", "a1\na2\n");
        write(root, "b.md", "b1\n");
        Indexer indexer = indexer().listener(new IndexListener() {
            @Override
            public void onFileDone(String path, int chunks, long tokens) {
                throw new IllegalStateException("listener broke on " + path);
            }
        }).build();

        assertThatThrownBy(() -> indexer.index(root)).isInstanceOf(IllegalStateException.class)
                .hasMessage("listener broke on a.md");
        assertThat(storedPaths()).containsExactly("a.md");
        assertThat(chunksOf("a.md")).hasSize(2);
    }

    // ---------------------------------------------------------------------------------------------------------
    // Bookkeeping, time and streaming (issues 25, 26, 29)

    /** A clock that stands still until a test moves it. */
    private static final class ManualClock extends java.time.Clock {
        private volatile java.time.Instant now;

        ManualClock(String instant) {
            this.now = java.time.Instant.parse(instant);
        }

        void advance(Duration by) {
            now = now.plus(by);
        }

        @Override
        public java.time.ZoneId getZone() {
            return java.time.ZoneOffset.UTC;
        }

        @Override
        public java.time.Clock withZone(java.time.ZoneId zone) {
            throw new UnsupportedOperationException();
        }

        @Override
        public java.time.Instant instant() {
            return now;
        }
    }

    /** An embedder that takes one millisecond of the clock per character it embeds (time grows with the text). */
    private static Embedder slowedBy(ManualClock clock, Embedder embedder) {
        return new Embedder() {
            @Override
            public float[][] embed(List<String> texts) {
                clock.advance(Duration.ofMillis(texts.stream().mapToInt(String::length).sum()));
                return embedder.embed(texts);
            }

            @Override
            public int dimension() {
                return embedder.dimension();
            }

            @Override
            public String name() {
                return embedder.name();
            }
        };
    }

    @Test
    void index_elapsedTimeOfProgressAndReport_comesFromTheIndexersClock() throws IOException {
        Path root = root();
        write(root, "a.md", "abcd\n");
        write(root, "b.md", "efghijkl\n");
        ManualClock clock = new ManualClock("2025-03-01T09:30:00Z");
        List<Duration> elapsed = new ArrayList<>();

        IndexReport report = Indexer.builder().store(store).tenant(TENANT).chunker(LINES).embedder(slowedBy(clock, embedder)).clock(clock).batchSize(1)
                .listener(new IndexListener() {
                    @Override
                    public void onProgress(IndexProgress p) {
                        elapsed.add(p.elapsed());
                    }
                }).build().index(root);

        assertThat(report.elapsed()).isEqualTo(Duration.ofMillis(4 + 8));
        assertThat(elapsed).containsExactly(Duration.ZERO, Duration.ofMillis(4), Duration.ofMillis(12),
                Duration.ofMillis(12));
    }

    @Test
    void index_filesOfVeryDifferentSizes_etaFromBytesIsWithinAQuarterOfTheTruthAfterTheFirstFivePercent()
            throws IOException {
        Path root = root();
        Random random = new Random(29);
        for (int i = 0; i < 200; i++) {
            // most files small, some a hundred times larger, spread through the folder
            int lines = random.nextInt(10) == 0 ? 100 + random.nextInt(100) : 1 + random.nextInt(2);
            write(root, String.format("f%03d.md", i), "a line of words\n".repeat(lines));
        }
        ManualClock clock = new ManualClock("2025-03-01T09:30:00Z");
        List<IndexProgress> progress = new ArrayList<>();

        IndexReport report = Indexer.builder().store(store).tenant(TENANT).chunker(LINES).embedder(slowedBy(clock, embedder)).clock(clock).batchSize(1).listener(
                new IndexListener() {
                    @Override
                    public void onProgress(IndexProgress p) {
                        progress.add(p);
                    }
                }).build().index(root);

        Duration total = report.elapsed();
        List<Double> fileBasedErrors = new ArrayList<>();
        int checked = 0;
        for (IndexProgress p : progress) {
            Duration truth = total.minus(p.elapsed());
            if (p.elapsed().toNanos() < total.toNanos() / 20 || truth.isZero()) {
                continue;                                       // the first 5%, and the end
            }
            Duration eta = p.estimatedRemaining();
            assertThat(eta).as("after %s of %s", p.elapsed(), total).isNotNull();
            assertThat((double) Math.abs(eta.toNanos() - truth.toNanos())).as("ETA %s, truth %s", eta, truth)
                    .isLessThanOrEqualTo(0.25 * truth.toNanos());
            double byFiles = p.elapsed().toNanos() * (p.filesTotal() - p.filesDone()) / (double) p.filesDone();
            fileBasedErrors.add(Math.abs(byFiles - truth.toNanos()) / truth.toNanos());
            checked++;
        }
        assertThat(checked).isGreaterThan(20);
        // the test can tell: an ETA by files would be more than a quarter off somewhere
        assertThat(fileBasedErrors).anySatisfy(e -> assertThat(e).isGreaterThan(0.25));
        assertThat(progress.get(progress.size() - 1).estimatedRemaining()).isEqualTo(Duration.ZERO);
    }

    @Test
    void index_everyStoredDocument_recordsWhenItWasIndexedAndAnUnchangedFileKeepsItsTime() throws IOException {
        Path root = root();
        write(root, "a.md", "alpha\n");
        write(root, "b.md", "beta\n");
        ManualClock clock = new ManualClock("2025-03-01T09:30:00.250Z");
        indexer().clock(clock).build().index(root);
        assertThat(store.documents(ADMIN)).extracting(d -> d.metadata().get(DocumentIngestor.INDEXED_AT_KEY))
                .containsExactly("2025-03-01T09:30:00Z", "2025-03-01T09:30:00Z");

        clock.advance(Duration.ofDays(1));
        write(root, "b.md", "beta, changed\n");
        indexer().clock(clock).build().index(root);

        assertThat(store.documents(ADMIN)).extracting(StoredDocument::path,
                d -> d.metadata().get(DocumentIngestor.INDEXED_AT_KEY)).containsExactly(
                tuple("a.md", "2025-03-01T09:30:00Z"), tuple("b.md", "2025-03-02T09:30:00Z"));
    }

    @Test
    void index_checkpoint_runsAfterStoredBatchesAtMostOncePerInterval() throws IOException {
        Path root = root();
        for (int i = 0; i < 5; i++) {
            write(root, "f" + i + ".md", "file " + i + "\n");
        }
        ManualClock clock = new ManualClock("2025-03-01T09:30:00Z");
        List<Integer> storedAtCheckpoint = new ArrayList<>();

        indexer().batchSize(2).clock(clock).checkpoint(Duration.ZERO, () -> storedAtCheckpoint.add(store
                .documents(ADMIN).size())).build().index(root);

        assertThat(storedAtCheckpoint).containsExactly(2, 4, 5);

        AtomicInteger hourly = new AtomicInteger();
        write(root, "f0.md", "changed\n");
        indexer().batchSize(1).clock(clock).checkpoint(Duration.ofHours(1), hourly::incrementAndGet).build()
                .index(root);
        assertThat(hourly).hasValue(0);
    }

    @Test
    void index_threads_boundTheThreadsThatReadAheadAndGiveTheSameIndex() throws IOException {
        Path root = root();
        for (int i = 0; i < 40; i++) {
            write(root, String.format("f%02d.md", i), "file " + i + "\nsecond line\n");
        }
        java.util.Set<String> chunkedOn = java.util.concurrent.ConcurrentHashMap.newKeySet();
        Chunker recording = document -> {
            chunkedOn.add(Thread.currentThread().getName());
            return LINES.chunk(document);
        };

        Indexer.builder().store(store).embedder(embedder).tenant(TENANT).chunker(recording).threads(1).build().index(root);
        assertThat(chunkedOn).containsExactly(Thread.currentThread().getName());
        List<String> one = store.documents(ADMIN).stream().map(d -> d.path() + " " + chunksOf(d.path()).stream()
                .map(StoredChunk::text).toList()).toList();

        chunkedOn.clear();
        List<String> order = new ArrayList<>();
        InMemoryDocumentStore other = InMemoryDocumentStore.builder().build();
        Indexer.builder().store(other).embedder(embedder).tenant(TENANT).chunker(recording).threads(3).batchSize(3)
                .listener(new IndexListener() {
                    @Override
                    public void onFileDone(String path, int chunks, long tokens) {
                        order.add(path);
                    }
                }).build().index(root);

        assertThat(chunkedOn).isNotEmpty().hasSizeLessThanOrEqualTo(2)
                .allSatisfy(name -> assertThat(name).startsWith("ragkit-index-"));
        assertThat(order).isSorted().hasSize(40);
        assertThat(other.documents(ADMIN).stream().map(d -> d.path() + " " + other.chunks(ADMIN, d.id()).stream()
                .map(StoredChunk::text).toList()).toList()).isEqualTo(one);
        other.close();
        assertThatThrownBy(() -> Indexer.builder().threads(0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Indexer.builder().threads(257)).isInstanceOf(IllegalArgumentException.class);
    }

    // ---------------------------------------------------------------------------------------------------------
    // Builder

    @Test
    void builder_missingStoreEmbedderOrTenant_throwsIllegalStateNamingThem() {
        assertThatThrownBy(() -> Indexer.builder().build()).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("store(..), embedder(..), tenant(..)");
        assertThatThrownBy(() -> Indexer.builder().store(store).embedder(embedder).build())
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("tenant(\"default\")");
    }

    @Test
    void builder_badValues_rejectedAtOnce() {
        Indexer.Builder builder = Indexer.builder();
        assertThatThrownBy(() -> builder.tenant(" ")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> builder.batchSize(0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> builder.maxFileBytes(0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> builder.maxFileBytes(Long.MAX_VALUE)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> builder.include(List.of())).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> builder.include("**/*.{md")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("**/*.{md");
        assertThatThrownBy(() -> builder.store(null)).isInstanceOf(NullPointerException.class)
                .hasMessage("store");
    }

    @Test
    void toBuilder_keepsEverySetting() throws IOException {
        Path root = root();
        write(root, "a.txt", "one\ntwo\nthree\n");
        write(root, "b.md", "not included\n");
        Indexer original = indexer().include("*.txt").batchSize(1).build();

        original.toBuilder().build().index(root);

        assertThat(storedPaths()).containsExactly("a.txt");
        assertThat(embedder.calls()).hasSize(3);
    }

    @Test
    void toBuilder_copiesEveryFieldOfBothBuilders_soANewSettingCannotBeForgotten() throws Exception {
        Indexer.Builder original = Indexer.builder().store(store).embedder(embedder).tenant(TENANT).include("*.txt").exclude("x/**").batchSize(7).maxFileBytes(1234)
                .parseTimeout(java.time.Duration.ofSeconds(9)).redactSecrets(false).sync(true).incremental(false)
                .pathPrefix("kb").auditSink(record -> { }).auditFailurePolicy(
                        dev.ragkit.audit.AuditFailurePolicy.FAIL_REQUEST)
                .chunker(TokenWindowChunker.builder().counter(dev.ragkit.tokens.TokenCounters.jtokkit()).maxTokens(64)
                        .overlapTokens(8).build());
        Indexer.Builder copy = original.build().toBuilder();
        assertSameFields(original, copy, Indexer.Builder.class);
        java.lang.reflect.Field ingestor = Indexer.Builder.class.getDeclaredField("ingestor");
        ingestor.setAccessible(true);
        assertThat(ingestor.get(copy)).isNotSameAs(ingestor.get(original));
        assertSameFields(ingestor.get(original), ingestor.get(copy), DocumentIngestor.Builder.class);
    }

    /** Every field of {@code type} holds the same value in both (a builder of a nested builder: the same fields). */
    private static void assertSameFields(Object a, Object b, Class<?> type) throws IllegalAccessException {
        for (java.lang.reflect.Field f : type.getDeclaredFields()) {
            if (java.lang.reflect.Modifier.isStatic(f.getModifiers())) {
                continue;
            }
            f.setAccessible(true);
            Object x = f.get(a);
            Object y = f.get(b);
            if (x instanceof DocumentIngestor.Builder || x instanceof dev.ragkit.internal.SetOnce) {
                continue;            // compared field by field by the caller; stages set on a builder are its own
            }
            assertThat(y).as(type.getSimpleName() + "." + f.getName()).isEqualTo(x);
        }
    }

    @Test
    void builder_auditFailurePolicyWithoutASink_failsAtBuild() {
        assertThatThrownBy(() -> indexer().auditFailurePolicy(dev.ragkit.audit.AuditFailurePolicy.FAIL_REQUEST)
                .build()).isInstanceOf(IllegalStateException.class).hasMessageContaining("without auditSink");
    }

    // ---------------------------------------------------------------------------------------------------------
    // A real corpus

    @Test
    void index_rustReferenceCorpus_indexesEveryPageWithLinksAndFindsADistinctiveTerm() {
        Path corpus = Path.of("../../shared/corpora/rust-reference/src").toAbsolutePath().normalize();
        Assumptions.assumeTrue(Files.isDirectory(corpus), "the Rust Reference corpus is not at " + corpus
                + "; it ships in the shared folder next to the checkout");
        List<String> done = new ArrayList<>();

        IndexReport report = Indexer.builder().store(store).embedder(CachingEmbedder.of(embedder)).tenant(TENANT)
                .listener(new IndexListener() {
                    @Override
                    public void onFileDone(String path, int chunks, long tokens) {
                        done.add(path);
                    }
                }).build().index(corpus);

        assertThat(report.filesFailed()).isEmpty();
        assertThat(report.filesSkipped()).isEmpty();
        assertThat(report.filesIndexed()).isEqualTo(122);
        assertThat(done).hasSize(122).isSorted();
        assertThat(report.chunks()).isGreaterThan(122);
        List<StoredDocument> documents = store.documents(ADMIN);
        assertThat(documents).hasSize(122);
        assertThat(documents).extracting(StoredDocument::path).contains("SUMMARY.md", "expressions/if-expr.md");
        long linking = documents.stream().filter(d -> !d.links().isEmpty()).count();
        assertThat(linking).isGreaterThan(60);
        Map<String, StoredDocument> byPath = documents.stream()
                .collect(Collectors.toMap(StoredDocument::path, d -> d));
        assertThat(byPath.get("SUMMARY.md").links()).contains("expressions/if-expr.md");
        long toIndexedPages = documents.stream().flatMap(d -> d.links().stream()).filter(byPath::containsKey).count();
        assertThat(toIndexedPages).isGreaterThan(1_000);
        assertThat(report.linksDropped()).isPositive();
        List<SearchHit> hits = store.search(SearchRequest.builder(ADMIN).text("covariant").k(5).build());
        assertThat(hits).isNotEmpty().allSatisfy(h -> assertThat(h.document().path()).isEqualTo("subtyping.md"));
        assertThat(hits.get(0).chunk().text()).containsIgnoringCase("covariant");
        StoredChunk sample = store.chunks(ADMIN, byPath.get("inline-assembly.md").id()).get(2);
        List<SearchHit> nearest = store.search(SearchRequest.builder(ADMIN).vector(embedder.vector(sample.text()))
                .k(3).build());
        assertThat(nearest.get(0).similarity()).isCloseTo(1.0, org.assertj.core.data.Offset.offset(1e-5));
    }
}
