package dev.ragkit.store.lucene;

import dev.ragkit.store.Scope;
import dev.ragkit.store.StoreException;
import dev.ragkit.store.StoredChunk;
import dev.ragkit.store.StoredDocument;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The main class of the child JVMs that {@link LuceneProcessTest} starts. Modes:
 * <ul>
 *   <li>{@code rewrite <dir> <each-write|batched> <docs>}: rewrites documents 0…docs−1 in rounds forever (round r
 *       writes version r of each), printing {@code committed <doc> <version>} once a version is durable, until
 *       killed;</li>
 *   <li>{@code tenant <dir> <tenant> <docs> <lockWaitMillis>}: writes {@code docs} documents into {@code tenant},
 *       prints {@code done}, exits 0;</li>
 *   <li>{@code read <dir> <tenant>}: opens read-only and prints {@code documents <n>}.</li>
 * </ul>
 * A {@link StoreException} prints {@code store-error: <message>} and exits with status 3.
 */
public final class LuceneChild {
    static final int DIMENSION = 8;

    private LuceneChild() {
    }

    public static void main(String[] args) {
        try {
            switch (args[0]) {
                case "rewrite" -> rewrite(Path.of(args[1]), args[2].equals("batched"), Integer.parseInt(args[3]));
                case "tenant" -> tenant(Path.of(args[1]), args[2], Integer.parseInt(args[3]), Long.parseLong(args[4]));
                case "read" -> read(Path.of(args[1]), args[2]);
                default -> throw new IllegalArgumentException("unknown mode " + args[0]);
            }
        } catch (StoreException e) {
            System.out.println("store-error: " + e.getMessage().replace('\n', ' '));
            System.out.flush();
            System.exit(3);
        }
    }

    /** How many chunks version {@code version} of document {@code doc} has: it changes between versions. */
    static int chunkCount(int doc, int version) {
        return 1 + (doc + version) % 4;
    }

    static StoredDocument document(String tenant, int doc, int version) {
        return StoredDocument.builder().tenant(tenant).path("docs/doc" + doc + ".md").title("Doc " + doc + " v" + version)
                .metadata(Map.of("version", Integer.toString(version))).build();
    }

    static List<StoredChunk> chunks(StoredDocument d, int doc, int version) {
        List<StoredChunk> chunks = new ArrayList<>();
        for (int i = 0; i < chunkCount(doc, version); i++) {
            float[] v = new float[DIMENSION];
            v[(doc + i) % DIMENSION] = 1f;
            v[(version + i + 1) % DIMENSION] += 0.5f;
            chunks.add(new StoredChunk(d.id(), i, "doc " + doc + " version " + version + " part " + i, v, 6, i + 1,
                    i + 1, null, null));
        }
        return chunks;
    }

    private static void rewrite(Path dir, boolean batched, int docs) {
        LuceneDocumentStore store = LuceneDocumentStore.builder().directory(dir).dimension(DIMENSION)
                .commitMode(batched ? LuceneDocumentStore.CommitMode.BATCHED : LuceneDocumentStore.CommitMode.EACH_WRITE)
                .build();
        System.out.println("open");
        System.out.flush();
        for (int version = 1; ; version++) {
            List<String> pending = new ArrayList<>();
            for (int doc = 0; doc < docs; doc++) {
                StoredDocument d = document("t", doc, version);
                store.upsert(d, chunks(d, doc, version));
                pending.add("committed " + doc + " " + version);
                if (!batched || pending.size() == 3) {
                    if (batched) {
                        store.flush();
                    }
                    pending.forEach(System.out::println);
                    System.out.flush();
                    pending.clear();
                }
            }
        }
    }

    private static void tenant(Path dir, String tenant, int docs, long lockWaitMillis) {
        try (LuceneDocumentStore store = LuceneDocumentStore.builder().directory(dir).dimension(DIMENSION)
                .lockWait(Duration.ofMillis(lockWaitMillis)).build()) {
            System.out.println("open");
            System.out.flush();
            for (int doc = 0; doc < docs; doc++) {
                StoredDocument d = document(tenant, doc, 1);
                store.upsert(d, chunks(d, doc, 1));
            }
        }
        System.out.println("done");
    }

    private static void read(Path dir, String tenant) {
        try (LuceneDocumentStore store = LuceneDocumentStore.builder().directory(dir).readOnly(true).build()) {
            System.out.println("documents " + store.documents(Scope.unrestricted(tenant)).size());
        }
    }
}
