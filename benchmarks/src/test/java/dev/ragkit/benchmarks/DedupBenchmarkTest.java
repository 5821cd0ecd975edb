package dev.ragkit.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ragkit.benchmarks.DedupBenchmark.Impl;
import dev.ragkit.retrieval.RetrievedChunk;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Checks that {@link DedupBenchmark} measures equal work: the same seeded data every time, of the promised shape,
 * and both implementations keeping exactly the same chunks.
 */
final class DedupBenchmarkTest {

    @Test
    void candidates_sameSize_sameListWithChunksOfThreeToFiveHundredWords() {
        List<RetrievedChunk> list = DedupBenchmark.candidates(200);

        assertThat(list).hasSize(200).isEqualTo(DedupBenchmark.candidates(200));
        assertThat(list).allSatisfy(c -> assertThat(c.chunk().text().split("\\s+").length)
                .isBetween(DedupBenchmark.MIN_WORDS, DedupBenchmark.MAX_WORDS));
        for (int i = 1; i < list.size(); i++) {
            assertThat(list.get(i).boosted()).isLessThan(list.get(i - 1).boosted());
        }
    }

    @Test
    void deduplicate_benchmarkData_bothImplementationsKeepTheSameChunks() {
        for (int n : new int[] {15, 200}) {
            List<RetrievedChunk> list = DedupBenchmark.candidates(n);
            List<RetrievedChunk> ours = Impl.RAGKIT.create().deduplicate(list);
            List<RetrievedChunk> naive = Impl.NAIVE.create().deduplicate(list);

            assertThat(ours).as("n = %d", n).containsExactlyElementsOf(naive);
            if (n == 200) {
                // Some near duplicates are removed, most chunks stay.
                assertThat(ours.size()).isLessThan(n).isGreaterThan(n / 2);
            }
        }
    }
}
