package dev.ragkit.generation;

import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Context windows and response limits of the models the product specification names (DESIGN.md §4): llama3.2
 * 8192/1024, qwen3:8b 32768/2048, deepseek-r1:32b 65536/4096, mistral 32768/2000. Other models are asked from
 * the backend ({@link LlmBackend#modelInfo}).
 */
public final class KnownModels {

    private static final Map<String, ModelInfo> LIMITS = Map.of(
            "llama3.2", new ModelInfo("llama3.2", 8192, 1024),
            "qwen3:8b", new ModelInfo("qwen3:8b", 32768, 2048),
            "deepseek-r1:32b", new ModelInfo("deepseek-r1:32b", 65536, 4096),
            "mistral", new ModelInfo("mistral", 32768, 2000));

    private KnownModels() {
    }

    /** @return the names in the table */
    public static Set<String> names() {
        return LIMITS.keySet();
    }

    /**
     * @param model a model name; {@code llama3.2:latest} and {@code llama3.2} name the same model
     * @return its limits when the table has them
     */
    public static Optional<ModelInfo> lookup(String model) {
        return Optional.ofNullable(LIMITS.get(canonical(model)));
    }

    /**
     * @param model a model name
     * @return the name without the default {@code :latest} tag, lower-cased
     */
    public static String canonical(String model) {
        Objects.requireNonNull(model, "model");
        String m = model.strip().toLowerCase(Locale.ROOT);
        return m.endsWith(":latest") ? m.substring(0, m.length() - ":latest".length()) : m;
    }
}
