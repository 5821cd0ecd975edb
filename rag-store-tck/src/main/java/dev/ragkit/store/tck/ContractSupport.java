package dev.ragkit.store.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.ragkit.store.DocumentStore;
import dev.ragkit.store.Scope;
import dev.ragkit.store.SearchHit;
import dev.ragkit.store.SearchRequest;
import dev.ragkit.store.StoreCapabilities;
import dev.ragkit.store.StoredChunk;
import dev.ragkit.store.StoredDocument;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;
import java.util.function.ToDoubleFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;

/**
 * The machinery every group of contract cases shares: the store of the running test (opened before and closed
 * after each test, through the {@link DocumentStoreContract} that hosts the group) and helpers that build
 * documents, chunks and vectors and search. Not part of the public API: store tests extend
 * {@link DocumentStoreContract}.
 */
abstract class ContractSupport {
    /** The tenant most tests write to and read from. */
    static final String TENANT_A = DocumentStoreContract.TENANT_A;
    /** A second tenant, whose data must never show up in {@link #TENANT_A}'s reads. */
    static final String TENANT_B = DocumentStoreContract.TENANT_B;
    /** A tenant that never holds any document. */
    static final String TENANT_EMPTY = DocumentStoreContract.TENANT_EMPTY;

    static final double EPSILON = 1e-5;
    static final long TIMEOUT_SECONDS = 60;
    static final int MIN_READS = 10;
    static final int MAX_READS = 100_000;
    static final int PROBE_K = 20;
    static final String ISOLATION_QUERY = "walnut falcon copper";
    static final Pattern LABEL = Pattern.compile("^\\[([^\\]]+)\\]");
    static final Pattern TOKEN_SEPARATOR = Pattern.compile("[^\\p{L}\\p{N}]+");
    static final Comparator<SearchHit> TIE_ORDER = Comparator
            .comparing((SearchHit hit) -> hit.chunk().documentId())
            .thenComparingInt(hit -> hit.chunk().index());

    private @Nullable DocumentStore store;

    /**
     * The contract class whose {@code @Nested} group this is: it creates (and may reopen) the stores.
     *
     * @return the enclosing contract instance
     */
    abstract DocumentStoreContract host();

    /** @return the dimension of every vector the suite uses ({@link DocumentStoreContract#dimension()}) */
    final int dimension() {
        return host().dimension();
    }

    /** @return {@link DocumentStoreContract#concurrencyIterations()} */
    final int concurrencyIterations() {
        return host().concurrencyIterations();
    }

    /** Opens a fresh store for the next test. */
    @BeforeEach
    final void openStore() {
        assertThat(dimension()).as("dimension() of the contract suite").isGreaterThanOrEqualTo(4);
        assertThat(concurrencyIterations()).as("concurrencyIterations()").isPositive();
        store = Objects.requireNonNull(host().createStore(), "createStore() returned null");
    }

    /** Closes the store of the test that just ran. */
    @AfterEach
    final void closeStore() {
        DocumentStore current = store;
        store = null;
        if (current != null) {
            current.close();
        }
    }

    /**
     * Closes the running test's store and continues with a store reopened over the same data, through
     * {@link DocumentStoreContract#reopenStore(DocumentStore)}; skips the test when the host cannot reopen.
     */
    final void reopen() {
        DocumentStore current = store();
        java.util.Optional<DocumentStore> reopened = host().reopenStore(current);
        assumeTrue(reopened.isPresent(), "the store test does not override reopenStore(..): no persistence cases");
        store = reopened.get();
    }

    // ------------------------------------------------------------------------------------------------------
    // Helpers for tests (also usable by subclasses that add their own)
    // ------------------------------------------------------------------------------------------------------

    /**
     * The store of the running test.
     *
     * @return the store created by {@link DocumentStoreContract#createStore()} for this test
     */
    final DocumentStore store() {
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
    final StoredDocument.Builder document(String tenant, String path) {
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
    final StoredChunk chunk(StoredDocument document, int index, String text, float @Nullable [] embedding) {
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
    final List<StoredChunk> chunksOf(StoredDocument document, String body, float[]... embeddings) {
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
    final StoredDocument put(StoredDocument document, String body, float[]... embeddings) {
        store().upsert(document, chunksOf(document, body, embeddings));
        return document;
    }

    /**
     * The unit vector along an axis; {@code axis(0)} is the query most tests search with.
     *
     * @param axis the axis, taken modulo {@link #dimension()}
     * @return a new vector
     */
    final float[] axis(int axis) {
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
    final float[] vectorAtCosine(double cosine) {
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
    final float[] vectorAtCosine(double cosine, int otherAxis) {
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
    final float[][] descendingCosines(double first, double step, int count) {
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
    final float[] randomVector(Random random) {
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
    final List<SearchHit> searchVector(Scope scope, float[] vector, int k) {
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
    final List<SearchHit> searchText(Scope scope, String text, int k) {
        return store().search(SearchRequest.builder(scope).text(text).k(k).build());
    }

    /**
     * The store's {@link StoreCapabilities#maxK()}.
     *
     * @return the largest {@code k} the store accepts
     */
    final int maxK() {
        return store().capabilities().maxK();
    }

    /**
     * Skips the running test unless the store accepts {@code k}.
     *
     * @param k the {@code k} the test needs
     * @return {@code k}
     */
    final int requireMaxK(int k) {
        int max = maxK();
        assumeTrue(max >= k, () -> "the test needs k = " + k + " but the store's maxK is " + max);
        return k;
    }

    /** Skips the running test unless the store declares metadata filters. */
    final void assumeMetadataFilters() {
        assumeTrue(store().capabilities().metadataFilters(), "the store declares no metadata filters");
    }

    /** Skips the running test unless the store declares keyword search. */
    final void assumeKeywordSearch() {
        assumeTrue(store().capabilities().keywordSearch(), "the store declares no keyword search");
    }

    static String label(StoredDocument document) {
        return document.tenant() + "|" + document.path();
    }

    static String labelledText(StoredDocument document, String body) {
        return "[" + label(document) + "] " + body;
    }

    static String labelOf(StoredChunk chunk) {
        Matcher matcher = LABEL.matcher(chunk.text());
        return matcher.find() ? matcher.group(1) : "unlabelled chunk " + chunk.sourceId();
    }

    static Set<String> labels(StoredDocument... documents) {
        return Arrays.stream(documents).map(ContractSupport::label).collect(Collectors.toCollection(TreeSet::new));
    }

    static List<String> tokens(String text) {
        return Arrays.stream(TOKEN_SEPARATOR.split(text.toLowerCase(Locale.ROOT)))
                .filter(token -> !token.isEmpty())
                .collect(Collectors.toList());
    }

    static List<String> sourceIds(List<SearchHit> hits) {
        return hits.stream().map(SearchHit::sourceId).collect(Collectors.toList());
    }

    static List<String> sourceIds(StoredDocument document, int... indexes) {
        return Arrays.stream(indexes).mapToObj(i -> document.id() + ":" + i).collect(Collectors.toList());
    }

    static List<String> paths(List<StoredDocument> documents) {
        return documents.stream().map(StoredDocument::path).collect(Collectors.toList());
    }

    static List<StoredChunk> withoutEmbeddings(List<StoredChunk> chunks) {
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
    static double cosine(float[] a, float[] b) {
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

    static void check(boolean condition, Supplier<String> message) {
        if (!condition) {
            throw new AssertionError(message.get());
        }
    }

    /** Asserts the order of {@link DocumentStore#search}: score descending, ties by document id then chunk index. */
    static void assertRanked(List<SearchHit> hits, ToDoubleFunction<SearchHit> score, String scoreName) {
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

    static void assertMessageMentions(Throwable thrown, String... anyOf) {
        String message = thrown.getMessage();
        assertThat(message).as("message of %s", thrown.getClass().getName()).isNotBlank();
        assertThat(message.toLowerCase(Locale.ROOT))
                .as("message of %s should name the problem", thrown.getClass().getName())
                .containsAnyOf(anyOf);
    }
}
