package dev.ragkit.store.inmemory;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ragkit.store.Scope;
import dev.ragkit.store.SearchRequest;
import dev.ragkit.store.StoredChunk;
import dev.ragkit.store.StoredDocument;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

final class ReadersTest {

    private static InMemoryDocumentStore storeWithDocuments(InMemoryDocumentStore.Builder builder, int documents) {
        InMemoryDocumentStore store = builder.build();
        for (int n = 0; n < documents; n++) {
            StoredDocument d = StoredDocument.builder().tenant("t").path("d" + n + ".md").build();
            store.upsert(d, List.of(new StoredChunk(d.id(), 0, "alpha beta " + n, new float[] {1, n + 1, 0}, 3, 1, 1,
                    null, null)));
        }
        return store;
    }

    @Test
    void reads_whileAWriterHoldsTheTenantsLock_completeWithoutWaiting() throws Exception {
        InMemoryDocumentStore store = storeWithDocuments(InMemoryDocumentStore.builder(), 5);
        Scope scope = Scope.of("t");
        String id = StoredDocument.idFor("t", "d0.md");
        ExecutorService reader = Executors.newSingleThreadExecutor();
        TenantIndex tenant = store.tenantForTest("t");
        tenant.lock.lock(); // a write in progress, as long as we like
        try {
            Future<Integer> reads = reader.submit(() -> store.search(SearchRequest.builder(scope)
                            .vector(new float[] {1, 1, 0}).text("alpha").k(10).build()).size()
                    + store.chunks(scope, id).size() + store.documents(scope).size()
                    + store.document(scope, id).map(d -> 1).orElse(0));
            assertThat(reads.get(30, TimeUnit.SECONDS)).isEqualTo(5 + 1 + 5 + 1);
        } finally {
            tenant.lock.unlock();
            reader.shutdownNow();
        }
    }

    @Test
    void search_aboveParallelThreshold_runsPartsOnTheCallersExecutor() {
        AtomicInteger tasks = new AtomicInteger();
        Executor counting = command -> {
            tasks.incrementAndGet();
            command.run();
        };
        InMemoryDocumentStore parallel = storeWithDocuments(InMemoryDocumentStore.builder().executor(counting)
                .parallelThreshold(10).parallelism(4), 40);
        SearchRequest request = SearchRequest.builder(Scope.of("t")).vector(new float[] {1, 7, 0}).k(5).build();

        assertThat(parallel.search(request)).hasSize(5);
        assertThat(tasks.get()).isEqualTo(3); // the calling thread scans the fourth part

        InMemoryDocumentStore small = storeWithDocuments(InMemoryDocumentStore.builder().executor(counting)
                .parallelThreshold(1000).parallelism(4), 40);
        assertThat(small.search(request)).isEqualTo(parallel.search(request));
        assertThat(tasks.get()).isEqualTo(6); // the second parallel search; the small store added none
    }

    @Test
    void search_executorRejectsWork_scansInlineInstead() {
        Executor rejecting = command -> {
            throw new java.util.concurrent.RejectedExecutionException("shut down");
        };
        InMemoryDocumentStore store = storeWithDocuments(InMemoryDocumentStore.builder().executor(rejecting)
                .parallelThreshold(1).parallelism(3), 12);
        InMemoryDocumentStore reference = storeWithDocuments(InMemoryDocumentStore.builder(), 12);
        SearchRequest request = SearchRequest.builder(Scope.of("t")).vector(new float[] {1, 4, 0}).k(4).build();
        assertThat(store.search(request)).isEqualTo(reference.search(request));
    }
}
