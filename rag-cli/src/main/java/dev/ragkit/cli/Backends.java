package dev.ragkit.cli;


import dev.ragkit.generation.ExtractiveBackend;
import dev.ragkit.generation.HealthStatus;
import dev.ragkit.generation.LlmBackend;
import dev.ragkit.ollama.OllamaBackend;
import dev.ragkit.ollama.OllamaConfig;
import java.time.Duration;

/** Chooses the language model: Ollama when it answers, the extractive backend otherwise. */
final class Backends {

    /** How the user asked to choose. */
    enum Mode { auto, ollama, extractive }

    /** The choice, with the model name and a line saying why. */
    static final class Choice {
        final LlmBackend backend;
        final String model;
        final boolean extractive;
        final String note;

        Choice(LlmBackend backend, String model, boolean extractive, String note) {
            this.backend = backend;
            this.model = model;
            this.extractive = extractive;
            this.note = note;
        }
    }

    private Backends() {
    }

    static Choice choose(Mode mode, OllamaConfig config, String model) {
        String url = config.baseUrl().toString();
        if (mode == Mode.extractive) {
            return extractive("extractive answers were asked for (--backend extractive)");
        }
        if (mode == Mode.auto && !probe(config, model).reachable()) {
            return extractive("no model server answered at " + url);
        }
        OllamaBackend ollama = OllamaBackend.builder().config(config).build();
        return new Choice(ollama, model, false, "ollama at " + url);
    }

    /** A quick look at the server: short limits and no retries, so a missing server costs a moment only. */
    static HealthStatus probe(OllamaConfig config, String model) {
        try (OllamaBackend quick = OllamaBackend.builder().config(config)
                .connectTimeout(Duration.ofSeconds(1)).readTimeout(Duration.ofSeconds(2))
                .callTimeout(Duration.ofSeconds(3)).maxRetries(0).build()) {
            return quick.health(model);
        }
    }

    private static Choice extractive(String why) {
        return new Choice(new ExtractiveBackend(), ExtractiveBackend.MODEL, true, why
                + "; the answer quotes the documents, no language model wrote it");
    }
}
