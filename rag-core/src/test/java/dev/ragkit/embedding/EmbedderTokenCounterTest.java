package dev.ragkit.embedding;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import dev.ragkit.testing.HashedBagOfWordsEmbedder;
import org.junit.jupiter.api.Test;

final class EmbedderTokenCounterTest {

    /** Counts one token per character plus two special tokens, like a model with [CLS] and [SEP]. */
    private static final Embedder CHARACTERS = new HashedBagOfWordsEmbedder("characters", 8) {
        @Override
        public int inputTokens(String text) {
            return 2 + text.codePointCount(0, text.length());
        }
    };

    private final EmbedderTokenCounter counter = new EmbedderTokenCounter(CHARACTERS);

    @Test
    void count_leavesOutTheModelsSpecialTokens() {
        assertThat(counter.specialTokens()).isEqualTo(2);
        assertThat(counter.count("")).isZero();
        assertThat(counter.count("abc")).isEqualTo(3);
        assertThat(counter.name()).isEqualTo("embedder:characters");
    }

    @Test
    void fittingPrefix_endsBeforeAWord_elseAtACharacterNeverInsideASurrogatePair() {
        assertThat(counter.fittingPrefix("ships leave at noon", 100)).isEqualTo(19);
        assertThat(counter.fittingPrefix("ships leave at noon", 13)).isEqualTo(12);      // "ships leave "
        assertThat(counter.fittingPrefix("shipsleaveatnoon", 5)).isEqualTo(5);
        String emoji = "ab\uD83D\uDE00cd";
        assertThat(counter.fittingPrefix(emoji, 2)).isEqualTo(2);
        assertThat(counter.fittingPrefix(emoji, 3)).isEqualTo(4);                     // the emoji whole, never 3
        assertThat(counter.fittingPrefix(emoji, 4)).isEqualTo(5);
    }

    @Test
    void constructor_embedderThatCannotCount_isRejected() {
        assertThatIllegalArgumentException().isThrownBy(() -> new EmbedderTokenCounter(
                new HashedBagOfWordsEmbedder("silent", 8))).withMessageContaining("cannot count");
    }
}
