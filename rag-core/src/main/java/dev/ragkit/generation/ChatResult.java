package dev.ragkit.generation;

import java.time.Duration;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What a chat model answered.
 *
 * @param text             the answer
 * @param model            the model that answered (as the backend names it)
 * @param finishReason     why it stopped
 * @param promptTokens     the prompt's token count as the backend measured it, or {@code null} when not reported
 * @param completionTokens the answer's token count as the backend measured it, or {@code null}
 * @param duration         how long the call took
 */
public record ChatResult(String text, String model, FinishReason finishReason, @Nullable Integer promptTokens,
        @Nullable Integer completionTokens, Duration duration) {

    /** Validates the arguments. */
    public ChatResult {
        Objects.requireNonNull(text, "text");
        Objects.requireNonNull(model, "model");
        Objects.requireNonNull(finishReason, "finishReason");
        Objects.requireNonNull(duration, "duration");
        if (promptTokens != null && promptTokens < 0 || completionTokens != null && completionTokens < 0) {
            throw new IllegalArgumentException("token counts must not be negative");
        }
    }
}
