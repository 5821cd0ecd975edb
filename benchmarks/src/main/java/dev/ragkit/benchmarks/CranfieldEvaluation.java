package dev.ragkit.benchmarks;

import dev.langchain4j.model.embedding.onnx.allminilml6v2.AllMiniLmL6V2EmbeddingModel;
import dev.ragkit.eval.BeirDataset;
import dev.ragkit.eval.EvaluationReport;
import dev.ragkit.eval.Ranker;
import dev.ragkit.eval.RetrievalEvaluator;
import dev.ragkit.embedding.Embedder;
import dev.ragkit.langchain4j.LangChain4jEmbedder;
import dev.ragkit.retrieval.RetrievalOptions;
import dev.ragkit.retrieval.RetrievedChunk;
import dev.ragkit.retrieval.Retriever;
import dev.ragkit.store.Scope;
import dev.ragkit.store.inmemory.InMemoryDocumentStore;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Retrieval quality on a BEIR-layout dataset (default: the Cranfield copy in {@code ../shared/datasets/cranfield})
 * with the in-process all-MiniLM-L6-v2 embedding model: vector, keyword and hybrid search straight from the store,
 * and the whole {@link Retriever} pipeline (hybrid, dedup, boosts) asked for 100 documents.
 *
 * <pre>{@code
 * mvn -B -q -pl benchmarks -am package -DskipTests
 * java -cp benchmarks/target/benchmarks.jar dev.ragkit.benchmarks.CranfieldEvaluation ../shared/datasets/cranfield
 * }</pre>
 */
public final class CranfieldEvaluation {

    private CranfieldEvaluation() {
    }

    /**
     * @param args the dataset folder (optional)
     */
    public static void main(String[] args) {
        Path dir = Path.of(args.length > 0 ? args[0] : "../shared/datasets/cranfield");
        BeirDataset dataset = BeirDataset.load(dir);
        Embedder embedder = LangChain4jEmbedder.of(new AllMiniLmL6V2EmbeddingModel(), "all-minilm-l6-v2", 384);
        InMemoryDocumentStore store = InMemoryDocumentStore.builder().build();
        long start = System.nanoTime();
        RetrievalEvaluator.index(dataset, store, embedder, "eval");
        System.out.printf(Locale.ROOT, "indexed %d documents in %.1f s with %s%n", dataset.corpus().size(),
                (System.nanoTime() - start) / 1e9, embedder.name());
        Scope scope = Scope.of("eval");
        RetrievalEvaluator evaluator = new RetrievalEvaluator();
        report("vector", evaluator.evaluate(dataset, Ranker.vector(store, embedder, scope)));
        report("keyword", evaluator.evaluate(dataset, Ranker.keyword(store, scope)));
        report("hybrid", evaluator.evaluate(dataset, Ranker.hybrid(store, embedder, scope)));
        Retriever retriever = Retriever.builder().store(store).embedder(embedder).options(RetrievalOptions.builder()
                .topK(100).candidateCap(300).minRelevance(0).maxChunksPerDocument(1).build()).build();
        report("pipeline", evaluator.evaluate(dataset, (query, k) -> {
            Set<String> ids = new LinkedHashSet<>();
            for (RetrievedChunk c : retriever.retrieve(query, scope).relevant()) {
                ids.add(c.document().path());
            }
            return new ArrayList<>(ids).subList(0, Math.min(k, ids.size()));
        }));
    }

    private static void report(String mode, EvaluationReport report) {
        System.out.printf(Locale.ROOT, "%-8s %s%n", mode, report);
    }
}
