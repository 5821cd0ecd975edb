package dev.ragkit.audit;

/** What the pipeline does when its audit sink fails. */
public enum AuditFailurePolicy {
    /** The request fails with {@link dev.ragkit.error.AuditException}: nothing is answered without a trail. */
    FAIL_REQUEST,
    /** The failure is logged at ERROR and the answer is returned (the default). */
    LOG_AND_CONTINUE
}
