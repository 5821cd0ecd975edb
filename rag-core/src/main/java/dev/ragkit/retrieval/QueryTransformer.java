package dev.ragkit.retrieval;

import dev.ragkit.generation.ChatMessage;
import dev.ragkit.generation.LlmBackend;
import dev.ragkit.internal.KeyTerms;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Makes the question that retrieval embeds standalone. A follow-up such as "and what about the second one?" finds
 * nothing on its own; with the conversation it can be rewritten into "What does the second backup job do?". The
 * pipeline calls it before retrieval, and only when the request carries history; the prompt still shows the model
 * the question as asked, with the history. The default with a language model is {@link #llm}; without
 * one (extractive answers), {@link #keyTerms()}.
 */
@FunctionalInterface
public interface QueryTransformer {

    /**
     * @param question the question as asked
     * @param history  the earlier messages of the conversation, oldest first (not empty)
     * @return the question to retrieve with; the question itself when it needs nothing
     */
    String standalone(String question, List<ChatMessage> history);

    /** @return a transformer that keeps the question as it is */
    static QueryTransformer identity() {
        return (question, history) -> question;
    }

    /**
     * The deterministic fallback: the question followed by the key terms (stop words removed, as in
     * {@link KeyTerms}) of the last user message that are not in the question already. No model is asked.
     *
     * @return the transformer
     */
    static QueryTransformer keyTerms() {
        return (question, history) -> {
            Objects.requireNonNull(question, "question");
            for (int i = history.size() - 1; i >= 0; i--) {
                ChatMessage message = history.get(i);
                if (message.role() == ChatMessage.Role.USER) {
                    Set<String> asked = KeyTerms.of(question);
                    Set<String> added = new LinkedHashSet<>(KeyTerms.of(message.content()));
                    added.removeAll(asked);
                    return added.isEmpty() ? question : question + " " + String.join(" ", added);
                }
            }
            return question;
        };
    }

    /**
     * @param backend  the model server that rewrites the follow-up
     * @param model    the model to ask
     * @param fallback used when the model's reply is unusable or the call fails
     * @return the language-model rewrite (the default with a model)
     */
    static QueryTransformer llm(LlmBackend backend, String model, QueryTransformer fallback) {
        return new LlmQueryTransformer(backend, model, fallback);
    }
}
