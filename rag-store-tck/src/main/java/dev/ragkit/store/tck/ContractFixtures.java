package dev.ragkit.store.tck;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.ragkit.store.DocumentStore;
import dev.ragkit.store.PromotionLevel;
import dev.ragkit.store.Scope;
import dev.ragkit.store.SearchHit;
import dev.ragkit.store.SearchRequest;
import dev.ragkit.store.StoredChunk;
import dev.ragkit.store.StoredDocument;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;

/**
 * The data sets that several groups of contract cases share (isolation, filter and keyword corpora), the read
 * paths a document can come back through, administrator snapshots to compare before and after a call, and the
 * writer/reader race used by the concurrency cases.
 */
abstract class ContractFixtures extends ContractSupport {
    // --- fixtures -------------------------------------------------------------------------------------------

    /** Three documents of tenant A (untagged, hr, eng+ops) and three of tenant B, two sharing A's ids and paths. */
    record IsolationCorpus(StoredDocument aPublic, StoredDocument aHr, StoredDocument aEng,
                                   StoredDocument bPublic, StoredDocument bHr, StoredDocument bSecret) {
        List<StoredDocument> all() {
            return List.of(aPublic, aHr, aEng, bPublic, bHr, bSecret);
        }

        List<StoredDocument> tenantB() {
            return List.of(bPublic, bHr, bSecret);
        }
    }

    IsolationCorpus putIsolationCorpus() {
        StoredDocument aPublic = document(TENANT_A, "guides/public.md").docType("guide").build();
        StoredDocument aHr = document(TENANT_A, "guides/hr.md").docType("policy").accessTags("hr")
                .promotionLevel(PromotionLevel.IMPORTANT).build();
        StoredDocument aEng = document(TENANT_A, "guides/eng.md").docType("guide").accessTags("eng", "ops")
                .promotionLevel(PromotionLevel.CRITICAL).build();
        // Tenant B reuses A's ids and paths, and its vectors are closer to the query: a leak cannot hide.
        StoredDocument bPublic = document(TENANT_B, "guides/public.md").id(aPublic.id()).docType("guide").build();
        StoredDocument bHr = document(TENANT_B, "guides/hr.md").id(aHr.id()).docType("policy").accessTags("hr")
                .promotionLevel(PromotionLevel.IMPORTANT).build();
        StoredDocument bSecret = document(TENANT_B, "secret/plans.md").docType("guide")
                .promotionLevel(PromotionLevel.CRITICAL).build();
        put(aPublic, "walnut", vectorAtCosine(0.50, 1), vectorAtCosine(0.45, 2));
        put(aHr, "falcon", vectorAtCosine(0.40, 3), vectorAtCosine(0.35, 4));
        put(aEng, "copper", vectorAtCosine(0.30, 5), vectorAtCosine(0.25, 6));
        put(bPublic, "walnut", vectorAtCosine(0.99, 1), vectorAtCosine(0.98, 2));
        put(bHr, "falcon", vectorAtCosine(0.97, 3), vectorAtCosine(0.96, 4));
        put(bSecret, ISOLATION_QUERY, vectorAtCosine(0.95, 5), vectorAtCosine(0.94, 6));
        return new IsolationCorpus(aPublic, aHr, aEng, bPublic, bHr, bSecret);
    }

    /** The read paths through which a document or its chunks can come back. */
    enum ReadPath {
        SEARCH_VECTOR(false), SEARCH_TEXT(true), SEARCH_HYBRID(true), DOCUMENT(false), FIND_BY_PATHS(false),
        FIND_BY_PROMOTION(false), DOCUMENTS(false), CHUNKS(false);

        final boolean needsKeywordSearch;

        ReadPath(boolean needsKeywordSearch) {
            this.needsKeywordSearch = needsKeywordSearch;
        }
    }

    /** What to ask every read path for: these ids and paths, this query. */
    record Probe(List<String> ids, List<String> paths, float[] vector, String text, int k) {
    }

    Probe probe(List<StoredDocument> documents) {
        return new Probe(documents.stream().map(StoredDocument::id).distinct().collect(Collectors.toList()),
                paths(documents), axis(0), ISOLATION_QUERY, requireMaxK(PROBE_K));
    }

    void assumeReadPath(ReadPath path) {
        if (path.needsKeywordSearch) {
            assumeKeywordSearch();
        }
    }

    List<ReadPath> supportedReadPaths() {
        boolean keyword = store().capabilities().keywordSearch();
        return Arrays.stream(ReadPath.values()).filter(p -> keyword || !p.needsKeywordSearch).collect(Collectors.toList());
    }

    /** The labels ({@code tenant|path}) of every document and chunk that {@code path} returns for {@code probe}. */
    Set<String> labelsVia(ReadPath path, Scope scope, Probe probe) {
        DocumentStore s = store();
        Set<String> labels = new TreeSet<>();
        switch (path) {
            case SEARCH_VECTOR -> addHitLabels(labels, s.search(
                    SearchRequest.builder(scope).vector(probe.vector()).k(probe.k()).build()));
            case SEARCH_TEXT -> addHitLabels(labels, s.search(
                    SearchRequest.builder(scope).text(probe.text()).k(probe.k()).build()));
            case SEARCH_HYBRID -> addHitLabels(labels, s.search(
                    SearchRequest.builder(scope).vector(probe.vector()).text(probe.text()).k(probe.k()).build()));
            case DOCUMENT -> probe.ids().forEach(id -> s.document(scope, id).ifPresent(d -> labels.add(label(d))));
            case FIND_BY_PATHS -> s.findByPaths(scope, probe.paths()).forEach(d -> labels.add(label(d)));
            case FIND_BY_PROMOTION -> s.findByPromotion(scope, PromotionLevel.STANDARD, Set.of())
                    .forEach(d -> labels.add(label(d)));
            case DOCUMENTS -> s.documents(scope).forEach(d -> labels.add(label(d)));
            case CHUNKS -> probe.ids().forEach(id -> s.chunks(scope, id).forEach(c -> labels.add(labelOf(c))));
            default -> throw new IllegalStateException("unknown read path " + path);
        }
        return labels;
    }

    static void addHitLabels(Set<String> labels, List<SearchHit> hits) {
        for (SearchHit hit : hits) {
            labels.add(label(hit.document()));
            labels.add(labelOf(hit.chunk()));
        }
    }

    /** Five documents of tenant A for filter tests; the non-matching ones are the closest to the query. */
    record FilterCorpus(StoredDocument faq, StoredDocument untyped, StoredDocument guide,
                                StoredDocument important, StoredDocument critical) {
    }

    FilterCorpus putFilterCorpus() {
        StoredDocument faq = document(TENANT_A, "filters/faq.md").docType("faq").build();
        StoredDocument untyped = document(TENANT_A, "filters/untyped.md").build();
        StoredDocument guide = document(TENANT_A, "filters/guide.md").docType("guide").build();
        StoredDocument important = document(TENANT_A, "filters/important.md").docType("faq")
                .promotionLevel(PromotionLevel.IMPORTANT).build();
        StoredDocument critical = document(TENANT_A, "filters/critical.md").docType("guide")
                .promotionLevel(PromotionLevel.CRITICAL).build();
        put(faq, "faq", descendingCosines(0.99, 0.01, 12));        // 0.99 … 0.88
        put(untyped, "untyped", descendingCosines(0.95, 0.01, 4));  // 0.95 … 0.92
        put(guide, "guide", descendingCosines(0.60, 0.03, 8));      // 0.60 … 0.39
        put(important, "important", descendingCosines(0.30, 0.02, 4)); // 0.30 … 0.24
        put(critical, "critical", descendingCosines(0.20, 0.02, 4));   // 0.20 … 0.14
        return new FilterCorpus(faq, untyped, guide, important, critical);
    }

    /** Keyword corpus: "install" in six chunks, the rare "zephyr" in one, four chunks with neither. */
    record KeywordCorpus(StoredDocument one, StoredDocument two, String zephyrSourceId) {
    }

    static final List<String> KEYWORD_TEXTS_ONE = List.of(
            "install the package on linux servers",
            "install the agent on windows desktops",
            "install updates every month without delay",
            "install the driver before rebooting machines",
            "install fonts from the settings page",
            "install printers through the network panel",
            "weather report for sunday afternoon",
            "quarterly budget summary for finance");
    static final List<String> KEYWORD_TEXTS_TWO = List.of(
            "zephyr calibration notes for laboratory equipment",
            "coffee machine cleaning schedule for kitchens");

    KeywordCorpus putKeywordCorpus() {
        StoredDocument one = document(TENANT_A, "kw/one.md").build();
        StoredDocument two = document(TENANT_A, "kw/two.md").build();
        List<StoredChunk> oneChunks = new ArrayList<>();
        for (int i = 0; i < KEYWORD_TEXTS_ONE.size(); i++) {
            oneChunks.add(chunk(one, i, labelledText(one, KEYWORD_TEXTS_ONE.get(i)), vectorAtCosine(0.9 - 0.05 * i, 1 + i)));
        }
        List<StoredChunk> twoChunks = List.of(
                // the only keyword match points away from the vector query
                chunk(two, 0, labelledText(two, KEYWORD_TEXTS_TWO.get(0)), vectorAtCosine(-1)),
                chunk(two, 1, labelledText(two, KEYWORD_TEXTS_TWO.get(1)), vectorAtCosine(0.1, 3)));
        store().upsert(one, oneChunks);
        store().upsert(two, twoChunks);
        return new KeywordCorpus(one, two, two.id() + ":0");
    }

    /** What a tenant's data looks like through its administrator view, to compare before and after a call. */
    record Snapshot(List<StoredDocument> documents, Map<String, List<StoredChunk>> chunks, List<SearchHit> hits) {
    }

    Snapshot snapshot(String tenant) {
        Scope scope = Scope.unrestricted(tenant);
        List<StoredDocument> documents = store().documents(scope);
        Map<String, List<StoredChunk>> chunks = new LinkedHashMap<>();
        for (StoredDocument document : documents) {
            chunks.put(document.id(), store().chunks(scope, document.id()));
        }
        List<SearchHit> hits = searchVector(scope, axis(0), Math.min(maxK(), 100));
        return new Snapshot(documents, chunks, hits);
    }

    Map<String, Snapshot> snapshotAll() {
        Map<String, Snapshot> all = new LinkedHashMap<>();
        for (String tenant : List.of(TENANT_A, TENANT_B)) {
            all.put(tenant, snapshot(tenant));
        }
        return all;
    }

    /**
     * Runs writers and readers at the same time on real threads: every reader repeats its step until all
     * writers are done (at least {@value #MIN_READS}, at most {@value #MAX_READS} times).
     *
     * @return what went wrong in any thread, empty when nothing did
     */
    List<String> race(List<Runnable> writers, List<Runnable> readerSteps) throws InterruptedException {
        int threads = writers.size() + readerSteps.size();
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        CountDownLatch ready = new CountDownLatch(threads);
        CountDownLatch start = new CountDownLatch(1);
        AtomicInteger writersRunning = new AtomicInteger(writers.size());
        Queue<String> failures = new ConcurrentLinkedQueue<>();
        try {
            for (int w = 0; w < writers.size(); w++) {
                Runnable writer = writers.get(w);
                String name = "writer " + w;
                pool.execute(() -> {
                    ready.countDown();
                    try {
                        start.await();
                        writer.run();
                    } catch (Throwable t) {
                        failures.add(name + " failed: " + t);
                    } finally {
                        writersRunning.decrementAndGet();
                    }
                });
            }
            for (int r = 0; r < readerSteps.size(); r++) {
                Runnable step = readerSteps.get(r);
                String name = "reader " + r;
                pool.execute(() -> {
                    ready.countDown();
                    int reads = 0;
                    try {
                        start.await();
                        while ((writersRunning.get() > 0 || reads < MIN_READS) && reads < MAX_READS) {
                            step.run();
                            reads++;
                        }
                    } catch (Throwable t) {
                        failures.add(name + " failed after " + reads + " reads: " + t);
                    }
                });
            }
            assertThat(ready.await(TIMEOUT_SECONDS, SECONDS)).as("all threads started").isTrue();
            start.countDown();
            pool.shutdown();
            assertThat(pool.awaitTermination(TIMEOUT_SECONDS, SECONDS))
                    .as("concurrent writers and readers finished within %s seconds", TIMEOUT_SECONDS).isTrue();
        } finally {
            pool.shutdownNow();
        }
        return List.copyOf(failures);
    }
}
