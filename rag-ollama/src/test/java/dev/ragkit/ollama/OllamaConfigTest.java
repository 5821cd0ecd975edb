package dev.ragkit.ollama;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

/** {@link OllamaConfig}, and the one rule for settings in the Ollama builders: config is a base layer. */
final class OllamaConfigTest {
    private static final OllamaConfig BASE = OllamaConfig.fromEnvironment(Map.of("OLLAMA_BASE_URL",
            "http://gpu-box:11434", "RAG_TIMEOUT_SECONDS", "90"));

    @Test
    void defaults_localhostAndThirtySeconds() {
        assertThat(OllamaConfig.defaults().baseUrl()).isEqualTo(URI.create("http://localhost:11434"));
        assertThat(OllamaConfig.defaults().timeout()).isEqualTo(Duration.ofSeconds(30));
        assertThat(OllamaConfig.fromEnvironment(Map.of())).isEqualTo(OllamaConfig.defaults());
        assertThat(OllamaConfig.builder().build()).isEqualTo(OllamaConfig.defaults());
    }

    @Test
    void fromEnvironment_readsBothVariablesTrimmed() {
        OllamaConfig c = OllamaConfig.fromEnvironment(Map.of("OLLAMA_BASE_URL", " https://ollama.internal:8443/ ",
                "RAG_TIMEOUT_SECONDS", "\t12"));

        assertThat(c.baseUrl()).isEqualTo(URI.create("https://ollama.internal:8443/"));
        assertThat(c.timeout()).isEqualTo(Duration.ofSeconds(12));
    }

    @ParameterizedTest(name = "{0}={1}")
    @CsvSource(delimiter = '|', value = {
        "OLLAMA_BASE_URL     | localhost:11434 | http or https URL",
        "OLLAMA_BASE_URL     | ftp://host      | http or https URL",
        "OLLAMA_BASE_URL     | http://         | http or https URL",
        "RAG_TIMEOUT_SECONDS | 0               | from 1 to 86400 (a day)",
        "RAG_TIMEOUT_SECONDS | 30s             | from 1 to 86400 (a day)",
        "RAG_TIMEOUT_SECONDS | 86401           | from 1 to 86400 (a day)"})
    void fromEnvironment_badValue_namesTheVariableTheValueAndTheRule(String variable, String value, String rule) {
        assertThatThrownBy(() -> OllamaConfig.fromEnvironment(Map.of(variable, value)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith(variable + " must be ")
                .hasMessageContaining(rule)
                .hasMessageContaining("got '" + value + "'");
    }

    @Test
    void fromEnvironment_aDay_isTheLongestTimeout() {
        assertThat(OllamaConfig.fromEnvironment(Map.of("RAG_TIMEOUT_SECONDS", "86400")).timeout())
                .isEqualTo(Duration.ofDays(1));
    }

    static Stream<Arguments> backendSettings() {
        return Stream.of(
                Arguments.of("baseUrl", (UnaryOperator<OllamaBackend.Builder>) b -> b.baseUrl("http://other:1234")),
                Arguments.of("readTimeout", (UnaryOperator<OllamaBackend.Builder>) b -> b.readTimeout(
                        Duration.ofSeconds(7))),
                Arguments.of("callTimeout", (UnaryOperator<OllamaBackend.Builder>) b -> b.callTimeout(
                        Duration.ofSeconds(8))));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("backendSettings")
    void backendBuilder_settingBeforeOrAfterConfig_isTheSame(String name, UnaryOperator<OllamaBackend.Builder> set) {
        try (OllamaBackend before = set.apply(OllamaBackend.builder()).config(BASE).build();
                OllamaBackend after = set.apply(OllamaBackend.builder().config(BASE)).build()) {
            assertThat(describe(before)).isEqualTo(describe(after)).isNotEqualTo(describe(base()));
        }
    }

    @Test
    void backendBuilder_explicitBaseUrlThenConfig_keepsTheExplicitUrlAndTakesTheTimeout() {
        try (OllamaBackend b = OllamaBackend.builder().baseUrl("http://explicit:11434").config(BASE).build()) {
            assertThat(b.baseUrl()).isEqualTo(URI.create("http://explicit:11434/"));
            assertThat(b.httpClient().callTimeoutMillis()).isEqualTo(90_000);
            assertThat(b.httpClient().readTimeoutMillis()).isEqualTo(90_000);
        }
    }

    @Test
    void embedderBuilder_settingBeforeOrAfterConfig_isTheSame() {
        try (OllamaEmbedder urlFirst = OllamaEmbedder.builder().model("m").baseUrl("http://other:1").config(BASE)
                .build();
                OllamaEmbedder urlLast = OllamaEmbedder.builder().model("m").config(BASE).baseUrl("http://other:1")
                        .build();
                OllamaEmbedder timeoutFirst = OllamaEmbedder.builder().model("m").timeout(Duration.ofSeconds(5))
                        .config(BASE).build();
                OllamaEmbedder timeoutLast = OllamaEmbedder.builder().model("m").config(BASE)
                        .timeout(Duration.ofSeconds(5)).build()) {
            assertThat(urlFirst.baseUrl()).isEqualTo(urlLast.baseUrl()).isEqualTo(URI.create("http://other:1/"));
            assertThat(urlFirst.httpClient().callTimeoutMillis()).isEqualTo(urlLast.httpClient().callTimeoutMillis())
                    .isEqualTo(90_000);
            assertThat(timeoutFirst.httpClient().callTimeoutMillis())
                    .isEqualTo(timeoutLast.httpClient().callTimeoutMillis()).isEqualTo(5_000);
            assertThat(timeoutFirst.baseUrl()).isEqualTo(URI.create("http://gpu-box:11434/"));
        }
    }

    private static OllamaBackend base() {
        return OllamaBackend.builder().config(BASE).build();
    }

    private static String describe(OllamaBackend b) {
        try (b) {
            return b.baseUrl() + " read " + b.httpClient().readTimeoutMillis() + " call "
                    + b.httpClient().callTimeoutMillis();
        }
    }
}
