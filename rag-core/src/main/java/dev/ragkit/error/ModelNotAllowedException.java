package dev.ragkit.error;

import java.util.List;
import java.util.Objects;

/**
 * A request named a model that is not in the pipeline's allowlist. Not retriable: pick one of
 * {@link #allowed()}, or add the model to the allowlist.
 */
public class ModelNotAllowedException extends RagException {
    private static final long serialVersionUID = 1L;

    private final String model;
    private final List<String> allowed;

    /**
     * @param model   the model the request named
     * @param allowed the models the pipeline allows
     */
    public ModelNotAllowedException(String model, List<String> allowed) {
        super("model '" + model + "' is not allowed; use one of " + allowed
                + ", or add it with RagPipeline.Builder.allowedModels(...)");
        this.model = Objects.requireNonNull(model, "model");
        this.allowed = List.copyOf(allowed);
    }

    /** @return the model the request named */
    public String model() {
        return model;
    }

    /** @return the models the pipeline allows */
    public List<String> allowed() {
        return allowed;
    }
}
