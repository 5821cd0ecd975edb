package dev.ragkit.openai;

import dev.ragkit.generation.ModelInfo;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * What RagKit knows of OpenAI's own models without asking: context window, most output tokens, and the
 * tokenizer's encoding (so counts are exact with jtokkit). Names match by family prefix, so dated snapshots such as
 * {@code gpt-4o-2024-08-06} find their family; the most specific prefix wins. Figures from OpenAI's model pages.
 */
final class OpenAiModels {
    private record Family(String prefix, int window, int maxOutput, String encoding) {
    }

    // Longest prefixes first: "gpt-4o-mini" before "gpt-4o" before "gpt-4".
    private static final List<Family> FAMILIES = List.of(
            new Family("gpt-4.1-nano", 1_047_576, 32_768, "o200k_base"),
            new Family("gpt-4.1-mini", 1_047_576, 32_768, "o200k_base"),
            new Family("gpt-4.1", 1_047_576, 32_768, "o200k_base"),
            new Family("gpt-4o-mini", 128_000, 16_384, "o200k_base"),
            new Family("gpt-4o", 128_000, 16_384, "o200k_base"),
            new Family("gpt-4-turbo", 128_000, 4_096, "cl100k_base"),
            new Family("gpt-4", 8_192, 8_192, "cl100k_base"),
            new Family("gpt-3.5-turbo", 16_385, 4_096, "cl100k_base"),
            new Family("gpt-5", 400_000, 128_000, "o200k_base"),
            new Family("o4-mini", 200_000, 100_000, "o200k_base"),
            new Family("o3-mini", 200_000, 100_000, "o200k_base"),
            new Family("o3", 200_000, 100_000, "o200k_base"),
            new Family("o1", 200_000, 100_000, "o200k_base"));

    private OpenAiModels() {
    }

    private static @Nullable Family family(String model) {
        String name = model.toLowerCase(Locale.ROOT);
        Family best = null;
        for (Family f : FAMILIES) {
            if ((name.equals(f.prefix) || name.startsWith(f.prefix + "-") || name.startsWith(f.prefix + "."))
                    && (best == null || f.prefix.length() > best.prefix.length())) {
                best = f;
            }
        }
        return best;
    }

    /** @return the model's limits when it is one of OpenAI's known families */
    static Optional<ModelInfo> lookup(String model) {
        Family f = family(model);
        return f == null ? Optional.empty() : Optional.of(new ModelInfo(model, f.window, Math.min(f.maxOutput,
                f.window)));
    }

    /** @return the jtokkit encoding of the model's tokenizer when it is one of OpenAI's known families */
    static Optional<String> encoding(String model) {
        Family f = family(model);
        return f == null ? Optional.empty() : Optional.of(f.encoding);
    }
}
