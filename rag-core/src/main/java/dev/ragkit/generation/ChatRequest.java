package dev.ragkit.generation;

import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One call to a chat model.
 *
 * @param model             the model name, not blank
 * @param messages          the conversation, not empty (immutable)
 * @param temperature       sampling temperature, in [0, 2]
 * @param maxResponseTokens the most tokens the model may generate, at least 1
 * @param contextWindow     the context window the prompt was budgeted for, at least 1; backends pass it to the
 *                          server (Ollama's {@code num_ctx}) so the server never truncates the prompt silently
 * @param seed              a sampling seed for reproducible answers, or {@code null}
 */
public record ChatRequest(String model, List<ChatMessage> messages, double temperature, int maxResponseTokens,
        int contextWindow, @Nullable Long seed) {

    /**
     * Validates and copies the arguments.
     *
     * @throws IllegalArgumentException on a blank model, no messages, or a value out of range
     */
    public ChatRequest {
        Objects.requireNonNull(model, "model");
        if (model.isBlank()) {
            throw new IllegalArgumentException("model must not be blank");
        }
        messages = List.copyOf(Objects.requireNonNull(messages, "messages"));
        if (messages.isEmpty()) {
            throw new IllegalArgumentException("a chat request needs at least one message");
        }
        if (!(temperature >= 0 && temperature <= 2)) {
            throw new IllegalArgumentException("temperature must be in [0, 2], got " + temperature);
        }
        if (maxResponseTokens < 1) {
            throw new IllegalArgumentException("maxResponseTokens must be at least 1, got " + maxResponseTokens);
        }
        if (contextWindow < 1) {
            throw new IllegalArgumentException("contextWindow must be at least 1, got " + contextWindow);
        }
    }

    /**
     * @param model    the model
     * @param messages the conversation
     * @return a request with temperature 0.1, 1024 response tokens, an 8192-token window and no seed
     */
    public static ChatRequest of(String model, List<ChatMessage> messages) {
        return new ChatRequest(model, messages, 0.1, 1024, 8192, null);
    }
}
