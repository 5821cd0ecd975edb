/**
 * The prompt stage: retrieved context as {@link dev.ragkit.prompt.ContextBlock}s under their
 * {@code [SourceId: …]} headers, the grounding rules, and the finished {@link dev.ragkit.prompt.Prompt}
 * ({@link dev.ragkit.prompt.PromptBuilder}).
 */
@NullMarked
package dev.ragkit.prompt;

import org.jspecify.annotations.NullMarked;
