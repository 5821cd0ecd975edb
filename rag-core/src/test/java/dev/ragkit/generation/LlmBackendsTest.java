package dev.ragkit.generation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ragkit.error.RagException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

final class LlmBackendsTest {

    /** A second provider class claiming the test provider's id. */
    private static final class ClashingProvider implements LlmBackendProvider {
        @Override
        public String id() {
            return EchoLlmBackendProvider.ID;
        }

        @Override
        public LlmBackend create(Map<String, String> config) {
            throw new AssertionError("never created");
        }
    }

    /** A provider with another id. */
    private static final class OtherProvider implements LlmBackendProvider {
        @Override
        public String id() {
            return "another";
        }

        @Override
        public LlmBackend create(Map<String, String> config) {
            throw new AssertionError("never created");
        }
    }

    @Test
    void available_testProviderRegisteredInMetaInfServices_isFoundByItsId() {
        Map<String, LlmBackendProvider> providers = LlmBackends.available();

        assertThat(providers).containsOnlyKeys(EchoLlmBackendProvider.ID);
        assertThat(providers.get(EchoLlmBackendProvider.ID)).isInstanceOf(EchoLlmBackendProvider.class);
        assertThatThrownBy(() -> providers.put("x", new OtherProvider()))
                .isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void available_explicitClassLoader_searchesThatLoader() {
        assertThat(LlmBackends.available(Thread.currentThread().getContextClassLoader()))
                .containsOnlyKeys(EchoLlmBackendProvider.ID);
    }

    @Test
    void load_knownId_createsTheBackendWithTheSettings() {
        LlmBackend backend = LlmBackends.load(EchoLlmBackendProvider.ID, Map.of("prefix", "echo: "));

        assertThat(backend).isInstanceOf(EchoLlmBackendProvider.EchoBackend.class);
        assertThat(((EchoLlmBackendProvider.EchoBackend) backend).config).containsExactly(Map.entry("prefix", "echo: "));
        assertThat(backend.chat(ChatRequest.of("m", List.of(ChatMessage.user("hi")))).text()).isEqualTo("echo: hi");
    }

    @Test
    void load_badSetting_isRejectedByTheProvider() {
        assertThatThrownBy(() -> LlmBackends.load(EchoLlmBackendProvider.ID, Map.of("colour", "red")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("colour");
    }

    @Test
    void load_unknownId_throwsListingTheIdsFound() {
        assertThatThrownBy(() -> LlmBackends.load("ollama", Map.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'ollama'")
                .hasMessageContaining("found " + EchoLlmBackendProvider.ID);
    }

    @Test
    void load_nullArguments_areRejected() {
        assertThatThrownBy(() -> LlmBackends.load(null, Map.of())).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> LlmBackends.load(EchoLlmBackendProvider.ID, null))
                .isInstanceOf(NullPointerException.class);
    }

    @Test
    void byId_twoProvidersShareAnId_throwsNamingBothClasses() {
        List<LlmBackendProvider> found = List.of(new EchoLlmBackendProvider(), new OtherProvider(),
                new ClashingProvider());

        assertThatThrownBy(() -> LlmBackends.byId(found))
                .isInstanceOf(RagException.class)
                .hasMessageContaining("'" + EchoLlmBackendProvider.ID + "'")
                .hasMessageContaining(EchoLlmBackendProvider.class.getName())
                .hasMessageContaining(ClashingProvider.class.getName());
    }

    @Test
    void byId_distinctIds_sortedById() {
        Map<String, LlmBackendProvider> byId = LlmBackends.byId(List.of(new EchoLlmBackendProvider(),
                new OtherProvider()));

        assertThat(byId.keySet()).containsExactly("another", EchoLlmBackendProvider.ID);
    }

    @Test
    void knownModels_llama32AnySpelling_is8192By1024() {
        for (String name : List.of("llama3.2", "llama3.2:latest", "LLAMA3.2", " Llama3.2:LATEST ")) {
            assertThat(KnownModels.lookup(name)).as(name).hasValueSatisfying(info -> {
                assertThat(info.contextWindow()).isEqualTo(8192);
                assertThat(info.maxResponseTokens()).isEqualTo(1024);
            });
        }
    }

    @Test
    void knownModels_specifiedModels_haveTheSpecifiedLimits() {
        assertThat(KnownModels.lookup("mistral")).hasValue(new ModelInfo("mistral", 32768, 2000));
        assertThat(KnownModels.lookup("qwen3:8b")).hasValue(new ModelInfo("qwen3:8b", 32768, 2048));
        assertThat(KnownModels.lookup("deepseek-r1:32b")).hasValue(new ModelInfo("deepseek-r1:32b", 65536, 4096));
        assertThat(KnownModels.names()).containsExactlyInAnyOrder("llama3.2", "qwen3:8b", "deepseek-r1:32b",
                "mistral");
    }

    @Test
    void knownModels_unknownOrOtherTag_isEmpty() {
        assertThat(KnownModels.lookup("gemma2")).isEmpty();
        assertThat(KnownModels.lookup("llama3.2:1b")).isEmpty();
        assertThat(KnownModels.lookup("")).isEmpty();
    }

    @Test
    void canonical_stripsLatestTagAndLowerCases() {
        assertThat(KnownModels.canonical(" Qwen3:8B ")).isEqualTo("qwen3:8b");
        assertThat(KnownModels.canonical("mistral:latest")).isEqualTo("mistral");
        assertThatThrownBy(() -> KnownModels.canonical(null)).isInstanceOf(NullPointerException.class);
    }
}
