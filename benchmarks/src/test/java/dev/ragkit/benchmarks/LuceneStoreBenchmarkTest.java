package dev.ragkit.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

final class LuceneStoreBenchmarkTest {

    @Test
    void search_smallIndex_returnsTenHitsFromBothStores() throws Exception {
        for (LuceneStoreBenchmark.Impl impl : LuceneStoreBenchmark.Impl.values()) {
            LuceneStoreBenchmark benchmark = new LuceneStoreBenchmark();
            benchmark.n = 2_000;
            benchmark.impl = impl;
            benchmark.candidates = 100;
            benchmark.filterFraction = 1;
            benchmark.setUp();
            try {
                assertThat(benchmark.search()).hasSize(10);
            } finally {
                benchmark.tearDown();
            }
        }
    }

    @Test
    void search_selectiveFilter_returnsOnlyMatchingBuckets() throws Exception {
        LuceneStoreBenchmark benchmark = new LuceneStoreBenchmark();
        benchmark.n = 2_000;
        benchmark.impl = LuceneStoreBenchmark.Impl.LUCENE;
        benchmark.candidates = 100;
        benchmark.filterFraction = 0.01;
        benchmark.setUp();
        try {
            assertThat(benchmark.search()).hasSize(10).allSatisfy(hit ->
                    assertThat(Integer.parseInt(hit.document().metadata().get("bucket"))).isLessThan(10));
        } finally {
            benchmark.tearDown();
        }
    }

    @Test
    void reindexOneFile_bothStores_replaceTheDocument() throws Exception {
        for (ReindexBenchmark.Impl impl : ReindexBenchmark.Impl.values()) {
            ReindexBenchmark benchmark = new ReindexBenchmark();
            benchmark.n = 1_000;
            benchmark.impl = impl;
            benchmark.setUp();
            try {
                benchmark.reindexOneFile();
                benchmark.reindexOneFile();
            } finally {
                benchmark.tearDown();
            }
        }
    }
}
