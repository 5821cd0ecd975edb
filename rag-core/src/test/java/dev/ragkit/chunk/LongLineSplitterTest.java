package dev.ragkit.chunk;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ragkit.tokens.TokenCounter;
import dev.ragkit.tokens.TokenCounters;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The overlap tail of {@link LongLineSplitter}: the longest tail that fits, found with few exact counts. */
final class LongLineSplitterTest {

    private static final TokenCounter CL100K = TokenCounters.jtokkit();

    @Test
    void tail_wordsWithoutSentenceEnds_isAWordTailCloseToTheBudgetFoundWithFewCounts() {
        String text = words(new Random(7), 2_000);
        Calls calls = new Calls(CL100K);

        Cut tail = new LongLineSplitter(calls, new ChunkerTokenEstimator()).tail(text, 0, text.length(), 50);

        assertThat(tail).isNotNull();
        assertThat(tail.tokens()).isEqualTo(CL100K.count(text.substring(tail.end()))).isLessThanOrEqualTo(50);
        // It starts at a word start, no earlier than the longest word tail that fits, and the estimate that picks
        // it leaves it close to the budget.
        assertThat(text.charAt(tail.end() - 1)).isEqualTo(' ');
        assertThat(tail.end()).isGreaterThanOrEqualTo(earliestFittingWordStart(text, 50));
        assertThat(tail.tokens()).isGreaterThanOrEqualTo(40);
        assertThat(calls.calls).as("exact counts for one tail").isLessThanOrEqualTo(3);
    }

    @Test
    void tail_sentences_startsAtTheEarliestSentenceThatFits() {
        String sentence = "The ferry leaves the north pier at seven and returns at noon. ";
        String text = sentence.repeat(40).strip();

        Cut tail = new LongLineSplitter(CL100K, new ChunkerTokenEstimator()).tail(text, 0, text.length(), 50);

        assertThat(tail).isNotNull();
        String kept = text.substring(tail.end());
        assertThat(kept).startsWith("The ferry").endsWith("noon.");
        assertThat(tail.tokens()).isLessThanOrEqualTo(50);
        // One more sentence would be over the budget.
        assertThat(CL100K.count(sentence + kept)).isGreaterThan(50);
    }

    private static int earliestFittingWordStart(String text, int budget) {
        List<Integer> starts = new ArrayList<>();
        for (int i = 1; i < text.length(); i++) {
            if (text.charAt(i - 1) == ' ' && text.charAt(i) != ' ') {
                starts.add(i);
            }
        }
        for (int start : starts) {
            if (CL100K.count(text.substring(start)) <= budget) {
                return start;
            }
        }
        return -1;
    }

    private static String words(Random random, int count) {
        String[] vocabulary = {"ledger", "bearing", "of", "turbine", "a", "calibration", "northern", "hull", "x7",
            "pressure", "the", "and", "reinforced", "gauge", "valve", "(see", "annex)", "12.5", "km"};
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < count; i++) {
            if (i > 0) {
                sb.append(' ');
            }
            sb.append(vocabulary[random.nextInt(vocabulary.length)]);
        }
        return sb.toString();
    }

    /** Counts the exact counts asked for. */
    private static final class Calls implements TokenCounter {
        private final TokenCounter delegate;
        int calls;

        Calls(TokenCounter delegate) {
            this.delegate = delegate;
        }

        @Override
        public int count(String text) {
            calls++;
            return delegate.count(text);
        }

        @Override
        public int fittingPrefix(String text, int maxTokens) {
            calls++;
            return delegate.fittingPrefix(text, maxTokens);
        }

        @Override
        public String name() {
            return "calls:" + delegate.name();
        }
    }
}
