package dev.ragkit;

/** What the pipeline does when retrieval finds nothing. */
public enum EmptyContextPolicy {
    /**
     * Answer with a fixed "not enough information" text, confidence 0, and route to the administrator; no model
     * call (the default).
     */
    ROUTE_TO_HUMAN,
    /**
     * Ask the model without documents; the answer is not grounded, has confidence 0, is routed to the
     * administrator, and carries {@link ResponseFlag#ANSWERED_WITHOUT_CONTEXT}.
     */
    ANSWER_WITHOUT_CONTEXT,
    /** Answer with a fixed "not enough information" text and action DECLINE; no model call, no routing. */
    DECLINE
}
