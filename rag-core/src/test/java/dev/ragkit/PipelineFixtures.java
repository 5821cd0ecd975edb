package dev.ragkit;

import dev.ragkit.budget.BudgetLimits;
import dev.ragkit.budget.TokenBudget;
import dev.ragkit.prompt.ContextBlock;
import dev.ragkit.prompt.Prompt;
import dev.ragkit.prompt.PromptBuilder;
import dev.ragkit.store.Scope;
import dev.ragkit.store.StoredChunk;
import dev.ragkit.store.StoredDocument;
import dev.ragkit.tokens.TokenCounters;
import java.time.Instant;
import java.util.List;

/** Small real values for the unit tests of the pipeline's stages: documents, blocks, prompts, exchanges. */
final class PipelineFixtures {
    static final String KEYS = "API keys rotate every ninety days. Run the rotate command to rotate a key.";
    static final Scope ENG = Scope.of("acme", "eng");

    private PipelineFixtures() {
    }

    static StoredDocument document(String path, String... tags) {
        return StoredDocument.builder().tenant("acme").path(path).title(path).accessTags(tags)
                .charCount(KEYS.length()).build();
    }

    /** A relevant block of one chunk, matched with the given cosine similarity. */
    static ContextBlock block(StoredDocument document, String text, double similarity) {
        StoredChunk chunk = new StoredChunk(document.id(), 0, text, null, text.length() / 4, 1, 1, "Keys", null);
        return new ContextBlock(ContextBlock.Kind.RELEVANT, document, chunk, text, 1, 1, similarity, similarity,
                similarity, null, false);
    }

    /** The standard prompt over {@code blocks}, fitted with the default limits for an 8,192-token model. */
    static Prompt prompt(String question, List<ContextBlock> blocks) {
        return TokenBudget.of(TokenCounters.estimate(), PromptBuilder.standard())
                .fit(BudgetLimits.defaults(8192), question, List.of(), blocks);
    }

    static Exchange exchange(String question) {
        return new Exchange(RagRequest.of(question, ENG), Instant.parse("2026-11-24T10:00:00Z"), "llama3.2",
                RagListener.Request.NONE);
    }
}
