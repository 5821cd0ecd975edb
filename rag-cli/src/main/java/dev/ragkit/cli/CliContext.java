package dev.ragkit.cli;

import dev.ragkit.RagConfig;
import dev.ragkit.ollama.OllamaConfig;
import dev.ragkit.onnx.InProcessEmbedderProvider;
import dev.ragkit.openai.OpenAiConfig;
import dev.ragkit.embedding.CachingEmbedder;
import dev.ragkit.embedding.Embedder;
import dev.ragkit.embedding.EmbedderProvider;
import dev.ragkit.embedding.Embedders;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;

/**
 * What a command runs against: its output streams, the environment, the working directory, and the embedded
 * defaults, so that tests run the real commands in-process.
 */
final class CliContext {
    /** The environment variable naming the embedder, like {@code --embedder}. */
    static final String RAG_EMBEDDER = "RAG_EMBEDDER";
    /** The environment variable that turns secret redaction off ({@code false}) or on, like --redact-secrets. */
    static final String RAG_REDACT_SECRETS = "RAG_REDACT_SECRETS";
    /** Embedders loaded in this JVM, by name (an in-process model loads once). */
    private static final Map<String, Embedder> EMBEDDERS = new ConcurrentHashMap<>();

    final PrintWriter out;
    final PrintWriter err;
    final Map<String, String> env;
    final Path cwd;
    final boolean interactive;
    /** The {@code --log-file} of this command, once the command line is parsed; {@code null} without one. */
    volatile @Nullable Path logFile;
    /**
     * The most texts an in-process embedder loaded by this command embeds at once ({@code index --threads}); {@code
     * null}: one per core.
     */
    volatile @Nullable Integer embedderThreads;

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

    /** @return whether the details of the log are kept somewhere: a {@code --log-file} or {@code RAGKIT_DEBUG} */
    boolean detailsLogged() {
        return logFile != null || RagkitCli.debug(env);
    }

    /** @param path a path as the user typed it @return it resolved against the working directory */
    Path resolve(String path) {
        return cwd.resolve(path).normalize();
    }

    /**
     * @param option the {@code --embedder} option, or {@code null}
     * @return that, else {@code RAG_EMBEDDER}, else {@code null}: the index's own embedder, or the default
     */
    @Nullable String chosenEmbedder(@Nullable String option) {
        String name = option != null ? option : env.get(RAG_EMBEDDER);
        if (name == null) {
            return null;
        }
        if (name.isBlank()) {
            throw new UsageException((option != null ? "--embedder" : RAG_EMBEDDER) + " is blank; name an embedder, "
                    + "e.g. bge-small-en-v1.5 (known: " + String.join(", ", Embedders.available().keySet()) + ")");
        }
        return name.strip();
    }

    /**
     * @param option {@code --redact-secrets} ({@code true}), {@code --no-redact-secrets} ({@code false}), or
     *               {@code null} when neither was given
     * @return that, else {@code RAG_REDACT_SECRETS}, else {@code true}
     * @throws UsageException when the variable is neither {@code true} nor {@code false}
     */
    boolean redactSecrets(@Nullable Boolean option) {
        if (option != null) {
            return option;
        }
        String value = env.get(RAG_REDACT_SECRETS);
        if (value == null || value.isBlank()) {
            return true;
        }
        return switch (value.strip().toLowerCase(java.util.Locale.ROOT)) {
            case "true" -> true;
            case "false" -> false;
            default -> throw new UsageException(RAG_REDACT_SECRETS + " must be true or false, got '"
                    + Terminal.line(value) + "'; false indexes secrets found in documents as they are (the same as "
                    + "--no-redact-secrets)");
        };
    }

    /**
     * Checks a name without loading a model.
     *
     * @throws UsageException when no embedder has that name, listing the known ones
     */
    static void requireKnownEmbedder(String name) {
        Map<String, EmbedderProvider> available = Embedders.available();
        boolean known = available.containsKey(name) || available.keySet().stream()
                .anyMatch(family -> family.endsWith(":") && name.startsWith(family) && name.length() > family.length());
        if (!known) {
            try {
                Embedders.load(name);                     // fails before creating anything: its message lists them
            } catch (IllegalArgumentException e) {
                throw new UsageException("--embedder: " + e.getMessage());
            }
        }
    }

    /**
     * @param name an embedder name ({@link Embedders#load}); {@code ollama:<model>} uses {@code OLLAMA_BASE_URL}
     * @return that embedder with a query cache, loaded once per JVM; an in-process model this ragkit does not carry
     *         from the models folder ({@link CliModels})
     * @throws UsageException when no embedder has that name, or it is an in-process model that is in neither (the
     *                        message names the command that adds it)
     */
    Embedder embedder(String name) {
        Integer threads = embedderThreads;
        boolean bounded = threads != null && CliModels.inProcess(name).isPresent();
        String key = bounded ? name + " threads=" + threads : name;
        Embedder loaded = EMBEDDERS.get(key);
        if (loaded != null) {
            return loaded;
        }
        Map<String, String> settings = name.startsWith("ollama:")
                ? Map.of("base-url", ollamaConfig().baseUrl().toString()) : CliModels.settings(this, name);
        if (bounded) {
            settings = new HashMap<>(settings);
            settings.put(InProcessEmbedderProvider.THREADS, Integer.toString(threads));
        }
        Map<String, String> chosen = settings;
        try {
            return EMBEDDERS.computeIfAbsent(key, k -> CachingEmbedder.of(Embedders.load(name, chosen)));
        } catch (IllegalArgumentException e) {
            throw new UsageException("--embedder: " + e.getMessage());
        }
    }
}
