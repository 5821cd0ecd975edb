package dev.ragkit.grounding;

import dev.ragkit.prompt.ContextBlock;
import java.util.List;

/**
 * Maps the {@code [SourceId: …]} markers of an answer to the blocks that were in the prompt. Deterministic:
 * no model is asked. Thread-safe.
 */
public interface CitationExtractor {

    /**
     * @param answer the model's answer
     * @param blocks the context blocks that were in the prompt
     * @return the citations and the ids that matched no block
     */
    Citations extract(String answer, List<ContextBlock> blocks);

    /**
     * @return the default extractor: the pattern {@code \[SourceId:\s*([a-f0-9-]{36}:\d+)\]}, also accepting
     *         several ids in one bracket separated by commas or semicolons
     */
    static CitationExtractor standard() {
        return new RegexCitationExtractor();
    }
}
