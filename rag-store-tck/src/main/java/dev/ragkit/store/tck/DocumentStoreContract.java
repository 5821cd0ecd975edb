package dev.ragkit.store.tck;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;
import static org.junit.jupiter.api.Assumptions.assumeFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.ragkit.store.DocumentStore;
import dev.ragkit.store.PromotionLevel;
import dev.ragkit.store.Scope;
import dev.ragkit.store.SearchHit;
import dev.ragkit.store.SearchRequest;
import dev.ragkit.store.StoreCapabilities;
import dev.ragkit.store.StoreException;
import dev.ragkit.store.StoredChunk;
import dev.ragkit.store.StoredDocument;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Queue;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import java.util.function.ToDoubleFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The contract every {@link DocumentStore} must meet, as a JUnit 5 suite.
 *
 * <p>Extend it in a test class of the store's module and implement {@link #createStore()}; see the
 * {@linkplain dev.ragkit.store.tck package documentation} for an example. Every test gets a fresh, empty store
 * and closes it afterwards (closing twice must be harmless, so a test may close it itself).
 *
 * <p>The suite checks what the javadoc of {@link DocumentStore}, {@link Scope}, {@link SearchRequest},
 * {@link SearchHit} and {@link StoredChunk} promises: tenant isolation on every read path (also while another
 * tenant is being written), access tags, filters applied before the top-{@code k} cut, atomic replacing upserts,
 * deletes, look-ups and their order, search ranking and tie-breaking, similarity clamping, {@code k} bounds,
 * keyword and hybrid search (when {@linkplain StoreCapabilities#keywordSearch() declared}), rejection of bad
 * input without any change to stored data, and the closed state.
 *
 * <p>The data is deterministic (explicit vectors, seeded randomness); the concurrency tests use a bounded
 * number of iterations ({@link #concurrencyIterations()}) and real threads, and never sleep or measure time.
 * Tests ask for up to 10 results without further ado; tests that need more than a store's
 * {@link StoreCapabilities#maxK()} allows are skipped by assumption.
 *
 * <p>Subclasses may add their own tests and {@code @BeforeEach} methods; those run after this class's, so
 * {@link #createStore()} can use {@code @TempDir} fields (injected earlier) but not state prepared in the
 * subclass's own {@code @BeforeEach} methods.
 */
public abstract class DocumentStoreContract {

    /** The tenant most tests write to and read from. */
    protected static final String TENANT_A = "tenant-a";
    /** A second tenant, whose data must never show up in {@link #TENANT_A}'s reads. */
    protected static final String TENANT_B = "tenant-b";
    /** A tenant that never holds any document. */
    protected static final String TENANT_EMPTY = "tenant-c";

    private static final double EPSILON = 1e-5;
    private static final long TIMEOUT_SECONDS = 60;
    private static final int MIN_READS = 10;
    private static final int MAX_READS = 100_000;
    private static final int PROBE_K = 20;
    private static final String ISOLATION_QUERY = "walnut falcon copper";
    private static final Pattern LABEL = Pattern.compile("^\\[([^\\]]+)\\]");
    private static final Pattern TOKEN_SEPARATOR = Pattern.compile("[^\\p{L}\\p{N}]+");
    private static final Comparator<SearchHit> TIE_ORDER = Comparator
            .comparing((SearchHit hit) -> hit.chunk().documentId())
            .thenComparingInt(hit -> hit.chunk().index());

    private @Nullable DocumentStore store;

    /**
     * Creates the store under test.
     *
     * @return a new, empty store; the suite closes it after each test
     */
    protected abstract DocumentStore createStore();

    /**
     * The dimension of every vector the suite stores and queries with.
     *
     * @return at least 4; 8 unless overridden (e.g. by a store configured with a fixed dimension)
     */
    protected int dimension() {
        return 8;
    }

    /**
     * How many writes each writer thread of the concurrency tests performs.
     *
     * @return a positive number; 200 unless overridden
     */
    protected int concurrencyIterations() {
        return 200;
    }

    /** Opens a fresh store for the next test. */
    @BeforeEach
    protected final void openStore() {
        assertThat(dimension()).as("dimension() of the contract suite").isGreaterThanOrEqualTo(4);
        assertThat(concurrencyIterations()).as("concurrencyIterations()").isPositive();
        store = Objects.requireNonNull(createStore(), "createStore() returned null");
    }

    /** Closes the store of the test that just ran. */
    @AfterEach
    protected final void closeStore() {
        DocumentStore current = store;
        store = null;
        if (current != null) {
            current.close();
        }
    }

    // ------------------------------------------------------------------------------------------------------
    // Helpers for tests (also usable by subclasses that add their own)
    // ------------------------------------------------------------------------------------------------------

    /**
     * The store of the running test.
     *
     * @return the store created by {@link #createStore()} for this test
     */
    protected final DocumentStore store() {
        DocumentStore current = store;
        if (current == null) {
            throw new IllegalStateException("no store: createStore() has not run yet or the test has finished");
        }
        return current;
    }

    /**
     * Starts a document in {@code tenant} at {@code path}, titled after the path, with the id derived from both.
     *
     * @param tenant the tenant
     * @param path   the path
     * @return a builder to refine and build
     */
    protected final StoredDocument.Builder document(String tenant, String path) {
        return StoredDocument.builder().tenant(tenant).path(path).title("Title of " + path);
    }

    /**
     * A chunk of {@code document} with plausible line numbers, token count and section.
     *
     * @param document  the chunk's document
     * @param index     the chunk's index
     * @param text      its text
     * @param embedding its vector, or {@code null} (which upserts must reject)
     * @return the chunk
     */
    protected final StoredChunk chunk(StoredDocument document, int index, String text, float @Nullable [] embedding) {
        return new StoredChunk(document.id(), index, text, embedding, tokens(text).size(),
                1 + 10 * index, 6 + 10 * index, "Section " + (index + 1), null);
    }

    /**
     * One chunk per vector, with indexes 0…n−1 and texts {@code "[tenant|path] part i <body>"}.
     *
     * @param document   the chunks' document
     * @param body       text appended to every chunk (keywords for keyword search)
     * @param embeddings one vector per chunk
     * @return the chunks, in index order
     */
    protected final List<StoredChunk> chunksOf(StoredDocument document, String body, float[]... embeddings) {
        List<StoredChunk> chunks = new ArrayList<>();
        for (int i = 0; i < embeddings.length; i++) {
            chunks.add(chunk(document, i, labelledText(document, "part " + i + " " + body), embeddings[i]));
        }
        return chunks;
    }

    /**
     * Upserts {@code document} with {@link #chunksOf(StoredDocument, String, float[][]) chunksOf(document, body,
     * embeddings)}.
     *
     * @param document   the document
     * @param body       text appended to every chunk
     * @param embeddings one vector per chunk
     * @return {@code document}
     */
    protected final StoredDocument put(StoredDocument document, String body, float[]... embeddings) {
        store().upsert(document, chunksOf(document, body, embeddings));
        return document;
    }

    /**
     * The unit vector along an axis; {@code axis(0)} is the query most tests search with.
     *
     * @param axis the axis, taken modulo {@link #dimension()}
     * @return a new vector
     */
    protected final float[] axis(int axis) {
        float[] vector = new float[dimension()];
        vector[Math.floorMod(axis, dimension())] = 1f;
        return vector;
    }

    /**
     * A unit vector whose cosine with {@code axis(0)} is {@code cosine}, leaning towards axis 1.
     *
     * @param cosine the cosine with {@code axis(0)}, in [−1, 1]
     * @return a new vector
     */
    protected final float[] vectorAtCosine(double cosine) {
        return vectorAtCosine(cosine, 1);
    }

    /**
     * A unit vector whose cosine with {@code axis(0)} is {@code cosine}, leaning towards another axis, so that
     * vectors with the same similarity to the query can still differ from each other.
     *
     * @param cosine    the cosine with {@code axis(0)}, in [−1, 1]
     * @param otherAxis the axis carrying the rest of the vector; mapped into 1…dimension−1
     * @return a new vector
     */
    protected final float[] vectorAtCosine(double cosine, int otherAxis) {
        if (cosine < -1 || cosine > 1) {
            throw new IllegalArgumentException("cosine must be in [-1, 1], got " + cosine);
        }
        float[] vector = new float[dimension()];
        vector[0] = (float) cosine;
        vector[1 + Math.floorMod(otherAxis - 1, dimension() - 1)] = (float) Math.sqrt(1 - cosine * cosine);
        return vector;
    }

    /**
     * {@code count} vectors whose cosines with {@code axis(0)} are {@code first}, {@code first − step}, …
     *
     * @param first the highest cosine
     * @param step  the decrement
     * @param count how many
     * @return the vectors, leaning towards different axes
     */
    protected final float[][] descendingCosines(double first, double step, int count) {
        float[][] vectors = new float[count][];
        for (int i = 0; i < count; i++) {
            vectors[i] = vectorAtCosine(first - step * i, 1 + i);
        }
        return vectors;
    }

    /**
     * A random vector with Gaussian components, never all zeros.
     *
     * @param random a seeded source of randomness
     * @return a new vector
     */
    protected final float[] randomVector(Random random) {
        float[] vector = new float[dimension()];
        for (int i = 0; i < vector.length; i++) {
            vector[i] = (float) random.nextGaussian();
        }
        vector[random.nextInt(vector.length)] += 0.5f;
        return vector;
    }

    /**
     * Searches by vector.
     *
     * @param scope  who reads
     * @param vector the query vector
     * @param k      how many hits
     * @return the hits
     */
    protected final List<SearchHit> searchVector(Scope scope, float[] vector, int k) {
        return store().search(SearchRequest.builder(scope).vector(vector).k(k).build());
    }

    /**
     * Searches by text only.
     *
     * @param scope who reads
     * @param text  the query text
     * @param k     how many hits
     * @return the hits
     */
    protected final List<SearchHit> searchText(Scope scope, String text, int k) {
        return store().search(SearchRequest.builder(scope).text(text).k(k).build());
    }

    /**
     * The store's {@link StoreCapabilities#maxK()}.
     *
     * @return the largest {@code k} the store accepts
     */
    protected final int maxK() {
        return store().capabilities().maxK();
    }

    /**
     * Skips the running test unless the store accepts {@code k}.
     *
     * @param k the {@code k} the test needs
     * @return {@code k}
     */
    protected final int requireMaxK(int k) {
        int max = maxK();
        assumeTrue(max >= k, () -> "the test needs k = " + k + " but the store's maxK is " + max);
        return k;
    }

    /** Skips the running test unless the store declares keyword search. */
    protected final void assumeKeywordSearch() {
        assumeTrue(store().capabilities().keywordSearch(), "the store declares no keyword search");
    }

    private static String label(StoredDocument document) {
        return document.tenant() + "|" + document.path();
    }

    private static String labelledText(StoredDocument document, String body) {
        return "[" + label(document) + "] " + body;
    }

    private static String labelOf(StoredChunk chunk) {
        Matcher matcher = LABEL.matcher(chunk.text());
        return matcher.find() ? matcher.group(1) : "unlabelled chunk " + chunk.sourceId();
    }

    private static Set<String> labels(StoredDocument... documents) {
        return Arrays.stream(documents).map(DocumentStoreContract::label).collect(Collectors.toCollection(TreeSet::new));
    }

    private static List<String> tokens(String text) {
        return Arrays.stream(TOKEN_SEPARATOR.split(text.toLowerCase(Locale.ROOT)))
                .filter(token -> !token.isEmpty())
                .collect(Collectors.toList());
    }

    private static List<String> sourceIds(List<SearchHit> hits) {
        return hits.stream().map(SearchHit::sourceId).collect(Collectors.toList());
    }

    private static List<String> sourceIds(StoredDocument document, int... indexes) {
        return Arrays.stream(indexes).mapToObj(i -> document.id() + ":" + i).collect(Collectors.toList());
    }

    private static List<String> paths(List<StoredDocument> documents) {
        return documents.stream().map(StoredDocument::path).collect(Collectors.toList());
    }

    private static List<StoredChunk> withoutEmbeddings(List<StoredChunk> chunks) {
        return chunks.stream().map(StoredChunk::withoutEmbedding).collect(Collectors.toList());
    }

    /**
     * The textbook cosine similarity in double precision, unclamped: the reference that store results are
     * compared with.
     *
     * @param a a vector
     * @param b a vector of the same length
     * @return {@code a·b / (|a| |b|)}
     */
    public static double cosine(float[] a, float[] b) {
        double dot = 0;
        double normA = 0;
        double normB = 0;
        for (int i = 0; i < a.length; i++) {
            dot += (double) a[i] * b[i];
            normA += (double) a[i] * a[i];
            normB += (double) b[i] * b[i];
        }
        return dot / Math.sqrt(normA * normB);
    }

    private static void check(boolean condition, Supplier<String> message) {
        if (!condition) {
            throw new AssertionError(message.get());
        }
    }

    /** Asserts the order of {@link DocumentStore#search}: score descending, ties by document id then chunk index. */
    private static void assertRanked(List<SearchHit> hits, ToDoubleFunction<SearchHit> score, String scoreName) {
        for (int i = 1; i < hits.size(); i++) {
            SearchHit previous = hits.get(i - 1);
            SearchHit current = hits.get(i);
            double p = score.applyAsDouble(previous);
            double c = score.applyAsDouble(current);
            boolean ordered = p > c || (p == c && TIE_ORDER.compare(previous, current) < 0);
            assertThat(ordered)
                    .as("hit %d (%s, %s %s) may not follow hit %d (%s, %s %s): hits are ordered by %s descending,"
                                    + " ties by document id then chunk index, without duplicates",
                            i, current.sourceId(), scoreName, c, i - 1, previous.sourceId(), scoreName, p, scoreName)
                    .isTrue();
        }
    }

    private static void assertMessageMentions(Throwable thrown, String... anyOf) {
        String message = thrown.getMessage();
        assertThat(message).as("message of %s", thrown.getClass().getName()).isNotBlank();
        assertThat(message.toLowerCase(Locale.ROOT))
                .as("message of %s should name the problem", thrown.getClass().getName())
                .containsAnyOf(anyOf);
    }

    // --- fixtures -------------------------------------------------------------------------------------------

    /** Three documents of tenant A (untagged, hr, eng+ops) and three of tenant B, two sharing A's ids and paths. */
    private record IsolationCorpus(StoredDocument aPublic, StoredDocument aHr, StoredDocument aEng,
                                   StoredDocument bPublic, StoredDocument bHr, StoredDocument bSecret) {
        List<StoredDocument> all() {
            return List.of(aPublic, aHr, aEng, bPublic, bHr, bSecret);
        }

        List<StoredDocument> tenantB() {
            return List.of(bPublic, bHr, bSecret);
        }
    }

    private IsolationCorpus putIsolationCorpus() {
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
    private record Probe(List<String> ids, List<String> paths, float[] vector, String text, int k) {
    }

    private Probe probe(List<StoredDocument> documents) {
        return new Probe(documents.stream().map(StoredDocument::id).distinct().collect(Collectors.toList()),
                paths(documents), axis(0), ISOLATION_QUERY, requireMaxK(PROBE_K));
    }

    private void assumeReadPath(ReadPath path) {
        if (path.needsKeywordSearch) {
            assumeKeywordSearch();
        }
    }

    private List<ReadPath> supportedReadPaths() {
        boolean keyword = store().capabilities().keywordSearch();
        return Arrays.stream(ReadPath.values()).filter(p -> keyword || !p.needsKeywordSearch).collect(Collectors.toList());
    }

    /** The labels ({@code tenant|path}) of every document and chunk that {@code path} returns for {@code probe}. */
    private Set<String> labelsVia(ReadPath path, Scope scope, Probe probe) {
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

    private static void addHitLabels(Set<String> labels, List<SearchHit> hits) {
        for (SearchHit hit : hits) {
            labels.add(label(hit.document()));
            labels.add(labelOf(hit.chunk()));
        }
    }

    /** Five documents of tenant A for filter tests; the non-matching ones are the closest to the query. */
    private record FilterCorpus(StoredDocument faq, StoredDocument untyped, StoredDocument guide,
                                StoredDocument important, StoredDocument critical) {
    }

    private FilterCorpus putFilterCorpus() {
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
    private record KeywordCorpus(StoredDocument one, StoredDocument two, String zephyrSourceId) {
    }

    private static final List<String> KEYWORD_TEXTS_ONE = List.of(
            "install the package on linux servers",
            "install the agent on windows desktops",
            "install updates every month without delay",
            "install the driver before rebooting machines",
            "install fonts from the settings page",
            "install printers through the network panel",
            "weather report for sunday afternoon",
            "quarterly budget summary for finance");
    private static final List<String> KEYWORD_TEXTS_TWO = List.of(
            "zephyr calibration notes for laboratory equipment",
            "coffee machine cleaning schedule for kitchens");

    private KeywordCorpus putKeywordCorpus() {
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
    private record Snapshot(List<StoredDocument> documents, Map<String, List<StoredChunk>> chunks, List<SearchHit> hits) {
    }

    private Snapshot snapshot(String tenant) {
        Scope scope = Scope.unrestricted(tenant);
        List<StoredDocument> documents = store().documents(scope);
        Map<String, List<StoredChunk>> chunks = new LinkedHashMap<>();
        for (StoredDocument document : documents) {
            chunks.put(document.id(), store().chunks(scope, document.id()));
        }
        List<SearchHit> hits = searchVector(scope, axis(0), Math.min(maxK(), 100));
        return new Snapshot(documents, chunks, hits);
    }

    private Map<String, Snapshot> snapshotAll() {
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
    private List<String> race(List<Runnable> writers, List<Runnable> readerSteps) throws InterruptedException {
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

    // ------------------------------------------------------------------------------------------------------
    // The contract
    // ------------------------------------------------------------------------------------------------------

    /** {@link DocumentStore#capabilities()}. */
    @Nested
    public class Capabilities {

        @Test
        void capabilities_calledRepeatedly_returnsEqualValues() {
            StoreCapabilities first = store().capabilities();
            put(document(TENANT_A, "caps.md").build(), "caps", axis(0));

            assertThat(store().capabilities()).isEqualTo(first);
            assertThat(store().capabilities()).isEqualTo(first);
        }

        @Test
        void capabilities_always_declareMaxKOfAtLeastOne() {
            assertThat(store().capabilities()).isNotNull();
            assertThat(store().capabilities().maxK()).isGreaterThanOrEqualTo(1);
        }
    }

    /** No read path ever returns another tenant's data; the same id in two tenants names two documents. */
    @Nested
    public class TenantIsolation {

        @ParameterizedTest(name = "{0}")
        @EnumSource(ReadPath.class)
        void readPath_otherTenantHoldsSameIdsAndCloserVectors_returnsOnlyOwnTenantData(ReadPath path) {
            IsolationCorpus c = putIsolationCorpus();
            assumeReadPath(path);
            Probe probe = probe(c.all());

            assertThat(labelsVia(path, Scope.unrestricted(TENANT_A), probe))
                    .containsExactlyElementsOf(labels(c.aPublic(), c.aHr(), c.aEng()));
            assertThat(labelsVia(path, Scope.of(TENANT_A, "hr", "eng"), probe))
                    .containsExactlyElementsOf(labels(c.aPublic(), c.aHr(), c.aEng()));
            assertThat(labelsVia(path, Scope.unrestricted(TENANT_B), probe))
                    .containsExactlyElementsOf(labels(c.bPublic(), c.bHr(), c.bSecret()));
        }

        @ParameterizedTest(name = "{0}")
        @EnumSource(ReadPath.class)
        void readPath_tenantWithoutDocuments_returnsNothing(ReadPath path) {
            IsolationCorpus c = putIsolationCorpus();
            assumeReadPath(path);

            assertThat(labelsVia(path, Scope.unrestricted(TENANT_EMPTY), probe(c.all()))).isEmpty();
        }

        @Test
        void delete_idOfOtherTenantsDocument_returnsFalseAndDeletesNothing() {
            IsolationCorpus c = putIsolationCorpus();
            Map<String, Snapshot> before = snapshotAll();

            assertThat(store().delete(Scope.unrestricted(TENANT_A), c.bSecret().id())).isFalse();
            assertThat(store().delete(Scope.of(TENANT_A), c.bSecret().id())).isFalse();
            assertThat(store().delete(Scope.unrestricted(TENANT_EMPTY), c.aPublic().id())).isFalse();

            assertThat(snapshotAll()).isEqualTo(before);
        }

        @Test
        void delete_idSharedWithOtherTenant_deletesOnlyOwnTenantsDocument() {
            IsolationCorpus c = putIsolationCorpus();
            Snapshot tenantB = snapshot(TENANT_B);

            assertThat(store().delete(Scope.unrestricted(TENANT_A), c.aPublic().id())).isTrue();

            assertThat(store().document(Scope.unrestricted(TENANT_A), c.aPublic().id())).isEmpty();
            assertThat(store().chunks(Scope.unrestricted(TENANT_A), c.aPublic().id())).isEmpty();
            assertThat(snapshot(TENANT_B)).isEqualTo(tenantB);
            assertThat(store().document(Scope.of(TENANT_B), c.bPublic().id())).contains(c.bPublic());
        }

        @Test
        void upsert_sameIdInTwoTenants_storesTwoIndependentDocuments() {
            StoredDocument inA = document(TENANT_A, "shared/a.md").id("shared-id").title("Tenant A's").build();
            StoredDocument inB = document(TENANT_B, "shared/b.md").id("shared-id").title("Tenant B's").build();
            List<StoredChunk> chunksA = chunksOf(inA, "a", vectorAtCosine(0.9), vectorAtCosine(0.8));
            List<StoredChunk> chunksB = chunksOf(inB, "b", vectorAtCosine(0.7), vectorAtCosine(0.6), vectorAtCosine(0.5));
            store().upsert(inA, chunksA);
            store().upsert(inB, chunksB);

            assertThat(store().document(Scope.of(TENANT_A), "shared-id")).contains(inA);
            assertThat(store().document(Scope.of(TENANT_B), "shared-id")).contains(inB);
            assertThat(store().chunks(Scope.of(TENANT_A), "shared-id")).containsExactlyElementsOf(chunksA);
            assertThat(store().chunks(Scope.of(TENANT_B), "shared-id")).containsExactlyElementsOf(chunksB);
            assertThat(searchVector(Scope.of(TENANT_A), axis(0), 10)).extracting(SearchHit::document).containsOnly(inA);
            assertThat(searchVector(Scope.of(TENANT_B), axis(0), 10)).extracting(SearchHit::document).containsOnly(inB);
        }

        @Test
        void upsert_replacingIdSharedWithOtherTenant_leavesOtherTenantUnchanged() {
            IsolationCorpus c = putIsolationCorpus();
            Snapshot tenantB = snapshot(TENANT_B);
            StoredDocument replaced = c.aPublic().toBuilder().title("Replaced in A").build();

            put(replaced, "replaced", vectorAtCosine(0.1));

            assertThat(snapshot(TENANT_B)).isEqualTo(tenantB);
            assertThat(store().document(Scope.of(TENANT_A), replaced.id())).contains(replaced);
            assertThat(store().chunks(Scope.of(TENANT_A), replaced.id())).hasSize(1);
        }

        @Test
        void readPaths_concurrentWritesToOtherTenant_neverReturnOtherTenantData() throws InterruptedException {
            IsolationCorpus c = putIsolationCorpus();
            Probe probe = probe(c.all());
            List<ReadPath> readPaths = supportedReadPaths();
            Snapshot tenantA = snapshot(TENANT_A);
            Scope admin = Scope.unrestricted(TENANT_A);
            Scope user = Scope.of(TENANT_A);
            Set<String> adminExpects = labels(c.aPublic(), c.aHr(), c.aEng());
            Set<String> userExpects = labels(c.aPublic());
            List<StoredDocument> targets = c.tenantB();
            int iterations = concurrencyIterations();

            List<Runnable> writers = new ArrayList<>();
            for (int w = 0; w < 2; w++) {
                long seed = 1000 + w;
                writers.add(() -> {
                    Random random = new Random(seed);
                    for (int i = 0; i < iterations; i++) {
                        StoredDocument target = targets.get(random.nextInt(targets.size()));
                        if (random.nextInt(4) == 0) {
                            store().delete(Scope.unrestricted(TENANT_B), target.id());
                        } else {
                            float[][] vectors = descendingCosines(0.99 - 0.001 * random.nextInt(50), 0.001,
                                    1 + random.nextInt(4));
                            store().upsert(target, chunksOf(target, ISOLATION_QUERY + " v" + i, vectors));
                        }
                    }
                });
            }
            Runnable reader = () -> {
                for (ReadPath path : readPaths) {
                    Set<String> asAdmin = labelsVia(path, admin, probe);
                    check(asAdmin.equals(adminExpects), () -> path + " as " + admin + " returned " + asAdmin);
                    Set<String> asUser = labelsVia(path, user, probe);
                    check(asUser.equals(userExpects), () -> path + " as " + user + " returned " + asUser);
                }
            };

            List<String> failures = race(writers, List.of(reader, reader));

            assertThat(failures).as("failures in concurrent threads").isEmpty();
            assertThat(snapshot(TENANT_A)).isEqualTo(tenantA);
        }
    }

    /** Untagged documents are visible to the whole tenant; tagged ones only to scopes sharing a tag. */
    @Nested
    public class AccessTags {

        @ParameterizedTest(name = "{0}")
        @EnumSource(ReadPath.class)
        void readPath_scopeWithoutTags_seesOnlyUntaggedDocuments(ReadPath path) {
            IsolationCorpus c = putIsolationCorpus();
            assumeReadPath(path);
            Probe probe = probe(c.all());

            assertThat(labelsVia(path, Scope.of(TENANT_A), probe)).containsExactlyElementsOf(labels(c.aPublic()));
            assertThat(labelsVia(path, Scope.of(TENANT_B), probe))
                    .containsExactlyElementsOf(labels(c.bPublic(), c.bSecret()));
        }

        @ParameterizedTest(name = "{0}")
        @EnumSource(ReadPath.class)
        void readPath_scopeSharingOneTag_seesUntaggedAndThatTagsDocuments(ReadPath path) {
            IsolationCorpus c = putIsolationCorpus();
            assumeReadPath(path);
            Probe probe = probe(c.all());

            assertThat(labelsVia(path, Scope.of(TENANT_A, "hr"), probe))
                    .containsExactlyElementsOf(labels(c.aPublic(), c.aHr()));
            assertThat(labelsVia(path, Scope.of(TENANT_A, "ops"), probe))
                    .containsExactlyElementsOf(labels(c.aPublic(), c.aEng()));
            assertThat(labelsVia(path, Scope.of(TENANT_A, "finance"), probe))
                    .containsExactlyElementsOf(labels(c.aPublic()));
        }

        @ParameterizedTest(name = "{0}")
        @EnumSource(ReadPath.class)
        void readPath_scopeWithSeveralTags_seesDocumentsSharingAnyOfThem(ReadPath path) {
            IsolationCorpus c = putIsolationCorpus();
            assumeReadPath(path);
            Probe probe = probe(c.all());

            assertThat(labelsVia(path, Scope.of(TENANT_A, "hr", "eng"), probe))
                    .containsExactlyElementsOf(labels(c.aPublic(), c.aHr(), c.aEng()));
            assertThat(labelsVia(path, Scope.of(TENANT_A, "eng", "finance"), probe))
                    .containsExactlyElementsOf(labels(c.aPublic(), c.aEng()));
        }

        @ParameterizedTest(name = "{0}")
        @EnumSource(ReadPath.class)
        void readPath_unrestrictedScope_seesEveryDocumentOfItsTenant(ReadPath path) {
            IsolationCorpus c = putIsolationCorpus();
            assumeReadPath(path);

            assertThat(labelsVia(path, Scope.unrestricted(TENANT_A), probe(c.all())))
                    .containsExactlyElementsOf(labels(c.aPublic(), c.aHr(), c.aEng()));
        }
    }

    /** Doc-type and promotion filters apply before the top-k cut. */
    @Nested
    public class Filters {

        @Test
        void search_docTypeFilterWithManyCloserNonMatchingChunks_returnsExactlyKMatching() {
            FilterCorpus c = putFilterCorpus();

            List<SearchHit> hits = store().search(SearchRequest.builder(Scope.of(TENANT_A))
                    .vector(axis(0)).k(5).docTypes("guide").build());

            assertThat(sourceIds(hits)).containsExactlyElementsOf(sourceIds(c.guide(), 0, 1, 2, 3, 4));
        }

        @Test
        void search_docTypeFilterAndLargeK_returnsEveryMatchingChunk() {
            FilterCorpus c = putFilterCorpus();

            List<SearchHit> hits = store().search(SearchRequest.builder(Scope.of(TENANT_A))
                    .vector(axis(0)).k(requireMaxK(30)).docTypes("guide").build());

            assertThat(hits).hasSize(12).allSatisfy(hit -> assertThat(hit.document().docType()).isEqualTo("guide"));
            assertThat(hits).extracting(SearchHit::document).containsOnly(c.guide(), c.critical());
        }

        @Test
        void search_minPromotionWithManyCloserStandardChunks_returnsExactlyKQualifying() {
            FilterCorpus c = putFilterCorpus();

            List<SearchHit> hits = store().search(SearchRequest.builder(Scope.of(TENANT_A))
                    .vector(axis(0)).k(6).minPromotion(PromotionLevel.IMPORTANT).build());

            List<String> expected = new ArrayList<>(sourceIds(c.important(), 0, 1, 2, 3));
            expected.addAll(sourceIds(c.critical(), 0, 1));
            assertThat(sourceIds(hits)).containsExactlyElementsOf(expected);
        }

        @Test
        void search_minPromotionCritical_returnsOnlyCriticalChunks() {
            FilterCorpus c = putFilterCorpus();

            List<SearchHit> hits = store().search(SearchRequest.builder(Scope.of(TENANT_A))
                    .vector(axis(0)).k(3).minPromotion(PromotionLevel.CRITICAL).build());

            assertThat(sourceIds(hits)).containsExactlyElementsOf(sourceIds(c.critical(), 0, 1, 2));
        }

        @Test
        void search_docTypeAndMinPromotion_appliesBoth() {
            FilterCorpus c = putFilterCorpus();

            List<SearchHit> hits = store().search(SearchRequest.builder(Scope.of(TENANT_A))
                    .vector(axis(0)).k(2).docTypes("guide").minPromotion(PromotionLevel.IMPORTANT).build());

            assertThat(sourceIds(hits)).containsExactlyElementsOf(sourceIds(c.critical(), 0, 1));
        }

        @Test
        void search_docTypeFilter_neverMatchesDocumentWithoutType() {
            FilterCorpus c = putFilterCorpus();
            int k = requireMaxK(40);

            List<SearchHit> filtered = store().search(SearchRequest.builder(Scope.of(TENANT_A))
                    .vector(axis(0)).k(k).docTypes("faq", "guide").build());
            List<SearchHit> unfiltered = searchVector(Scope.of(TENANT_A), axis(0), k);

            assertThat(filtered).hasSize(28).extracting(SearchHit::document).doesNotContain(c.untyped());
            assertThat(unfiltered).hasSize(32).extracting(SearchHit::document).contains(c.untyped());
        }

        @Test
        void searchText_docTypeFilterWithManyBetterNonMatchingChunks_returnsExactlyKMatching() {
            assumeKeywordSearch();
            StoredDocument faq = document(TENANT_A, "text/faq.md").docType("faq").build();
            StoredDocument guide = document(TENANT_A, "text/guide.md").docType("guide").build();
            StoredDocument filler = document(TENANT_A, "text/filler.md").docType("guide").build();
            put(faq, "zephyr zephyr zephyr", descendingCosines(0.9, 0.01, 10));
            put(guide, "zephyr among several other longer words here", descendingCosines(0.5, 0.01, 4));
            put(filler, "nothing relevant in this text", descendingCosines(0.3, 0.01, 20));

            List<SearchHit> hits = store().search(SearchRequest.builder(Scope.of(TENANT_A))
                    .text("zephyr").k(3).docTypes("guide").build());

            assertThat(hits).hasSize(3).allSatisfy(hit -> {
                assertThat(hit.document()).isEqualTo(guide);
                assertThat(hit.keywordScore()).isPositive();
            });
        }

        @Test
        void searchText_minPromotionWithManyBetterStandardChunks_returnsExactlyKQualifying() {
            assumeKeywordSearch();
            StoredDocument standard = document(TENANT_A, "text/standard.md").build();
            StoredDocument critical = document(TENANT_A, "text/critical.md")
                    .promotionLevel(PromotionLevel.CRITICAL).build();
            StoredDocument filler = document(TENANT_A, "text/filler.md").build();
            put(standard, "zephyr zephyr zephyr", descendingCosines(0.9, 0.01, 10));
            put(critical, "zephyr among several other longer words here", descendingCosines(0.5, 0.01, 4));
            put(filler, "nothing relevant in this text", descendingCosines(0.3, 0.01, 20));

            List<SearchHit> hits = store().search(SearchRequest.builder(Scope.of(TENANT_A))
                    .text("zephyr").k(2).minPromotion(PromotionLevel.CRITICAL).build());

            assertThat(hits).hasSize(2).extracting(SearchHit::document).containsOnly(critical);
        }
    }

    /** {@link DocumentStore#upsert} stores and replaces whole documents. */
    @Nested
    public class Upsert {

        @Test
        void upsert_documentWithEveryField_readsBackEqualEverywhere() {
            Map<String, String> metadata = new LinkedHashMap<>();
            metadata.put("author", "Ada");
            metadata.put("status", "draft");
            StoredDocument doc = document(TENANT_A, "full/doc.md").title("A full document").docType("guide")
                    .promotionLevel(PromotionLevel.IMPORTANT).date(LocalDate.of(2024, 5, 17))
                    .accessTags("hr", "eng").ownerTag("docs-team").links(List.of("full/other.md", "full/third.md"))
                    .metadata(metadata).charCount(1234).build();
            StoredChunk chunk = new StoredChunk(doc.id(), 0, "Intro text\nsecond line", vectorAtCosine(0.7),
                    12, 3, 9, "Intro > Scope", 2);
            Scope scope = Scope.of(TENANT_A, "eng");

            store().upsert(doc, List.of(chunk));

            assertThat(store().document(scope, doc.id())).contains(doc);
            assertThat(store().findByPaths(scope, List.of(doc.path()))).containsExactly(doc);
            assertThat(store().findByPromotion(scope, PromotionLevel.IMPORTANT, Set.of("guide"))).containsExactly(doc);
            assertThat(store().documents(scope)).containsExactly(doc);
            assertThat(store().chunks(scope, doc.id())).containsExactly(chunk);
            assertThat(searchVector(scope, axis(0), 5)).singleElement().satisfies(hit -> {
                assertThat(hit.document()).isEqualTo(doc);
                assertThat(hit.chunk()).isEqualTo(chunk.withoutEmbedding());
            });
        }

        @Test
        void upsert_replaceWithFewerChunks_removesOldExtraChunksFromChunks() {
            StoredDocument doc = put(document(TENANT_A, "replace.md").build(), "old", descendingCosines(0.9, 0.1, 5));
            List<StoredChunk> newer = chunksOf(doc, "new", vectorAtCosine(0.3), vectorAtCosine(0.2));

            store().upsert(doc, newer);

            assertThat(store().chunks(Scope.of(TENANT_A), doc.id())).containsExactlyElementsOf(newer);
        }

        @Test
        void upsert_replaceWithFewerChunks_removesOldExtraChunksFromSearch() {
            StoredDocument doc = put(document(TENANT_A, "replace.md").build(), "old", descendingCosines(0.9, 0.1, 5));
            List<StoredChunk> newer = chunksOf(doc, "new", vectorAtCosine(0.3), vectorAtCosine(0.2));

            store().upsert(doc, newer);

            List<SearchHit> hits = searchVector(Scope.of(TENANT_A), axis(0), 10);
            assertThat(hits).extracting(SearchHit::chunk).containsExactlyElementsOf(withoutEmbeddings(newer));
        }

        @Test
        void upsert_replaceWithNewAccessTags_appliesNewVisibility() {
            StoredDocument doc = put(document(TENANT_A, "tags.md").build(), "tags", vectorAtCosine(0.9));
            StoredDocument tagged = doc.toBuilder().accessTags("hr").build();

            put(tagged, "tags", vectorAtCosine(0.9));

            assertThat(store().document(Scope.of(TENANT_A), doc.id())).isEmpty();
            assertThat(searchVector(Scope.of(TENANT_A), axis(0), 5)).isEmpty();
            assertThat(store().document(Scope.of(TENANT_A, "hr"), doc.id())).contains(tagged);
            assertThat(searchVector(Scope.of(TENANT_A, "hr"), axis(0), 5)).hasSize(1);
        }

        @Test
        void upsert_replaceWithNewPath_findsDocumentOnlyAtNewPath() {
            StoredDocument doc = put(document(TENANT_A, "old/path.md").id("moving").build(), "x", vectorAtCosine(0.9));
            StoredDocument moved = doc.toBuilder().path("new/path.md").build();

            put(moved, "x", vectorAtCosine(0.9));

            assertThat(store().findByPaths(Scope.of(TENANT_A), List.of("old/path.md"))).isEmpty();
            assertThat(store().findByPaths(Scope.of(TENANT_A), List.of("new/path.md"))).containsExactly(moved);
            assertThat(store().documents(Scope.of(TENANT_A))).containsExactly(moved);
        }

        @Test
        void upsert_sameVersionTwice_keepsOneCopyOfEachChunk() {
            StoredDocument doc = document(TENANT_A, "twice.md").build();
            List<StoredChunk> chunks = chunksOf(doc, "twice", vectorAtCosine(0.9), vectorAtCosine(0.8));

            store().upsert(doc, chunks);
            store().upsert(doc, chunks);

            assertThat(store().chunks(Scope.of(TENANT_A), doc.id())).containsExactlyElementsOf(chunks);
            assertThat(sourceIds(searchVector(Scope.of(TENANT_A), axis(0), 10)))
                    .containsExactlyElementsOf(sourceIds(doc, 0, 1));
            assertThat(store().documents(Scope.of(TENANT_A))).containsExactly(doc);
        }

        @Test
        void upsert_emptyChunkList_documentFoundButNeverSearched() {
            StoredDocument other = put(document(TENANT_A, "other.md").build(), "other", vectorAtCosine(0.5));
            StoredDocument empty = document(TENANT_A, "empty.md").build();

            store().upsert(empty, List.of());

            assertThat(store().document(Scope.of(TENANT_A), empty.id())).contains(empty);
            assertThat(store().findByPaths(Scope.of(TENANT_A), List.of("empty.md"))).containsExactly(empty);
            assertThat(store().documents(Scope.of(TENANT_A))).containsExactly(empty, other);
            assertThat(store().chunks(Scope.of(TENANT_A), empty.id())).isEmpty();
            assertThat(searchVector(Scope.of(TENANT_A), axis(0), 10)).extracting(SearchHit::document)
                    .containsOnly(other);
        }

        @Test
        void upsert_emptyChunkListOverExistingChunks_removesThemFromSearch() {
            StoredDocument doc = put(document(TENANT_A, "emptied.md").build(), "x", descendingCosines(0.9, 0.1, 3));

            store().upsert(doc, List.of());

            assertThat(store().chunks(Scope.of(TENANT_A), doc.id())).isEmpty();
            assertThat(searchVector(Scope.of(TENANT_A), axis(0), 10)).isEmpty();
            assertThat(store().document(Scope.of(TENANT_A), doc.id())).contains(doc);
        }

        @Test
        void upsert_afterDelete_storesDocumentAgain() {
            StoredDocument doc = put(document(TENANT_A, "again.md").build(), "x", vectorAtCosine(0.9));
            assertThat(store().delete(Scope.of(TENANT_A), doc.id())).isTrue();

            put(doc, "y", vectorAtCosine(0.8), vectorAtCosine(0.7));

            assertThat(store().document(Scope.of(TENANT_A), doc.id())).contains(doc);
            assertThat(store().chunks(Scope.of(TENANT_A), doc.id())).hasSize(2);
        }

        @Test
        void upsert_mixedDimensionsInFirstUpsert_throwsAndDoesNotFixDimension() {
            StoredDocument doc = document(TENANT_A, "mixed.md").build();
            float[] longer = new float[dimension() + 1];
            Arrays.fill(longer, 1f);
            List<StoredChunk> mixed = List.of(chunk(doc, 0, "first", longer), chunk(doc, 1, "second", axis(0)));

            assertThatThrownBy(() -> store().upsert(doc, mixed))
                    .isInstanceOf(IllegalArgumentException.class)
                    .satisfies(e -> assertMessageMentions(e, "dimension"));

            assertThat(store().documents(Scope.unrestricted(TENANT_A))).isEmpty();
            put(doc, "valid", axis(0));
            assertThat(store().chunks(Scope.of(TENANT_A), doc.id())).hasSize(1);
        }

        @Test
        void upsert_concurrentReplacementsOfOneDocument_readersSeeOneWholeVersion() throws InterruptedException {
            int k = requireMaxK(10);
            StoredDocument doc = document(TENANT_A, "atomic/doc.md").build();
            put(document(TENANT_A, "atomic/neighbour.md").build(), "neighbour", vectorAtCosine(0.1, 2),
                    vectorAtCosine(0.05, 3));
            List<StoredChunk> alpha = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                alpha.add(chunk(doc, i, "version alpha part " + i, vectorAtCosine(0.9 - 0.1 * i, 1 + i)));
            }
            List<StoredChunk> bravo = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                bravo.add(chunk(doc, i, "version bravo part " + i, vectorAtCosine(0.85 - 0.1 * i, 2 + i)));
            }
            List<StoredChunk> alphaHits = withoutEmbeddings(alpha);
            List<StoredChunk> bravoHits = withoutEmbeddings(bravo);
            store().upsert(doc, alpha);
            Scope scope = Scope.of(TENANT_A);
            int iterations = concurrencyIterations();

            Runnable writer = () -> {
                for (int i = 0; i < iterations; i++) {
                    store().upsert(doc, i % 2 == 0 ? bravo : alpha);
                }
            };
            List<Runnable> readers = new ArrayList<>();
            readers.add(() -> {
                List<StoredChunk> seen = store().chunks(scope, doc.id());
                check(seen.equals(alpha) || seen.equals(bravo), () -> "chunks() returned a mix: " + seen);
            });
            readers.add(() -> {
                List<StoredChunk> seen = searchVector(scope, axis(0), k).stream()
                        .filter(hit -> hit.document().id().equals(doc.id())).map(SearchHit::chunk)
                        .sorted(Comparator.comparingInt(StoredChunk::index)).collect(Collectors.toList());
                check(seen.equals(alphaHits) || seen.equals(bravoHits), () -> "search() returned a mix: " + seen);
            });
            readers.add(() -> check(store().document(scope, doc.id()).isPresent(),
                    () -> "document() lost the document while it was being replaced"));
            if (store().capabilities().keywordSearch()) {
                readers.add(() -> {
                    List<StoredChunk> seen = searchText(scope, "alpha bravo", k).stream()
                            .filter(hit -> hit.document().id().equals(doc.id())).map(SearchHit::chunk)
                            .sorted(Comparator.comparingInt(StoredChunk::index)).collect(Collectors.toList());
                    check(seen.equals(alphaHits) || seen.equals(bravoHits),
                            () -> "text search returned a mix: " + seen);
                });
            }

            List<String> failures = race(List.of(writer), readers);

            assertThat(failures).as("failures in concurrent threads").isEmpty();
            assertThat(store().chunks(scope, doc.id())).containsExactlyElementsOf(iterations % 2 == 0 ? alpha : bravo);
        }

        @Test
        void upsert_concurrentWritersOfDifferentDocuments_storesEveryDocument() throws InterruptedException {
            int writers = 4;
            int perWriter = 25;
            List<Runnable> tasks = new ArrayList<>();
            for (int w = 0; w < writers; w++) {
                int writer = w;
                tasks.add(() -> {
                    for (int i = 0; i < perWriter; i++) {
                        StoredDocument doc = document(TENANT_A, String.format(Locale.ROOT, "w%d/doc%02d.md", writer, i)).build();
                        put(doc, "parallel", vectorAtCosine(0.9, i), vectorAtCosine(0.8, i + 1));
                    }
                });
            }

            List<String> failures = race(tasks, List.of());

            assertThat(failures).as("failures in concurrent threads").isEmpty();
            List<StoredDocument> stored = store().documents(Scope.of(TENANT_A));
            assertThat(stored).hasSize(writers * perWriter);
            assertThat(stored).allSatisfy(doc -> assertThat(store().chunks(Scope.of(TENANT_A), doc.id())).hasSize(2));
        }
    }

    /** {@link DocumentStore#delete}. */
    @Nested
    public class Delete {

        @Test
        void delete_visibleDocument_returnsTrue() {
            StoredDocument doc = put(document(TENANT_A, "gone.md").build(), "x", vectorAtCosine(0.9));

            assertThat(store().delete(Scope.of(TENANT_A), doc.id())).isTrue();
        }

        @ParameterizedTest(name = "{0}")
        @EnumSource(ReadPath.class)
        void delete_existingDocument_removesItFromReadPath(ReadPath path) {
            IsolationCorpus c = putIsolationCorpus();
            assumeReadPath(path);

            store().delete(Scope.unrestricted(TENANT_A), c.aHr().id());

            assertThat(labelsVia(path, Scope.unrestricted(TENANT_A), probe(c.all())))
                    .containsExactlyElementsOf(labels(c.aPublic(), c.aEng()));
        }

        @Test
        void delete_unknownId_returnsFalse() {
            put(document(TENANT_A, "kept.md").build(), "x", vectorAtCosine(0.9));
            Map<String, Snapshot> before = snapshotAll();

            assertThat(store().delete(Scope.unrestricted(TENANT_A), "no-such-document")).isFalse();
            assertThat(snapshotAll()).isEqualTo(before);
        }

        @Test
        void delete_sameDocumentTwice_secondCallReturnsFalse() {
            StoredDocument doc = put(document(TENANT_A, "twice.md").build(), "x", vectorAtCosine(0.9));

            assertThat(store().delete(Scope.of(TENANT_A), doc.id())).isTrue();
            assertThat(store().delete(Scope.of(TENANT_A), doc.id())).isFalse();
        }

        @Test
        void delete_taggedDocumentFromScopeWithoutItsTag_returnsFalseAndKeepsIt() {
            StoredDocument doc = put(document(TENANT_A, "hr.md").accessTags("hr").build(), "x", vectorAtCosine(0.9));
            Map<String, Snapshot> before = snapshotAll();

            assertThat(store().delete(Scope.of(TENANT_A), doc.id())).isFalse();
            assertThat(store().delete(Scope.of(TENANT_A, "eng"), doc.id())).isFalse();

            assertThat(snapshotAll()).isEqualTo(before);
            assertThat(store().document(Scope.of(TENANT_A, "hr"), doc.id())).contains(doc);
        }

        @Test
        void delete_taggedDocumentFromScopeSharingATag_returnsTrue() {
            StoredDocument doc = put(document(TENANT_A, "hr.md").accessTags("hr", "eng").build(), "x",
                    vectorAtCosine(0.9));

            assertThat(store().delete(Scope.of(TENANT_A, "eng"), doc.id())).isTrue();
            assertThat(store().document(Scope.unrestricted(TENANT_A), doc.id())).isEmpty();
        }

        @Test
        void delete_oneDocument_leavesOtherDocumentsIntact() {
            StoredDocument gone = put(document(TENANT_A, "gone.md").build(), "x", vectorAtCosine(0.9));
            StoredDocument kept = document(TENANT_A, "kept.md").build();
            List<StoredChunk> keptChunks = chunksOf(kept, "y", vectorAtCosine(0.8), vectorAtCosine(0.7));
            store().upsert(kept, keptChunks);

            store().delete(Scope.of(TENANT_A), gone.id());

            assertThat(store().documents(Scope.of(TENANT_A))).containsExactly(kept);
            assertThat(store().chunks(Scope.of(TENANT_A), kept.id())).containsExactlyElementsOf(keptChunks);
            assertThat(searchVector(Scope.of(TENANT_A), axis(0), 10)).extracting(SearchHit::chunk)
                    .containsExactlyElementsOf(withoutEmbeddings(keptChunks));
        }
    }

    /** {@link DocumentStore#document}, {@link DocumentStore#findByPaths}, {@link DocumentStore#findByPromotion} and
     * {@link DocumentStore#documents}. */
    @Nested
    public class Lookups {

        private List<StoredDocument> putShuffledDocuments() {
            StoredDocument charlie = document(TENANT_A, "charlie.md").docType("faq").build();
            StoredDocument alpha = document(TENANT_A, "alpha.md").docType("guide")
                    .promotionLevel(PromotionLevel.CRITICAL).build();
            StoredDocument delta = document(TENANT_A, "delta/two.md").promotionLevel(PromotionLevel.IMPORTANT).build();
            StoredDocument bravo = document(TENANT_A, "bravo/one.md").docType("guide")
                    .promotionLevel(PromotionLevel.IMPORTANT).build();
            StoredDocument echo = document(TENANT_A, "echo.md").docType("guide").accessTags("hr")
                    .promotionLevel(PromotionLevel.CRITICAL).build();
            for (StoredDocument doc : List.of(charlie, echo, alpha, delta, bravo)) {
                put(doc, "x", vectorAtCosine(0.5));
            }
            return List.of(alpha, bravo, charlie, delta, echo);
        }

        @Test
        void document_visibleId_returnsEqualDocument() {
            List<StoredDocument> docs = putShuffledDocuments();

            for (StoredDocument doc : docs.subList(0, 4)) {
                assertThat(store().document(Scope.of(TENANT_A), doc.id())).contains(doc);
            }
        }

        @Test
        void document_unknownId_returnsEmpty() {
            putShuffledDocuments();

            assertThat(store().document(Scope.unrestricted(TENANT_A), "no-such-document")).isEmpty();
        }

        @Test
        void findByPaths_pathsInAnyOrder_returnsDocumentsOrderedByPath() {
            List<StoredDocument> docs = putShuffledDocuments();

            List<StoredDocument> found = store().findByPaths(Scope.unrestricted(TENANT_A),
                    List.of("echo.md", "bravo/one.md", "alpha.md", "delta/two.md", "charlie.md"));

            assertThat(found).containsExactlyElementsOf(docs);
        }

        @Test
        void findByPaths_missingPath_leavesItOut() {
            List<StoredDocument> docs = putShuffledDocuments();

            List<StoredDocument> found = store().findByPaths(Scope.unrestricted(TENANT_A),
                    List.of("charlie.md", "missing.md", "alpha.md"));

            assertThat(found).containsExactly(docs.get(0), docs.get(2));
        }

        @Test
        void findByPaths_invisiblePath_leavesItOut() {
            List<StoredDocument> docs = putShuffledDocuments();

            List<StoredDocument> found = store().findByPaths(Scope.of(TENANT_A),
                    List.of("echo.md", "alpha.md"));

            assertThat(found).containsExactly(docs.get(0));
        }

        @Test
        void findByPaths_emptyCollection_returnsEmptyList() {
            putShuffledDocuments();

            assertThat(store().findByPaths(Scope.unrestricted(TENANT_A), List.of())).isEmpty();
        }

        @Test
        void findByPromotion_important_returnsImportantAndCriticalOrderedByPath() {
            List<StoredDocument> docs = putShuffledDocuments();

            List<StoredDocument> found = store().findByPromotion(Scope.unrestricted(TENANT_A),
                    PromotionLevel.IMPORTANT, Set.of());

            assertThat(found).containsExactly(docs.get(0), docs.get(1), docs.get(3), docs.get(4));
        }

        @Test
        void findByPromotion_critical_returnsOnlyCriticalOrderedByPath() {
            List<StoredDocument> docs = putShuffledDocuments();

            assertThat(store().findByPromotion(Scope.unrestricted(TENANT_A), PromotionLevel.CRITICAL, Set.of()))
                    .containsExactly(docs.get(0), docs.get(4));
            assertThat(store().findByPromotion(Scope.of(TENANT_A), PromotionLevel.CRITICAL, Set.of()))
                    .containsExactly(docs.get(0));
        }

        @Test
        void findByPromotion_standard_returnsEveryVisibleDocumentOrderedByPath() {
            List<StoredDocument> docs = putShuffledDocuments();

            assertThat(store().findByPromotion(Scope.of(TENANT_A), PromotionLevel.STANDARD, Set.of()))
                    .containsExactlyElementsOf(docs.subList(0, 4));
        }

        @Test
        void findByPromotion_docTypes_keepsListedTypesOnly() {
            List<StoredDocument> docs = putShuffledDocuments();

            assertThat(store().findByPromotion(Scope.unrestricted(TENANT_A), PromotionLevel.IMPORTANT, Set.of("guide")))
                    .containsExactly(docs.get(0), docs.get(1), docs.get(4));
            assertThat(store().findByPromotion(Scope.unrestricted(TENANT_A), PromotionLevel.STANDARD, Set.of("faq")))
                    .containsExactly(docs.get(2));
        }

        @Test
        void findByPromotion_docTypes_neverMatchesDocumentWithoutType() {
            List<StoredDocument> docs = putShuffledDocuments();

            List<StoredDocument> found = store().findByPromotion(Scope.unrestricted(TENANT_A),
                    PromotionLevel.STANDARD, Set.of("guide", "faq"));

            assertThat(found).containsExactly(docs.get(0), docs.get(1), docs.get(2), docs.get(4));
        }

        @Test
        void documents_insertedInShuffledOrder_returnsThemOrderedByPath() {
            List<StoredDocument> docs = putShuffledDocuments();

            assertThat(store().documents(Scope.unrestricted(TENANT_A))).containsExactlyElementsOf(docs);
            assertThat(store().documents(Scope.of(TENANT_A))).containsExactlyElementsOf(docs.subList(0, 4));
        }

        @Test
        void documents_emptyStore_returnsEmptyList() {
            assertThat(store().documents(Scope.unrestricted(TENANT_A))).isEmpty();
        }
    }

    /** {@link DocumentStore#chunks}. */
    @Nested
    public class Chunks {

        @Test
        void chunksWithoutEmbeddings_afterUpsert_equalChunksWithoutTheirVectors() {
            StoredDocument doc = document(TENANT_A, "light.md").build();
            Random random = new Random(13);
            List<StoredChunk> chunks = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                chunks.add(new StoredChunk(doc.id(), i, "light chunk " + i, randomVector(random), 2, i + 1, i + 1,
                        "Section " + i, null));
            }
            store().upsert(doc, chunks);

            List<StoredChunk> light = store().chunksWithoutEmbeddings(Scope.of(TENANT_A), doc.id());

            assertThat(light).containsExactlyElementsOf(withoutEmbeddings(chunks));
            assertThat(light).allSatisfy(c -> assertThat(c.embedding()).isNull());
            assertThat(store().chunksWithoutEmbeddings(Scope.of(TENANT_B), doc.id())).isEmpty();
            assertThat(store().chunksWithoutEmbeddings(Scope.of(TENANT_A), "no-such-id")).isEmpty();
        }

        @Test
        void chunks_afterUpsert_returnsEqualChunksInIndexOrder() {
            StoredDocument doc = document(TENANT_A, "chunks.md").build();
            Random random = new Random(7);
            List<StoredChunk> chunks = new ArrayList<>();
            for (int i = 0; i < 6; i++) {
                chunks.add(new StoredChunk(doc.id(), i, "chunk number " + i, randomVector(random), 3 + i,
                        1 + 4 * i, 3 + 4 * i, i % 2 == 0 ? "Heading " + i : null, i < 3 ? null : i));
            }
            store().upsert(doc, chunks);

            List<StoredChunk> read = store().chunks(Scope.of(TENANT_A), doc.id());

            assertThat(read).containsExactlyElementsOf(chunks);
            assertThat(read).extracting(StoredChunk::index).containsExactly(0, 1, 2, 3, 4, 5);
        }

        @Test
        void chunks_afterUpsert_carryExactlyTheUpsertedEmbeddings() {
            StoredDocument doc = document(TENANT_A, "vectors.md").build();
            Random random = new Random(11);
            float[][] vectors = new float[4][];
            for (int i = 0; i < vectors.length; i++) {
                vectors[i] = randomVector(random);
            }
            store().upsert(doc, chunksOf(doc, "x", vectors));

            List<StoredChunk> read = store().chunks(Scope.of(TENANT_A), doc.id());

            assertThat(read).hasSize(vectors.length);
            for (int i = 0; i < vectors.length; i++) {
                assertThat(read.get(i).embedding()).as("embedding of chunk %d", i).containsExactly(vectors[i]);
            }
        }

        @Test
        void chunks_unknownDocument_returnsEmptyList() {
            put(document(TENANT_A, "known.md").build(), "x", vectorAtCosine(0.5));

            assertThat(store().chunks(Scope.unrestricted(TENANT_A), "no-such-document")).isEmpty();
        }
    }

    /** What a {@link SearchHit} carries. */
    @Nested
    public class SearchHits {

        @Test
        void search_hits_carryChunksWithoutEmbedding() {
            put(document(TENANT_A, "hits.md").build(), "x", descendingCosines(0.9, 0.1, 3));

            List<SearchHit> hits = searchVector(Scope.of(TENANT_A), axis(0), 10);

            assertThat(hits).hasSize(3).allSatisfy(hit -> {
                assertThat(hit.chunk().embedding()).isNull();
                assertThat(hit.chunk().dimension()).isZero();
            });
        }

        @Test
        void search_hits_carryTheirChunksDocument() {
            StoredDocument first = put(document(TENANT_A, "first.md").docType("guide").build(), "x",
                    vectorAtCosine(0.9), vectorAtCosine(0.7));
            StoredDocument second = put(document(TENANT_A, "second.md").ownerTag("team").build(), "y",
                    vectorAtCosine(0.8));

            List<SearchHit> hits = searchVector(Scope.of(TENANT_A), axis(0), 10);

            assertThat(hits).extracting(SearchHit::document).containsExactly(first, second, first);
            assertThat(hits).allSatisfy(hit -> assertThat(hit.chunk().documentId()).isEqualTo(hit.document().id()));
        }

        @Test
        void search_hitChunk_equalsStoredChunkApartFromEmbedding() {
            StoredDocument doc = document(TENANT_A, "fields.md").build();
            StoredChunk chunk = new StoredChunk(doc.id(), 0, "exact text\nwith two lines", vectorAtCosine(0.9),
                    7, 4, 5, "Install > Linux", 3);
            store().upsert(doc, List.of(chunk));

            assertThat(searchVector(Scope.of(TENANT_A), axis(0), 1)).singleElement()
                    .extracting(SearchHit::chunk).isEqualTo(chunk.withoutEmbedding());
        }
    }

    /** Ranking, tie-breaking, determinism and the similarity scale. */
    @Nested
    public class Ordering {

        @Test
        void search_distinctSimilarities_orderedBySimilarityDescending() {
            List<StoredDocument> docs = new ArrayList<>();
            Map<String, Double> expected = new LinkedHashMap<>();
            List<Integer> slots = IntStream.range(0, 30).boxed().collect(Collectors.toList());
            Collections.shuffle(slots, new Random(42));
            for (int d = 0; d < 3; d++) {
                StoredDocument doc = document(TENANT_A, "rank/doc" + d + ".md").build();
                float[][] vectors = new float[10][];
                for (int i = 0; i < 10; i++) {
                    double cos = 0.95 - 0.03 * slots.get(d * 10 + i);
                    vectors[i] = vectorAtCosine(cos, 1 + d + i);
                    expected.put(doc.id() + ":" + i, cos);
                }
                docs.add(put(doc, "x", vectors));
            }
            List<String> expectedOrder = expected.entrySet().stream()
                    .sorted(Map.Entry.<String, Double>comparingByValue().reversed())
                    .map(Map.Entry::getKey).collect(Collectors.toList());

            List<SearchHit> hits = searchVector(Scope.of(TENANT_A), axis(0), requireMaxK(30));

            assertThat(sourceIds(hits)).containsExactlyElementsOf(expectedOrder);
            assertRanked(hits, SearchHit::similarity, "similarity");
            assertThat(hits).allSatisfy(hit ->
                    assertThat(hit.similarity()).isCloseTo(expected.get(hit.sourceId()), within(EPSILON)));
        }

        @Test
        void search_exactTies_brokenByDocumentIdThenChunkIndex() {
            float[] high = vectorAtCosine(0.8);
            float[] low = vectorAtCosine(0.4);
            for (String id : List.of("doc-c", "doc-a", "doc-b")) {
                put(document(TENANT_A, "tie/" + id + ".md").id(id).build(), "tie", high, low, high, low);
            }

            List<SearchHit> hits = searchVector(Scope.of(TENANT_A), axis(0), requireMaxK(12));

            assertThat(sourceIds(hits)).containsExactly(
                    "doc-a:0", "doc-a:2", "doc-b:0", "doc-b:2", "doc-c:0", "doc-c:2",
                    "doc-a:1", "doc-a:3", "doc-b:1", "doc-b:3", "doc-c:1", "doc-c:3");
            assertRanked(hits, SearchHit::similarity, "similarity");
        }

        @Test
        void search_sameRequestTwice_returnsIdenticalResults() {
            Random random = new Random(5);
            float[] shared = randomVector(random);
            for (int d = 0; d < 4; d++) {
                float[][] vectors = new float[6][];
                for (int i = 0; i < vectors.length; i++) {
                    vectors[i] = i % 3 == 0 ? shared : randomVector(random);
                }
                put(document(TENANT_A, "same/doc" + d + ".md").build(), "same", vectors);
            }
            SearchRequest request = SearchRequest.builder(Scope.of(TENANT_A)).vector(randomVector(random))
                    .k(requireMaxK(15)).build();

            List<SearchHit> first = store().search(request);
            List<SearchHit> second = store().search(request);

            assertThat(first).hasSize(15);
            assertThat(second).isEqualTo(first);
        }

        @Test
        void search_oppositeVector_similarityClampedToZero() {
            put(document(TENANT_A, "opposite.md").build(), "x", vectorAtCosine(-1));

            assertThat(searchVector(Scope.of(TENANT_A), axis(0), 1)).singleElement()
                    .extracting(SearchHit::similarity).isEqualTo(0.0);
        }

        @Test
        void search_obtuseAngle_similarityClampedToZero() {
            put(document(TENANT_A, "obtuse.md").build(), "x", vectorAtCosine(-0.5));

            assertThat(searchVector(Scope.of(TENANT_A), axis(0), 1)).singleElement()
                    .extracting(SearchHit::similarity).isEqualTo(0.0);
        }

        @Test
        void search_sameDirection_similarityIsOne() {
            Random random = new Random(3);
            float[] query = randomVector(random);
            put(document(TENANT_A, "same.md").build(), "x", query.clone());

            assertThat(searchVector(Scope.of(TENANT_A), query, 1)).singleElement()
                    .satisfies(hit -> assertThat(hit.similarity()).isCloseTo(1.0, within(EPSILON)));
        }

        @Test
        void search_scaledCopyOfQuery_similarityIsOne() {
            Random random = new Random(4);
            float[] query = randomVector(random);
            float[] scaled = query.clone();
            for (int i = 0; i < scaled.length; i++) {
                scaled[i] *= 3f;
            }
            put(document(TENANT_A, "scaled.md").build(), "x", scaled);

            assertThat(searchVector(Scope.of(TENANT_A), query, 1)).singleElement()
                    .satisfies(hit -> assertThat(hit.similarity()).isCloseTo(1.0, within(EPSILON)));
        }

        @Test
        void search_knownAngles_similarityEqualsRawCosine() {
            Random random = new Random(9);
            float[] query = randomVector(random);
            float[] first = randomVector(random);
            float[] second = randomVector(random);
            float[] near = vectorAtCosine(0.6);
            StoredDocument doc = put(document(TENANT_A, "angles.md").build(), "x", first, second, near);
            Map<String, Double> expected = Map.of(
                    doc.id() + ":0", Math.max(0, cosine(query, first)),
                    doc.id() + ":1", Math.max(0, cosine(query, second)),
                    doc.id() + ":2", Math.max(0, cosine(query, near)));

            List<SearchHit> hits = searchVector(Scope.of(TENANT_A), query, 3);

            assertThat(hits).hasSize(3).allSatisfy(hit ->
                    assertThat(hit.similarity()).isCloseTo(expected.get(hit.sourceId()), within(EPSILON)));
            assertThat(searchVector(Scope.of(TENANT_A), axis(0), 3)).filteredOn(hit -> hit.chunk().index() == 2)
                    .singleElement().satisfies(hit -> assertThat(hit.similarity()).isCloseTo(0.6, within(EPSILON)));
        }
    }

    /** How many hits come back. */
    @Nested
    public class KBounds {

        @Test
        void search_kOne_returnsTheSingleBestHit() {
            StoredDocument doc = put(document(TENANT_A, "k.md").build(), "x", vectorAtCosine(0.5),
                    vectorAtCosine(0.9), vectorAtCosine(0.7));

            assertThat(sourceIds(searchVector(Scope.of(TENANT_A), axis(0), 1)))
                    .containsExactlyElementsOf(sourceIds(doc, 1));
        }

        @Test
        void search_kAboveQualifyingCount_returnsEveryQualifyingChunk() {
            StoredDocument doc = put(document(TENANT_A, "k.md").build(), "x", descendingCosines(0.9, 0.1, 5));
            put(document(TENANT_A, "hidden.md").accessTags("hr").build(), "y", vectorAtCosine(0.95));

            assertThat(sourceIds(searchVector(Scope.of(TENANT_A), axis(0), requireMaxK(50))))
                    .containsExactlyElementsOf(sourceIds(doc, 0, 1, 2, 3, 4));
        }

        @Test
        void search_kAboveMaxK_throwsIllegalArgumentException() {
            put(document(TENANT_A, "k.md").build(), "x", vectorAtCosine(0.9));
            int max = maxK();
            assumeTrue(max < Integer.MAX_VALUE, "the store accepts every k");
            SearchRequest request = SearchRequest.builder(Scope.of(TENANT_A)).vector(axis(0)).k(max + 1).build();

            assertThatThrownBy(() -> store().search(request))
                    .isInstanceOf(IllegalArgumentException.class)
                    .satisfies(e -> assertMessageMentions(e, String.valueOf(max), String.valueOf(max + 1)));
        }

        @Test
        void search_kEqualToMaxK_isAccepted() {
            put(document(TENANT_A, "k.md").build(), "x", vectorAtCosine(0.9), vectorAtCosine(0.8));

            assertThat(searchVector(Scope.of(TENANT_A), axis(0), maxK())).hasSize(Math.min(2, maxK()));
        }

        @ParameterizedTest
        @ValueSource(ints = {0, -1, Integer.MIN_VALUE})
        void searchRequest_kBelowOne_throwsIllegalArgumentException(int k) {
            assertThatThrownBy(() -> new SearchRequest(Scope.of(TENANT_A), axis(0), null, k, new TreeSet<>(),
                    PromotionLevel.STANDARD))
                    .isInstanceOf(IllegalArgumentException.class)
                    .satisfies(e -> assertMessageMentions(e, "k"));
            assertThatThrownBy(() -> SearchRequest.builder(Scope.of(TENANT_A)).k(k))
                    .isInstanceOf(IllegalArgumentException.class);
        }

        @Test
        void search_emptyStore_returnsNoHits() {
            assertThat(searchVector(Scope.unrestricted(TENANT_A), axis(0), 10)).isEmpty();
        }
    }

    /** Keyword (BM25) and hybrid search, or their absence. */
    @Nested
    public class KeywordSearch {

        @Test
        void searchText_rareTerm_ranksChunksContainingItFirst() {
            assumeKeywordSearch();
            KeywordCorpus c = putKeywordCorpus();

            List<SearchHit> hits = searchText(Scope.of(TENANT_A), "install zephyr", requireMaxK(20));

            assertThat(hits).isNotEmpty();
            assertThat(hits.get(0).sourceId()).isEqualTo(c.zephyrSourceId());
        }

        @Test
        void searchText_chunksContainingQueryTerms_haveNaNSimilarityAndPositiveKeywordScore() {
            assumeKeywordSearch();
            KeywordCorpus c = putKeywordCorpus();

            List<SearchHit> hits = searchText(Scope.of(TENANT_A), "install zephyr", requireMaxK(20));

            List<String> expectedMatches = new ArrayList<>(sourceIds(c.one(), 0, 1, 2, 3, 4, 5));
            expectedMatches.add(c.zephyrSourceId());
            List<SearchHit> matches = hits.stream()
                    .filter(hit -> expectedMatches.contains(hit.sourceId())).collect(Collectors.toList());
            assertThat(matches).extracting(SearchHit::sourceId).containsExactlyInAnyOrderElementsOf(expectedMatches);
            assertThat(matches).allSatisfy(hit -> {
                assertThat(hit.similarity()).isNaN();
                assertThat(hit.keywordScore()).isPositive();
                assertThat(hit.chunk().embedding()).isNull();
            });
        }

        @Test
        void searchText_chunksWithoutQueryTerms_absentOrScoredZeroAfterMatches() {
            assumeKeywordSearch();
            putKeywordCorpus();

            List<SearchHit> hits = searchText(Scope.of(TENANT_A), "install zephyr", requireMaxK(20));

            boolean seenNonMatch = false;
            for (SearchHit hit : hits) {
                List<String> words = tokens(hit.chunk().text());
                boolean matches = words.contains("install") || words.contains("zephyr");
                if (matches) {
                    assertThat(seenNonMatch).as("%s contains a query term but ranks after a chunk without any",
                            hit.sourceId()).isFalse();
                } else {
                    seenNonMatch = true;
                    assertThat(hit.keywordScore()).as("keyword score of %s, which has no query term", hit.sourceId())
                            .isEqualTo(0.0);
                }
            }
        }

        @Test
        void searchText_results_orderedByKeywordScoreDescending() {
            assumeKeywordSearch();
            putKeywordCorpus();

            List<SearchHit> hits = searchText(Scope.of(TENANT_A), "install zephyr package", requireMaxK(20));

            assertThat(hits).hasSizeGreaterThanOrEqualTo(7);
            assertRanked(hits, SearchHit::keywordScore, "keyword score");
        }

        @Test
        void searchText_identicalChunkTexts_tiesBrokenByDocumentIdThenChunkIndex() {
            assumeKeywordSearch();
            for (String id : List.of("doc-c", "doc-a", "doc-b")) {
                put(document(TENANT_A, "tie/" + id + ".md").id(id).build(), "lantern festival",
                        vectorAtCosine(0.5), vectorAtCosine(0.6));
            }
            float[][] fillers = descendingCosines(0.9, 0.01, 10);
            put(document(TENANT_A, "tie/filler.md").build(), "unrelated words only", fillers);

            List<SearchHit> hits = searchText(Scope.of(TENANT_A), "lantern", requireMaxK(20));

            List<SearchHit> matches = hits.stream().filter(hit -> hit.keywordScore() > 0).collect(Collectors.toList());
            assertThat(sourceIds(matches))
                    .containsExactly("doc-a:0", "doc-a:1", "doc-b:0", "doc-b:1", "doc-c:0", "doc-c:1");
            assertRanked(hits, SearchHit::keywordScore, "keyword score");
        }

        @Test
        void searchHybrid_hits_carrySimilarityAndKeywordScore() {
            assumeKeywordSearch();
            putKeywordCorpus();

            List<SearchHit> hits = store().search(SearchRequest.builder(Scope.of(TENANT_A))
                    .vector(axis(0)).text("install zephyr").k(3).build());

            assertThat(hits).isNotEmpty().allSatisfy(hit -> {
                assertThat(hit.similarity()).isBetween(0.0, 1.0);
                assertThat(hit.keywordScore()).isNotNaN().isGreaterThanOrEqualTo(0.0);
            });
        }

        @Test
        void searchHybrid_bestKeywordMatchWithDissimilarVector_isIncluded() {
            assumeKeywordSearch();
            KeywordCorpus c = putKeywordCorpus();

            List<SearchHit> hits = store().search(SearchRequest.builder(Scope.of(TENANT_A))
                    .vector(axis(0)).text("zephyr").k(2).build());

            assertThat(hits).filteredOn(hit -> hit.sourceId().equals(c.zephyrSourceId())).singleElement()
                    .satisfies(hit -> {
                        assertThat(hit.similarity()).isEqualTo(0.0);
                        assertThat(hit.keywordScore()).isPositive();
                    });
        }

        @Test
        void searchHybrid_results_unionOfVectorAndKeywordTopKOrderedBySimilarity() {
            assumeKeywordSearch();
            KeywordCorpus c = putKeywordCorpus();

            List<SearchHit> hits = store().search(SearchRequest.builder(Scope.of(TENANT_A))
                    .vector(axis(0)).text("zephyr").k(2).build());

            assertThat(hits).hasSizeBetween(3, 4);
            assertThat(sourceIds(hits)).contains(c.one().id() + ":0", c.one().id() + ":1", c.zephyrSourceId());
            assertThat(sourceIds(hits).subList(0, 2)).containsExactlyElementsOf(sourceIds(c.one(), 0, 1));
            assertRanked(hits, SearchHit::similarity, "similarity");
        }

        @Test
        void search_vectorOnly_keywordScoreIsNaN() {
            put(document(TENANT_A, "vector.md").build(), "install zephyr", descendingCosines(0.9, 0.1, 3));

            assertThat(searchVector(Scope.of(TENANT_A), axis(0), 3)).hasSize(3)
                    .allSatisfy(hit -> assertThat(hit.keywordScore()).isNaN());
        }

        @Test
        void searchText_storeWithoutKeywordSearch_throwsIllegalArgumentException() {
            assumeFalse(store().capabilities().keywordSearch(), "the store declares keyword search");
            put(document(TENANT_A, "text.md").build(), "install zephyr", vectorAtCosine(0.9));

            assertThatThrownBy(() -> searchText(Scope.of(TENANT_A), "zephyr", 5))
                    .isInstanceOf(IllegalArgumentException.class)
                    .satisfies(e -> assertMessageMentions(e, "keyword", "text"));
        }

        @Test
        void searchHybrid_storeWithoutKeywordSearch_returnsVectorHitsWithNaNKeywordScore() {
            assumeFalse(store().capabilities().keywordSearch(), "the store declares keyword search");
            put(document(TENANT_A, "text.md").build(), "install zephyr", descendingCosines(0.9, 0.1, 4));

            List<SearchHit> hybrid = store().search(SearchRequest.builder(Scope.of(TENANT_A))
                    .vector(axis(0)).text("zephyr").k(3).build());

            assertThat(hybrid).isEqualTo(searchVector(Scope.of(TENANT_A), axis(0), 3));
            assertThat(hybrid).hasSize(3).allSatisfy(hit -> assertThat(hit.keywordScore()).isNaN());
        }
    }

    /** Bad chunk lists, each of which {@link DocumentStore#upsert} must reject. */
    enum BadChunks {
        TOO_MANY_DIMENSIONS("dimension"), TOO_FEW_DIMENSIONS("dimension"),
        FOREIGN_DOCUMENT_ID("document", "stranger-7"), INDEX_GAP("index", "indices"),
        DUPLICATE_INDEX("index", "indices"), INDEXES_OUT_OF_ORDER("index", "indices"),
        FIRST_INDEX_NOT_ZERO("index", "indices"), MISSING_EMBEDDING("embedding", "vector");

        final String[] messageMentions;

        BadChunks(String... messageMentions) {
            this.messageMentions = messageMentions;
        }
    }

    /** Calls with one {@code null} argument each. */
    enum NullCall {
        UPSERT_DOCUMENT, UPSERT_CHUNKS, UPSERT_CHUNK_ELEMENT, DELETE_SCOPE, DELETE_ID, SEARCH_REQUEST,
        DOCUMENT_SCOPE, DOCUMENT_ID, FIND_BY_PATHS_SCOPE, FIND_BY_PATHS_PATHS, FIND_BY_PROMOTION_SCOPE,
        FIND_BY_PROMOTION_LEVEL, FIND_BY_PROMOTION_DOC_TYPES, DOCUMENTS_SCOPE, CHUNKS_SCOPE, CHUNKS_ID
    }

    /** Non-finite and zero query vectors. */
    enum UnusableVector { NAN, POSITIVE_INFINITY, NEGATIVE_INFINITY, ALL_ZEROS }

    /** Every bad call is rejected with a clear exception and changes nothing. */
    @Nested
    public class BadInput {

        private StoredDocument existing = document(TENANT_A, "placeholder.md").build();
        private List<StoredChunk> existingChunks = List.of();

        @BeforeEach
        void putExistingData() {
            existing = document(TENANT_A, "existing.md").docType("guide").build();
            existingChunks = chunksOf(existing, "old version", vectorAtCosine(0.9), vectorAtCosine(0.8));
            store().upsert(existing, existingChunks);
            put(document(TENANT_B, "other-tenant.md").build(), "b", vectorAtCosine(0.7));
        }

        private List<StoredChunk> badChunks(BadChunks kind, StoredDocument doc) {
            float[] v = vectorAtCosine(0.5);
            String text = "new version";
            StoredChunk first = chunk(doc, 0, text, v);
            StoredChunk second = chunk(doc, 1, text, v);
            switch (kind) {
                case TOO_MANY_DIMENSIONS: {
                    float[] longer = new float[dimension() + 1];
                    Arrays.fill(longer, 1f);
                    return List.of(first, second, chunk(doc, 2, text, longer));
                }
                case TOO_FEW_DIMENSIONS: {
                    float[] shorter = new float[dimension() - 1];
                    Arrays.fill(shorter, 1f);
                    return List.of(first, second, chunk(doc, 2, text, shorter));
                }
                case FOREIGN_DOCUMENT_ID:
                    return List.of(first, second, new StoredChunk("stranger-7", 2, text, v, 2, 1, 1, null, null));
                case INDEX_GAP:
                    return List.of(first, second, chunk(doc, 3, text, v));
                case DUPLICATE_INDEX:
                    return List.of(first, second, chunk(doc, 1, text, v));
                case INDEXES_OUT_OF_ORDER:
                    return List.of(first, chunk(doc, 2, text, v), second);
                case FIRST_INDEX_NOT_ZERO:
                    return List.of(second, chunk(doc, 2, text, v), chunk(doc, 3, text, v));
                case MISSING_EMBEDDING:
                    return List.of(first, second, chunk(doc, 2, text, null));
                default:
                    throw new IllegalStateException("unknown kind " + kind);
            }
        }

        @ParameterizedTest(name = "{0}")
        @EnumSource(BadChunks.class)
        void upsert_badChunksForNewDocument_throwsIllegalArgumentAndStoresNothing(BadChunks kind) {
            StoredDocument fresh = document(TENANT_A, "fresh.md").build();
            List<StoredChunk> chunks = badChunks(kind, fresh);
            Map<String, Snapshot> before = snapshotAll();

            assertThatThrownBy(() -> store().upsert(fresh, chunks))
                    .isInstanceOf(IllegalArgumentException.class)
                    .satisfies(e -> assertMessageMentions(e, kind.messageMentions));

            assertThat(snapshotAll()).isEqualTo(before);
            assertThat(store().document(Scope.unrestricted(TENANT_A), fresh.id())).isEmpty();
        }

        @ParameterizedTest(name = "{0}")
        @EnumSource(BadChunks.class)
        void upsert_badChunksReplacingExistingDocument_throwsAndKeepsOldVersion(BadChunks kind) {
            StoredDocument newer = existing.toBuilder().title("New title").accessTags("hr").build();
            List<StoredChunk> chunks = badChunks(kind, newer);
            Map<String, Snapshot> before = snapshotAll();

            assertThatThrownBy(() -> store().upsert(newer, chunks))
                    .isInstanceOf(IllegalArgumentException.class)
                    .satisfies(e -> assertMessageMentions(e, kind.messageMentions));

            assertThat(snapshotAll()).isEqualTo(before);
            assertThat(store().document(Scope.of(TENANT_A), existing.id())).contains(existing);
            assertThat(store().chunks(Scope.of(TENANT_A), existing.id())).containsExactlyElementsOf(existingChunks);
        }

        @ParameterizedTest
        @ValueSource(ints = {-1, 1})
        void search_queryVectorOfWrongDimension_throwsIllegalArgumentNamingDimension(int delta) {
            float[] query = new float[dimension() + delta];
            Arrays.fill(query, 1f);
            SearchRequest request = SearchRequest.builder(Scope.of(TENANT_A)).vector(query).k(5).build();
            Map<String, Snapshot> before = snapshotAll();

            assertThatThrownBy(() -> store().search(request))
                    .isInstanceOf(IllegalArgumentException.class)
                    .satisfies(e -> assertMessageMentions(e, "dimension"));
            assertThat(snapshotAll()).isEqualTo(before);
        }

        @ParameterizedTest(name = "{0}")
        @EnumSource(UnusableVector.class)
        void searchRequest_unusableQueryVector_throwsIllegalArgumentException(UnusableVector kind) {
            float[] query = axis(0);
            switch (kind) {
                case NAN -> query[1] = Float.NaN;
                case POSITIVE_INFINITY -> query[1] = Float.POSITIVE_INFINITY;
                case NEGATIVE_INFINITY -> query[1] = Float.NEGATIVE_INFINITY;
                case ALL_ZEROS -> query[0] = 0f;
                default -> throw new IllegalStateException("unknown kind " + kind);
            }

            assertThatThrownBy(() -> SearchRequest.builder(Scope.of(TENANT_A)).vector(query).k(5).build())
                    .isInstanceOf(IllegalArgumentException.class)
                    .satisfies(e -> assertMessageMentions(e, kind == UnusableVector.ALL_ZEROS ? "zero" : "finite"));
        }

        @ParameterizedTest
        @ValueSource(strings = {"", " ", "  ", "\t\n"})
        void scope_blankTenant_throwsIllegalArgumentException(String tenant) {
            assertThatThrownBy(() -> Scope.of(tenant)).isInstanceOf(IllegalArgumentException.class)
                    .satisfies(e -> assertMessageMentions(e, "tenant"));
            assertThatThrownBy(() -> Scope.unrestricted(tenant)).isInstanceOf(IllegalArgumentException.class);
        }

        @ParameterizedTest(name = "{0}")
        @EnumSource(NullCall.class)
        void anyMethod_nullArgument_throwsWithMessageAndChangesNothing(NullCall call) {
            Map<String, Snapshot> before = snapshotAll();
            DocumentStore s = store();
            Scope scope = Scope.unrestricted(TENANT_A);
            List<StoredChunk> newChunks = chunksOf(existing, "new", vectorAtCosine(0.1));
            String id = existing.id();

            assertThatThrownBy(() -> {
                switch (call) {
                    case UPSERT_DOCUMENT -> s.upsert(null, newChunks);
                    case UPSERT_CHUNKS -> s.upsert(existing, null);
                    case UPSERT_CHUNK_ELEMENT -> s.upsert(existing, Arrays.asList(newChunks.get(0), null));
                    case DELETE_SCOPE -> s.delete(null, id);
                    case DELETE_ID -> s.delete(scope, null);
                    case SEARCH_REQUEST -> s.search(null);
                    case DOCUMENT_SCOPE -> s.document(null, id);
                    case DOCUMENT_ID -> s.document(scope, null);
                    case FIND_BY_PATHS_SCOPE -> s.findByPaths(null, List.of(existing.path()));
                    case FIND_BY_PATHS_PATHS -> s.findByPaths(scope, null);
                    case FIND_BY_PROMOTION_SCOPE -> s.findByPromotion(null, PromotionLevel.STANDARD, Set.of());
                    case FIND_BY_PROMOTION_LEVEL -> s.findByPromotion(scope, null, Set.of());
                    case FIND_BY_PROMOTION_DOC_TYPES -> s.findByPromotion(scope, PromotionLevel.STANDARD, null);
                    case DOCUMENTS_SCOPE -> s.documents(null);
                    case CHUNKS_SCOPE -> s.chunks(null, id);
                    case CHUNKS_ID -> s.chunks(scope, null);
                    default -> throw new IllegalStateException("unknown call " + call);
                }
            }).isInstanceOfAny(NullPointerException.class, IllegalArgumentException.class, StoreException.class)
                    .satisfies(e -> assertThat(e.getMessage()).as("exception message").isNotBlank());

            assertThat(snapshotAll()).isEqualTo(before);
        }
    }

    /** Calls that must fail once the store is closed. */
    enum StoreCall { UPSERT, DELETE, SEARCH, DOCUMENT, FIND_BY_PATHS, FIND_BY_PROMOTION, DOCUMENTS, CHUNKS }

    /** {@link DocumentStore#close()}. */
    @Nested
    public class Lifecycle {

        @ParameterizedTest(name = "{0}")
        @EnumSource(StoreCall.class)
        void closedStore_anyCall_throwsStoreException(StoreCall call) {
            StoredDocument doc = put(document(TENANT_A, "closed.md").build(), "x", vectorAtCosine(0.9));
            DocumentStore s = store();
            Scope scope = Scope.unrestricted(TENANT_A);
            s.close();

            assertThatThrownBy(() -> {
                switch (call) {
                    case UPSERT -> s.upsert(doc, chunksOf(doc, "y", vectorAtCosine(0.8)));
                    case DELETE -> s.delete(scope, doc.id());
                    case SEARCH -> searchVector(scope, axis(0), 5);
                    case DOCUMENT -> s.document(scope, doc.id());
                    case FIND_BY_PATHS -> s.findByPaths(scope, List.of(doc.path()));
                    case FIND_BY_PROMOTION -> s.findByPromotion(scope, PromotionLevel.STANDARD, Set.of());
                    case DOCUMENTS -> s.documents(scope);
                    case CHUNKS -> s.chunks(scope, doc.id());
                    default -> throw new IllegalStateException("unknown call " + call);
                }
            }).isInstanceOf(StoreException.class)
                    .satisfies(e -> assertThat(e.getMessage()).as("exception message").isNotBlank());
        }

        @Test
        void close_calledTwice_doesNotThrow() {
            put(document(TENANT_A, "closed.md").build(), "x", vectorAtCosine(0.9));

            store().close();

            assertThatCode(() -> store().close()).doesNotThrowAnyException();
        }
    }
}
