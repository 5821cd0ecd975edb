package dev.ragkit.ollama;

import java.util.Objects;

/**
 * One progress line of {@code ollama pull}.
 *
 * @param model     the model being pulled
 * @param status    the server's status text, e.g. {@code pulling manifest}, {@code downloading}, {@code success}
 * @param completed bytes done of the current layer, or 0 when not reported
 * @param total     bytes of the current layer, or 0 when not reported
 */
public record PullProgress(String model, String status, long completed, long total) {

    /** Validates the arguments. */
    public PullProgress {
        Objects.requireNonNull(model, "model");
        Objects.requireNonNull(status, "status");
    }

    /** @return the share of the current layer done, in [0, 1], or {@code NaN} when the size is unknown */
    public double fraction() {
        return total > 0 ? Math.max(0.0, Math.min(1.0, (double) completed / total)) : Double.NaN;
    }
}
