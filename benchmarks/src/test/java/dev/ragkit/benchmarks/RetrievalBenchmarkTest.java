package dev.ragkit.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ragkit.retrieval.RetrievedContext;
import java.util.List;
import org.junit.jupiter.api.Test;

final class RetrievalBenchmarkTest {

    private static Object once(RetrievalBenchmark.Impl impl) {
        RetrievalBenchmark benchmark = new RetrievalBenchmark();
        benchmark.impl = impl;
        benchmark.setUp();
        return benchmark.retrieve();
    }

    @Test
    void retrieve_chunkQa_returnsFiveChunksWithEveryStageTimed() {
        RetrievedContext context = (RetrievedContext) once(RetrievalBenchmark.Impl.RAGKIT);
        assertThat(context.relevant()).hasSize(5);
        assertThat(context.timings()).containsKeys("embed", "search", "rank");
    }

    @Test
    void retrieve_knowledgeBase_returnsDocumentsCriticalAndLinked() {
        RetrievedContext context = (RetrievedContext) once(RetrievalBenchmark.Impl.RAGKIT_KNOWLEDGE_BASE);
        assertThat(context.relevantDocuments()).hasSize(3);
        assertThat(context.critical()).hasSize(5); // 0.1 % of 5,000 documents
        assertThat(context.linked()).hasSize(5);
    }

    @Test
    void retrieve_langChain4j_returnsFiveContents() {
        assertThat((List<?>) once(RetrievalBenchmark.Impl.LANGCHAIN4J)).hasSize(5);
    }
}
