package dev.ragkit.cli;

import dev.ragkit.eval.BeirDataset;
import dev.ragkit.eval.EvaluationReport;
import dev.ragkit.eval.QaDataset;
import dev.ragkit.eval.Ranker;
import dev.ragkit.eval.RetrievalEvaluator;
import dev.ragkit.embedding.CachingEmbedder;
import dev.ragkit.embedding.Embedder;
import dev.ragkit.embedding.Embedders;
import dev.ragkit.ingest.IndexReport;
import dev.ragkit.embedding.SimilarityScale;
import dev.ragkit.store.Scope;
import dev.ragkit.store.inmemory.InMemoryDocumentStore;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import dev.ragkit.retrieval.RelevanceModel;
import dev.ragkit.retrieval.RetrievalOptions;
import dev.ragkit.retrieval.Reranker;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code ragkit eval <dataset-dir>}: retrieval quality and speed on a BEIR-layout dataset, or answers end to end on a
 * question-answering set.
 */
@Command(name = "eval", mixinStandardHelpOptions = true,
        description = {"Measure retrieval on a BEIR-layout dataset, or answers on a question-answering set.",
                "A BEIR dataset (corpus.jsonl, queries.jsonl, qrels/test.tsv): nDCG@k, Recall@100, MRR@k, "
                + "documents/s indexed, p50/p95 query latency.",
                "A question-answering set (documents/, questions.jsonl): a share of the "
                + "documents is left out of the index; answer-hit, cited-hit, CITE and ROUTE rates for questions "
                + "about indexed documents, ROUTE rate for questions about left-out ones."})
final class EvalCommand extends CliCommand {

    /** The ranking under test. */
    enum Mode { vector, keyword, hybrid, calibrated }

    @Parameters(index = "0", paramLabel = "<dataset-dir>",
            description = "the dataset folder: a BEIR dataset or a question-answering set")
    String dir = "";

    @Option(names = "--mode", split = ",", description = "vector, keyword, hybrid (relative-score fusion) or "
            + "calibrated (hybrid search ranked by the calibrated relevance the retriever's threshold compares), or "
            + "several separated by commas, all measured on one index (default: hybrid)")
    List<Mode> modes = new ArrayList<>(List.of(Mode.hybrid));

    @Option(names = "--k", description = "the cutoff of nDCG@k and MRR@k, 1-100 (default: ${DEFAULT-VALUE})")
    int k = 10;

    @Option(names = "--rerank", split = ",", description = "none or term-overlap: rerank the best 40 chunks of hybrid "
            + "search; both separated by a comma to measure each (default: none)")
    List<String> reranks = new ArrayList<>(List.of("none"));

    @Option(names = "--split", description = "the qrels split (default: ${DEFAULT-VALUE})")
    String split = BeirDataset.DEFAULT_SPLIT;

    @Option(names = "--embedder", description = "the embedder: all-minilm-l6-v2-q, all-minilm-l6-v2, "
            + "bge-small-en-v1.5, bge-small-en-v1.5-q or ollama:<model> (default: RAG_EMBEDDER, else "
            + Embedders.DEFAULT + ")")
    String embedderName;

    @Option(names = "--leave-out", description = "question-answering sets: the share of documents kept out of the "
            + "index, in [0, 1) (default: 1/6)")
    double leaveOut = 1.0 / 6;

    @Option(names = "--chunk-tokens", description = "question-answering sets: the chunk size, as ragkit index "
            + "--chunk-tokens (default: what ragkit index uses)")
    Integer chunkTokens;

    @Option(names = "--neighbour-chunks", description = "question-answering sets: how many chunks before and after "
            + "each relevant chunk the answer reads (default: the retrieval default, 1)")
    Integer neighbourChunks;

    @Option(names = "--details", paramLabel = "<file>", description = "question-answering sets: write each "
            + "question's answer, action, citations and confidence to this file as JSON lines")
    String details;

    @Option(names = "--signals", paramLabel = "<file>", description = "question-answering sets: write the relevance "
            + "signals of each question's hits (z, coverage, keyword, holds-answer) to this file as JSON lines, to "
            + "fit the relevance model again")
    String signals;

    /** The dimension of the constant vectors keyword mode stores. */
    private static final int CONSTANT_DIMENSION = 8;

    /** The same unit vector for every text. */
    private static final class ConstantEmbedder implements Embedder {
        @Override
        public float[][] embed(java.util.List<String> texts) {
            float[][] out = new float[texts.size()][CONSTANT_DIMENSION];
            for (float[] v : out) {
                v[0] = 1;
            }
            return out;
        }

        @Override
        public int dimension() {
            return CONSTANT_DIMENSION;
        }

        @Override
        public String name() {
            return "constant";
        }
    }

    private static Reranker reranker(String rerank) {
        switch (rerank) {
            case "none":
                return Reranker.none();
            case "term-overlap":
                return Reranker.termOverlap(0.3);
            default:
                throw new UsageException("--rerank must be none or term-overlap, got '" + Terminal.line(rerank) + "'");
        }
    }

    /** Measures answers on a question-answering set. */
    private Integer answers(java.nio.file.Path folder) throws java.io.IOException {
        if (!(leaveOut >= 0 && leaveOut < 1)) {
            throw new UsageException("--leave-out must be a share from 0 (inclusive) to 1 (exclusive), got "
                    + leaveOut);
        }
        if (chunkTokens != null && (chunkTokens < 16 || chunkTokens > 8192)) {
            throw new UsageException("--chunk-tokens must be a whole number from 16 to 8192, got " + chunkTokens);
        }
        QaDataset dataset;
        try {
            dataset = QaDataset.load(folder);
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
        String name = context.chosenEmbedder(embedderName);
        name = name == null ? Embedders.DEFAULT : name;
        RetrievalOptions options = context.config().retrievalOptions();
        if (neighbourChunks != null) {
            if (neighbourChunks < 0) {
                throw new UsageException("--neighbour-chunks must be 0 or more, got " + neighbourChunks);
            }
            options = options.toBuilder().neighbourChunks(neighbourChunks).build();
        }
        new AnswerEval(context).run(dataset, context.embedder(name), name, chunkTokens, leaveOut, options,
                details == null ? null : java.nio.file.Path.of(details),
                signals == null ? null : java.nio.file.Path.of(signals));
        return RagkitCli.OK;
    }

    /** Says how many documents the model does not read whole (they are embedded whole, as one text each). */
    private void printOverLimit(BeirDataset dataset, Embedder embedder) {
        IndexReport.InputLimit input = IndexReport.InputLimit.measure(embedder, dataset.corpus().values().stream()
                .map(BeirDataset.CorpusDocument::fullText).toList());
        context.out.printf(Locale.ROOT, "input       %d of %d documents over the model's %d tokens (longest %d)%n",
                input.chunksOver(), dataset.corpus().size(), input.maxTokens(), input.longest());
    }

    EvalCommand(CliContext context) {
        super(context);
    }

    @Override
    public Integer call() throws java.io.IOException {
        java.nio.file.Path folder = context.resolve(dir);
        if (java.nio.file.Files.isRegularFile(folder.resolve("questions.jsonl"))) {
            return answers(folder);
        }
        if (k < 1 || k > 100) {
            throw new UsageException("--k must be a whole number from 1 to 100, got " + k);
        }
        RetrievalEvaluator evaluator = new RetrievalEvaluator(k);
        BeirDataset dataset = BeirDataset.load(context.resolve(dir), split);
        String tenant = "eval";
        Scope scope = Scope.of(tenant);
        String name = context.chosenEmbedder(embedderName);
        name = name == null ? Embedders.DEFAULT : name;
        for (String rerank : reranks) {
            reranker(rerank);                                  // a bad value fails before the indexing
        }
        boolean keywordOnly = modes.stream().allMatch(m -> m == Mode.keyword);
        Embedder embedder = keywordOnly ? new ConstantEmbedder() : context.embedder(name);
        try (InMemoryDocumentStore store = InMemoryDocumentStore.builder().build()) {
            long start = System.nanoTime();
            // Keyword mode never reads the vectors: store a constant one instead of running the model.
            RetrievalEvaluator.index(dataset, store, embedder, tenant);
            double seconds = (System.nanoTime() - start) / 1e9;
            for (Mode mode : new LinkedHashSet<>(modes)) {
                for (String rerank : mode == Mode.hybrid ? new LinkedHashSet<>(reranks) : Set.of("none")) {
                    if (embedder instanceof CachingEmbedder) {
                        ((CachingEmbedder) embedder).invalidateAll();  // each run's latency includes embedding
                    }
                    Ranker ranker = mode == Mode.vector ? Ranker.vector(store, embedder, scope)
                            : mode == Mode.keyword ? Ranker.keyword(store, scope)
                            : mode == Mode.calibrated ? Ranker.relevance(store, embedder, scope,
                                    RelevanceModel.calibrated(SimilarityScale.of(embedder)))
                            : Ranker.hybrid(store, embedder, scope, reranker(rerank));
                    EvaluationReport r = evaluator.evaluate(dataset, ranker);
                    context.out.printf(Locale.ROOT, "%s, %s mode, %s%s%n", dataset, mode,
                            mode == Mode.keyword ? "BM25 only" : name + " embeddings",
                            rerank.equals("none") ? "" : ", reranked by " + rerank);
                    context.out.printf(Locale.ROOT, "nDCG@%d     %.4f%nRecall@100  %.4f%nMRR@%d      %.4f%n", k,
                            r.ndcg(), r.recallAt100(), k, r.mrr());
                    context.out.printf(Locale.ROOT, "indexed     %d documents in %.1f s (%.0f documents/s)%n",
                            dataset.corpus().size(), seconds, dataset.corpus().size() / Math.max(seconds, 1e-9));
                    context.out.printf(Locale.ROOT, "latency     p50 %.2f ms, p95 %.2f ms per query (%d queries, %d "
                            + "skipped)%n", r.latencyP50().toNanos() / 1e6, r.latencyP95().toNanos() / 1e6,
                            r.queriesEvaluated(), r.queriesSkipped());
                }
            }
            if (!keywordOnly && embedder.maxInputTokens() > 0) {
                printOverLimit(dataset, embedder);
            }
        }
        return RagkitCli.OK;
    }
}
