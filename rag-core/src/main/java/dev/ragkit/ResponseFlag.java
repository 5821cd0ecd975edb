package dev.ragkit;

/** Things a caller should know about how an answer came about. */
public enum ResponseFlag {
    /** Retrieval found nothing and the model answered without documents: the answer is not grounded. */
    ANSWERED_WITHOUT_CONTEXT,
    /** The model's self-rating was unavailable; the confidence uses the other signals only. */
    SELF_RATING_UNAVAILABLE,
    /** The model stopped at the response token limit: the answer may be cut off. */
    ANSWER_CUT_OFF,
    /** The token budget left out or cut context blocks (see the dropped and truncated sources). */
    CONTEXT_REDUCED,
    /** The token budget left out older chat history. */
    HISTORY_REDUCED,
    /** The answer used SourceIds that were not in the prompt (see the unknown source ids). */
    UNKNOWN_SOURCE_IDS,
    /**
     * The audit record of this request could not be written; under {@code AuditFailurePolicy.LOG_AND_CONTINUE} the
     * answer is returned anyway, with this flag (under {@code FAIL_REQUEST} the request fails instead).
     */
    AUDIT_NOT_WRITTEN,
    /**
     * No language model wrote the answer: it quotes the documents ({@code ExtractiveBackend}), because extractive
     * answers were chosen or because the model server could not be reached ({@code ExtractiveFallbackBackend}).
     * The response's model is then {@code extractive}.
     */
    EXTRACTIVE_ANSWER
}
