package dev.ragkit.cli;

import dev.ragkit.generation.ExtractiveBackend;
import dev.ragkit.generation.ExtractiveFallbackBackend;
import dev.ragkit.generation.HealthStatus;
import dev.ragkit.generation.LlmBackend;
import dev.ragkit.ollama.OllamaBackend;
import dev.ragkit.ollama.OllamaConfig;
import dev.ragkit.openai.OpenAiBackend;
import dev.ragkit.openai.OpenAiConfig;
import java.time.Duration;

/**
 * Chooses the language model: Ollama when it answers, the extractive backend otherwise ({@code auto}, also when
 * Ollama stops answering later: {@link ExtractiveFallbackBackend}); or the one
 * asked for: {@code ollama}, {@code openai} (any OpenAI-compatible server, from {@code OPENAI_BASE_URL} and
 * {@code OPENAI_API_KEY}), {@code extractive}.
 */
final class Backends {
    /** The model {@code --backend openai} asks for when neither {@code --model} nor {@code CHAT_MODEL} names one. */
    static final String OPENAI_DEFAULT_MODEL = "gpt-4o-mini";

    /** How the user asked to choose. */
    enum Mode { auto, ollama, openai, extractive }

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

    /**
     * @param explicitModel the model named by {@code --model} or {@code CHAT_MODEL}, or {@code null}
     * @param defaultModel  the model otherwise (the configuration's default)
     */
    static Choice choose(Mode mode, CliContext context, String explicitModel, String defaultModel) {
        if (mode == Mode.extractive) {
            return extractive("extractive answers were asked for (--backend extractive)");
        }
        if (mode == Mode.openai) {
            OpenAiConfig config = context.openAiConfig();
            String model = explicitModel != null ? explicitModel : OPENAI_DEFAULT_MODEL;
            return new Choice(OpenAiBackend.builder().config(config).build(), model, false,
                    "OpenAI-compatible server at " + config.baseUrl());
        }
        OllamaConfig config = context.ollamaConfig();
        String model = explicitModel != null ? explicitModel : defaultModel;
        String url = config.baseUrl().toString();
        if (mode == Mode.auto && !probe(Mode.ollama, context, model).reachable()) {
            return extractive("no model server answered at " + url);
        }
        OllamaBackend ollama = OllamaBackend.builder().config(config).build();
        // auto: a server that stops answering later (a long ragkit mcp session) gets the same extractive answers
        return new Choice(mode == Mode.auto ? ExtractiveFallbackBackend.of(ollama) : ollama, model, false,
                "ollama at " + url);
    }

    /** A quick look at the server: short limits and no retries, so a missing server costs a moment only. */
    static HealthStatus probe(Mode mode, CliContext context, String model) {
        if (mode == Mode.openai) {
            try (OpenAiBackend quick = OpenAiBackend.builder().config(context.openAiConfig())
                    .connectTimeout(Duration.ofSeconds(2)).readTimeout(Duration.ofSeconds(5))
                    .callTimeout(Duration.ofSeconds(8)).maxRetries(0).build()) {
                return quick.health(model);
            }
        }
        try (OllamaBackend quick = OllamaBackend.builder().config(context.ollamaConfig())
                .connectTimeout(Duration.ofSeconds(1)).readTimeout(Duration.ofSeconds(2))
                .callTimeout(Duration.ofSeconds(3)).maxRetries(0).build()) {
            return quick.health(model);
        }
    }

    static Choice extractive(String why) {
        return new Choice(new ExtractiveBackend(), ExtractiveBackend.MODEL, true, why
                + "; the answer quotes the documents, no language model wrote it");
    }
}
