package dev.ragkit.budget;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

final class BudgetLimitsTest {

    @Test
    void defaults_areTheSpecifiedNumbers() {
        BudgetLimits limits = BudgetLimits.defaults(8192);

        assertThat(limits.contextWindow()).isEqualTo(8192);
        assertThat(limits.contextCap()).isEqualTo(3000);
        assertThat(limits.historyCap()).isEqualTo(1000);
        assertThat(limits.responseReserve()).isEqualTo(1024);
        assertThat(limits.systemReserve()).isEqualTo(500);
        assertThat(limits.minTruncatedTokens()).isEqualTo(50);
        assertThat(limits.messageOverheadTokens()).isEqualTo(4);
        assertThat(limits.promptLimit()).isEqualTo(8192 - 1024);
    }

    @Test
    void withContextWindowAndResponseReserve_changeOnlyThatValue() {
        BudgetLimits limits = BudgetLimits.defaults(8192);

        assertThat(limits.withContextWindow(32768)).isEqualTo(BudgetLimits.defaults(32768));
        BudgetLimits reserved = limits.withResponseReserve(2000);
        assertThat(reserved.responseReserve()).isEqualTo(2000);
        assertThat(reserved.promptLimit()).isEqualTo(8192 - 2000);
        assertThat(reserved.withResponseReserve(1024)).isEqualTo(limits);
    }

    @Test
    void new_windowOrResponseReserveBelowOne_isRejected() {
        assertThatThrownBy(() -> BudgetLimits.defaults(0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("contextWindow");
        assertThatThrownBy(() -> BudgetLimits.defaults(8192).withResponseReserve(0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("responseReserve");
    }

    @Test
    void new_negativeReserveOrCap_isRejected() {
        assertThatThrownBy(() -> new BudgetLimits(8192, 1024, -1, 1000, 3000, 50, 4))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("systemReserve");
        assertThatThrownBy(() -> new BudgetLimits(8192, 1024, 500, -1, 3000, 50, 4))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new BudgetLimits(8192, 1024, 500, 1000, -1, 50, 4))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new BudgetLimits(8192, 1024, 500, 1000, 3000, 50, -1))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(new BudgetLimits(8192, 1024, 0, 0, 0, 1, 0).contextCap()).isZero();
    }

    @Test
    void new_minTruncatedTokensBelowOne_isRejected() {
        assertThatThrownBy(() -> new BudgetLimits(8192, 1024, 500, 1000, 3000, 0, 4))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("minTruncatedTokens");
    }
}
