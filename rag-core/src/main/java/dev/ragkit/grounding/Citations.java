package dev.ragkit.grounding;

import java.util.List;
import java.util.Objects;

/**
 * The citations found in an answer.
 *
 * @param citations        the cited sources that were in the prompt, in order of first appearance, each once
 * @param unknownSourceIds well-formed SourceIds the answer used that were not in the prompt (invented or
 *                         forged), in order of first appearance, each once
 */
public record Citations(List<Citation> citations, List<String> unknownSourceIds) {

    /** Copies the arguments. */
    public Citations {
        citations = List.copyOf(Objects.requireNonNull(citations, "citations"));
        unknownSourceIds = List.copyOf(Objects.requireNonNull(unknownSourceIds, "unknownSourceIds"));
    }

    /** @return whether at least one citation was found: exactly when the answer is grounded */
    public boolean grounded() {
        return !citations.isEmpty();
    }
}
