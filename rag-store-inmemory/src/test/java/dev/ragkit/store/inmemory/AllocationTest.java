package dev.ragkit.store.inmemory;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ragkit.store.Scope;
import dev.ragkit.store.SearchRequest;
import dev.ragkit.store.StoredChunk;
import dev.ragkit.store.StoredDocument;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The scan allocates nothing per scanned chunk: the bytes one search allocates do not grow with the store.
 * Counts bytes with the JVM's per-thread allocation counter (no timing involved). Uses the scalar kernel,
 * which allocates nothing even before the JIT compiles it.
 */
final class AllocationTest {

    @Test
    void search_bytesAllocatedPerQuery_doNotGrowWithStoreSize() {
        com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long small = bytesPerQuery(threads, 200);
        long large = bytesPerQuery(threads, 8_000);
        assertThat(small).isLessThan(4096);
        // 40 times the chunks; any per-chunk allocation would add at least 16 bytes x 80,000 chunks
        assertThat(large).isLessThan(small + 1024);
    }

    private static long bytesPerQuery(com.sun.management.ThreadMXBean threads, int documents) {
        InMemoryDocumentStore store = InMemoryDocumentStore.builder()
                .kernel(InMemoryDocumentStore.Kernel.SCALAR).parallelThreshold(Integer.MAX_VALUE).build();
        Random random = new Random(1);
        int dim = 64;
        for (int n = 0; n < documents; n++) {
            StoredDocument document = StoredDocument.builder().tenant("t").path("d" + n + ".md").build();
            List<StoredChunk> chunks = new ArrayList<>();
            for (int i = 0; i < 10; i++) {
                chunks.add(new StoredChunk(document.id(), i, "text", DotKernelsTest.randomVector(random, dim), 1,
                        1, 1, null, null));
            }
            store.upsert(document, chunks);
        }
        SearchRequest request = SearchRequest.builder(Scope.of("t")).vector(DotKernelsTest.randomVector(random, dim))
                .k(10).build();
        for (int i = 0; i < 20; i++) {
            store.search(request);
        }
        long thread = Thread.currentThread().getId();
        int queries = 10;
        int results = 0;
        long before = threads.getThreadAllocatedBytes(thread);
        for (int i = 0; i < queries; i++) {
            results += store.search(request).size();
        }
        long after = threads.getThreadAllocatedBytes(thread);
        assertThat(results).isEqualTo(10 * queries);
        return (after - before) / queries;
    }
}
