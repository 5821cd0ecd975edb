package dev.ragkit;

import dev.ragkit.grounding.Action;
import dev.ragkit.grounding.Citation;
import dev.ragkit.grounding.ConfidenceScore;
import dev.ragkit.grounding.RouteTarget;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * A grounded answer, or an honest hand-off.
 *
 * @param requestId         the request's id
 * @param answer            the answer text (for ROUTE and DECLINE, still shown to the user)
 * @param confidence        the hybrid confidence with its parts
 * @param citations         the sources the answer cited, in order of first citation
 * @param action            CITE, ROUTE or DECLINE
 * @param routeTo           who gets the question when the action is ROUTE, else {@code null}
 * @param modelUsed         the model that answered, or that would have (no model call for a fixed answer)
 * @param contextChunksUsed how many context blocks were in the prompt
 * @param contextTokensUsed how many tokens of context were in the prompt
 * @param promptTokens      the prompt's tokens as sent, counted with the pipeline's counter
 * @param generationTime    how long the model took to answer (zero without a model call)
 * @param totalTime         how long the whole request took
 * @param grounded          whether at least one citation maps to a block of the prompt
 * @param sources           the documents in the prompt (critical and relevant), in prompt order
 * @param linkedDocuments   the linked documents in the prompt, with the document that linked them
 * @param droppedSources    SourceIds the token budget left out
 * @param truncatedSources  SourceIds the token budget cut short
 * @param unknownSourceIds  SourceIds the answer used that were not in the prompt
 * @param flags             things the caller should know (immutable)
 * @param timings           time per stage, in order (immutable)
 * @param retrievalQuery    the standalone question retrieval used when a follow-up was rewritten from the history
 *                          ({@code QueryTransformer}), or {@code null} when the question was used as asked
 */
public record RagResponse(String requestId, String answer, ConfidenceScore confidence, List<Citation> citations,
        Action action, @Nullable RouteTarget routeTo, String modelUsed, int contextChunksUsed, int contextTokensUsed,
        int promptTokens, Duration generationTime, Duration totalTime, boolean grounded, List<Source> sources,
        List<LinkedSource> linkedDocuments, List<String> droppedSources, List<String> truncatedSources,
        List<String> unknownSourceIds, Set<ResponseFlag> flags, Map<String, Duration> timings,
        @Nullable String retrievalQuery) {

    /** Validates and copies the arguments. */
    public RagResponse {
        Objects.requireNonNull(requestId, "requestId");
        Objects.requireNonNull(answer, "answer");
        Objects.requireNonNull(confidence, "confidence");
        citations = List.copyOf(Objects.requireNonNull(citations, "citations"));
        Objects.requireNonNull(action, "action");
        Objects.requireNonNull(modelUsed, "modelUsed");
        Objects.requireNonNull(generationTime, "generationTime");
        Objects.requireNonNull(totalTime, "totalTime");
        sources = List.copyOf(Objects.requireNonNull(sources, "sources"));
        linkedDocuments = List.copyOf(Objects.requireNonNull(linkedDocuments, "linkedDocuments"));
        droppedSources = List.copyOf(Objects.requireNonNull(droppedSources, "droppedSources"));
        truncatedSources = List.copyOf(Objects.requireNonNull(truncatedSources, "truncatedSources"));
        unknownSourceIds = List.copyOf(Objects.requireNonNull(unknownSourceIds, "unknownSourceIds"));
        Objects.requireNonNull(flags, "flags");
        flags = flags.isEmpty() ? Set.of() : Collections.unmodifiableSet(EnumSet.copyOf(flags));
        timings = Collections.unmodifiableMap(new LinkedHashMap<>(Objects.requireNonNull(timings, "timings")));
        if (grounded == citations.isEmpty()) {
            throw new IllegalArgumentException("grounded must be true exactly when there are citations");
        }
        if ((action == Action.ROUTE) != (routeTo != null)) {
            throw new IllegalArgumentException("routeTo is required for ROUTE and only for it");
        }
    }

    /** @return a builder: the request id, answer, confidence, action and model are required */
    public static Builder builder() {
        return new Builder();
    }

    /** @return a builder holding this response's values, to make a changed copy */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.requestId = requestId;
        b.answer = answer;
        b.confidence = confidence;
        b.citations = citations;
        b.action = action;
        b.routeTo = routeTo;
        b.modelUsed = modelUsed;
        b.contextChunksUsed = contextChunksUsed;
        b.contextTokensUsed = contextTokensUsed;
        b.promptTokens = promptTokens;
        b.generationTime = generationTime;
        b.totalTime = totalTime;
        b.sources = sources;
        b.linkedDocuments = linkedDocuments;
        b.droppedSources = droppedSources;
        b.truncatedSources = truncatedSources;
        b.unknownSourceIds = unknownSourceIds;
        b.flags = flags.isEmpty() ? EnumSet.noneOf(ResponseFlag.class) : EnumSet.copyOf(flags);
        b.timings = timings;
        b.retrievalQuery = retrievalQuery;
        return b;
    }

    /**
     * Builds a {@link RagResponse} by name rather than by position; {@code grounded} follows from the citations.
     * Not thread-safe.
     */
    public static final class Builder {
        private @Nullable String requestId;
        private @Nullable String answer;
        private @Nullable ConfidenceScore confidence;
        private List<Citation> citations = List.of();
        private @Nullable Action action;
        private @Nullable RouteTarget routeTo;
        private @Nullable String modelUsed;
        private int contextChunksUsed;
        private int contextTokensUsed;
        private int promptTokens;
        private Duration generationTime = Duration.ZERO;
        private Duration totalTime = Duration.ZERO;
        private List<Source> sources = List.of();
        private List<LinkedSource> linkedDocuments = List.of();
        private List<String> droppedSources = List.of();
        private List<String> truncatedSources = List.of();
        private List<String> unknownSourceIds = List.of();
        private Set<ResponseFlag> flags = EnumSet.noneOf(ResponseFlag.class);
        private Map<String, Duration> timings = Map.of();
        private @Nullable String retrievalQuery;

        private Builder() {
        }

        /** @param id the request's id @return this builder */
        public Builder requestId(String id) {
            this.requestId = Objects.requireNonNull(id, "requestId");
            return this;
        }

        /** @param text the answer shown to the user @return this builder */
        public Builder answer(String text) {
            this.answer = Objects.requireNonNull(text, "answer");
            return this;
        }

        /** @param score the confidence with its parts @return this builder */
        public Builder confidence(ConfidenceScore score) {
            this.confidence = Objects.requireNonNull(score, "confidence");
            return this;
        }

        /** @param cited the citations, in order of first citation @return this builder */
        public Builder citations(List<Citation> cited) {
            this.citations = List.copyOf(cited);
            return this;
        }

        /**
         * @param action the action
         * @param routeTo who gets the question: required for ROUTE, {@code null} otherwise
         * @return this builder
         */
        public Builder action(Action action, @Nullable RouteTarget routeTo) {
            this.action = Objects.requireNonNull(action, "action");
            this.routeTo = routeTo;
            return this;
        }

        /** @param model the model that answered (or would have) @return this builder */
        public Builder modelUsed(String model) {
            this.modelUsed = Objects.requireNonNull(model, "modelUsed");
            return this;
        }

        /**
         * @param chunks       context blocks in the prompt
         * @param contextTokens tokens of context in the prompt
         * @param prompt       the prompt's tokens as sent
         * @return this builder
         */
        public Builder tokens(int chunks, int contextTokens, int prompt) {
            this.contextChunksUsed = chunks;
            this.contextTokensUsed = contextTokens;
            this.promptTokens = prompt;
            return this;
        }

        /**
         * @param generation how long the model took
         * @param total      how long the whole request took
         * @return this builder
         */
        public Builder times(Duration generation, Duration total) {
            this.generationTime = Objects.requireNonNull(generation, "generationTime");
            this.totalTime = Objects.requireNonNull(total, "totalTime");
            return this;
        }

        /**
         * @param inPrompt the documents in the prompt
         * @param linked   the linked documents in the prompt
         * @return this builder
         */
        public Builder sources(List<Source> inPrompt, List<LinkedSource> linked) {
            this.sources = List.copyOf(inPrompt);
            this.linkedDocuments = List.copyOf(linked);
            return this;
        }

        /**
         * @param dropped   SourceIds the budget left out
         * @param truncated SourceIds the budget cut short
         * @return this builder
         */
        public Builder budgeted(List<String> dropped, List<String> truncated) {
            this.droppedSources = List.copyOf(dropped);
            this.truncatedSources = List.copyOf(truncated);
            return this;
        }

        /** @param ids SourceIds the answer used that were not in the prompt @return this builder */
        public Builder unknownSourceIds(List<String> ids) {
            this.unknownSourceIds = List.copyOf(ids);
            return this;
        }

        /** @param flag one more thing the caller should know @return this builder */
        public Builder flag(ResponseFlag flag) {
            this.flags.add(Objects.requireNonNull(flag, "flag"));
            return this;
        }

        /** @param more more things the caller should know @return this builder */
        public Builder flags(Set<ResponseFlag> more) {
            this.flags.addAll(more);
            return this;
        }

        /** @param perStage time per stage, in order @return this builder */
        public Builder timings(Map<String, Duration> perStage) {
            this.timings = Objects.requireNonNull(perStage, "timings");
            return this;
        }

        /** @param query the standalone question retrieval used, or {@code null} @return this builder */
        public Builder retrievalQuery(@Nullable String query) {
            this.retrievalQuery = query;
            return this;
        }

        /**
         * @return the response
         * @throws IllegalStateException    naming every required value not given
         * @throws IllegalArgumentException when the action and the route target disagree
         */
        public RagResponse build() {
            List<String> missing = new ArrayList<>();
            if (requestId == null) {
                missing.add("requestId(..)");
            }
            if (answer == null) {
                missing.add("answer(..)");
            }
            if (confidence == null) {
                missing.add("confidence(..)");
            }
            if (action == null) {
                missing.add("action(..)");
            }
            if (modelUsed == null) {
                missing.add("modelUsed(..)");
            }
            if (!missing.isEmpty()) {
                throw new IllegalStateException("a response needs " + String.join(", ", missing));
            }
            return new RagResponse(requestId, answer, confidence, citations, action, routeTo, modelUsed,
                    contextChunksUsed, contextTokensUsed, promptTokens, generationTime, totalTime, !citations.isEmpty(),
                    sources, linkedDocuments, droppedSources, truncatedSources, unknownSourceIds, flags, timings,
                    retrievalQuery);
        }
    }
}
