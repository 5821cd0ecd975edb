package dev.ragkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ragkit.budget.BudgetLimits;
import dev.ragkit.error.ModelNotAllowedException;
import dev.ragkit.error.ModelNotFoundException;
import dev.ragkit.generation.ModelInfo;
import dev.ragkit.store.Scope;
import dev.ragkit.testing.RecordingBackend;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

final class ModelCatalogTest {
    private static final BudgetLimits TEMPLATE = BudgetLimits.defaults(1);
    private final AtomicLong now = new AtomicLong();
    private final RecordingBackend backend = RecordingBackend.answering(r -> "ok", "90");

    private ModelCatalog catalog(List<String> allowed, Map<String, ModelInfo> configured) {
        return new ModelCatalog(backend, "llama3.2", allowed, configured, TEMPLATE, now::get);
    }

    private static RagRequest asking(String model) {
        RagRequest.Builder b = RagRequest.builder("q", Scope.of("acme"));
        return model == null ? b.build() : b.model(model).build();
    }

    @Test
    void resolve_noModelInTheRequest_usesTheDefaultAndChecksIt() {
        assertThat(catalog(null, Map.of()).resolve(asking(null))).isEqualTo("llama3.2");
        assertThat(backend.requireModelCalls).hasValue(1);
    }

    @Test
    void resolve_modelOutsideTheAllowlist_throwsListingTheAllowedOnes() {
        assertThatThrownBy(() -> catalog(List.of("llama3.2", "mistral"), Map.of()).resolve(asking("gpt-9")))
                .isInstanceOf(ModelNotAllowedException.class)
                .hasMessageContaining("gpt-9").hasMessageContaining("llama3.2").hasMessageContaining("mistral");
        assertThat(backend.requireModelCalls).hasValue(0);        // not allowed: the backend is not even asked
    }

    @Test
    void resolve_allowlistMatchesTagsCanonically() {
        assertThat(catalog(List.of("llama3.2", "mistral"), Map.of()).resolve(asking("mistral:latest")))
                .isEqualTo("mistral:latest");
    }

    @Test
    void resolve_modelTheBackendLacks_throwsItsModelNotFound() {
        backend.missing("llama3.2");

        assertThatThrownBy(() -> catalog(null, Map.of()).resolve(asking(null)))
                .isInstanceOf(ModelNotFoundException.class).hasMessageContaining("ollama pull llama3.2");
    }

    @Test
    void resolve_availableModel_isRememberedBrieflyThenCheckedAgain() {
        ModelCatalog catalog = catalog(null, Map.of());

        catalog.resolve(asking(null));
        catalog.resolve(asking(null));
        now.addAndGet(ModelCatalog.AVAILABILITY_TTL.toNanos() - 1);
        catalog.resolve(asking(null));
        assertThat(backend.requireModelCalls).hasValue(1);

        now.addAndGet(1);
        catalog.resolve(asking(null));
        assertThat(backend.requireModelCalls).hasValue(2);
    }

    @Test
    void resolve_missingModel_isNotRemembered() {
        ModelCatalog catalog = catalog(null, Map.of());
        backend.missing("llama3.2");
        assertThatThrownBy(() -> catalog.resolve(asking(null))).isInstanceOf(ModelNotFoundException.class);
        assertThatThrownBy(() -> catalog.resolve(asking(null))).isInstanceOf(ModelNotFoundException.class);

        assertThat(backend.requireModelCalls).hasValue(2);
    }

    @Test
    void limitsFor_configuredInfo_winsOverTheKnownTable() {
        ModelCatalog catalog = catalog(null, Map.of("llama3.2", new ModelInfo("llama3.2", 4000, 300)));

        BudgetLimits limits = catalog.limitsFor("llama3.2");

        assertThat(limits.contextWindow()).isEqualTo(4000);
        assertThat(limits.responseReserve()).isEqualTo(300);
        assertThat(backend.modelInfoCalls).hasValue(0);
    }

    @Test
    void limitsFor_knownModel_comesFromTheTableWithoutAskingTheBackend() {
        assertThat(catalog(null, Map.of()).limitsFor("qwen3:8b").contextWindow()).isEqualTo(32768);
        assertThat(backend.modelInfoCalls).hasValue(0);
    }

    @Test
    void limitsFor_unknownModel_asksTheBackendOnce() {
        backend.withModel(new ModelInfo("phi4", 16384, 512));
        ModelCatalog catalog = catalog(null, Map.of());

        catalog.limitsFor("phi4");
        BudgetLimits limits = catalog.limitsFor("phi4");

        assertThat(limits.contextWindow()).isEqualTo(16384);
        assertThat(limits.responseReserve()).isEqualTo(512);   // the template's 1,024 capped by the model's limit
        assertThat(backend.modelInfoCalls).hasValue(1);
    }
}
