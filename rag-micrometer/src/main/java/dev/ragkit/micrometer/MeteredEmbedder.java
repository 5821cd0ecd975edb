package dev.ragkit.micrometer;

import dev.ragkit.embedding.Embedder;
import dev.ragkit.embedding.SimilarityScale;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * An {@link Embedder} that times each batch ({@code ragkit.embedding.batch}, a timer tagged with the model) and
 * records its size ({@code ragkit.embedding.batch.size}). Texts are never recorded. Thread-safe when the delegate is.
 */
public final class MeteredEmbedder implements Embedder {
    private final Embedder delegate;
    private final Timer batches;
    private final DistributionSummary sizes;

    /**
     * @param delegate the embedder
     * @param meters   where the meters go
     */
    public MeteredEmbedder(Embedder delegate, MeterRegistry meters) {
        this.delegate = Objects.requireNonNull(delegate, "delegate");
        this.batches = Timer.builder("ragkit.embedding.batch").description("one embedding batch")
                .tag("model", delegate.name()).publishPercentileHistogram().register(meters);
        this.sizes = DistributionSummary.builder("ragkit.embedding.batch.size").baseUnit("texts")
                .tag("model", delegate.name()).register(meters);
    }

    @Override
    public float[][] embed(List<String> texts) {
        sizes.record(texts.size());
        return batches.record(() -> delegate.embed(texts));
    }

    /** Times query batches like document batches; the delegate adds its query instruction, if any. */
    @Override
    public float[][] embedQueries(List<String> queries) {
        sizes.record(queries.size());
        return batches.record(() -> delegate.embedQueries(queries));
    }

    @Override
    public int maxInputTokens() {
        return delegate.maxInputTokens();
    }

    @Override
    public @Nullable SimilarityScale similarityScale() {
        return delegate.similarityScale();
    }

    @Override
    public int inputTokens(String text) {
        return delegate.inputTokens(text);
    }

    @Override
    public int dimension() {
        return delegate.dimension();
    }

    @Override
    public String name() {
        return delegate.name();
    }
}
