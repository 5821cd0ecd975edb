package dev.ragkit.store.solr;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ragkit.store.Scope;
import dev.ragkit.store.SearchHit;
import dev.ragkit.store.SearchRequest;
import dev.ragkit.store.StoreException;
import dev.ragkit.store.StoredChunk;
import dev.ragkit.store.StoredDocument;
import dev.ragkit.store.tck.DocumentStoreContract;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.solr.client.solrj.SolrRequest;
import org.apache.solr.client.solrj.impl.Http2SolrClient;
import org.apache.solr.client.solrj.request.QueryRequest;
import org.apache.solr.common.SolrDocument;
import org.apache.solr.common.SolrDocumentList;
import org.apache.solr.common.cloud.DocCollection;
import org.apache.solr.common.cloud.Replica;
import org.apache.solr.common.cloud.Slice;
import org.apache.solr.common.params.ModifiableSolrParams;
import org.apache.solr.embedded.JettySolrRunner;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The store on a collection whose every shard has a replica on each of two nodes, while one node goes down in the
 * middle of a read and write workload and comes back.
 *
 * <p>Tenant {@code tenant-b} is never written after seeding, so its results are checked exactly (the brute-force
 * top k, the exact document list). Tenant {@code tenant-a} is rewritten by one writer thread; every chunk's text
 * names its tenant, document, version, index and chunk count ({@code tenant-a d03 v7 c1 n3 ...}) and its vector is
 * a function of those, so a reader can check any result on its own: right tenant, visible to the scope, one whole
 * version, a version that was written, and the similarity of that version's vector.
 */
final class SolrFaultToleranceTest {
    private static final int DIMENSION = 8;
    private static final int DOCS = 12;
    private static final String SECRET = "secret";
    private static final String TENANT_A = "tenant-a";
    private static final String TENANT_B = "tenant-b";
    /** How long reads and writes may fail with StoreException once the node's stop has returned. */
    private static final long GRACE_NANOS = TimeUnit.SECONDS.toNanos(10);
    private static final long BEFORE_STOP_MILLIS = 3_000;
    /** Workload time after the stop: the grace window plus time in which everything must succeed. */
    private static final long AFTER_STOP_MILLIS = 15_000;
    private static final int READERS = 4;
    private static final Pattern CHUNK_TEXT =
            Pattern.compile("(tenant-[ab]) d(\\d\\d) v(\\d+) c(\\d+) n(\\d+) common words about (d\\d\\d)");
    private static final Pattern TITLE = Pattern.compile("(tenant-[ab]) d(\\d\\d) v(\\d+)");

    private static SolrTestCluster solr;
    private static SolrDocumentStore store;

    @BeforeAll
    static void startCluster() throws Exception {
        solr = SolrTestCluster.start(2, 2, 2, DIMENSION);
        store = SolrDocumentStore.builder().client(solr.client()).collection(solr.collection).dimension(DIMENSION)
                .build();
    }

    @AfterAll
    static void stopCluster() throws Exception {
        if (store != null) {
            store.close();
        }
        if (solr != null) {
            solr.close();
        }
    }

    @Test
    void nodeStopMidWorkload_twoReplicasPerShard_readsAndWritesStayCorrectAndTheNodeCatchesUp() throws Exception {
        assertEveryShardHasAReplicaOnEachNode();
        for (int d = 0; d < DOCS; d++) {
            store.upsert(document(TENANT_A, d, 0), chunks(TENANT_A, d, 0));
            store.upsert(document(TENANT_B, d, 0), chunks(TENANT_B, d, 0));
        }
        Workload w = new Workload();
        List<Thread> threads = new ArrayList<>();
        for (int r = 0; r < READERS; r++) {
            long seed = 1000 + r;
            threads.add(new Thread(() -> w.read(new Random(seed)), "reader-" + r));
        }
        threads.add(new Thread(w::write, "writer"));
        threads.forEach(t -> t.setDaemon(true));
        threads.forEach(Thread::start);

        JettySolrRunner victim;
        try {
            Thread.sleep(BEFORE_STOP_MILLIS);
            victim = leaderNodeOfFirstShard();
            w.stopStarted = System.nanoTime();
            // The harness itself sometimes hangs stopping a busy node (CoreContainer waits two minutes for one of
            // its pools). That is not a store fault: give the stop 45 s, and skip the run, saying so, if it hangs.
            JettySolrRunner node = victim;
            java.util.concurrent.CompletableFuture<Void> stop = java.util.concurrent.CompletableFuture.runAsync(() -> {
                try {
                    solr.cluster.stopJettySolrRunner(node);
                    solr.cluster.waitForJettyToStop(node);
                } catch (Exception e) {
                    throw new java.util.concurrent.CompletionException(e);
                }
            });
            try {
                stop.get(45, TimeUnit.SECONDS);
            } catch (java.util.concurrent.TimeoutException | java.util.concurrent.ExecutionException e) {
                w.running = false;
                org.junit.jupiter.api.Assumptions.abort("MiniSolrCloudCluster could not stop a node within 45 s ("
                        + e + "); a test-harness problem, not a store fault — the node-loss scenario was not run");
            }
            w.stopEnded = System.nanoTime();
            Thread.sleep(AFTER_STOP_MILLIS);
        } finally {
            w.running = false;
        }
        for (Thread t : threads) {
            t.join(TimeUnit.SECONDS.toMillis(30));
            assertThat(t.isAlive()).as("%s did not finish within 30 s of the workload's end", t.getName()).isFalse();
        }
        System.out.printf("fault workload: %s%n", w.summary());

        assertThat(w.violations).as("wrong results (another tenant, invisible document, mixed or unknown version,"
                + " wrong similarity) or exceptions other than StoreException").isEmpty();
        assertThat(w.lateFailures).as("StoreExceptions outside the window from the stop to %d s after it",
                TimeUnit.NANOSECONDS.toSeconds(GRACE_NANOS)).isEmpty();
        for (String op : Workload.OPERATIONS) {
            assertThat(w.successesBeforeStop.getOrDefault(op, new AtomicInteger()).get())
                    .as("successful %s before the stop", op).isPositive();
            assertThat(w.successesAfterGrace.getOrDefault(op, new AtomicInteger()).get())
                    .as("successful %s after the grace window, with one node down", op).isPositive();
        }

        solr.cluster.startJettySolrRunner(victim);
        solr.cluster.waitForNode(victim, 30);
        solr.cluster.waitForActiveCollection(solr.collection, 30, TimeUnit.SECONDS, 2, 4);
        // A few writes with both replicas of every shard up again.
        for (int d = 0; d < 3; d++) {
            int version = w.attempted.incrementAndGet(d);
            store.upsert(document(TENANT_A, d, version), chunks(TENANT_A, d, version));
            w.confirmed.set(d, version);
        }
        assertReplicasCaughtUp(w);
    }

    // -------------------------------------------------------------------------------------------------------------
    // The workload

    /** Readers and one writer, recording successes, allowed failures and violations. */
    private static final class Workload {
        static final List<String> OPERATIONS = List.of("vector search", "text search", "hybrid search", "chunks",
                "documents", "write");

        volatile boolean running = true;
        volatile long stopStarted = Long.MAX_VALUE;
        final AtomicInteger staleReadBacks = new AtomicInteger();
        volatile long stopEnded = Long.MAX_VALUE;
        /** Per tenant-a document: the highest version a write was started for, and the last one that succeeded. */
        final AtomicIntegerArray attempted = new AtomicIntegerArray(DOCS);
        final AtomicIntegerArray confirmed = new AtomicIntegerArray(DOCS);
        /** Per tenant-a document: versions whose write threw StoreException. */
        final Map<Integer, Set<Integer>> failedVersions = new ConcurrentHashMap<>();
        final Map<String, AtomicInteger> successesBeforeStop = new ConcurrentHashMap<>();
        final Map<String, AtomicInteger> successesDuringGrace = new ConcurrentHashMap<>();
        final Map<String, AtomicInteger> successesAfterGrace = new ConcurrentHashMap<>();
        final Map<String, AtomicInteger> failuresInWindow = new ConcurrentHashMap<>();
        final ConcurrentLinkedQueue<String> lateFailures = new ConcurrentLinkedQueue<>();
        final ConcurrentLinkedQueue<String> violations = new ConcurrentLinkedQueue<>();
        final ConcurrentLinkedQueue<String> failureMessages = new ConcurrentLinkedQueue<>();
        final AtomicLong lastFailure = new AtomicLong();
        final AtomicInteger hybridRaces = new AtomicInteger();
        final ConcurrentLinkedQueue<String> hybridRaceExamples = new ConcurrentLinkedQueue<>();

        void read(Random random) {
            while (running) {
                int kind = random.nextInt(5);
                String op = OPERATIONS.get(kind);
                long started = System.nanoTime();
                try {
                    switch (kind) {
                        case 0 -> vectorSearch(random);
                        case 1 -> textSearch(random);
                        case 2 -> hybridSearch(random);
                        case 3 -> readChunks(random);
                        default -> listDocuments(random);
                    }
                    succeeded(op, started);
                } catch (StoreException e) {
                    failed(op, started, e);
                } catch (AssertionError e) {
                    violation(started, op + ": " + e.getMessage());
                } catch (RuntimeException e) {
                    violation(started, op + " threw " + e + " instead of StoreException");
                }
            }
        }

        void write() {
            int d = 0;
            boolean retry = false;
            while (running) {
                // After a failure, write the same document again (a new version, as a caller's retry might).
                d = retry ? d : (d + 1) % DOCS;
                retry = false;
                int version = attempted.incrementAndGet(d);
                long started = System.nanoTime();
                try {
                    store.upsert(document(TENANT_A, d, version), chunks(TENANT_A, d, version));
                } catch (StoreException e) {
                    failedVersions.computeIfAbsent(d, x -> ConcurrentHashMap.newKeySet()).add(version);
                    if (e.getMessage() == null || !e.getMessage().contains(solr.collection)) {
                        violation(started, "write failure without a clear message: " + e.getMessage());
                    }
                    failed("write", started, e);
                    retry = true;
                    continue;
                } catch (RuntimeException e) {
                    violation(started, "write threw " + e + " instead of StoreException");
                    continue;
                }
                confirmed.set(d, version);
                // Read it back: exactly the version just written, whole.
                try {
                    String id = StoredDocument.idFor(TENANT_A, path(d));
                    List<StoredChunk> back = store.chunks(Scope.unrestricted(TENANT_A), id);
                    Optional<StoredDocument> header = store.document(Scope.unrestricted(TENANT_A), id);
                    if (!back.equals(chunks(TENANT_A, d, version))) {
                        if (aroundTheStop(started) && earlierWholeVersion(d, version, back)) {
                            // Documented limitation: while a shard leader goes down, a write it acknowledged may stay
                            // invisible until the surviving replica commits; the previous whole version shows.
                            staleReadBacks.incrementAndGet();
                            continue;
                        }
                        violation(started, "after writing " + TENANT_A + " d" + d + " v" + version + " chunks() returned "
                                + back);
                    } else if (!header.equals(Optional.of(document(TENANT_A, d, version)))) {
                        violation(started, "after writing " + TENANT_A + " d" + d + " v" + version + " document() returned "
                                + header);
                    } else {
                        succeeded("write", started);
                    }
                } catch (StoreException e) {
                    failed("write", started, e);
                } catch (RuntimeException e) {
                    violation(started, "reading back a write threw " + e + " instead of StoreException");
                }
            }
        }

        /** Whether an operation that started at {@code started} overlapped the node stop (with a second either side). */
        private boolean aroundTheStop(long started) {
            long margin = TimeUnit.SECONDS.toNanos(1);
            return started >= stopStarted - margin && (stopEnded == Long.MAX_VALUE || started <= stopEnded + margin);
        }

        /** Whether {@code seen} is exactly one whole earlier version of tenant-a's document {@code d}. */
        private boolean earlierWholeVersion(int d, int version, List<StoredChunk> seen) {
            for (int v = version - 1; v >= 0; v--) {
                if (seen.equals(chunks(TENANT_A, d, v))) {
                    return true;
                }
            }
            return false;
        }

        private void violation(long started, String message) {
            violations.add(describe(started, System.nanoTime()) + " " + message);
        }

        private void succeeded(String op, long started) {
            Map<String, AtomicInteger> bucket = started < stopStarted ? successesBeforeStop
                    : afterGrace(started) ? successesAfterGrace : successesDuringGrace;
            bucket.computeIfAbsent(op, x -> new AtomicInteger()).incrementAndGet();
        }

        private void failed(String op, long started, StoreException e) {
            long now = System.nanoTime();
            String message = op + " failed " + describe(started, now) + ": " + e.getMessage();
            if (now < stopStarted || afterGrace(started)) {
                lateFailures.add(message);
            } else {
                failuresInWindow.computeIfAbsent(op, x -> new AtomicInteger()).incrementAndGet();
                lastFailure.accumulateAndGet(now - stopStarted, Math::max);
                if (failureMessages.size() < 5) {
                    failureMessages.add(message);
                }
            }
        }

        /** Whether {@code time} is later than the grace window after the stop (false while the stop runs). */
        private boolean afterGrace(long time) {
            long ended = stopEnded;
            return ended != Long.MAX_VALUE && time - ended > GRACE_NANOS;
        }

        /** When an operation ran, relative to the start of the node's stop. */
        private String describe(long started, long now) {
            if (stopStarted == Long.MAX_VALUE) {
                return "(before the stop)";
            }
            return "(from " + (started - stopStarted) / 1_000_000 + " to " + (now - stopStarted) / 1_000_000
                    + " ms after the stop began" + (stopEnded == Long.MAX_VALUE ? ", while it ran)" : ")");
        }

        String summary() {
            return "stop took " + (stopEnded - stopStarted) / 1_000_000 + " ms; successes before stop " + new TreeMap<>(successesBeforeStop) + ", during grace "
                    + new TreeMap<>(successesDuringGrace) + ", after grace " + new TreeMap<>(successesAfterGrace)
                    + "; StoreExceptions in the window " + new TreeMap<>(failuresInWindow) + ", last one "
                    + lastFailure.get() / 1_000_000 + " ms after the stop began, failed write versions " + failedVersions
                    + ", first messages " + failureMessages + "; read-backs of an earlier whole version around the stop "
                    + staleReadBacks + "; hybrid searches straddling a commit "
                    + hybridRaces + " " + hybridRaceExamples;
        }

        // --- reads and their checks (AssertionError on a wrong result) ---

        void vectorSearch(Random random) {
            Scope scope = randomScope(random);
            float[] query = randomVector(random);
            List<SearchHit> hits = store.search(SearchRequest.builder(scope).vector(query).k(5).build());
            checkHits(scope, hits, query, null, false);
            assertThat(hits).as("vector hits").hasSize(5);
            for (int i = 1; i < hits.size(); i++) {
                assertThat(hits.get(i).similarity()).as("hits in similarity order")
                        .isLessThanOrEqualTo(hits.get(i - 1).similarity());
            }
            if (scope.tenant().equals(TENANT_B)) {
                assertThat(sourceIds(hits)).as("%s top 5 for a static tenant", scope).isEqualTo(bruteForceTop(scope,
                        query, 5));
            }
        }

        void textSearch(Random random) {
            Scope scope = randomScope(random);
            int d = random.nextInt(DOCS);
            List<SearchHit> hits = store.search(SearchRequest.builder(scope).text(word(d)).k(10).build());
            checkHits(scope, hits, null, d, false);
            boolean visible = scope.canSee(document(scope.tenant(), d, 0));
            if (visible) {
                assertThat(hits).as("text hits for %s in %s", word(d), scope).isNotEmpty();
            } else {
                assertThat(hits).as("text hits for %s, invisible to %s", word(d), scope).isEmpty();
            }
            for (SearchHit h : hits) {
                assertThat(h.document().path()).as("text hit for %s", word(d)).isEqualTo(path(d));
                assertThat(h.keywordScore()).as("keyword score of a matching chunk").isPositive();
            }
            if (scope.tenant().equals(TENANT_B) && visible) {
                assertThat(hits).as("text hits for a static document").hasSize(chunkCount(d, 0));
            }
        }

        void hybridSearch(Random random) {
            Scope scope = randomScope(random);
            int d = random.nextInt(DOCS);
            float[] query = randomVector(random);
            List<SearchHit> hits = store.search(SearchRequest.builder(scope).vector(query).text(word(d)).k(4).build());
            checkHits(scope, hits, query, d, true);
            for (SearchHit h : hits) {
                boolean matches = h.document().path().equals(path(d));
                if (matches && h.keywordScore() == 0 && commitRace(parse(h.chunk().text()), false, h.sourceId()
                        + " matches " + word(d) + " but has keyword score 0")) {
                    continue;
                }
                assertThat(h.keywordScore() > 0).as("keyword score %s of %s (%s) for %s in %s", h.keywordScore(),
                        h.sourceId(), h.chunk().text(), word(d), scope)
                        .isEqualTo(matches);
            }
        }

        void readChunks(Random random) {
            Scope scope = randomScope(random);
            int d = random.nextInt(DOCS);
            List<StoredChunk> chunks = store.chunks(scope, StoredDocument.idFor(scope.tenant(), path(d)));
            if (!scope.canSee(document(scope.tenant(), d, 0))) {
                assertThat(chunks).as("chunks of a document invisible to %s", scope).isEmpty();
                return;
            }
            assertThat(chunks).as("chunks of a visible document").isNotEmpty();
            ChunkText first = parse(chunks.get(0).text());
            assertThat(first.tenant).as("tenant").isEqualTo(scope.tenant());
            checkVersion(scope.tenant(), d, first.version);
            assertThat(chunks).as("chunks of %s d%02d: one whole version", scope.tenant(), d)
                    .isEqualTo(chunks(scope.tenant(), d, first.version));
        }

        void listDocuments(Random random) {
            Scope scope = randomScope(random);
            List<StoredDocument> documents = store.documents(scope);
            List<String> expectedPaths = new ArrayList<>();
            for (int d = 0; d < DOCS; d++) {
                if (scope.canSee(document(scope.tenant(), d, 0))) {
                    expectedPaths.add(path(d));
                }
            }
            List<String> paths = new ArrayList<>();
            for (StoredDocument doc : documents) {
                assertThat(doc.tenant()).as("tenant of a listed document").isEqualTo(scope.tenant());
                assertThat(scope.canSee(doc)).as("%s visible to %s", doc.path(), scope).isTrue();
                Matcher m = TITLE.matcher(doc.title());
                assertThat(m.matches()).as("title %s", doc.title()).isTrue();
                int d = Integer.parseInt(m.group(2));
                int version = Integer.parseInt(m.group(3));
                checkVersion(scope.tenant(), d, version);
                assertThat(doc).as("listed document").isEqualTo(document(scope.tenant(), d, version));
                paths.add(doc.path());
            }
            assertThat(paths).as("documents(%s)", scope).isEqualTo(expectedPaths);
        }

        /**
         * Every hit: the scope's tenant, visible, one known version, its vector's similarity; the hits of one
         * document all of one version, except in a hybrid search ({@code hybrid}) where a rewrite explains it.
         */
        private void checkHits(Scope scope, List<SearchHit> hits, float[] query, Integer textDoc, boolean hybrid) {
            Set<String> seen = new HashSet<>();
            Map<String, Integer> versions = new TreeMap<>();
            for (SearchHit h : hits) {
                assertThat(seen.add(h.sourceId())).as("duplicate hit %s", h.sourceId()).isTrue();
                StoredDocument doc = h.document();
                assertThat(doc.tenant()).as("tenant of hit %s", h.sourceId()).isEqualTo(scope.tenant());
                assertThat(scope.canSee(doc)).as("hit %s visible to %s", doc.path(), scope).isTrue();
                ChunkText c = parse(h.chunk().text());
                assertThat(c.tenant).as("tenant in the chunk text").isEqualTo(scope.tenant());
                assertThat(path(c.doc)).as("chunk text's document").isEqualTo(doc.path());
                assertThat(doc).as("hit's document").isEqualTo(document(c.tenant, c.doc, c.version));
                checkVersion(c.tenant, c.doc, c.version);
                Integer other = versions.putIfAbsent(doc.id(), c.version);
                boolean mixed = other != null && other != c.version;
                if (!mixed || !hybrid || !commitRace(c, true, "hits of " + c.tenant + " " + word(c.doc) + " from v"
                        + other + " and v" + c.version)) {
                    assertThat(other == null ? c.version : other).as("versions of %s d%02d among the hits of one"
                            + " search", c.tenant, c.doc).isEqualTo(c.version);
                }
                assertThat(c.index).as("chunk index").isEqualTo(h.chunk().index()).isLessThan(c.count);
                assertThat(c.count).as("chunk count").isEqualTo(chunkCount(c.doc, c.version));
                assertThat(h.chunk()).as("hit's chunk").isEqualTo(chunks(c.tenant, c.doc, c.version).get(c.index)
                        .withoutEmbedding());
                if (query == null) {
                    assertThat(h.similarity()).as("similarity without a query vector").isNaN();
                } else {
                    double expected = Math.max(0, Math.min(1, DocumentStoreContract.cosine(query,
                            vector(c.tenant, c.doc, c.version, c.index))));
                    assertThat(h.similarity()).as("similarity of %s", h.sourceId()).isCloseTo(expected,
                            org.assertj.core.data.Offset.offset(1e-5));
                }
                if (textDoc == null) {
                    assertThat(h.keywordScore()).as("keyword score without a query text").isNaN();
                }
            }
        }

        /**
         * A hybrid search runs several queries; when a commit lands between them the store notices (a document seen
         * in two versions, or a chunk gone) and searches again. A mix reaching the caller is therefore a fault: this
         * records it for the summary and never excuses it.
         */
        private boolean commitRace(ChunkText c, boolean versionMix, String what) {
            hybridRaces.incrementAndGet();
            if (hybridRaceExamples.size() < 3) {
                hybridRaceExamples.add(what + (versionMix ? "" : " (keyword score)") + " in " + c.tenant);
            }
            return false;
        }

        /** A version a reader sees must have been written (or at least attempted) before the read returned. */
        private void checkVersion(String tenant, int d, int version) {
            if (tenant.equals(TENANT_B)) {
                assertThat(version).as("version of static %s d%02d", tenant, d).isZero();
            } else {
                assertThat(version).as("version of %s d%02d", tenant, d).isBetween(0, attempted.get(d));
            }
        }
    }

    /** The exact top k of the static tenant: cosine over every visible chunk, ties by document id and index. */
    private static List<String> bruteForceTop(Scope scope, float[] query, int k) {
        List<Object[]> all = new ArrayList<>();
        for (int d = 0; d < DOCS; d++) {
            StoredDocument doc = document(scope.tenant(), d, 0);
            if (scope.canSee(doc)) {
                for (StoredChunk c : chunks(scope.tenant(), d, 0)) {
                    all.add(new Object[] {DocumentStoreContract.cosine(query, c.embedding()), doc.id(), c.index(), c.sourceId()});
                }
            }
        }
        all.sort(Comparator.comparingDouble((Object[] o) -> -(double) o[0]).thenComparing(o -> (String) o[1])
                .thenComparingInt(o -> (int) o[2]));
        List<String> out = new ArrayList<>();
        for (int i = 0; i < Math.min(k, all.size()); i++) {
            out.add((String) all.get(i)[3]);
        }
        return out;
    }

    private static List<String> sourceIds(List<SearchHit> hits) {
        List<String> out = new ArrayList<>();
        hits.forEach(h -> out.add(h.sourceId()));
        return out;
    }

    // -------------------------------------------------------------------------------------------------------------
    // Placement and catch-up

    private static void assertEveryShardHasAReplicaOnEachNode() {
        DocCollection state = collectionState();
        Set<String> nodes = new TreeSet<>();
        solr.cluster.getJettySolrRunners().forEach(j -> nodes.add(j.getNodeName()));
        assertThat(state.getSlices()).as("shards").hasSize(2);
        for (Slice slice : state.getSlices()) {
            Set<String> replicaNodes = new TreeSet<>();
            slice.getReplicas().forEach(r -> replicaNodes.add(r.getNodeName()));
            assertThat(replicaNodes).as("nodes of %s's replicas", slice.getName()).isEqualTo(nodes);
        }
    }

    private static JettySolrRunner leaderNodeOfFirstShard() {
        DocCollection state = collectionState();
        Slice first = state.getSlices().stream().min(Comparator.comparing(Slice::getName)).orElseThrow();
        String node = first.getLeader().getNodeName();
        return solr.cluster.getJettySolrRunners().stream().filter(j -> j.getNodeName().equals(node)).findFirst()
                .orElseThrow(() -> new AssertionError("no running node " + node));
    }

    private static DocCollection collectionState() {
        return solr.cluster.getZkStateReader().getClusterState().getCollection(solr.collection);
    }

    /**
     * Each replica of each shard, asked on its own ({@code distrib=false}), holds the same Solr documents, and
     * together the shards hold exactly the expected final versions.
     */
    private static void assertReplicasCaughtUp(Workload w) throws Exception {
        Map<String, String> expected = new TreeMap<>();
        for (int d = 0; d < DOCS; d++) {
            int confirmed = w.confirmed.get(d);
            int shown = storeVersion(d);
            // A write that failed after the last success may still have reached the index whole.
            if (shown != confirmed) {
                assertThat(w.failedVersions.getOrDefault(d, Set.of())).as("tenant-a d%02d shows v%d, last confirmed"
                        + " v%d: only a failed later write may show instead", d, shown, confirmed).contains(shown);
                assertThat(shown).as("tenant-a d%02d's version", d).isGreaterThan(confirmed);
                System.out.printf("note: tenant-a d%02d shows v%d from a write that threw StoreException (last"
                        + " successful write v%d)%n", d, shown, confirmed);
            }
            expected.putAll(shardContents(TENANT_A, d, shown));
            expected.putAll(shardContents(TENANT_B, d, 0));
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        String last = "";
        while (true) {
            Map<String, Map<String, String>> byReplica = new TreeMap<>();
            Map<String, String> union = new TreeMap<>();
            boolean agree = true;
            for (Slice slice : collectionState().getSlices()) {
                Map<String, String> reference = null;
                for (Replica replica : slice.getReplicas()) {
                    Map<String, String> docs = coreContents(replica);
                    byReplica.put(slice.getName() + "/" + replica.getName() + "@" + replica.getNodeName(), docs);
                    if (reference == null) {
                        reference = docs;
                        union.putAll(docs);
                    } else if (!reference.equals(docs)) {
                        agree = false;
                    }
                }
            }
            if (agree && union.equals(expected)) {
                for (Map.Entry<String, Map<String, String>> e : byReplica.entrySet()) {
                    assertThat(e.getValue()).as("replica %s", e.getKey()).isNotEmpty();
                }
                System.out.printf("caught up: %s%n", counts(byReplica));
                return;
            }
            last = "replicas agree per shard: " + agree + ", union equals the expected " + expected.size()
                    + " Solr documents: " + union.equals(expected) + "; counts " + counts(byReplica)
                    + "; missing " + difference(expected, union) + "; unexpected " + difference(union, expected);
            assertThat(System.nanoTime()).as("replicas did not catch up within 30 s of the restart: %s", last)
                    .isLessThan(deadline);
            Thread.sleep(250);
        }
    }

    /** The version of tenant-a's document d the store shows (through the cluster) now. */
    private static int storeVersion(int d) {
        List<StoredChunk> chunks = store.chunks(Scope.unrestricted(TENANT_A), StoredDocument.idFor(TENANT_A, path(d)));
        assertThat(chunks).as("chunks of tenant-a d%02d after the restart", d).isNotEmpty();
        int version = parse(chunks.get(0).text()).version;
        assertThat(chunks).as("chunks of tenant-a d%02d after the restart", d)
                .isEqualTo(chunks(TENANT_A, d, version));
        return version;
    }

    /** Solr id to a short description (kind, document, version) of the given version's Solr documents. */
    private static Map<String, String> shardContents(String tenant, int d, int version) {
        Map<String, String> out = new TreeMap<>();
        StoredDocument doc = document(tenant, d, version);
        out.put(SolrFields.solrId("doc", tenant, doc.id(), -1), "doc " + doc.title());
        for (StoredChunk c : chunks(tenant, d, version)) {
            out.put(SolrFields.solrId("chunk", tenant, doc.id(), c.index()), "chunk " + c.text());
        }
        return out;
    }

    private static Map<String, String> coreContents(Replica replica) throws Exception {
        try (Http2SolrClient client = new Http2SolrClient.Builder(replica.getBaseUrl())
                .withDefaultCollection(replica.getCoreName()).build()) {
            ModifiableSolrParams p = new ModifiableSolrParams();
            p.set("q", "*:*");
            p.set("distrib", false);
            p.set("fl", "id,kind,title,text");
            p.set("rows", 10_000);
            SolrDocumentList docs = new QueryRequest(p, SolrRequest.METHOD.POST).process(client).getResults();
            Map<String, String> out = new TreeMap<>();
            for (SolrDocument d : docs) {
                String kind = (String) d.getFirstValue("kind");
                out.put((String) d.getFirstValue("id"), kind + " " + d.getFirstValue(kind.equals("doc") ? "title"
                        : "text"));
            }
            assertThat((long) out.size()).as("numFound of %s", replica.getCoreName()).isEqualTo(docs.getNumFound());
            return out;
        }
    }

    private static Map<String, Integer> counts(Map<String, Map<String, String>> byReplica) {
        Map<String, Integer> out = new TreeMap<>();
        byReplica.forEach((k, v) -> out.put(k, v.size()));
        return out;
    }

    private static Map<String, String> difference(Map<String, String> a, Map<String, String> b) {
        Map<String, String> out = new TreeMap<>();
        a.forEach((k, v) -> {
            if (!v.equals(b.get(k))) {
                out.put(k, v);
            }
        });
        return out.size() > 6 ? Map.of("(" + out.size() + " entries)", "") : out;
    }

    // -------------------------------------------------------------------------------------------------------------
    // The data: everything is a function of (tenant, document, version)

    private static String path(int d) {
        return String.format("guides/d%02d.md", d);
    }

    private static String word(int d) {
        return String.format("d%02d", d);
    }

    private static int chunkCount(int d, int version) {
        return 1 + (d + version) % 3;
    }

    private static StoredDocument document(String tenant, int d, int version) {
        return StoredDocument.builder().tenant(tenant).path(path(d)).title(tenant + " " + word(d) + " v" + version)
                .docType("guide").accessTags(d % 4 == 3 ? List.of(SECRET) : List.of()).charCount(version).build();
    }

    private static List<StoredChunk> chunks(String tenant, int d, int version) {
        String id = StoredDocument.idFor(tenant, path(d));
        int n = chunkCount(d, version);
        List<StoredChunk> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            String text = tenant + " " + word(d) + " v" + version + " c" + i + " n" + n + " common words about "
                    + word(d);
            out.add(new StoredChunk(id, i, text, vector(tenant, d, version, i), 12, i + 1, i + 1, null, null));
        }
        return out;
    }

    private static float[] vector(String tenant, int d, int version, int index) {
        return randomVector(new Random((tenant + "/" + d + "/" + version + "/" + index).hashCode() * 31L + 7));
    }

    private static float[] randomVector(Random random) {
        float[] v = new float[DIMENSION];
        for (int i = 0; i < v.length; i++) {
            v[i] = (float) random.nextGaussian();
        }
        v[0] += 0.01f; // never all zeros
        return v;
    }

    private static Scope randomScope(Random random) {
        String tenant = random.nextBoolean() ? TENANT_A : TENANT_B;
        return switch (random.nextInt(3)) {
            case 0 -> Scope.of(tenant);
            case 1 -> Scope.of(tenant, SECRET);
            default -> Scope.unrestricted(tenant);
        };
    }

    private record ChunkText(String tenant, int doc, int version, int index, int count) {
    }

    private static ChunkText parse(String text) {
        Matcher m = CHUNK_TEXT.matcher(text);
        assertThat(m.matches()).as("chunk text %s", text).isTrue();
        assertThat(m.group(6)).as("document word in %s", text).isEqualTo("d" + m.group(2));
        return new ChunkText(m.group(1), Integer.parseInt(m.group(2)), Integer.parseInt(m.group(3)),
                Integer.parseInt(m.group(4)), Integer.parseInt(m.group(5)));
    }
}
