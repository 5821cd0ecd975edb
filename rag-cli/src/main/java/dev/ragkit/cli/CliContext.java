package dev.ragkit.cli;

import dev.langchain4j.model.embedding.onnx.allminilml6v2.AllMiniLmL6V2EmbeddingModel;
import dev.ragkit.RagConfig;
import dev.ragkit.ollama.OllamaConfig;
import dev.ragkit.openai.OpenAiConfig;
import dev.ragkit.ingest.CachingEmbedder;
import dev.ragkit.ingest.Embedder;
import dev.ragkit.langchain4j.LangChain4jEmbedder;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Map;

/**
 * What a command runs against: its output streams, the environment, the working directory, and the embedded
 * defaults, so that tests run the real commands in-process.
 */
final class CliContext {
    /** The embedded embedding model's name and dimension. */
    static final String EMBEDDER_NAME = "all-minilm-l6-v2";
    static final int DIMENSION = 384;

    final PrintWriter out;
    final PrintWriter err;
    final Map<String, String> env;
    final Path cwd;
    final boolean interactive;

    CliContext(PrintWriter out, PrintWriter err, Map<String, String> env, Path cwd, boolean interactive) {
        this.out = out;
        this.err = err;
        this.env = env;
        this.cwd = cwd;
        this.interactive = interactive;
    }

    /** @return the configuration from this context's environment (a bad variable fails naming it) */
    RagConfig config() {
        return RagConfig.fromEnvironment(env);
    }

    /** @return where Ollama is and its time limit, from this context's environment */
    OllamaConfig ollamaConfig() {
        return OllamaConfig.fromEnvironment(env);
    }

    /** @return the OpenAI-compatible server, its key and limits, from this context's environment */
    OpenAiConfig openAiConfig() {
        return OpenAiConfig.fromEnvironment(env);
    }

    /**
     * @param option the model named by {@code --model}, or {@code null}
     * @return that, else {@code CHAT_MODEL}, else {@code null} (the backend's default applies)
     */
    String explicitModel(String option) {
        if (option != null) {
            return option;
        }
        String variable = env.get(RagConfig.CHAT_MODEL);
        return variable == null || variable.isBlank() ? null : config().chatModel();
    }

    /** @param path a path as the user typed it @return it resolved against the working directory */
    Path resolve(String path) {
        return cwd.resolve(path).normalize();
    }

    /** @return the in-process all-MiniLM-L6-v2 model (loaded once per JVM), with a query cache */
    static Embedder embedder() {
        return Holder.EMBEDDER;
    }

    /** Loads the ONNX model on first use only. */
    private static final class Holder {
        static final Embedder EMBEDDER = CachingEmbedder.of(
                LangChain4jEmbedder.of(new AllMiniLmL6V2EmbeddingModel(), EMBEDDER_NAME, DIMENSION));
    }
}
