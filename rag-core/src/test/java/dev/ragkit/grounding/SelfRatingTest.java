package dev.ragkit.grounding;

import static dev.ragkit.grounding.Blocks.block;
import static dev.ragkit.grounding.Blocks.document;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ragkit.generation.ChatMessage;
import dev.ragkit.prompt.ContextBlock;
import dev.ragkit.store.StoredDocument;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.NullSource;

/** The self-rating prompt and its reader, out of the {@link ConfidenceScorer} interface (issue 26). */
final class SelfRatingTest {

    private final StoredDocument doc = document("hr/leave.md", "hr");

    // ------------------------------------------------------------------------------------------ self-rating prompt

    @Test
    void prompt_systemRubricThenUserWithContextQuestionAnswerAndInstruction() {
        ContextBlock longBlock = block(doc, 4, "word ".repeat(100), 0.5, 0.5);
        ContextBlock shortBlock = block(doc, 5, "Managers\n\napprove   vacation.", 0.5, 0.5);

        List<ChatMessage> messages = SelfRating.prompt("Who approves vacation?",
                "Managers do [SourceId: " + shortBlock.sourceId() + "]", List.of(longBlock, shortBlock));

        assertThat(messages).extracting(ChatMessage::role)
                .containsExactly(ChatMessage.Role.SYSTEM, ChatMessage.Role.USER);
        assertThat(messages.get(0).content()).contains("0 to 100").contains("90 to 100").contains("0 to 29");
        String user = messages.get(1).content();
        assertThat(user)
                .contains("[SourceId: " + longBlock.sourceId() + "] " + "word ".repeat(60).substring(0, 300) + "...")
                .contains("[SourceId: " + shortBlock.sourceId() + "] Managers approve vacation.")
                .contains("QUESTION:\nWho approves vacation?")
                .contains("ANSWER:\nManagers do [SourceId: " + shortBlock.sourceId() + "]")
                .endsWith("Reply with one whole number from 0 to 100 and nothing else.");
        assertThat(user).doesNotContain("word ".repeat(61));
    }

    @Test
    void prompt_noContext_saysSo() {
        assertThat(SelfRating.prompt("q", "a", List.of()).get(1).content())
                .contains("(no context was provided)");
    }

    // ------------------------------------------------------------------------------------------ self-rating parsing

    @ParameterizedTest(name = "[{index}] \"{0}\" -> {1}")
    @CsvSource(delimiter = '|', nullValues = "null", value = {
        "85                                   | 85",
        "'  85  '                             | 85",
        "0                                    | 0",
        "100                                  | 100",
        "085                                  | 85",
        "85%                                  | 85",
        "85 %                                 | 85",
        "85/100                               | 85",
        "85 / 100                             | 85",
        "100/100                              | 100",
        "85 out of 100                        | 85",
        "Score: 85                            | 85",
        "Rating: 85/100                       | 85",
        "85.                                  | 85",
        "**85**                               | 85",
        "I would rate this 72.                | 72",
        "85, since the context says 85        | 85",
        "<think>Maybe 40, or 60?</think>85    | 85",
        "'<THINK>\nlong\n</THINK>\n\n 90'     | 90",
        "the range is 0 to 100</think>64      | 64",
        "Rating 85 <think>not 40</think>      | 85",
        "qwen3 says 70                        | 70",
        "101                                  | null",
        "150                                  | null",
        "-5                                   | null",
        "Score: -5                            | null",
        "\u22125                              | null",
        "85.5                                 | null",
        "85,5                                 | null",
        "1,000                                | null",
        "85 or 90                             | null",
        "between 70 and 80                    | null",
        "0-100                                | null",
        "85/1000                              | null",
        "high                                 | null",
        "I cannot rate this.                  | null",
        "''                                   | null",
        "'   '                                | null",
        "<think>I think 85</think>            | null",
        "<think>85 is about right but         | null",
        "99999999999999999999                 | null",
    })
    void parse_reply_parsedStrictly(String reply, Integer expected) {
        assertThat(SelfRating.parse(reply)).isEqualTo(expected);
    }

    @ParameterizedTest
    @NullSource
    void parse_null_nullWithoutThrowing(String reply) {
        assertThat(SelfRating.parse(reply)).isNull();
    }

    // ------------------------------------------------------------------------------------------ deprecated delegates

    @Test
    @SuppressWarnings("deprecation")
    void confidenceScorer_needsOnlyScore_andItsOldSelfRatingMethodsAreSelfRatings() {
        ContextBlock block = block(doc, 0, "Managers approve vacation.", 0.5, 0.5);
        ConfidenceScorer custom = (answer, used, selfRating) -> ConfidenceScore.zero("custom");

        assertThat(custom.selfRatingPrompt("q", "a", List.of(block))).isEqualTo(SelfRating.prompt("q", "a",
                List.of(block)));
        assertThat(custom.parseSelfRating("Score: 85")).isEqualTo(85);
        assertThat(ConfidenceScorer.standard().parseSelfRating("85 or 90")).isNull();
    }
}
