package dev.ragkit.langchain4j;

import dev.langchain4j.data.embedding.Embedding;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.langchain4j.model.output.Response;
import dev.ragkit.error.RagException;
import dev.ragkit.embedding.Embedder;
import dev.ragkit.embedding.EmbeddingCheck;
import java.util.List;
import java.util.Objects;
import java.util.function.ToIntFunction;
import org.jspecify.annotations.Nullable;

/**
 * Any LangChain4j {@link EmbeddingModel} as a RagKit {@link Embedder}.
 *
 * <pre>{@code
 * Embedder embedder = LangChain4jEmbedder.of(new AllMiniLmL6V2EmbeddingModel());
 * }</pre>
 *
 * <p>Each {@link #embed} call sends the whole batch to {@link EmbeddingModel#embedAll(List)} and checks the answer
 * before anyone caches or stores it: one vector per text, each of {@link #dimension()} finite values, not all
 * zeros. A bad answer or a failure of the model throws a {@link RagException} naming the model; LangChain4j's
 * timeouts and retriable errors become {@link dev.ragkit.error.LlmTimeoutException} and
 * {@link dev.ragkit.error.LlmUnavailableException}. LangChain4j rejects blank segments, so a blank text throws
 * {@link IllegalArgumentException} naming its position instead of being embedded as something else.
 *
 * <p>Models trained with a query instruction get it with {@link #withQueryInstruction(String)}; the model's own
 * input limit and tokenizer with {@link #withInputLimit(int, ToIntFunction)}, so that the indexer can report chunks
 * the model would cut. {@code dev.ragkit.onnx.InProcessEmbedderProvider} sets both for the in-process models it serves.
 *
 * <p>Thread-safe when the wrapped model is (LangChain4j's models are).
 */
public final class LangChain4jEmbedder implements Embedder {

    private final EmbeddingModel model;
    private final String name;
    private final int dimension;
    private final String queryInstruction;
    private final int maxInputTokens;
    private final @Nullable ToIntFunction<String> inputCounter;

    private LangChain4jEmbedder(EmbeddingModel model, String name, int dimension) {
        this(model, name, dimension, "", 0, null);
    }

    private LangChain4jEmbedder(EmbeddingModel model, String name, int dimension, String queryInstruction,
            int maxInputTokens, @Nullable ToIntFunction<String> inputCounter) {
        this.model = model;
        this.name = name;
        this.dimension = dimension;
        this.queryInstruction = queryInstruction;
        this.maxInputTokens = maxInputTokens;
        this.inputCounter = inputCounter;
    }

    /**
     * This embedder, putting {@code instruction} before every query ({@link #embedQueries}) and nothing before
     * documents: what models such as bge-small-en-v1.5 were trained with ("Represent this sentence for searching
     * relevant passages: ").
     *
     * @param instruction the text to put before queries, not blank; kept as given (end it with a space)
     * @return a new embedder with the same model, name and dimension
     */
    public LangChain4jEmbedder withQueryInstruction(String instruction) {
        Objects.requireNonNull(instruction, "instruction");
        if (instruction.isBlank()) {
            throw new IllegalArgumentException("the query instruction must not be blank");
        }
        return new LangChain4jEmbedder(model, name, dimension, instruction, maxInputTokens, inputCounter);
    }

    /**
     * This embedder, knowing the most tokens the model reads from one text and how to count them with the model's
     * own tokenizer (see {@link Embedder#maxInputTokens()}).
     *
     * @param maxTokens the limit, at least 1, special tokens included
     * @param counter   counts a text's tokens as the model's tokenizer does, special tokens included
     * @return a new embedder with the same model, name, dimension and query instruction
     */
    public LangChain4jEmbedder withInputLimit(int maxTokens, ToIntFunction<String> counter) {
        Objects.requireNonNull(counter, "counter");
        if (maxTokens < 1) {
            throw new IllegalArgumentException("maxTokens must be at least 1, got " + maxTokens);
        }
        return new LangChain4jEmbedder(model, name, dimension, queryInstruction, maxTokens, counter);
    }

    /** @return the text put before queries, empty for none */
    public String queryInstruction() {
        return queryInstruction;
    }

    /**
     * Wraps a model, named after its {@link EmbeddingModel#modelName()} (or its class when it reports none), with
     * the dimension it reports. Asking for the dimension may call the model once (LangChain4j embeds a probe text
     * when the dimension is not configured).
     *
     * @param model the LangChain4j model
     * @return the embedder
     * @throws RagException when the model cannot tell its dimension
     */
    public static LangChain4jEmbedder of(EmbeddingModel model) {
        Objects.requireNonNull(model, "model");
        return of(model, defaultName(model));
    }

    /**
     * Wraps a model under a given name (used in cache keys and reports), with the dimension it reports.
     *
     * @param model the LangChain4j model
     * @param name  the name, not blank, e.g. {@code all-minilm-l6-v2}
     * @return the embedder
     * @throws RagException when the model cannot tell its dimension
     */
    public static LangChain4jEmbedder of(EmbeddingModel model, String name) {
        Objects.requireNonNull(model, "model");
        requireName(name);
        int dimension;
        try {
            dimension = model.dimension();
        } catch (RuntimeException e) {
            throw Failures.translate(e, "asking LangChain4j embedding model '" + name + "' for its dimension");
        }
        if (dimension < 1) {
            throw new RagException("LangChain4j embedding model '" + name + "' reports dimension " + dimension
                    + "; pass the real dimension with LangChain4jEmbedder.of(model, name, dimension)");
        }
        return new LangChain4jEmbedder(model, name, dimension);
    }

    /**
     * Wraps a model with a known dimension, without asking the model for it.
     *
     * @param model     the LangChain4j model
     * @param name      the name, not blank
     * @param dimension the length of the model's vectors, at least 1
     * @return the embedder
     */
    public static LangChain4jEmbedder of(EmbeddingModel model, String name, int dimension) {
        Objects.requireNonNull(model, "model");
        requireName(name);
        if (dimension < 1) {
            throw new IllegalArgumentException("dimension must be at least 1, got " + dimension);
        }
        return new LangChain4jEmbedder(model, name, dimension);
    }

    @Override
    public float[][] embed(List<String> texts) {
        List<TextSegment> segments = EmbeddingCheck.texts(texts, "text").stream().map(TextSegment::from).toList();
        Response<List<Embedding>> response;
        try {
            response = model.embedAll(segments);
        } catch (RuntimeException e) {
            throw Failures.translate(e, "embedding " + texts.size() + " texts with LangChain4j model '" + name + "'");
        }
        List<Embedding> embeddings = response == null ? null : response.content();
        return check(embeddings, texts.size());
    }

    /**
     * Embeds queries after the {@linkplain #withQueryInstruction(String) query instruction}, when there is one.
     *
     * @param queries the queries, not empty
     * @return one vector per query
     */
    @Override
    public float[][] embedQueries(List<String> queries) {
        EmbeddingCheck.texts(queries, "query");
        return embed(queryInstruction.isEmpty() ? queries : queries.stream().map(q -> queryInstruction + q).toList());
    }

    @Override
    public int maxInputTokens() {
        return maxInputTokens;
    }

    @Override
    public int inputTokens(String text) {
        Objects.requireNonNull(text, "text");
        return inputCounter == null ? -1 : inputCounter.applyAsInt(text);
    }

    private float[][] check(@Nullable List<Embedding> embeddings, int expected) {
        String model = "LangChain4j embedding model '" + name + "'";
        if (embeddings == null) {
            throw new RagException(model + " returned no embeddings for " + expected + " texts; check the model");
        }
        if (embeddings.size() != expected) {
            throw new RagException(model + " returned " + embeddings.size() + " embeddings for " + expected
                    + " texts; check the model");
        }
        float[][] vectors = new float[expected][];
        for (int i = 0; i < expected; i++) {
            Embedding embedding = embeddings.get(i);
            float[] vector = embedding == null ? null : embedding.vector();
            if (vector == null) {
                throw new RagException(model + " returned no vector for text " + i + " of " + expected
                        + "; check the model");
            }
            if (vector.length != dimension) {
                throw new RagException(model + " returned a vector of dimension " + vector.length + " for text " + i
                        + ", but the embedder was set up with dimension " + dimension
                        + "; pass the model's real dimension to LangChain4jEmbedder.of(model, name, dimension)");
            }
            boolean nonZero = false;
            for (int j = 0; j < vector.length; j++) {
                if (!Float.isFinite(vector[j])) {
                    throw new RagException(model + " returned a non-finite value (" + vector[j] + ") at position " + j
                            + " of the vector for text " + i + "; the model's output is unusable");
                }
                nonZero |= vector[j] != 0f;
            }
            if (!nonZero) {
                throw new RagException(model + " returned an all-zero vector for text " + i
                        + ", which has no direction for cosine similarity; check the model");
            }
            vectors[i] = vector.clone();
        }
        return vectors;
    }

    @Override
    public int dimension() {
        return dimension;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public String toString() {
        return "LangChain4jEmbedder[" + name + ", dimension " + dimension
                + (maxInputTokens > 0 ? ", reads " + maxInputTokens + " tokens" : "")
                + (queryInstruction.isEmpty() ? "" : ", query instruction") + "]";
    }

    private static String defaultName(EmbeddingModel model) {
        String reported;
        try {
            reported = model.modelName();
        } catch (RuntimeException e) {
            reported = null;
        }
        if (reported == null || reported.isBlank() || "unknown".equals(reported)) {
            return model.getClass().getSimpleName().isEmpty() ? model.getClass().getName()
                    : model.getClass().getSimpleName();
        }
        return reported;
    }

    private static void requireName(String name) {
        Objects.requireNonNull(name, "name");
        if (name.isBlank()) {
            throw new IllegalArgumentException("name must not be blank");
        }
    }
}
