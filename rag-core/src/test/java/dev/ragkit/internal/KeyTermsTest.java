package dev.ragkit.internal;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

final class KeyTermsTest {

    @Test
    void of_mixedText_lowerCasedAlphanumericAtLeastThreeCharsWithoutStopWords() {
        assertThat(KeyTerms.of("The QUICK brown-fox, it's 42 and 7 x99; because Über"))
                .containsExactlyInAnyOrder("quick", "brown", "fox", "x99", "ber");
    }

    @Test
    void of_modalVerbsOfTheSpecificationList_areNotKeyTerms() {
        // spec 003 lists "need" and "dare" among its stop words: they must not count towards coverage
        assertThat(KeyTerms.of("You need not dare to rotate keys")).containsExactlyInAnyOrder("rotate", "keys");
    }

    @Test
    void of_wordsOutsideTheSpecificationList_areKeyTerms() {
        // the specification's list is used exactly, so words it does not name are key terms
        assertThat(KeyTerms.of("which about also")).containsExactlyInAnyOrder("which", "about", "also");
    }

    @Test
    void stopWords_areExactlyTheSpecificationList() {
        assertThat(KeyTerms.STOP_WORDS).hasSize(106)
                .contains("the", "need", "dare", "myself", "them", "i", "a")
                .doesNotContain("which", "about", "also", "their");
    }
}
