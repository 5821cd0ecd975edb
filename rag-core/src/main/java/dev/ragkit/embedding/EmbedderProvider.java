package dev.ragkit.embedding;

import java.util.List;
import java.util.Map;

/**
 * Creates {@link Embedder}s by name; found through {@link java.util.ServiceLoader} (list the implementation in
 * {@code META-INF/services/dev.ragkit.embedding.EmbedderProvider}). Load one with {@link Embedders#load(String)}.
 *
 * <p>{@code rag-langchain4j} serves the in-process models ({@code all-minilm-l6-v2}, {@code bge-small-en-v1.5} and
 * their quantized {@code -q} variants), {@code rag-ollama} every Ollama embedding model as
 * {@code ollama:<model>}.
 */
public interface EmbedderProvider {

    /**
     * The names this provider serves, as a user types them. A name ending in {@code :} stands for a family: the
     * provider serves every name that starts with it ({@code ollama:} serves {@code ollama:nomic-embed-text}).
     *
     * @return the names, not empty
     */
    List<String> names();

    /**
     * A short description of one name for listings: what it is and what it costs.
     *
     * @param name one of {@link #names()}
     * @return e.g. {@code "in-process, 384 dimensions, reads 512 word pieces"}
     */
    default String describe(String name) {
        return "";
    }

    /**
     * Creates the embedder.
     *
     * @param name   a name this provider serves
     * @param config the provider's settings (e.g. {@code base-url}); unknown keys are rejected naming the known
     *               ones
     * @return a new embedder
     * @throws IllegalArgumentException on a bad name or setting
     * @throws IllegalStateException    when what the model needs is missing from the class path; the message
     *                                  names the artifact to add
     */
    Embedder create(String name, Map<String, String> config);
}
