package dev.ragkit.grounding;

/** What the caller should do with a response. */
public enum Action {
    /** Show the answer with its citations: confidence reached the threshold. */
    CITE,
    /** Hand the question to a human: the route target says who and why. */
    ROUTE,
    /** Nothing was found and the pipeline is configured to decline rather than route. */
    DECLINE
}
