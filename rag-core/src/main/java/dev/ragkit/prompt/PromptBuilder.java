package dev.ragkit.prompt;

import dev.ragkit.generation.ChatMessage;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Writes the prompt: the grounding rules, the context blocks under their {@code [SourceId: …]} headers, the kept
 * chat history and the question. Thread-safe.
 *
 * <p>The system message is exactly {@link #systemPrompt()}, then — when there is context —
 * {@link #contextIntro()}, then for each non-empty section in {@link ContextBlock.Kind} order its
 * {@link #sectionHeading} followed by its blocks' {@link #formatBlock} texts. Each piece carries its own leading
 * separator, so the token budget can price the pieces one by one.
 */
public interface PromptBuilder {

    /** @return the grounding rules, never cut by the budget */
    String systemPrompt();

    /** @return the text that opens the context, with its leading separator */
    String contextIntro();

    /**
     * @param kind a section
     * @return its heading, with its leading separator
     */
    String sectionHeading(ContextBlock.Kind kind);

    /**
     * Formats one block: header lines (SourceId, title, path, lines, section, page, and where it applies the
     * priority, date and the linking document), then the text. Any {@code [SourceId:} the document itself
     * contains is neutralised, so a document cannot forge citations.
     *
     * @param block the block
     * @return its text in the prompt, with its leading separator
     */
    String formatBlock(ContextBlock block);

    /**
     * @param blocks   the kept blocks, in priority order
     * @param history  the kept history, oldest first
     * @param question the question
     * @return the system message, the history, and the question as the last user message; implementations keep
     *         this layout, which the token budget relies on when it prices the pieces and assembles the prompt
     */
    default List<ChatMessage> messages(List<ContextBlock> blocks, List<ChatMessage> history, String question) {
        Objects.requireNonNull(question, "question");
        StringBuilder system = new StringBuilder(systemPrompt());
        if (!blocks.isEmpty()) {
            system.append(contextIntro());
            for (ContextBlock.Kind kind : ContextBlock.Kind.values()) {
                boolean first = true;
                for (ContextBlock b : blocks) {
                    if (b.kind() == kind) {
                        if (first) {
                            system.append(sectionHeading(kind));
                            first = false;
                        }
                        system.append(formatBlock(b));
                    }
                }
            }
        }
        List<ChatMessage> messages = new ArrayList<>(history.size() + 2);
        messages.add(ChatMessage.system(system.toString()));
        messages.addAll(history);
        messages.add(ChatMessage.user(question));
        return messages;
    }

    /** @return the default builder with RagKit's grounding rules */
    static PromptBuilder standard() {
        return new GroundedPromptBuilder(GroundedPromptBuilder.DEFAULT_RULES);
    }

    /**
     * @param rules the system prompt that replaces the default grounding rules (the context format, and so the
     *              SourceIds, stay the same); not blank
     * @return a builder with these rules
     */
    static PromptBuilder withSystemPrompt(String rules) {
        Objects.requireNonNull(rules, "rules");
        if (rules.isBlank()) {
            throw new IllegalArgumentException("the system prompt override is blank; pass the rules, or use standard()");
        }
        return new GroundedPromptBuilder(rules);
    }
}
