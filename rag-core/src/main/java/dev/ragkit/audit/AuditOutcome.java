package dev.ragkit.audit;

/** How a request ended. */
public enum AuditOutcome {
    /** Answered with action CITE. */
    ANSWERED,
    /** Answered, but routed to a human (low confidence). */
    ROUTED,
    /** Retrieval found nothing; the empty-context policy answered. */
    EMPTY_CONTEXT,
    /** Retrieval found nothing and the pipeline declined. */
    DECLINED,
    /** The caller cancelled the request. */
    CANCELLED,
    /** A standalone retrieval found context (operation RETRIEVE). */
    RETRIEVED,
    /** An indexing run finished; its counts say what was indexed, skipped and failed (operation INDEX). */
    INDEXED,
    /** The request failed; the record names the error type. */
    ERROR,
    /**
     * The request was refused before it ran (arguments that fail validation, a scope wider than the caller's, a
     * question over the length limit); the record's {@code errorType} names the reason, e.g.
     * {@code TAG_NOT_ALLOWED}.
     */
    REFUSED
}
