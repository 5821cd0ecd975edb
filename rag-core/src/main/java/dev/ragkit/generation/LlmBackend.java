package dev.ragkit.generation;

import dev.ragkit.tokens.TokenCounter;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * A language model server or library that RagKit can ask. Implementations are thread-safe; plugins are found
 * through {@link LlmBackendProvider}.
 *
 * <p>Errors are RagKit's typed exceptions: {@link dev.ragkit.error.LlmUnavailableException} (cannot connect),
 * {@link dev.ragkit.error.LlmTimeoutException} (too slow), {@link dev.ragkit.error.ModelNotFoundException} (no such model),
 * or another {@link dev.ragkit.error.RagException} whose message carries the server's own error.
 */
public interface LlmBackend {

    /** @return a short name for logs and responses, e.g. {@code ollama} */
    String name();

    /**
     * Asks and waits for the whole answer.
     *
     * @param request the call
     * @return the answer
     */
    ChatResult chat(ChatRequest request);

    /**
     * Asks and streams the answer to {@code handler} as it is generated. Returns at once or after the call
     * started; the handler's methods run on the backend's thread. Errors after the call started go to
     * {@link StreamHandler#onError}; invalid arguments throw.
     *
     * @param request the call
     * @param handler receives tokens, then the result or the error
     * @return a handle that stops the call; cancelling closes the connection at once
     */
    Cancellable stream(ChatRequest request, StreamHandler handler);

    /**
     * @param model a model name
     * @return its context window and response limit
     * @throws dev.ragkit.error.ModelNotFoundException when the backend does not have it
     */
    ModelInfo modelInfo(String model);

    /**
     * Checks that the backend can serve a model now, from its list of models, before any work is done for a request
     * (the specification's first step). The pipeline calls it before retrieval and remembers a success briefly.
     * The default does nothing: a backend that cannot list its models is not checked here, and a missing model
     * surfaces when it is called.
     *
     * @param model a model name
     * @throws dev.ragkit.error.ModelNotFoundException when the backend does not have the model; the message says
     *                                                 how to get it (for Ollama, {@code ollama pull <model>})
     * @throws dev.ragkit.error.LlmUnavailableException when the backend cannot be reached
     */
    default void requireModel(String model) {
    }

    /**
     * Checks the backend and a model without generating anything expensive. Never throws for an unreachable
     * backend: that is reported in the status.
     *
     * @param model the model to check
     * @return the status, with its latency
     */
    HealthStatus health(String model);

    /**
     * A token counter for the model's own tokenizer, when the backend has one (exact, or learned from the counts
     * the server reports). The pipeline budgets with it unless a counter was configured explicitly.
     *
     * @param model the model
     * @return the counter, or empty when the backend cannot count (the default)
     */
    default Optional<TokenCounter> tokenCounterFor(String model) {
        return Optional.empty();
    }

    /**
     * Counts tokens with the model's own tokenizer, when the backend can ({@link #tokenCounterFor}).
     *
     * @param model the model
     * @param text  the text
     * @return the count, or empty when the backend cannot count
     */
    default OptionalInt countTokens(String model, String text) {
        return tokenCounterFor(model).map(c -> OptionalInt.of(c.count(text))).orElse(OptionalInt.empty());
    }
}
