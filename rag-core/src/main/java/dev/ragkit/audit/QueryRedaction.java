package dev.ragkit.audit;

/** How much of the question an audit record keeps. */
public enum QueryRedaction {
    /** The question itself and its SHA-256. */
    NONE,
    /** Only the question's SHA-256 (the default): the trail can match questions without storing them. */
    HASH
}
