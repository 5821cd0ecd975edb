package dev.ragkit.eval;

import dev.ragkit.testing.HashedBagOfWordsEmbedder;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.ragkit.store.Scope;
import dev.ragkit.store.StoredChunk;
import dev.ragkit.store.StoredDocument;
import dev.ragkit.store.inmemory.InMemoryDocumentStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class RetrievalEvaluatorTest {

    private static final Path CRANFIELD = Path.of("../../shared/datasets/cranfield");
    private static final String TENANT = "eval";

    @TempDir
    Path dir;

    private final RetrievalEvaluator evaluator = new RetrievalEvaluator();

    @Test
    void evaluate_fixedRankings_matchesHandComputedMeans() throws IOException {
        BeirDataset dataset = BeirDataset.load(TinyDataset.write(dir));
        Map<String, List<String>> rankings = Map.of(
                "wing lift slipstream", List.of("d2", "d3", "d1"),
                "heat conduction slabs", List.of("d1", "d2", "d3"));

        EvaluationReport report = evaluator.evaluate(dataset, (text, k) -> rankings.get(text));

        // q1 (d1=2, d2=1, d3=0) ranked d2, d3, d1:
        //   nDCG@10 = (1/log2 2 + 2/log2 4) / (2/log2 2 + 1/log2 3) = 2 / 2.6309298 = 0.7601875
        //   Recall@100 = 2/2 = 1;  MRR@10 = 1/1 (d2 relevant at rank 1)
        // q2 (d3=1) ranked d1, d2, d3:
        //   nDCG@10 = (1/log2 4) / (1/log2 2) = 0.5;  Recall@100 = 1;  MRR@10 = 1/3
        // means: nDCG@10 = (0.7601875 + 0.5)/2 = 0.6300938; Recall@100 = 1; MRR@10 = (1 + 1/3)/2 = 0.6666667
        assertThat(report.queriesEvaluated()).isEqualTo(2);
        assertThat(report.queriesSkipped()).isEqualTo(1);
        assertThat(report.ndcg()).isCloseTo(0.6300938, within(1e-6));
        assertThat(report.recallAt100()).isEqualTo(1.0);
        assertThat(report.mrr()).isCloseTo(0.6666667, within(1e-6));
        assertThat(report.perQuery()).extracting(EvaluationReport.QueryResult::queryId).containsExactly("q1", "q2");
        assertThat(report.perQuery().get(1).ndcg()).isCloseTo(0.5, within(1e-12));
        assertThat(report.toString()).contains("nDCG@10=0.6301", "MRR@10=0.6667", "skipped 1");
    }

    @Test
    void evaluate_cutoff_changesNdcgAndMrrButNotRecall() throws IOException {
        BeirDataset dataset = BeirDataset.load(TinyDataset.write(dir));
        Map<String, List<String>> rankings = Map.of(
                "wing lift slipstream", List.of("d2", "d3", "d1"),
                "heat conduction slabs", List.of("d1", "d2", "d3"));
        EvaluationReport at10 = evaluator.evaluate(dataset, (text, k) -> rankings.get(text));
        EvaluationReport at1 = new RetrievalEvaluator(1).evaluate(dataset, (text, k) -> rankings.get(text));
        assertThat(at1.cutoff()).isEqualTo(1);
        assertThat(at1.recallAt100()).isEqualTo(at10.recallAt100());
        // q2's relevant d3 is at rank 3: inside the top 10, outside the top 1
        assertThat(at1.mrr()).isCloseTo(0.5, within(1e-12));
        assertThat(at10.mrr()).isCloseTo(0.6666667, within(1e-6));
        assertThat(at1.toString()).contains("nDCG@1=").contains("MRR@1=");
        assertThatThrownBy(() -> new RetrievalEvaluator(0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new RetrievalEvaluator(101)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void index_emptyDocument_isLeftOutAndTheRestStored() throws IOException {
        Path data = Files.createDirectories(dir.resolve("with-empty"));
        Files.writeString(data.resolve("corpus.jsonl"), "{\"_id\": \"d1\", \"title\": \"Wing\", \"text\": \"lift\"}\n"
                + "{\"_id\": \"d2\", \"title\": \"\", \"text\": \"  \"}\n");
        Files.writeString(data.resolve("queries.jsonl"), "{\"_id\": \"q1\", \"text\": \"lift\"}\n");
        Files.createDirectories(data.resolve("qrels"));
        Files.writeString(data.resolve("qrels/test.tsv"), "query-id\tcorpus-id\tscore\nq1\td1\t1\n");
        List<Integer> batchSizes = new java.util.ArrayList<>();
        HashedBagOfWordsEmbedder base = new HashedBagOfWordsEmbedder("toy", 16);
        dev.ragkit.embedding.Embedder rejectingBlank = new dev.ragkit.embedding.Embedder() {
            @Override
            public float[][] embed(List<String> texts) {
                texts.forEach(t -> assertThat(t).isNotBlank());
                batchSizes.add(texts.size());
                return base.embed(texts);
            }

            @Override
            public int dimension() {
                return 16;
            }

            @Override
            public String name() {
                return "rejects-blank";
            }
        };
        try (InMemoryDocumentStore store = InMemoryDocumentStore.builder().build()) {
            RetrievalEvaluator.index(BeirDataset.load(data), store, rejectingBlank, TENANT);
            assertThat(store.documents(Scope.unrestricted(TENANT))).extracting(StoredDocument::path)
                    .containsExactly("d1");
            assertThat(batchSizes).containsExactly(1);
        }
    }

    @Test
    void index_tinyDataset_storesOneChunkPerDocumentWithTitleAndText() throws IOException {
        BeirDataset dataset = BeirDataset.load(TinyDataset.write(dir));
        try (InMemoryDocumentStore store = InMemoryDocumentStore.builder().build()) {
            RetrievalEvaluator.index(dataset, store, new HashedBagOfWordsEmbedder("test-hashing-bow-64", 64), TENANT);

            Scope scope = Scope.unrestricted(TENANT);
            assertThat(store.documents(scope)).extracting(StoredDocument::path).containsExactly("d1", "d2", "d3");
            StoredDocument d1 = store.findByPaths(scope, List.of("d1")).get(0);
            assertThat(d1.title()).isEqualTo("Wing lift");
            List<StoredChunk> chunks = store.chunks(scope, d1.id());
            assertThat(chunks).singleElement().satisfies(c -> {
                assertThat(c.text()).isEqualTo("Wing lift\nlift of a swept wing in a slipstream");
                assertThat(c.startLine()).isEqualTo(1);
                assertThat(c.endLine()).isEqualTo(2);
                assertThat(c.tokenCount()).isPositive();
                assertThat(c.section()).isNull();
            });
            // no title: the id stands in as the document title, the chunk is the bare text
            StoredDocument d3 = store.findByPaths(scope, List.of("d3")).get(0);
            assertThat(d3.title()).isEqualTo("d3");
            assertThat(store.chunks(scope, d3.id()).get(0).text()).isEqualTo("heat conduction in composite slabs");
        }
    }

    @Test
    void evaluate_keywordRankerOnTinyDataset_ranksTheMatchingDocumentsFirst() throws IOException {
        BeirDataset dataset = BeirDataset.load(TinyDataset.write(dir));
        try (InMemoryDocumentStore store = InMemoryDocumentStore.builder().build()) {
            RetrievalEvaluator.index(dataset, store, new HashedBagOfWordsEmbedder("test-hashing-bow-64", 64), TENANT);
            Ranker keyword = Ranker.keyword(store, Scope.of(TENANT));

            assertThat(keyword.rank("wing lift slipstream", 10)).containsExactly("d1");
            assertThat(keyword.rank("heat conduction slabs", 10)).containsExactly("d3");
            EvaluationReport report = evaluator.evaluate(dataset, keyword);
            // q1: d1 (grade 2) alone at rank 1: DCG = 2, IDCG = 2.6309298 -> 0.7601875; q2: d3 at rank 1 -> 1
            assertThat(report.ndcg()).isCloseTo((0.7601875 + 1) / 2, within(1e-6));
            assertThat(report.mrr()).isEqualTo(1.0);
            assertThat(report.recallAt100()).isEqualTo((0.5 + 1) / 2);
        }
    }

    @Test
    void evaluate_cranfieldKeywordMode_metricsInPlausibleRange() {
        Assumptions.assumeTrue(Files.isDirectory(CRANFIELD),
                "Cranfield dataset not found at " + CRANFIELD.toAbsolutePath().normalize()
                        + " (expected ../../shared/datasets/cranfield relative to rag-core); skipping");
        BeirDataset dataset = BeirDataset.load(CRANFIELD);
        HashedBagOfWordsEmbedder embedder = new HashedBagOfWordsEmbedder("test-hashing-bow-64", 64);
        try (InMemoryDocumentStore store = InMemoryDocumentStore.builder().build()) {
            RetrievalEvaluator.index(dataset, store, embedder, TENANT);
            Scope scope = Scope.of(TENANT);

            EvaluationReport keyword = evaluator.evaluate(dataset, Ranker.keyword(store, scope));
            EvaluationReport vector = evaluator.evaluate(dataset, Ranker.vector(store, embedder, scope));
            EvaluationReport hybrid = evaluator.evaluate(dataset, Ranker.hybrid(store, embedder, scope));
            System.out.println("Cranfield " + dataset);
            System.out.println("Cranfield keyword (BM25):                  " + keyword);
            System.out.println("Cranfield vector (toy hashed-BoW-64 embedder): " + vector);
            System.out.println("Cranfield hybrid (BM25 + toy embedder, RSF 0.5/0.5): " + hybrid);

            assertThat(dataset.corpus()).hasSize(1400);
            assertThat(keyword.queriesEvaluated() + keyword.queriesSkipped()).isEqualTo(225);
            assertThat(keyword.ndcg()).isBetween(0.2, 0.6);
            assertThat(keyword.recallAt100()).isBetween(0.4, 1.0);
            assertThat(keyword.mrr()).isBetween(0.3, 1.0);
        }
    }
}
