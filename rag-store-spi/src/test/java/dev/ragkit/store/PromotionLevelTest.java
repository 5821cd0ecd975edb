package dev.ragkit.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

final class PromotionLevelTest {

    @Test
    void parse_anyCaseWithWhitespace_returnsLevel() {
        assertThat(PromotionLevel.parse("critical")).isEqualTo(PromotionLevel.CRITICAL);
        assertThat(PromotionLevel.parse("  Important\t")).isEqualTo(PromotionLevel.IMPORTANT);
        assertThat(PromotionLevel.parse("STANDARD")).isEqualTo(PromotionLevel.STANDARD);
    }

    @Test
    void parse_unknownName_throwsIllegalArgumentExceptionListingValidNames() {
        assertThatThrownBy(() -> PromotionLevel.parse("urgent")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("urgent").hasMessageContaining("standard, important, critical");
    }

    @Test
    void isAtLeast_levels_followStandardImportantCriticalOrder() {
        assertThat(PromotionLevel.CRITICAL.isAtLeast(PromotionLevel.IMPORTANT)).isTrue();
        assertThat(PromotionLevel.IMPORTANT.isAtLeast(PromotionLevel.IMPORTANT)).isTrue();
        assertThat(PromotionLevel.STANDARD.isAtLeast(PromotionLevel.IMPORTANT)).isFalse();
    }
}
