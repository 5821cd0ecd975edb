package dev.ragkit.generation;

/** Why a model stopped generating. */
public enum FinishReason {
    /** The model finished its answer. */
    STOP,
    /** The response reached the maximum number of tokens: the answer may be cut off. */
    LENGTH,
    /** The caller cancelled the call. */
    CANCELLED,
    /** The backend did not say, or said something else. */
    OTHER
}
