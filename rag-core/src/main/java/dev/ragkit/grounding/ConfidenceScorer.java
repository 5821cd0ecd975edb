package dev.ragkit.grounding;

import dev.ragkit.generation.ChatMessage;
import dev.ragkit.prompt.ContextBlock;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Scores how far an answer can be trusted, 0–100, from three signals: how well retrieval matched, how much of the
 * answer's vocabulary the context contains, and the model's own rating from a separate evaluation prompt. An
 * extractive answer (quoted from the context, no model) contains only the context's words and cannot rate itself, so
 * the default scorer weighs other signals for it ({@link #score(Evidence)}). The model's rating is asked and read by
 * {@link SelfRating}. Thread-safe.
 */
public interface ConfidenceScorer {

    /**
     * Everything known about an answer when it is scored.
     *
     * @param question   the question as asked
     * @param answer     the answer
     * @param used       the context blocks in the prompt
     * @param cited      the SourceIds the answer cites (of blocks in {@code used})
     * @param selfRating the model's rating 0–100, or {@code null} when unavailable
     * @param quoted     whether the answer quotes the context rather than being written by a model (extractive)
     * @param quoteSimilarity for a quoted answer, how similar each quoted sentence is to the question, on the
     *                   embedder's {@link dev.ragkit.embedding.SimilarityScale} ({@link
     *                   dev.ragkit.generation.ExtractiveBackend#quoteSimilarity}); empty when unknown
     */
    record Evidence(String question, String answer, List<ContextBlock> used, List<String> cited,
            @Nullable Integer selfRating, boolean quoted, List<Double> quoteSimilarity) {
        /** Validates and copies the arguments. */
        public Evidence {
            Objects.requireNonNull(question, "question");
            Objects.requireNonNull(answer, "answer");
            used = List.copyOf(used);
            cited = List.copyOf(cited);
            quoteSimilarity = List.copyOf(quoteSimilarity);
        }

        /** Evidence without the quotes' similarity to the question. */
        public Evidence(String question, String answer, List<ContextBlock> used, List<String> cited,
                @Nullable Integer selfRating, boolean quoted) {
            this(question, answer, used, cited, selfRating, quoted, List.of());
        }
    }

    /**
     * Scores an answer with everything known about it. The default ignores the question, the citations and whether
     * the answer is quoted, and calls {@link #score(String, List, Integer)}.
     *
     * @param evidence the answer and what it rests on
     * @return the score; zero when nothing was used
     */
    default ConfidenceScore score(Evidence evidence) {
        return score(evidence.answer(), evidence.used(), evidence.selfRating());
    }

    /**
     * @param answer     the answer
     * @param used       the context blocks in the prompt
     * @param selfRating the model's rating 0–100, or {@code null} when unavailable
     * @return the score; zero when {@code used} is empty
     */
    ConfidenceScore score(String answer, List<ContextBlock> used, @Nullable Integer selfRating);

    /**
     * The evaluation prompt that asks the model for one number.
     *
     * @param question the question
     * @param answer   the answer to rate
     * @param used     the context blocks the answer was generated from
     * @return the messages to send: {@link SelfRating#prompt}'s
     * @deprecated a scorer scores, it does not ask the model: use {@link SelfRating#prompt}; to be removed
     */
    @Deprecated
    default List<ChatMessage> selfRatingPrompt(String question, String answer, List<ContextBlock> used) {
        return SelfRating.prompt(question, answer, used);
    }

    /**
     * @param reply the model's reply to {@link SelfRating#prompt}
     * @return the rating 0–100, or {@code null} when the reply is not one clear number in that range:
     *         {@link SelfRating#parse}'s
     * @deprecated a scorer scores, it does not read the model's reply: use {@link SelfRating#parse}; to be removed
     */
    @Deprecated
    default @Nullable Integer parseSelfRating(String reply) {
        return SelfRating.parse(reply);
    }


    /** @return the default scorer (weights 30/40/30, English stop words) */
    static ConfidenceScorer standard() {
        return new HybridConfidenceScorer();
    }
}
