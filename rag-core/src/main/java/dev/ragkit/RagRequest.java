package dev.ragkit;

import dev.ragkit.generation.ChatMessage;
import dev.ragkit.retrieval.RetrievalOptions;
import dev.ragkit.store.Scope;
import java.util.List;
import java.util.Objects;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * One question to a {@link RagPipeline}.
 *
 * <pre>{@code
 * RagRequest request = RagRequest.builder("How do I rotate the API key?", Scope.of("acme", "eng"))
 *         .history(List.of(ChatMessage.user("Hi"), ChatMessage.assistant("Hello! How can I help?")))
 *         .build();
 * }</pre>
 *
 * @param requestId an id for logs and the audit trail; a random UUID unless given
 * @param query     the question, not blank
 * @param scope     who asks: tenant and access tags
 * @param history   earlier messages of the conversation, oldest first; user and assistant messages only
 * @param model     the model to use instead of the pipeline's default (checked against the allowlist), or
 *                  {@code null}
 * @param overrides per-request changes to the retrieval options
 */
public record RagRequest(String requestId, String query, Scope scope, List<ChatMessage> history,
        @Nullable String model, RetrievalOptions.Overrides overrides) {

    /**
     * Validates and copies the arguments.
     *
     * @throws IllegalArgumentException on a blank query, id or model, or a system message in the history
     */
    public RagRequest {
        Objects.requireNonNull(requestId, "requestId");
        Objects.requireNonNull(query, "query");
        Objects.requireNonNull(scope, "scope");
        history = List.copyOf(Objects.requireNonNull(history, "history"));
        Objects.requireNonNull(overrides, "overrides");
        if (requestId.isBlank()) {
            throw new IllegalArgumentException("requestId must not be blank");
        }
        if (query.isBlank()) {
            throw new IllegalArgumentException("the query is blank; ask a question");
        }
        if (model != null && model.isBlank()) {
            throw new IllegalArgumentException("model must not be blank; leave it unset to use the default model");
        }
        for (ChatMessage m : history) {
            if (m.role() == ChatMessage.Role.SYSTEM) {
                throw new IllegalArgumentException("the history holds a system message; history is user and "
                        + "assistant messages only (set the system prompt on the pipeline builder)");
            }
        }
    }

    /**
     * @param query the question
     * @param scope who asks
     * @return a request with no history, the default model and no overrides
     */
    public static RagRequest of(String query, Scope scope) {
        return builder(query, scope).build();
    }

    /**
     * @param query the question
     * @param scope who asks
     * @return a builder
     */
    public static Builder builder(String query, Scope scope) {
        return new Builder(query, scope);
    }

    /** Builds a {@link RagRequest}. Not thread-safe. */
    public static final class Builder {
        private final String query;
        private final Scope scope;
        private @Nullable String requestId;
        private List<ChatMessage> history = List.of();
        private @Nullable String model;
        private RetrievalOptions.Overrides overrides = RetrievalOptions.Overrides.builder().build();
        private dev.ragkit.store.@Nullable MetadataFilter filter;

        private Builder(String query, Scope scope) {
            this.query = Objects.requireNonNull(query, "query");
            this.scope = Objects.requireNonNull(scope, "scope");
        }

        /** @param id the request id (default: a random UUID) @return this builder */
        public Builder requestId(String id) {
            this.requestId = Objects.requireNonNull(id, "requestId");
            return this;
        }

        /** @param history earlier messages, oldest first @return this builder */
        public Builder history(List<ChatMessage> history) {
            this.history = List.copyOf(Objects.requireNonNull(history, "history"));
            return this;
        }

        /** @param model the model to use (must be allowed) @return this builder */
        public Builder model(String model) {
            this.model = Objects.requireNonNull(model, "model");
            return this;
        }

        /**
         * Searches only documents whose metadata passes {@code filter} (and the pipeline's own filter, and one in
         * {@link #overrides}, if any: filters only narrow), before the top-k cut.
         *
         * @param filter e.g. {@code MetadataFilter.parse("year>=2024 and product=x")}
         * @return this builder
         */
        public Builder filter(dev.ragkit.store.MetadataFilter filter) {
            this.filter = java.util.Objects.requireNonNull(filter, "filter");
            return this;
        }

        /** @param overrides per-request retrieval changes @return this builder */
        public Builder overrides(RetrievalOptions.Overrides overrides) {
            this.overrides = Objects.requireNonNull(overrides, "overrides");
            return this;
        }

        /** @return the request */
        public RagRequest build() {
            return new RagRequest(requestId == null ? UUID.randomUUID().toString() : requestId, query, scope, history,
                    model, filter == null ? overrides : overrides.withMetadataFilter(filter));
        }
    }
}
