package dev.ragkit.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

final class CitationNumbersTest {
    private static final String A = "0f8fad5b-d9cb-469f-a165-70867728950e:0";
    private static final String B = "7c9e6679-7425-40de-944b-e07fc1f90ae7:3";

    @Test
    void feed_markerSplitAcrossTokens_becomesOneNumber() {
        CitationNumbers numbers = new CitationNumbers();
        StringBuilder out = new StringBuilder();
        String text = "Keys rotate. [SourceId: " + A + "] Salaries [SourceId: " + B + "; SourceId: " + A
                + "] are paid [see note].";
        for (int i = 0; i < text.length(); i += 5) {
            out.append(numbers.feed(text.substring(i, Math.min(text.length(), i + 5))));
        }
        out.append(numbers.finish());
        assertThat(out.toString()).isEqualTo("Keys rotate. [1] Salaries [2, 1] are paid [see note].");
        assertThat(numbers.order()).containsExactly(A, B);
    }

    @Test
    void knownOrder_numbersByTheCitationsOrder() {
        CitationNumbers numbers = new CitationNumbers(List.of(B, A));
        assertThat(numbers.feed("x [SourceId: " + A + "] y [SourceId: " + B + "]") + numbers.finish())
                .isEqualTo("x [2] y [1]");
    }

    @Test
    void feed_unclosedBracket_isNotHeldForever() {
        CitationNumbers numbers = new CitationNumbers();
        String shown = numbers.feed("[" + "a".repeat(500));
        assertThat(shown).hasSize(501);
    }
}
