package dev.ragkit.store.inmemory;

import dev.ragkit.store.StoredChunk;
import dev.ragkit.store.StoredDocument;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Run in a child JVM by {@link SnapshotTest}: fills a large store and saves it to {@code args[0]} once, so
 * the test can kill the process in the middle of the write.
 */
public final class SnapshotWriterProcess {
    private SnapshotWriterProcess() {
    }

    /**
     * @param args snapshot path, number of documents (10 chunks of 256 dimensions each)
     */
    public static void main(String[] args) {
        InMemoryDocumentStore store = InMemoryDocumentStore.builder().kernel(InMemoryDocumentStore.Kernel.SCALAR)
                .build();
        Random random = new Random(3);
        int documents = Integer.parseInt(args[1]);
        for (int n = 0; n < documents; n++) {
            StoredDocument d = StoredDocument.builder().tenant("big").path("doc-" + n + ".md").build();
            List<StoredChunk> chunks = new ArrayList<>();
            for (int i = 0; i < 10; i++) {
                float[] v = new float[256];
                for (int j = 0; j < v.length; j++) {
                    v[j] = random.nextFloat() - 0.5f;
                }
                chunks.add(new StoredChunk(d.id(), i, "chunk " + i + " of document " + n, v, 6, i + 1, i + 1, null,
                        null));
            }
            store.upsert(d, chunks);
        }
        System.out.println("saving");
        System.out.flush();
        store.save(Path.of(args[0]));
        System.out.println("saved");
    }
}
