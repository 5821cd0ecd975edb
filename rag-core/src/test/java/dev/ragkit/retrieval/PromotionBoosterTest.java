package dev.ragkit.retrieval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.ragkit.store.PromotionLevel;
import org.junit.jupiter.api.Test;

final class PromotionBoosterTest {

    private static final double TOLERANCE = 1e-9;

    @Test
    void boost_specificationScenario_criticalAndImportantReach085StandardUnchanged() {
        Booster booster = Booster.promotion();

        assertThat(booster.boost(0.70, PromotionLevel.CRITICAL)).isCloseTo(0.85, within(TOLERANCE));
        assertThat(booster.boost(0.75, PromotionLevel.IMPORTANT)).isCloseTo(0.85, within(TOLERANCE));
        assertThat(booster.boost(0.80, PromotionLevel.STANDARD)).isEqualTo(0.80);
    }

    @Test
    void defaults_areFifteenAndTenHundredths() {
        PromotionBooster booster = PromotionBooster.defaults();

        assertThat(booster.criticalBoost()).isEqualTo(0.15);
        assertThat(booster.importantBoost()).isEqualTo(0.10);
        assertThat(booster.boostFor(PromotionLevel.STANDARD)).isZero();
        assertThat(Booster.promotion()).isEqualTo(booster);
        assertThat(PromotionBooster.builder().build()).isEqualTo(booster);
    }

    @Test
    void boost_nearTheTop_isCappedAtOne() {
        Booster booster = Booster.promotion();

        assertThat(booster.boost(0.95, PromotionLevel.CRITICAL)).isEqualTo(1.0);
        assertThat(booster.boost(0.95, PromotionLevel.IMPORTANT)).isEqualTo(1.0);
        assertThat(booster.boost(1.0, PromotionLevel.CRITICAL)).isEqualTo(1.0);
        assertThat(PromotionBooster.of(1, 1).boost(0.5, PromotionLevel.IMPORTANT)).isEqualTo(1.0);
    }

    @Test
    void boost_neverLowersTheRelevance() {
        Booster booster = PromotionBooster.builder().criticalBoost(0.3).importantBoost(0.01).build();
        for (PromotionLevel level : PromotionLevel.values()) {
            for (int i = 0; i <= 1000; i++) {
                double relevance = i / 1000.0;
                double boosted = booster.boost(relevance, level);
                assertThat(boosted).isBetween(relevance, 1.0);
            }
        }
    }

    @Test
    void identity_changesNothingAtAnyLevel() {
        Booster identity = Booster.identity();
        for (PromotionLevel level : PromotionLevel.values()) {
            assertThat(identity.boost(0.0, level)).isEqualTo(0.0);
            assertThat(identity.boost(0.7, level)).isEqualTo(0.7);
            assertThat(identity.boost(1.0, level)).isEqualTo(1.0);
        }
        assertThat(identity).isEqualTo(PromotionBooster.of(0, 0));
    }

    @Test
    void builder_customBoosts_areApplied() {
        PromotionBooster booster = PromotionBooster.builder().criticalBoost(0.2).importantBoost(0.05).build();

        assertThat(booster.boost(0.7, PromotionLevel.CRITICAL)).isCloseTo(0.9, within(TOLERANCE));
        assertThat(booster.boost(0.7, PromotionLevel.IMPORTANT)).isCloseTo(0.75, within(TOLERANCE));
        assertThat(booster.boost(0.7, PromotionLevel.STANDARD)).isEqualTo(0.7);
        assertThat(booster.toBuilder().build()).isEqualTo(booster).hasSameHashCodeAs(booster);
        assertThat(booster.toBuilder().importantBoost(0).build().boostFor(PromotionLevel.IMPORTANT)).isZero();
    }

    @Test
    void builderAndFactory_boostOutsideZeroToOne_areRejected() {
        for (double bad : new double[] {-0.01, 1.01, Double.NaN, Double.POSITIVE_INFINITY, -1}) {
            assertThatThrownBy(() -> PromotionBooster.builder().criticalBoost(bad))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("criticalBoost");
            assertThatThrownBy(() -> PromotionBooster.builder().importantBoost(bad))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("importantBoost");
            assertThatThrownBy(() -> PromotionBooster.of(bad, 0.1))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("criticalBoost");
            assertThatThrownBy(() -> PromotionBooster.of(0.1, bad))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("importantBoost");
        }
    }

    @Test
    void boost_relevanceOutsideZeroToOne_isRejected() {
        for (Booster booster : new Booster[] {Booster.promotion(), Booster.identity()}) {
            for (double bad : new double[] {-0.0001, 1.0001, Double.NaN, Double.NEGATIVE_INFINITY}) {
                assertThatThrownBy(() -> booster.boost(bad, PromotionLevel.STANDARD))
                        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("relevance");
            }
        }
    }

    @Test
    void boost_nullLevel_throwsNullPointerException() {
        assertThatThrownBy(() -> Booster.promotion().boost(0.5, null))
                .isInstanceOf(NullPointerException.class).hasMessageContaining("level");
    }
}
