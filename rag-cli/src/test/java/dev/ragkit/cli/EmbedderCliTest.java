package dev.ragkit.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ragkit.embedding.CachingEmbedder;
import dev.ragkit.embedding.Embedder;
import dev.ragkit.onnx.OnnxEmbedder;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Choosing the embedder: {@code --embedder} and {@code RAG_EMBEDDER} on index, ask and eval; the index records its
 * embedder (Lucene and snapshot), later commands use it, and asking with another one fails naming both; chunks the
 * embedder does not read whole are reported once; {@code --chunk-tokens} makes them fit.
 */
final class EmbedderCliTest {
    @TempDir
    Path cwd;
    private final Map<String, String> env = new HashMap<>();

    @BeforeEach
    void documents() throws IOException {
        env.put("OLLAMA_BASE_URL", CliRun.deadServerUrl());
        CliRun.write(cwd, "docs/ferry.md", "# Ferry\n\nThe ferry to the northern islands leaves the harbour at seven "
                + "every morning and returns in the late afternoon.\n");
        CliRun.write(cwd, "docs/long.md", "# Long\n\n" + "The archive keeps every signed contract for ten years in "
                + "the basement vault, and a scanned copy on the records server. ".repeat(20) + "\n");
    }

    private CliRun run(String... args) {
        return CliRun.of(env, cwd, args);
    }

    @Test
    void theIndexRecordsItsEmbedderAndAskUsesIt() {
        CliRun index = run("index", "docs", "--embedder", "bge-small-en-v1.5-q");
        assertThat(index.code()).as(index.err()).isZero();

        CliRun ask = run("ask", "When does the ferry leave?");
        assertThat(ask.code()).as(ask.err()).isZero();
        assertThat(ask.out()).contains("docs/ferry.md");
        assertThat(run("health").out()).contains("embedder bge-small-en-v1.5-q");

        CliRun other = run("ask", "When does the ferry leave?", "--embedder", "all-minilm-l6-v2-q");
        assertThat(other.code()).isEqualTo(RagkitCli.ERROR);
        assertThat(other.err()).contains("made by 'bge-small-en-v1.5-q', not by 'all-minilm-l6-v2-q'")
                .contains("--rebuild --embedder all-minilm-l6-v2-q");

        env.put("RAG_EMBEDDER", "all-minilm-l6-v2-q");
        assertThat(run("index", "docs").err()).contains("made by 'bge-small-en-v1.5-q'");
        assertThat(run("index", "docs", "--rebuild").code()).isZero();
        env.remove("RAG_EMBEDDER");
        assertThat(run("ask", "When does the ferry leave?").out()).contains("docs/ferry.md");
    }

    @Test
    void indexThreads_boundTheInProcessEmbedder_andTheIndexStillAnswers() {
        CliContext context = new CliContext(new PrintWriter(new StringWriter()), new PrintWriter(new StringWriter()),
                env, cwd, false);
        context.embedderThreads = 1;
        Embedder bounded = context.embedder("all-minilm-l6-v2-q");
        context.embedderThreads = null;
        Embedder perCore = context.embedder("all-minilm-l6-v2-q");

        assertThat(((OnnxEmbedder) ((CachingEmbedder) bounded).delegate()).threads()).isEqualTo(1);
        assertThat(((OnnxEmbedder) ((CachingEmbedder) perCore).delegate()).threads())
                .isEqualTo(Runtime.getRuntime().availableProcessors());
        CliRun index = run("index", "docs", "--threads", "1");
        assertThat(index.code()).as(index.err()).isZero();
        assertThat(run("ask", "When does the ferry leave?").out()).contains("docs/ferry.md");
    }

    @Test
    void theSnapshotRecordsItsEmbedderToo() {
        assertThat(run("index", "docs", "--store", "in-memory", "--embedder", "all-minilm-l6-v2-q").code()).isZero();

        CliRun mismatch = run("ask", "When does the ferry leave?", "--store", "in-memory", "--embedder",
                "bge-small-en-v1.5-q");
        assertThat(mismatch.err()).contains("made by 'all-minilm-l6-v2-q'");
        CliRun ask = run("ask", "When does the ferry leave?", "--store", "in-memory");
        assertThat(ask.code()).as(ask.err()).isZero();
        assertThat(ask.out()).contains("docs/ferry.md");
    }

    @Test
    void aSnapshotThatRecordsNoEmbedderIsTakenAsMadeByTheOldDefault() throws IOException {
        java.nio.file.Files.createDirectories(cwd.resolve(".ragkit"));
        try (var store = dev.ragkit.store.inmemory.InMemoryDocumentStore.builder().build()) {
            dev.ragkit.ingest.Indexer.builder().store(store).embedder(dev.ragkit.embedding.Embedders.load(
                    CliIndex.LEGACY_EMBEDDER)).tenant("default").pathPrefix("docs/").build().index(cwd.resolve("docs"));
            store.save(cwd.resolve(".ragkit/index.bin"));
        }

        CliRun health = run("health", "--store", "in-memory");
        assertThat(health.out()).contains("embedder all-minilm-l6-v2 (").doesNotContain("all-minilm-l6-v2-q");
        CliRun ask = run("ask", "When does the ferry leave?", "--store", "in-memory");
        assertThat(ask.code()).as(ask.err()).isZero();
        assertThat(ask.out()).contains("docs/ferry.md");
    }

    @Test
    void defaultChunksFitTheEmbedder_chosenChunksLongerThanItReadsAreReportedOnce() {
        CliRun index = run("index", "docs", "--embedder", "all-minilm-l6-v2-q");
        assertThat(index.code()).as(index.err()).isZero();
        assertThat(index.out()).doesNotContain("Embedder:");        // no warning about the CLI's own defaults

        CliRun big = run("index", "docs", "--rebuild", "--embedder", "all-minilm-l6-v2-q", "--chunk-tokens", "500");
        assertThat(big.code()).as(big.err()).isZero();
        assertThat(big.out()).containsOnlyOnce("Embedder: 1 of 2 chunks are longer than the 128 tokens "
                + "all-minilm-l6-v2-q reads").contains("Index without --chunk-tokens");
        assertThat(run("index", "docs", "--chunk-tokens", "8").code()).isEqualTo(RagkitCli.USAGE);
    }

    @Test
    void anUnknownOrBlankEmbedderIsAUsageErrorListingTheKnownOnes() {
        CliRun unknown = run("index", "docs", "--embedder", "bge-large");
        assertThat(unknown.code()).isEqualTo(RagkitCli.USAGE);
        assertThat(unknown.err()).contains("no embedder named 'bge-large'").contains("bge-small-en-v1.5")
                .contains("ollama:<model>");
        env.put("RAG_EMBEDDER", " ");
        assertThat(run("index", "docs").err()).contains("RAG_EMBEDDER is blank");
    }

    @Test
    void evalMeasuresTheNamedEmbedderAndSaysWhatItDoesNotRead() throws IOException {
        CliRun.write(cwd, "beir/corpus.jsonl", "{\"_id\":\"d1\",\"title\":\"Ferry\",\"text\":\"The ferry leaves at "
                + "seven.\"}\n{\"_id\":\"d2\",\"title\":\"Archive\",\"text\":\"Contracts are kept for ten years.\"}\n");
        CliRun.write(cwd, "beir/queries.jsonl", "{\"_id\":\"q1\",\"text\":\"when does the ferry leave\"}\n");
        CliRun.write(cwd, "beir/qrels/test.tsv", "query-id\tcorpus-id\tscore\nq1\td1\t1\n");

        CliRun eval = run("eval", "beir", "--embedder", "bge-small-en-v1.5-q", "--mode", "vector,hybrid");
        assertThat(eval.code()).as(eval.err()).isZero();
        assertThat(eval.out()).contains("vector mode, bge-small-en-v1.5-q embeddings")
                .contains("hybrid mode, bge-small-en-v1.5-q embeddings").contains("MRR@10      1.0000")
                .contains("input       0 of 2 documents over the model's 512 tokens");
    }
}
