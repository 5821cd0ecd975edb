package dev.ragkit.store.inmemory;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ragkit.store.Scope;
import dev.ragkit.store.SearchHit;
import dev.ragkit.store.SearchRequest;
import dev.ragkit.store.StoredChunk;
import dev.ragkit.store.StoredDocument;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Replacing documents over and over forces many compactions; readers running at the same time must still
 * see every document whole, exactly once, in one of its versions.
 */
final class CompactionTest {
    private static final int DOCUMENTS = 50;
    private static final int CHUNKS = 4;

    @Test
    void upsert_manyReplacementsWithConcurrentReaders_readersAlwaysSeeWholeVersions() throws Exception {
        InMemoryDocumentStore store = InMemoryDocumentStore.builder().kernel(InMemoryDocumentStore.Kernel.SCALAR)
                .build();
        for (int d = 0; d < DOCUMENTS; d++) {
            store.upsert(document(d), chunks(d, 0));
        }
        Scope scope = Scope.of("t");
        AtomicBoolean stop = new AtomicBoolean();
        ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
        CountDownLatch started = new CountDownLatch(3);
        List<Thread> readers = new ArrayList<>();
        for (int r = 0; r < 3; r++) {
            Thread reader = new Thread(() -> {
                started.countDown();
                SearchRequest all = SearchRequest.builder(scope).vector(new float[] {1, 1, 1, 1}).k(1000).build();
                int reads = 0;
                while (!stop.get() || reads < 10) {
                    reads++;
                    List<SearchHit> hits = store.search(all);
                    if (hits.size() != DOCUMENTS * CHUNKS) {
                        failures.add("search saw " + hits.size() + " chunks");
                    }
                    Set<String> versions = hits.stream().map(h -> h.document().id() + "@" + h.chunk().text()
                            .split(" ")[0]).collect(Collectors.toSet());
                    if (versions.size() != DOCUMENTS) {
                        failures.add("search mixed versions: " + versions.size() + " document versions");
                    }
                    for (int d = 0; d < DOCUMENTS; d += 7) {
                        List<StoredChunk> chunks = store.chunks(scope, document(d).id());
                        Set<String> chunkVersions = chunks.stream().map(c -> c.text().split(" ")[0])
                                .collect(Collectors.toSet());
                        if (chunks.size() != CHUNKS || chunkVersions.size() != 1
                                || chunks.get(0).embedding()[0] != Float.parseFloat(
                                        chunks.get(0).text().split(" ")[0].substring(1)) + 1) {
                            failures.add("chunks() of " + d + " saw " + chunks);
                        }
                    }
                }
            });
            reader.start();
            readers.add(reader);
        }
        assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
        for (int version = 1; version <= 200; version++) {
            for (int d = 0; d < DOCUMENTS; d++) {
                store.upsert(document(d), chunks(d, version));
            }
        }
        stop.set(true);
        for (Thread reader : readers) {
            reader.join(TimeUnit.SECONDS.toMillis(60));
            assertThat(reader.isAlive()).isFalse();
        }
        assertThat(failures).isEmpty();
        // 200 x 50 x 4 = 40,000 rows written for 200 live ones: compaction must have reclaimed the space
        TenantIndex.Live live = store.tenantForTest("t").live();
        assertThat(live.entries).hasSize(DOCUMENTS);
        assertThat(live.vectors.length).isLessThan(4 * 4 * 4096);
        assertThat(store.chunks(scope, document(3).id())).extracting(StoredChunk::text)
                .allMatch(t -> t.startsWith("v200 "));
    }

    private static StoredDocument document(int d) {
        return StoredDocument.builder().tenant("t").path("doc-" + d + ".md").build();
    }

    private static List<StoredChunk> chunks(int d, int version) {
        List<StoredChunk> chunks = new ArrayList<>();
        for (int i = 0; i < CHUNKS; i++) {
            chunks.add(new StoredChunk(document(d).id(), i, "v" + version + " chunk " + i,
                    new float[] {version + 1, 1, d + 1, i + 1}, 3, i + 1, i + 1, null, null));
        }
        return chunks;
    }
}
