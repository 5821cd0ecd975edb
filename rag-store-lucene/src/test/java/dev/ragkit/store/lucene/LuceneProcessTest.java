package dev.ragkit.store.lucene;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ragkit.store.Scope;
import dev.ragkit.store.StoreException;
import dev.ragkit.store.StoredChunk;
import dev.ragkit.store.StoredDocument;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Real child JVMs on one index directory: killed with {@code kill -9} in the middle of indexing, two writers at
 * once, a second writer refused with a clear error, and a reader in another process. No sleeps decide outcomes:
 * the children report what they committed, and the parent checks the reopened index against that.
 */
final class LuceneProcessTest {
    private static final int DOCS = 6;

    @TempDir
    Path tmp;

    private static Process start(String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xmx128m", "-cp", System.getProperty("java.class.path"),
                LuceneChild.class.getName()));
        command.addAll(List.of(args));
        return new ProcessBuilder(command).redirectErrorStream(true).start();
    }

    private static List<String> output(Process p) throws Exception {
        assertThat(p.waitFor(60, SECONDS)).as("child finished").isTrue();
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            return r.lines().toList();
        }
    }

    @Test
    void killDuringIndexing_atRandomPoints_reopensWithWholeVersionsAndNothingCommittedLost() throws Exception {
        Random random = new Random(20261125);
        int runs = 22;
        Path dir = tmp.resolve("killed");
        Map<Integer, Integer> durable = new HashMap<>(); // doc -> highest version a child reported committed
        for (int run = 0; run < runs; run++) {
            boolean batched = run % 2 == 1;
            int killAfter = random.nextInt(3 * DOCS); // commits to wait for; 0 kills right after opening
            Process child = start("rewrite", dir.toString(), batched ? "batched" : "each-write", Integer.toString(DOCS));
            BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
            String line;
            int seen = 0;
            while ((line = out.readLine()) != null) {
                if (line.startsWith("committed ")) {
                    String[] parts = line.split(" ");
                    // versions restart at 1 in every run, so only the last run's report is compared with disk
                    durable.put(Integer.parseInt(parts[1]), Integer.parseInt(parts[2]));
                    seen++;
                } else if (!line.equals("open")) {
                    throw new AssertionError("child said: " + line);
                }
                if (line.equals("open") && killAfter == 0 || seen >= killAfter && seen > 0) {
                    break;
                }
            }
            if (random.nextBoolean()) {
                Thread.onSpinWait(); // kill at once, or after letting it run into its next write
            } else {
                for (int i = 0; i < random.nextInt(2_000_000); i++) {
                    Thread.onSpinWait();
                }
            }
            child.destroyForcibly();
            assertThat(child.waitFor(30, SECONDS)).isTrue();
            checkWholeVersions(dir, durable, "run " + run + (batched ? " (batched)" : ""));
            durable.clear();
        }
    }

    private static void checkWholeVersions(Path dir, Map<Integer, Integer> durable, String run) {
        try (LuceneDocumentStore store = LuceneDocumentStore.builder().directory(dir).dimension(LuceneChild.DIMENSION)
                .build()) {
            Map<String, StoredDocument> byPath = new HashMap<>();
            store.documents(Scope.unrestricted("t")).forEach(d -> byPath.put(d.path(), d));
            for (int doc = 0; doc < DOCS; doc++) {
                StoredDocument d = byPath.get("docs/doc" + doc + ".md");
                Integer committed = durable.get(doc);
                if (d == null) {
                    assertThat(committed).as("%s: doc %d was reported committed but is missing", run, doc).isNull();
                    continue;
                }
                int version = Integer.parseInt(d.metadata().get("version"));
                String prefix = "doc " + doc + " version " + version + " ";
                assertThat(d.title()).as(run).isEqualTo("Doc " + doc + " v" + version);
                List<StoredChunk> chunks = store.chunks(Scope.unrestricted("t"), d.id());
                assertThat(chunks).as("%s: chunks of doc %d version %d", run, doc, version)
                        .hasSize(LuceneChild.chunkCount(doc, version))
                        .allSatisfy(c -> assertThat(c.text()).startsWith(prefix));
                if (committed != null) {
                    assertThat(version).as("%s: doc %d lost its committed version %d", run, doc, committed)
                            .isGreaterThanOrEqualTo(committed);
                }
            }
        }
    }

    @Test
    void twoWritersOfDifferentTenants_secondWaitsForTheLock_bothTenantsComplete() throws Exception {
        Path dir = tmp.resolve("shared");
        Process first = start("tenant", dir.toString(), "alpha", "40", "30000");
        Process second = start("tenant", dir.toString(), "beta", "40", "30000");
        CompletableFuture<List<String>> a = CompletableFuture.supplyAsync(() -> uncheckedOutput(first));
        CompletableFuture<List<String>> b = CompletableFuture.supplyAsync(() -> uncheckedOutput(second));

        assertThat(a.get()).contains("done");
        assertThat(b.get()).contains("done");
        assertThat(first.exitValue()).isZero();
        assertThat(second.exitValue()).isZero();
        try (LuceneDocumentStore store = LuceneDocumentStore.builder().directory(dir).readOnly(true).build()) {
            assertThat(store.documents(Scope.unrestricted("alpha"))).hasSize(40);
            assertThat(store.documents(Scope.unrestricted("beta"))).hasSize(40);
        }
    }

    private static List<String> uncheckedOutput(Process p) {
        try {
            return output(p);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void secondWriterProcess_withoutWaiting_failsNamingTheLockAndItsHolder() throws Exception {
        Path dir = tmp.resolve("locked");
        try (LuceneDocumentStore store = LuceneDocumentStore.builder().directory(dir).build()) {
            StoredDocument d = LuceneChild.document("t", 0, 1);
            store.upsert(d, LuceneChild.chunks(d, 0, 1));

            Process writer = start("tenant", dir.toString(), "other", "1", "0");
            List<String> said = output(writer);
            Process reader = start("read", dir.toString(), "t");
            List<String> read = output(reader);

            assertThat(writer.exitValue()).as("exit status, output %s", said).isEqualTo(3);
            assertThat(String.join("\n", said)).contains("store-error: another writer holds the index")
                    .contains("write.lock").contains("process " + ProcessHandle.current().pid())
                    .contains("read-only");
            assertThat(reader.exitValue()).as("reader output %s", read).isZero();
            assertThat(read).contains("documents 1");
        }
    }

    @Test
    void secondWriterInThisProcess_withShortWait_failsAfterWaiting() {
        Path dir = tmp.resolve("waiting");
        try (LuceneDocumentStore first = LuceneDocumentStore.builder().directory(dir).build()) {
            assertThatThrownBy(() -> LuceneDocumentStore.builder().directory(dir)
                    .lockWait(java.time.Duration.ofMillis(200)).build())
                    .isInstanceOfSatisfying(StoreException.class, e -> assertThat(e.isRetriable()).isTrue())
                    .hasMessageContaining("waited 200 ms").hasMessageContaining("write.lock");
        }
    }
}
