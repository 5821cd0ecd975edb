package dev.ragkit.generation;

import java.util.Map;

/**
 * Creates {@link LlmBackend}s from string settings; found through {@link java.util.ServiceLoader} (list the
 * implementation in {@code META-INF/services/dev.ragkit.generation.LlmBackendProvider}). Load one with
 * {@link LlmBackends#load(String, Map)}.
 */
public interface LlmBackendProvider {

    /** @return the unique id used to ask for this backend, e.g. {@code ollama} */
    String id();

    /**
     * @param config the backend's settings; unknown keys are rejected with a message listing the known ones
     * @return a new backend
     * @throws IllegalArgumentException on a bad setting
     */
    LlmBackend create(Map<String, String> config);
}
