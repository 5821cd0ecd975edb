package dev.ragkit.retrieval;

import dev.ragkit.error.RagException;
import dev.ragkit.generation.ChatMessage;
import dev.ragkit.generation.ChatRequest;
import dev.ragkit.generation.ChatResult;
import dev.ragkit.generation.ExtractiveBackend;
import dev.ragkit.generation.LlmBackend;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Rewrites a follow-up into a standalone question with the language model, under a small budget: the last
 * {@value #TURNS} messages of the history, each cut to {@value #MAX_MESSAGE_CHARS} characters, at most
 * {@value #MAX_TOKENS} tokens of answer, temperature 0. When the model fails, or answers with something that is not
 * a question of reasonable length, the {@code fallback} rewrites instead (by default
 * {@link QueryTransformer#keyTerms()}), so a model server that is down never stops retrieval. Thread-safe.
 */
final class LlmQueryTransformer implements QueryTransformer {
    private static final Logger LOG = LoggerFactory.getLogger(LlmQueryTransformer.class);
    static final int TURNS = 6;
    static final int MAX_MESSAGE_CHARS = 1_000;
    static final int MAX_TOKENS = 96;
    private static final int CONTEXT_WINDOW = 4_096;
    private static final String INSTRUCTION = "Rewrite the user's last question so that it can be understood "
            + "without the conversation: replace pronouns and references such as 'it', 'that one' or 'the second' "
            + "with what they refer to. Keep the user's language. Answer with the rewritten question only, on one "
            + "line, without quotes or explanations. If the question is already standalone, repeat it unchanged.";

    private final LlmBackend backend;
    private final String model;
    private final QueryTransformer fallback;

    /**
     * @param backend  the model server
     * @param model    the model that rewrites (a small, fast one is enough)
     * @param fallback what rewrites when the model cannot
     */
    LlmQueryTransformer(LlmBackend backend, String model, QueryTransformer fallback) {
        this.backend = Objects.requireNonNull(backend, "backend");
        this.model = Objects.requireNonNull(model, "model");
        this.fallback = Objects.requireNonNull(fallback, "fallback");
    }

    @Override
    public String standalone(String question, List<ChatMessage> history) {
        List<ChatMessage> messages = new ArrayList<>();
        messages.add(ChatMessage.system(INSTRUCTION));
        StringBuilder conversation = new StringBuilder("Conversation:\n");
        for (ChatMessage m : history.subList(Math.max(0, history.size() - TURNS), history.size())) {
            String content = m.content().strip();
            if (content.length() > MAX_MESSAGE_CHARS) {
                content = content.substring(0, MAX_MESSAGE_CHARS) + " …";
            }
            conversation.append(m.role() == ChatMessage.Role.USER ? "User: " : "Assistant: ").append(content)
                    .append('\n');
        }
        conversation.append("\nLast question: ").append(question.strip());
        messages.add(ChatMessage.user(conversation.toString()));
        try {
            ChatResult result = backend.chat(new ChatRequest(model, messages, 0.0, MAX_TOKENS, CONTEXT_WINDOW, 0L));
            if (ExtractiveBackend.MODEL.equals(result.model())) {
                // a fallback for a model server that is down quotes documents; it cannot rewrite a question
                LOG.debug("no language model rewrote the follow-up (extractive answer); using the fallback");
                return fallback.standalone(question, history);
            }
            String rewritten = clean(result.text());
            if (acceptable(rewritten, question)) {
                return rewritten;
            }
            LOG.debug("the rewrite of a follow-up was not usable ('{}'); using the fallback", rewritten);
        } catch (RagException | IllegalArgumentException e) {
            LOG.debug("rewriting a follow-up failed ({}); using the fallback", e.toString());
        }
        return fallback.standalone(question, history);
    }

    /** The first non-blank line, without surrounding quotes or a "Question:" label. */
    static String clean(String text) {
        for (String line : text.split("\\R")) {
            String l = line.strip();
            if (l.isEmpty()) {
                continue;
            }
            l = l.replaceFirst("(?i)^(rewritten|standalone)?\\s*question\\s*:\\s*", "");
            if (l.length() >= 2 && (l.startsWith("\"") && l.endsWith("\"") || l.startsWith("'") && l.endsWith("'")
                    || l.startsWith("“") && l.endsWith("”"))) {
                l = l.substring(1, l.length() - 1).strip();
            }
            return l;
        }
        return "";
    }

    private static boolean acceptable(String rewritten, String question) {
        return !rewritten.isEmpty() && rewritten.length() <= Math.max(400, question.length() * 4);
    }
}
