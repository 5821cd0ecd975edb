package dev.ragkit.embedding;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.ragkit.error.RagException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.LongAdder;
import org.jspecify.annotations.Nullable;

/**
 * An {@link Embedder} that remembers the vectors of the texts it has embedded, so the same text (a repeated
 * query, an unchanged chunk on re-indexing) is sent to the model once.
 *
 * <pre>{@code
 * Embedder embedder = CachingEmbedder.builder().delegate(model).maximumSize(50_000).build();
 * }</pre>
 *
 * <ul>
 *   <li><b>Keys</b> are the exact text together with the delegate's {@linkplain Embedder#name() name} and whether it
 *       was embedded as a query ({@link #embedQueries}) or a document, so vectors of two models, or a query and the
 *       same text as a document, are never mixed up.</li>
 *   <li><b>One delegate call per batch:</b> {@link #embed(List)} sends only the texts missing from the cache, each
 *       once even when the batch repeats it, in a single call, and answers in the order of the request, duplicates
 *       included.</li>
 *   <li><b>Checked output:</b> before anything is cached, the delegate's answer is checked: one vector per text,
 *       each of {@link #dimension()} finite values, not all zero. Otherwise {@link RagException} names the model,
 *       and nothing of that batch is cached.</li>
 *   <li><b>Copies:</b> every returned vector is a fresh copy; changing it changes neither the cache nor another
 *       caller's result.</li>
 *   <li><b>Bounded:</b> at most {@link Builder#maximumSize(long)} vectors (default {@value #DEFAULT_MAXIMUM_SIZE}),
 *       evicted by Caffeine's size policy. Each entry holds {@code 4 × dimension} bytes plus its text.</li>
 *   <li><b>Thread-safe:</b> any number of threads may call it. The delegate is called without holding a lock, so
 *       two threads missing the same text at the same moment may both embed it; the later vector replaces the
 *       earlier, which for a deterministic model is equal.</li>
 * </ul>
 */
public final class CachingEmbedder implements Embedder {

    /** The default number of cached vectors. */
    public static final long DEFAULT_MAXIMUM_SIZE = 10_000;

    private final Embedder delegate;
    private final String model;
    private final long maximumSize;
    private final Cache<Key, float[]> cache;
    private final LongAdder hits = new LongAdder();
    private final LongAdder misses = new LongAdder();

    private CachingEmbedder(Builder builder, Embedder delegate) {
        this.delegate = delegate;
        this.model = Objects.requireNonNull(delegate.name(), "delegate.name()");
        this.maximumSize = builder.maximumSize;
        this.cache = Caffeine.newBuilder().maximumSize(maximumSize).build();
    }

    /**
     * A cache of {@value #DEFAULT_MAXIMUM_SIZE} vectors around {@code delegate}.
     *
     * @param delegate the embedder to call on a miss
     * @return the caching embedder
     */
    public static CachingEmbedder of(Embedder delegate) {
        return builder().delegate(delegate).build();
    }

    /**
     * A new builder.
     *
     * @return a builder with the default maximum size and no delegate
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * A builder holding this embedder's settings; what it builds starts with an empty cache.
     *
     * @return the builder
     */
    public Builder toBuilder() {
        return new Builder().delegate(delegate).maximumSize(maximumSize);
    }

    /**
     * Embeds the texts, asking the delegate only for those not cached.
     *
     * @param texts the texts, not empty, no element {@code null}
     * @return one fresh vector per text, in the order of {@code texts}
     * @throws IllegalArgumentException when {@code texts} is empty
     * @throws RagException             when the delegate fails or answers garbage (nothing is cached then)
     */
    @Override
    public float[][] embed(List<String> texts) {
        return embed(texts, false);
    }

    /**
     * Embeds queries as the delegate's {@link Embedder#embedQueries} does, asking it only for those not cached.
     *
     * @param queries the queries, not empty, no element {@code null}
     * @return one fresh vector per query, in the order of {@code queries}
     * @throws IllegalArgumentException when {@code queries} is empty
     * @throws RagException             when the delegate fails or answers garbage (nothing is cached then)
     */
    @Override
    public float[][] embedQueries(List<String> queries) {
        return embed(queries, true);
    }

    private float[][] embed(List<String> texts, boolean queries) {
        Objects.requireNonNull(texts, "texts");
        if (texts.isEmpty()) {
            throw new IllegalArgumentException("texts must not be empty");
        }
        float[][] result = new float[texts.size()][];
        Map<String, List<Integer>> missing = new LinkedHashMap<>();
        for (int i = 0; i < result.length; i++) {
            String text = texts.get(i);
            if (text == null) {
                throw new NullPointerException("texts[" + i + "]");
            }
            float[] cached = cache.getIfPresent(new Key(model, queries, text));
            if (cached != null) {
                result[i] = cached.clone();
                hits.increment();
            } else {
                missing.computeIfAbsent(text, t -> new ArrayList<>(1)).add(i);
            }
        }
        if (missing.isEmpty()) {
            return result;
        }
        List<String> batch = List.copyOf(missing.keySet());
        float[][] vectors = EmbeddingCheck.check(delegate, batch.size(),
                queries ? delegate.embedQueries(batch) : delegate.embed(batch));
        misses.add(batch.size());
        int j = 0;
        for (Map.Entry<String, List<Integer>> entry : missing.entrySet()) {
            // Our own copy: the delegate may keep or reuse the array it returned.
            float[] owned = vectors[j++].clone();
            cache.put(new Key(model, queries, entry.getKey()), owned);
            for (int position : entry.getValue()) {
                result[position] = owned.clone();
            }
        }
        return result;
    }

    /**
     * @return the delegate's dimension
     */
    @Override
    public int dimension() {
        return delegate.dimension();
    }

    /** @return the delegate's limit */
    @Override
    public int maxInputTokens() {
        return delegate.maxInputTokens();
    }

    @Override
    public @Nullable SimilarityScale similarityScale() {
        return delegate.similarityScale();
    }

    /** @return the delegate's count */
    @Override
    public int inputTokens(String text) {
        return delegate.inputTokens(text);
    }

    /**
     * @return the delegate's name: the cache does not change the vectors
     */
    @Override
    public String name() {
        return model;
    }

    /**
     * @return the wrapped embedder
     */
    public Embedder delegate() {
        return delegate;
    }

    /**
     * How many requested texts were answered from the cache, since this embedder was built.
     *
     * @return the number of cache hits (one per position in a request)
     */
    public long hitCount() {
        return hits.sum();
    }

    /**
     * How many texts were sent to the delegate, since this embedder was built.
     *
     * @return the number of distinct texts embedded by the delegate (a text repeated in one request counts once)
     */
    public long missCount() {
        return misses.sum();
    }

    /**
     * @return about how many vectors the cache holds now
     */
    public long estimatedSize() {
        cache.cleanUp();
        return cache.estimatedSize();
    }

    /** Forgets every cached vector, e.g. after the model behind the delegate was replaced. */
    public void invalidateAll() {
        cache.invalidateAll();
    }

    @Override
    public String toString() {
        return "CachingEmbedder[" + model + ", maximumSize " + maximumSize + "]";
    }

    private record Key(String model, boolean query, String text) {
    }

    /** Builds a {@link CachingEmbedder}. Not thread-safe. */
    public static final class Builder {
        private @Nullable Embedder delegate;
        private long maximumSize = DEFAULT_MAXIMUM_SIZE;

        private Builder() {
        }

        /**
         * @param delegate the embedder to call on a miss (required); not itself a {@code CachingEmbedder}'s
         *                 concern, but wrapping one twice only wastes memory
         * @return this builder
         */
        public Builder delegate(Embedder delegate) {
            this.delegate = Objects.requireNonNull(delegate, "delegate");
            return this;
        }

        /**
         * @param entries the most vectors to keep, at least 1
         * @return this builder
         * @throws IllegalArgumentException when {@code entries} is below 1
         */
        public Builder maximumSize(long entries) {
            if (entries < 1) {
                throw new IllegalArgumentException("maximumSize must be at least 1, got " + entries);
            }
            this.maximumSize = entries;
            return this;
        }

        /**
         * @return the caching embedder, with an empty cache
         * @throws IllegalStateException when no delegate was set
         */
        public CachingEmbedder build() {
            if (delegate == null) {
                throw new IllegalStateException("a CachingEmbedder needs the embedder to wrap; call delegate(..)");
            }
            return new CachingEmbedder(this, delegate);
        }
    }
}
