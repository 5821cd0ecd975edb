package dev.ragkit.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

final class ProviderSettingsTest {
    private static final Set<String> KEYS = Set.of("size", "mode", "fast", "wait-seconds");

    private enum Mode { EACH_WRITE, BATCHED }

    @Test
    void constructor_unknownKey_isRefusedListingTheKnownOnes() {
        assertThatThrownBy(() -> new ProviderSettings("toy store", Map.of("sise", "3"), KEYS))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("unknown toy store setting 'sise'; known settings: [fast, mode, size, wait-seconds]");
    }

    @Test
    void constructor_nullKey_isRefused() {
        Map<String, String> config = new HashMap<>();
        config.put(null, "3");
        assertThatThrownBy(() -> new ProviderSettings("toy", config, KEYS))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("unknown toy setting 'null'");
    }

    @Test
    void apply_presentKey_handsTheValueOn_absentKey_callsNothing() {
        ProviderSettings settings = new ProviderSettings("toy", Map.of("size", "3"), KEYS);
        List<String> seen = new ArrayList<>();

        settings.apply("size", seen::add);
        settings.apply("mode", seen::add);

        assertThat(seen).containsExactly("3");
    }

    @Test
    void apply_aValueTheSetterRejects_isReportedUnderTheKey() {
        ProviderSettings settings = new ProviderSettings("toy", Map.of("size", "0"), KEYS);

        assertThatThrownBy(() -> settings.apply("size", v -> {
            throw new IllegalArgumentException("maxK must be at least 1");
        })).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("toy setting 'size' has a bad value '0': maxK must be at least 1")
                .hasCauseInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void apply_aMessageThatNamesTheKeyAlready_isPassedOnAsItIs() {
        ProviderSettings settings = new ProviderSettings("toy", Map.of("size", "x"), KEYS);
        IllegalArgumentException own = new IllegalArgumentException("'size' is wrong");

        assertThatThrownBy(() -> settings.apply("size", v -> {
            throw own;
        })).isSameAs(own);
    }

    @Test
    void integer_parsesAWholeNumber_elseNamesTheKey() {
        ProviderSettings settings = new ProviderSettings("toy store", Map.of(), KEYS);

        assertThat(settings.integer("size", " 42 ")).isEqualTo(42);
        assertThat(settings.integer("size", "-7")).isEqualTo(-7);
        assertThatThrownBy(() -> settings.integer("size", "three")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("toy store setting 'size' must be a whole number, got 'three'");
        assertThatThrownBy(() -> settings.integer("size", "3000000000")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'size'");
    }

    @Test
    void whole_outsideTheRange_isRefusedWithTheRule() {
        ProviderSettings settings = new ProviderSettings("toy", Map.of(), KEYS);

        assertThat(settings.whole("size", "10", 1, 10, "from 1 to 10")).isEqualTo(10);
        assertThatThrownBy(() -> settings.whole("size", "11", 1, 10, "from 1 to 10"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("toy setting 'size' must be from 1 to 10, got '11'");
    }

    @Test
    void seconds_acceptsOneSecondToADay() {
        ProviderSettings settings = new ProviderSettings("toy", Map.of(), KEYS);

        assertThat(ProviderSettings.MAX_SECONDS).isEqualTo(24 * 60 * 60);
        assertThat(settings.seconds("wait-seconds", "1")).isEqualTo(1);
        assertThat(settings.seconds("wait-seconds", "86400")).isEqualTo(86_400);
        assertThatThrownBy(() -> settings.seconds("wait-seconds", "0")).hasMessageContaining("'wait-seconds'")
                .hasMessageContaining("from 1 to 86400 (a day)");
        assertThatThrownBy(() -> settings.seconds("wait-seconds", "86401")).hasMessageContaining("'wait-seconds'");
    }

    @Test
    void bool_trueOrFalseInAnyCase_elseNamesTheKey() {
        ProviderSettings settings = new ProviderSettings("toy", Map.of(), KEYS);

        assertThat(settings.bool("fast", "TRUE")).isTrue();
        assertThat(settings.bool("fast", " false ")).isFalse();
        assertThatThrownBy(() -> settings.bool("fast", "yes")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("toy setting 'fast' must be true or false, got 'yes'");
    }

    @Test
    void option_readsDashedLowerCaseNames_elseListsThem() {
        ProviderSettings settings = new ProviderSettings("toy", Map.of(), KEYS);

        assertThat(settings.option("mode", "each-write", Mode.class)).isEqualTo(Mode.EACH_WRITE);
        assertThat(settings.option("mode", " Batched ", Mode.class)).isEqualTo(Mode.BATCHED);
        assertThat(settings.option("mode", "EACH_WRITE", Mode.class)).isEqualTo(Mode.EACH_WRITE);
        assertThatThrownBy(() -> settings.option("mode", "sometimes", Mode.class))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("toy setting 'mode' must be one of: each-write, batched; got 'sometimes'");
    }
}
