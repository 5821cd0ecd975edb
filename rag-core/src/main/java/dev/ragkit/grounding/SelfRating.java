package dev.ragkit.grounding;

import dev.ragkit.generation.ChatMessage;
import dev.ragkit.prompt.ContextBlock;
import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * The model's own rating of an answer, asked in a second, short call when the pipeline's {@code selfRating(true)}:
 * the evaluation prompt that asks for one number ({@link #prompt}) and the strict reader of the reply
 * ({@link #parse}). The number it yields is the {@code selfRating} a {@link ConfidenceScorer} weighs; a scorer scores,
 * it does not talk to the model. Stateless and thread-safe.
 */
public final class SelfRating {

    /** Characters of each block's text shown to the model in the prompt. */
    static final int SUMMARY_CHARS_PER_BLOCK = 300;

    private static final Pattern WHITESPACE = Pattern.compile("\\s+");

    private SelfRating() {
    }

    /**
     * The evaluation prompt: a system message with the 0–100 rubric, then a user message with each context block
     * (its SourceId and at most 300 characters of its text, white space collapsed), the question, the answer and
     * the instruction to reply with one whole number.
     *
     * @param question the question
     * @param answer   the answer to rate
     * @param used     the context blocks the answer was generated from
     * @return the messages to send
     */
    public static List<ChatMessage> prompt(String question, String answer, List<ContextBlock> used) {
        Objects.requireNonNull(question, "question");
        Objects.requireNonNull(answer, "answer");
        Objects.requireNonNull(used, "used");
        String system = String.join("\n",
                "You check answers against their sources. Judge only how far the CONTEXT backs up the ANSWER,"
                        + " not whether the answer is true in general.",
                "Give a whole number from 0 to 100:",
                "- 90 to 100: every statement in the answer is stated in the context",
                "- 70 to 89: nearly everything is in the context; small, safe inferences",
                "- 50 to 69: about half is in the context; the rest is guessed or filled in",
                "- 30 to 49: little of the answer can be found in the context",
                "- 0 to 29: the context does not back up the answer, or contradicts it");
        StringBuilder user = new StringBuilder("CONTEXT (excerpts):\n");
        if (used.isEmpty()) {
            user.append("(no context was provided)\n");
        }
        for (ContextBlock block : used) {
            String text = WHITESPACE.matcher(block.text()).replaceAll(" ").strip();
            user.append("[SourceId: ").append(block.sourceId()).append("] ")
                    .append(TextCuts.prefixWithEllipsis(text, SUMMARY_CHARS_PER_BLOCK)).append('\n');
        }
        user.append("\nQUESTION:\n").append(question.strip())
                .append("\n\nANSWER:\n").append(answer.strip())
                .append("\n\nHow well does the context support this answer?"
                        + " Reply with one whole number from 0 to 100 and nothing else.");
        return List.of(ChatMessage.system(system), ChatMessage.user(user.toString()));
    }

    /**
     * Reads the rating from the model's reply to {@link #prompt}, strictly: reasoning ({@code <think>} blocks) is
     * dropped, {@code 85}, {@code 85%}, {@code Score: 85} and {@code 85/100} give 85, and a reply that does not give
     * one clear whole number from 0 to 100 (two different numbers, a decimal, a negative, more than 100, none) gives
     * {@code null}, never a guess. Never throws.
     *
     * @param reply the model's reply, or {@code null}
     * @return the rating 0–100, or {@code null} when the reply is not one clear number in that range
     */
    public static @Nullable Integer parse(@Nullable String reply) {
        return SelfRatingParser.parse(reply);
    }
}
