package dev.ragkit;

import dev.ragkit.budget.TokenBudget;
import dev.ragkit.generation.ChatRequest;
import dev.ragkit.generation.KnownModels;
import dev.ragkit.generation.LlmBackend;
import dev.ragkit.prompt.ContextBlock;
import dev.ragkit.prompt.Prompt;
import dev.ragkit.prompt.PromptBuilder;
import dev.ragkit.tokens.TokenCounter;
import dev.ragkit.tokens.TokenCounters;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;

/**
 * Fits a request into its model's window and writes the prompt and the model call. The budget counts with, in
 * this order: the configured budget's counter, the configured counter, the backend's counter for the model (learned
 * from what its server reports), or cached {@code cl100k_base}; budgets are kept per model. Thread-safe.
 */
final class PromptFitter {
    static final String WITHOUT_CONTEXT_RULES = "No documents matched this question. Answer it from general "
            + "knowledge if you can, say clearly that the answer is not based on the organisation's documents, "
            + "and do not cite sources.";
    private static final PromptBuilder PLAIN_PROMPTS = PromptBuilder.withSystemPrompt(WITHOUT_CONTEXT_RULES);

    private final ModelCatalog models;
    private final LlmBackend backend;
    private final @Nullable TokenBudget configuredBudget;
    private final @Nullable TokenCounter configuredCounter;
    private final TokenCounter defaultCounter;
    private final PromptBuilder prompts;
    private final double temperature;
    private final @Nullable Long seed;
    /** Budgets per (model, grounded or plain): a backend may count each model's tokens differently. */
    private final Map<String, TokenBudget> budgets = new ConcurrentHashMap<>();

    PromptFitter(ModelCatalog models, LlmBackend backend, @Nullable TokenBudget budget, @Nullable TokenCounter counter,
            PromptBuilder prompts, double temperature, @Nullable Long seed) {
        this.models = models;
        this.backend = backend;
        this.configuredBudget = budget;
        this.configuredCounter = budget != null ? budget.counter() : counter;
        this.defaultCounter = TokenCounters.cached(TokenCounters.jtokkit(), 10_000);
        this.prompts = prompts;
        this.temperature = temperature;
        this.seed = seed;
    }

    /** The grounded prompt: the question, the most recent history that fits, and the context blocks that fit. */
    Prompt fit(String model, RagRequest request, List<ContextBlock> candidates) {
        return budgetFor(model, false).fit(models.limitsFor(model), request.query(), request.history(), candidates);
    }

    /** The prompt without documents, for the {@code ANSWER_WITHOUT_CONTEXT} policy. */
    Prompt fitWithoutContext(String model, RagRequest request) {
        return budgetFor(model, true).fit(models.limitsFor(model), request.query(), request.history(), List.of());
    }

    /** The model call for a fitted prompt: the budgeted window and response reserve travel with it. */
    ChatRequest chat(String model, Prompt prompt) {
        return new ChatRequest(model, prompt.messages(), temperature, prompt.responseReserve(), prompt.contextWindow(),
                seed);
    }

    /** @return the sampling seed requests carry, or {@code null} */
    @Nullable Long seed() {
        return seed;
    }

    TokenBudget budgetFor(String model, boolean plain) {
        if (configuredBudget != null && !plain) {
            return configuredBudget;
        }
        return budgets.computeIfAbsent(KnownModels.canonical(model) + (plain ? "\u0000plain" : ""), key -> {
            TokenCounter counter = configuredCounter != null ? configuredCounter
                    : backend.tokenCounterFor(model).orElse(defaultCounter);
            return TokenBudget.of(counter, plain ? PLAIN_PROMPTS : prompts);
        });
    }
}
