package dev.ragkit.ollama;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ragkit.http.HttpSettings;
import dev.ragkit.http.ModelHttp;
import dev.ragkit.embedding.Embedder;
import dev.ragkit.embedding.SimilarityScale;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import okhttp3.OkHttpClient;
import org.jspecify.annotations.Nullable;

/**
 * An {@link Embedder} on Ollama's {@code POST /api/embed}, sending up to {@code batchSize} texts per request, with
 * {@code truncate:false} unless configured otherwise (a chunk the model cannot see whole is an error, not a
 * silently shortened vector).
 * The dimension is taken from the first reply (or set up front) and every later vector is checked against it.
 * Errors are typed like {@link OllamaBackend}'s. Thread-safe.
 *
 * <p>The HTTP settings — base URL, connect, read and whole-call limits, retries and their backoff, a shared OkHttp
 * client — are the backends' own ({@link HttpSettings}), set the same way and checked by the same rules.
 *
 * <p>Without {@link Builder#httpClient(OkHttpClient) httpClient(..)} the embedder creates its own HTTP client;
 * {@link #close()} then releases its threads and connections. A client passed in stays the caller's to close.
 *
 * <p>It states no {@linkplain #similarityScale() similarity scale} unless one is set on the builder: retrieval
 * measures one ({@link SimilarityScale#estimate}).
 *
 * <pre>{@code
 * Embedder embedder = CachingEmbedder.of(OllamaEmbedder.builder().model("nomic-embed-text").build());
 * }</pre>
 */
public final class OllamaEmbedder implements Embedder, AutoCloseable {
    private final OllamaHttp http;
    private final boolean ownsClient;
    private final String model;
    private final int batchSize;
    private final boolean truncate;
    private final @Nullable SimilarityScale scale;
    private volatile int dimension;

    private OllamaEmbedder(Builder b) {
        HttpSettings.Resolved settings = b.resolve();
        this.ownsClient = settings.ownsClient();
        this.http = new OllamaHttp(settings);
        this.model = Objects.requireNonNull(b.model, "model");
        this.batchSize = b.batchSize;
        this.truncate = b.truncate;
        this.dimension = b.dimension;
        this.scale = b.scale;
    }

    /** @return the server's base URL */
    public java.net.URI baseUrl() {
        return http.base.uri();
    }

    /** @return a builder; the model is required */
    public static Builder builder() {
        return new Builder();
    }

    @Override
    public float[][] embed(List<String> texts) {
        Objects.requireNonNull(texts, "texts");
        if (texts.isEmpty()) {
            throw new IllegalArgumentException("nothing to embed: texts is empty");
        }
        float[][] vectors = new float[texts.size()][];
        for (int from = 0; from < texts.size(); from += batchSize) {
            List<String> batch = texts.subList(from, Math.min(texts.size(), from + batchSize));
            ObjectNode body = ModelHttp.MAPPER.createObjectNode().put("model", model).put("truncate", truncate);
            ArrayNode input = body.putArray("input");
            for (String t : batch) {
                input.add(Objects.requireNonNull(t, "text"));
            }
            JsonNode reply = http.post("/api/embed", body, model);
            JsonNode embeddings = reply.get("embeddings");
            if (embeddings == null || !embeddings.isArray() || embeddings.size() != batch.size()) {
                throw http.protocolError("Ollama's /api/embed reply for " + batch.size() + " texts holds "
                        + (embeddings == null || !embeddings.isArray() ? "no embeddings array"
                        : embeddings.size() + " vectors") + ": '" + ModelHttp.abbreviate(reply.toString()) + "'",
                        "", null);
            }
            for (int i = 0; i < batch.size(); i++) {
                vectors[from + i] = vector(embeddings.get(i), from + i);
            }
        }
        return vectors;
    }

    private float[] vector(JsonNode node, int index) {
        if (!node.isArray() || node.isEmpty()) {
            throw http.protocolError("embedding " + index + " from Ollama is not a list of numbers", "", null);
        }
        float[] v = new float[node.size()];
        for (int i = 0; i < v.length; i++) {
            JsonNode x = node.get(i);
            if (!x.isNumber() || !Float.isFinite((float) x.asDouble())) {
                throw http.protocolError("embedding " + index + " from Ollama holds a value that is not a "
                        + "finite number at position " + i + ": " + x, "", null);
            }
            v[i] = (float) x.asDouble();
        }
        int expected = dimension;
        if (expected == 0) {
            dimension = v.length;
        } else if (v.length != expected) {
            throw http.protocolError("embedding " + index + " from Ollama's model '" + model + "' has " + v.length
                    + " dimensions, expected " + expected + "; a different model answered, or the configured "
                    + "dimension is wrong", "", null);
        }
        return v;
    }

    /**
     * @return the vector length; when it was not configured and nothing was embedded yet, embeds one probe text
     *         to learn it
     */
    @Override
    public int dimension() {
        if (dimension == 0) {
            embed(List.of("dimension probe"));
        }
        return dimension;
    }

    @Override
    public String name() {
        return "ollama:" + model;
    }

    /** @return the scale set on the builder, or {@code null}: retrieval measures one */
    @Override
    public @Nullable SimilarityScale similarityScale() {
        return scale;
    }

    /**
     * Shuts down the HTTP client's dispatcher threads and closes its idle connections when the embedder created the
     * client; does nothing to a client passed to {@link Builder#httpClient(OkHttpClient)}. Calling it again does
     * nothing more.
     */
    @Override
    public void close() {
        if (ownsClient) {
            ModelHttp.release(http.client);
        }
    }

    /** @return the HTTP client requests go through (for tests) */
    OkHttpClient httpClient() {
        return http.client;
    }

    /** Configures an {@link OllamaEmbedder}. Not thread-safe. */
    public static final class Builder extends HttpSettings<Builder> {
        private @Nullable String model;
        private int batchSize = 32;
        private int dimension;
        private boolean truncate;
        private @Nullable SimilarityScale scale;

        private Builder() {
            super(OllamaHttp.EXAMPLE_URL, Duration.ofSeconds(5), Duration.ofMillis(250));
            config(OllamaConfig.defaults());
        }

        @Override
        protected Builder self() {
            return this;
        }

        /**
         * @param truncate let the server cut texts longer than the model's context (Ollama's own default); off
         *                 here, so an over-long chunk fails with the server's error instead of being embedded
         *                 silently shortened — make chunks smaller or use a model with a longer context
         * @return this builder
         */
        public Builder truncate(boolean truncate) {
            this.truncate = truncate;
            return this;
        }

        /**
         * @param config the base layer: {@code OLLAMA_BASE_URL} and {@code RAG_TIMEOUT_SECONDS}; {@link #baseUrl}
         *               and the time limits set on this builder win over it, before or after this call
         * @return this builder
         */
        public Builder config(OllamaConfig config) {
            Objects.requireNonNull(config, "config");
            return baseLayer(config.baseUrl(), config.timeout());
        }

        /** @param model the embedding model, e.g. {@code nomic-embed-text} (required) @return this builder */
        public Builder model(String model) {
            Objects.requireNonNull(model, "model");
            if (model.isBlank()) {
                throw new IllegalArgumentException("model must not be blank; e.g. nomic-embed-text");
            }
            this.model = model;
            return this;
        }

        /** @param size texts per request, 1–2048 (default 32) @return this builder */
        public Builder batchSize(int size) {
            if (size < 1 || size > 2048) {
                throw new IllegalArgumentException("batchSize must be in [1, 2048], got " + size);
            }
            this.batchSize = size;
            return this;
        }

        /** @param dimension the expected vector length (default: learned from the first reply) @return this */
        public Builder dimension(int dimension) {
            if (dimension < 1) {
                throw new IllegalArgumentException("dimension must be at least 1, got " + dimension);
            }
            this.dimension = dimension;
            return this;
        }

        /**
         * States the model's similarity scale ({@link SimilarityScale}: the mean and spread of its cosine between
         * unrelated texts, as you measured them on your own data) instead of having retrieval measure one on RagKit's
         * question and passage pairs on first use. For Ollama's {@code all-minilm}, the in-process model's scale
         * ({@code 0.0640, 0.0933}) answered worse through Ollama's 120-token chunks than the measured one
         * (docs/design-notes.md, twenty-fourth session).
         *
         * @param scale the scale, or {@code null} (the default) to have it measured
         * @return this builder
         */
        public Builder similarityScale(@Nullable SimilarityScale scale) {
            this.scale = scale;
            return this;
        }

        /**
         * @return the embedder
         * @throws IllegalStateException without a model
         */
        public OllamaEmbedder build() {
            if (model == null) {
                throw new IllegalStateException("no model: call model(...), e.g. model(\"nomic-embed-text\")");
            }
            return new OllamaEmbedder(this);
        }
    }
}
