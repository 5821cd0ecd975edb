package dev.ragkit;

import dev.ragkit.grounding.Action;
import dev.ragkit.grounding.Citation;
import dev.ragkit.grounding.ConfidenceScore;
import dev.ragkit.grounding.RouteTarget;
import java.time.Duration;
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
}
