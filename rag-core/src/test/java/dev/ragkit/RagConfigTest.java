package dev.ragkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ragkit.retrieval.RetrievalOptions;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

final class RagConfigTest {

    private static final Map<String, String> EVERY_VARIABLE = Map.ofEntries(
            Map.entry("CHAT_MODEL", "qwen3:8b"),
            Map.entry("RAG_TEMPERATURE", "0.7"),
            Map.entry("RAG_CONFIDENCE_THRESHOLD", "75"),
            Map.entry("RAG_ADMIN_EMAIL", "ops@example.org"),
            Map.entry("RAG_MAX_CONTEXT_TOKENS", "6000"),
            Map.entry("RAG_MAX_HISTORY_TOKENS", "0"),
            Map.entry("RAG_MAX_RESPONSE_TOKENS", "2048"),
            Map.entry("RAG_SYSTEM_PROMPT_TOKENS", "800"),
            Map.entry("RAG_MIN_SIMILARITY_SCORE", "0.45"),
            Map.entry("RAG_MAX_CHUNKS_PER_DOC", "2"),
            Map.entry("RAG_TOTAL_CONTEXT_CHUNKS", "8"),
            Map.entry("RAG_DEDUP_CANDIDATES_CAP", "24"),
            Map.entry("RAG_CHUNK_OVERLAP_THRESHOLD", "0.8"));

    @Test
    void defaults_matchTheDocumentedValues() {
        RagConfig c = RagConfig.defaults();

        assertThat(c.chatModel()).isEqualTo("llama3.2");
        assertThat(c.temperature()).isEqualTo(0.1);
        assertThat(c.confidenceThreshold()).isEqualTo(60);
        assertThat(c.adminEmail()).isNull();                  // no invented address: nobody until configured
        assertThat(c.maxContextTokens()).isEqualTo(3000);
        assertThat(c.maxHistoryTokens()).isEqualTo(1000);
        assertThat(c.maxResponseTokens()).isEqualTo(1024);
        assertThat(c.systemPromptTokens()).isEqualTo(500);
        assertThat(c.minRelevance()).isEqualTo(0.3);
        assertThat(c.maxChunksPerDocument()).isEqualTo(3);
        assertThat(c.topK()).isEqualTo(5);
        assertThat(c.candidateCap()).isEqualTo(15);
        assertThat(c.duplicateThreshold()).isEqualTo(0.9);
    }

    @Test
    void defaults_equalAnEmptyBuilderAndAnEmptyEnvironment() {
        assertThat(RagConfig.builder().build())
                .isEqualTo(RagConfig.defaults())
                .isEqualTo(RagConfig.fromEnvironment(Map.of()))
                .hasSameHashCodeAs(RagConfig.defaults());
    }

    @Test
    void fromEnvironment_everyVariableSet_readsEachOne() {
        RagConfig c = RagConfig.fromEnvironment(EVERY_VARIABLE);

        assertThat(c.chatModel()).isEqualTo("qwen3:8b");
        assertThat(c.temperature()).isEqualTo(0.7);
        assertThat(c.confidenceThreshold()).isEqualTo(75);
        assertThat(c.adminEmail()).isEqualTo("ops@example.org");
        assertThat(c.maxContextTokens()).isEqualTo(6000);
        assertThat(c.maxHistoryTokens()).isZero();
        assertThat(c.maxResponseTokens()).isEqualTo(2048);
        assertThat(c.systemPromptTokens()).isEqualTo(800);
        assertThat(c.minRelevance()).isEqualTo(0.45);
        assertThat(c.maxChunksPerDocument()).isEqualTo(2);
        assertThat(c.topK()).isEqualTo(8);
        assertThat(c.candidateCap()).isEqualTo(24);
        assertThat(c.duplicateThreshold()).isEqualTo(0.8);
    }

    @Test
    void fromEnvironment_eachVariableAlone_changesOnlyItsSetting() {
        for (Map.Entry<String, String> entry : EVERY_VARIABLE.entrySet()) {
            RagConfig c = RagConfig.fromEnvironment(Map.of(entry.getKey(), entry.getValue()));

            assertThat(c).as(entry.getKey()).isNotEqualTo(RagConfig.defaults());
            // Putting back the one default must give the defaults: nothing else moved.
            assertThat(resetTo(c, entry.getKey(), RagConfig.defaults())).as(entry.getKey())
                    .isEqualTo(RagConfig.defaults());
        }
    }

    /** Copies the setting of {@code variable} from {@code source} into {@code config}. */
    private static RagConfig resetTo(RagConfig config, String variable, RagConfig source) {
        if (variable.equals("RAG_ADMIN_EMAIL") && source.adminEmail() == null) {
            return source;          // there is no address to copy back: the config differs from source in it alone
        }
        RagConfig.Builder b = config.toBuilder();
        switch (variable) {
            case "CHAT_MODEL" -> b.chatModel(source.chatModel());
            case "RAG_TEMPERATURE" -> b.temperature(source.temperature());
            case "RAG_CONFIDENCE_THRESHOLD" -> b.confidenceThreshold(source.confidenceThreshold());
            case "RAG_ADMIN_EMAIL" -> b.adminEmail(source.adminEmail());
            case "RAG_MAX_CONTEXT_TOKENS" -> b.maxContextTokens(source.maxContextTokens());
            case "RAG_MAX_HISTORY_TOKENS" -> b.maxHistoryTokens(source.maxHistoryTokens());
            case "RAG_MAX_RESPONSE_TOKENS" -> b.maxResponseTokens(source.maxResponseTokens());
            case "RAG_SYSTEM_PROMPT_TOKENS" -> b.systemPromptTokens(source.systemPromptTokens());
            case "RAG_MIN_SIMILARITY_SCORE" -> b.minRelevance(source.minRelevance());
            case "RAG_MAX_CHUNKS_PER_DOC" -> b.maxChunksPerDocument(source.maxChunksPerDocument());
            case "RAG_TOTAL_CONTEXT_CHUNKS" -> b.topK(source.topK());
            case "RAG_DEDUP_CANDIDATES_CAP" -> b.candidateCap(source.candidateCap());
            case "RAG_CHUNK_OVERLAP_THRESHOLD" -> b.duplicateThreshold(source.duplicateThreshold());
            default -> throw new AssertionError("unknown variable " + variable);
        }
        return b.build();
    }

    @Test
    void fromEnvironment_blankOrNullValues_countAsUnset() {
        Map<String, String> env = new HashMap<>();
        for (String name : EVERY_VARIABLE.keySet()) {
            env.put(name, name.hashCode() % 2 == 0 ? "" : "  \t ");
        }
        env.put("RAG_TEMPERATURE", null);

        assertThat(RagConfig.fromEnvironment(env)).isEqualTo(RagConfig.defaults());
    }

    @Test
    void fromEnvironment_surroundingWhitespace_isTrimmed() {
        RagConfig c = RagConfig.fromEnvironment(Map.of("RAG_TEMPERATURE", " 0.5 ", "CHAT_MODEL", " mistral\n"));

        assertThat(c.temperature()).isEqualTo(0.5);
        assertThat(c.chatModel()).isEqualTo("mistral");
    }

    @Test
    void fromEnvironment_unrelatedVariables_areIgnored() {
        assertThat(RagConfig.fromEnvironment(Map.of("PATH", "/usr/bin", "RAG_UNKNOWN", "x")))
                .isEqualTo(RagConfig.defaults());
    }

    @Test
    void fromEnvironment_boundaryValues_areAccepted() {
        RagConfig c = RagConfig.fromEnvironment(Map.of("RAG_TEMPERATURE", "2", "RAG_CONFIDENCE_THRESHOLD", "0",
                "RAG_MIN_SIMILARITY_SCORE", "1.0", "RAG_CHUNK_OVERLAP_THRESHOLD", "1", "RAG_SYSTEM_PROMPT_TOKENS", "0",
                "RAG_TOTAL_CONTEXT_CHUNKS", "15"));

        assertThat(c.temperature()).isEqualTo(2.0);
        assertThat(c.confidenceThreshold()).isZero();
        assertThat(c.minRelevance()).isEqualTo(1.0);
        assertThat(c.duplicateThreshold()).isEqualTo(1.0);
        assertThat(c.systemPromptTokens()).isZero();
        assertThat(c.topK()).isEqualTo(c.candidateCap());
    }

    static Stream<Arguments> badValues() {
        return Stream.of(
                Arguments.of("RAG_TEMPERATURE", "hot", "a number from 0 to 2"),
                Arguments.of("RAG_TEMPERATURE", "2.5", "a number from 0 to 2"),
                Arguments.of("RAG_TEMPERATURE", "-0.1", "a number from 0 to 2"),
                Arguments.of("RAG_TEMPERATURE", "NaN", "a number from 0 to 2"),
                Arguments.of("RAG_TEMPERATURE", "0.5f", "a number from 0 to 2"),
                Arguments.of("RAG_TEMPERATURE", "0,5", "a number from 0 to 2"),
                Arguments.of("RAG_CONFIDENCE_THRESHOLD", "101", "whole number from 0 to 100"),
                Arguments.of("RAG_CONFIDENCE_THRESHOLD", "-1", "whole number from 0 to 100"),
                Arguments.of("RAG_CONFIDENCE_THRESHOLD", "60.5", "whole number from 0 to 100"),
                Arguments.of("RAG_ADMIN_EMAIL", "admin", "e-mail address"),
                Arguments.of("RAG_ADMIN_EMAIL", "@company.com", "e-mail address"),
                Arguments.of("RAG_ADMIN_EMAIL", "admin@", "e-mail address"),
                Arguments.of("RAG_ADMIN_EMAIL", "ad min@company.com", "e-mail address"),
                Arguments.of("RAG_MAX_CONTEXT_TOKENS", "0", "whole number, at least 1"),
                Arguments.of("RAG_MAX_CONTEXT_TOKENS", "99999999999", "whole number, at least 1"),
                Arguments.of("RAG_MAX_HISTORY_TOKENS", "-1", "whole number, at least 0"),
                Arguments.of("RAG_MAX_HISTORY_TOKENS", "lots", "whole number, at least 0"),
                Arguments.of("RAG_MAX_RESPONSE_TOKENS", "0", "whole number, at least 1"),
                Arguments.of("RAG_SYSTEM_PROMPT_TOKENS", "-500", "whole number, at least 0"),
                Arguments.of("RAG_MIN_SIMILARITY_SCORE", "1.1", "a number from 0 to 1"),
                Arguments.of("RAG_MIN_SIMILARITY_SCORE", "-0.3", "a number from 0 to 1"),
                Arguments.of("RAG_MIN_SIMILARITY_SCORE", "30%", "a number from 0 to 1"),
                Arguments.of("RAG_MAX_CHUNKS_PER_DOC", "0", "whole number, at least 1"),
                Arguments.of("RAG_TOTAL_CONTEXT_CHUNKS", "0", "whole number, at least 1"),
                Arguments.of("RAG_DEDUP_CANDIDATES_CAP", "0", "whole number, at least 1"),
                Arguments.of("RAG_DEDUP_CANDIDATES_CAP", "3", "must not be below RAG_TOTAL_CONTEXT_CHUNKS"),
                Arguments.of("RAG_TOTAL_CONTEXT_CHUNKS", "16", "must not be below RAG_TOTAL_CONTEXT_CHUNKS"),
                Arguments.of("RAG_CHUNK_OVERLAP_THRESHOLD", "0", "a number above 0 and at most 1"),
                Arguments.of("RAG_CHUNK_OVERLAP_THRESHOLD", "1.01", "a number above 0 and at most 1"),
                Arguments.of("RAG_CHUNK_OVERLAP_THRESHOLD", "Infinity", "a number above 0 and at most 1"));
    }

    @ParameterizedTest(name = "{0}={1}")
    @MethodSource("badValues")
    void fromEnvironment_badValue_throwsNamingVariableValueAndRule(String variable, String value, String rule) {
        assertThatThrownBy(() -> RagConfig.fromEnvironment(Map.of(variable, value)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(variable)
                .hasMessageContaining(rule)
                .satisfies(e -> {
                    if (!rule.startsWith("must not be below")) {
                        assertThat(e).hasMessageContaining("got '" + value + "'")
                                .hasMessageStartingWith(variable + " must be ");
                    } else {
                        assertThat(e).hasMessageContaining(value);
                    }
                });
    }

    @Test
    void fromEnvironment_badTemperature_hasTheDocumentedMessage() {
        assertThatThrownBy(() -> RagConfig.fromEnvironment(Map.of("RAG_TEMPERATURE", "hot")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("RAG_TEMPERATURE must be a number from 0 to 2, got 'hot'");
    }

    @Test
    void fromEnvironment_blankChatModel_keepsDefault() {
        assertThat(RagConfig.fromEnvironment(Map.of("CHAT_MODEL", "   ")).chatModel()).isEqualTo("llama3.2");
    }

    @Test
    void fromEnvironment_nullMap_throwsNullPointerException() {
        assertThatThrownBy(() -> RagConfig.fromEnvironment(null))
                .isInstanceOf(NullPointerException.class)
                .hasMessage("env");
    }

    @Test
    void fromEnvironment_processEnvironment_readsWithoutFailingOnUnsetVariables() {
        // The build machine may set some of the variables; whatever it sets must parse the same either way.
        assertThat(RagConfig.fromEnvironment()).isEqualTo(RagConfig.fromEnvironment(System.getenv()));
    }

    static Stream<Arguments> badBuilderValues() {
        return Stream.<Arguments>of(
                bad("chatModel", b -> b.chatModel(" ")),
                bad("temperature", b -> b.temperature(2.0001)),
                bad("temperature", b -> b.temperature(Double.NaN)),
                bad("confidenceThreshold", b -> b.confidenceThreshold(101)),
                bad("adminEmail", b -> b.adminEmail("nobody")),
                bad("maxContextTokens", b -> b.maxContextTokens(0)),
                bad("maxHistoryTokens", b -> b.maxHistoryTokens(-1)),
                bad("maxResponseTokens", b -> b.maxResponseTokens(0)),
                bad("systemPromptTokens", b -> b.systemPromptTokens(-1)),
                bad("minRelevance", b -> b.minRelevance(1.5)),
                bad("maxChunksPerDocument", b -> b.maxChunksPerDocument(0)),
                bad("topK", b -> b.topK(0)),
                bad("candidateCap", b -> b.candidateCap(0)),
                bad("duplicateThreshold", b -> b.duplicateThreshold(0)));
    }

    private static Arguments bad(String field, Consumer<RagConfig.Builder> call) {
        return Arguments.of(field, call);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badBuilderValues")
    void builder_badValue_throwsAtOnceNamingTheSetting(String field, Consumer<RagConfig.Builder> call) {
        RagConfig.Builder builder = RagConfig.builder();

        assertThatThrownBy(() -> call.accept(builder))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith(field + " must be ");
        assertThat(builder.build()).isEqualTo(RagConfig.defaults());
    }

    @Test
    void builder_nullArguments_throwNullPointerExceptionNamingThem() {
        RagConfig.Builder b = RagConfig.builder();

        assertThatThrownBy(() -> b.chatModel(null)).isInstanceOf(NullPointerException.class).hasMessage("chatModel");
        assertThatThrownBy(() -> b.adminEmail(null)).isInstanceOf(NullPointerException.class)
                .hasMessage("adminEmail");
    }

    @Test
    void build_dedupCapBelowTotalChunks_throwsIllegalStateException() {
        RagConfig.Builder b = RagConfig.builder().topK(10).candidateCap(9);

        assertThatThrownBy(b::build)
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("candidateCap (9)")
                .hasMessageContaining("topK (10)");
        assertThat(b.candidateCap(10).build().candidateCap()).isEqualTo(10);
    }

    @Test
    void toBuilder_unchanged_roundTripsToAnEqualConfig() {
        RagConfig config = RagConfig.fromEnvironment(EVERY_VARIABLE);

        RagConfig copy = config.toBuilder().build();

        assertThat(copy).isEqualTo(config).hasSameHashCodeAs(config).hasToString(config.toString());
    }

    @Test
    void toBuilder_oneChange_leavesTheOriginalAlone() {
        RagConfig config = RagConfig.defaults();

        RagConfig changed = config.toBuilder().chatModel("mistral").build();

        assertThat(changed.chatModel()).isEqualTo("mistral");
        assertThat(config.chatModel()).isEqualTo("llama3.2");
        assertThat(changed).isNotEqualTo(config);
        assertThat(changed.toBuilder().chatModel("llama3.2").build()).isEqualTo(config);
    }

    @Test
    void toString_namesEverySetting() {
        assertThat(RagConfig.defaults().toString()).contains(
                "chatModel=llama3.2", "temperature=0.1", "confidenceThreshold=60",
                "adminEmail=null", "maxContextTokens=3000", "maxHistoryTokens=1000",
                "maxResponseTokens=1024", "systemPromptTokens=500", "minRelevance=0.3", "maxChunksPerDocument=3",
                "topK=5", "candidateCap=15", "duplicateThreshold=0.9");
    }

    @Test
    void retrievalOptions_defaults_equalTheChunkQaPreset() {
        assertThat(RagConfig.defaults().retrievalOptions()).isEqualTo(RetrievalOptions.chunkQa());
    }

    @Test
    void retrievalOptions_customValues_mapOntoChunkQa() {
        RagConfig config = RagConfig.fromEnvironment(EVERY_VARIABLE);

        RetrievalOptions options = config.retrievalOptions();

        assertThat(options).isEqualTo(RetrievalOptions.chunkQa().toBuilder().minRelevance(0.45).topK(8)
                .maxChunksPerDocument(2).candidateCap(24).build());
        assertThat(options.granularity()).isEqualTo(RetrievalOptions.Granularity.CHUNK);
        assertThat(options.candidates()).isEqualTo(24);
    }

    @Test
    void deduplicator_usesTheOverlapThreshold() {
        assertThat(RagConfig.defaults().deduplicator()).hasToString("JaccardDeduplicator[threshold 0.9]");
        assertThat(RagConfig.builder().duplicateThreshold(0.75).build().deduplicator())
                .hasToString("JaccardDeduplicator[threshold 0.75]");
    }

    @Test
    void variableConstants_matchTheDesignNames() {
        assertThat(Stream.of(RagConfig.CHAT_MODEL, RagConfig.RAG_TEMPERATURE, RagConfig.RAG_CONFIDENCE_THRESHOLD,
                RagConfig.RAG_ADMIN_EMAIL,
                RagConfig.RAG_MAX_CONTEXT_TOKENS, RagConfig.RAG_MAX_HISTORY_TOKENS, RagConfig.RAG_MAX_RESPONSE_TOKENS,
                RagConfig.RAG_SYSTEM_PROMPT_TOKENS, RagConfig.RAG_MIN_SIMILARITY_SCORE,
                RagConfig.RAG_MAX_CHUNKS_PER_DOC, RagConfig.RAG_TOTAL_CONTEXT_CHUNKS,
                RagConfig.RAG_DEDUP_CANDIDATES_CAP, RagConfig.RAG_CHUNK_OVERLAP_THRESHOLD))
                .containsExactlyInAnyOrderElementsOf(EVERY_VARIABLE.keySet());
    }

    @Test
    void retrievalSettings_carryTheNamesOfRetrievalOptions() throws NoSuchMethodException {
        // RagConfig and RetrievalOptions name the same setting the same way, accessors and builder setters alike
        for (String name : List.of("minRelevance", "topK", "maxChunksPerDocument", "candidateCap")) {
            Class<?> type = RagConfig.class.getMethod(name).getReturnType();
            assertThat(RetrievalOptions.class.getMethod(name).getReturnType()).as(name).isEqualTo(type);
            assertThat(RagConfig.Builder.class.getMethod(name, type)).as(name).isNotNull();
            assertThat(RetrievalOptions.Builder.class.getMethod(name, type)).as(name).isNotNull();
        }
    }

    @Test
    void retrievalOptions_eachRetrievalSetting_reachesTheOptionOfTheSameName() {
        RagConfig config = RagConfig.builder().minRelevance(0.55).topK(4).maxChunksPerDocument(1).candidateCap(9)
                .build();

        RetrievalOptions options = config.retrievalOptions();

        assertThat(options.minRelevance()).isEqualTo(config.minRelevance());
        assertThat(options.topK()).isEqualTo(config.topK());
        assertThat(options.maxChunksPerDocument()).isEqualTo(config.maxChunksPerDocument());
        assertThat(options.candidateCap()).isEqualTo(config.candidateCap());
    }
}
