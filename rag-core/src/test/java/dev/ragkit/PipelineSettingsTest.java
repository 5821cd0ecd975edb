package dev.ragkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ragkit.budget.BudgetLimits;
import dev.ragkit.budget.TokenBudget;
import dev.ragkit.grounding.Action;
import dev.ragkit.grounding.InMemoryOwnerDirectory;
import dev.ragkit.grounding.Router;
import dev.ragkit.prompt.ContextBlock;
import dev.ragkit.prompt.Prompt;
import dev.ragkit.prompt.PromptBuilder;
import dev.ragkit.retrieval.Deduplicator;
import dev.ragkit.retrieval.RetrievalOptions;
import dev.ragkit.retrieval.RetrievedContext;
import dev.ragkit.retrieval.Retriever;
import dev.ragkit.retrieval.RelevanceModel;
import dev.ragkit.store.DocumentStore;
import dev.ragkit.store.Scope;
import dev.ragkit.store.StoredChunk;
import dev.ragkit.store.StoredDocument;
import dev.ragkit.store.inmemory.InMemoryDocumentStore;
import dev.ragkit.testing.HashedBagOfWordsEmbedder;
import dev.ragkit.testing.RecordingBackend;
import dev.ragkit.generation.ChatMessage;
import dev.ragkit.tokens.TokenCounters;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The pipeline builder's one rule for settings, its stages, and the clashes it refuses. */
final class PipelineSettingsTest {
    private static final int DIM = 64;
    private static final Scope ENG = Scope.of("acme", "eng");
    /** Every value the base layer carries, each different from the default. */
    private static final RagConfig BASE = RagConfig.fromEnvironment(Map.of("CHAT_MODEL", "qwen3:8b",
            "RAG_TEMPERATURE", "0.9", "RAG_CONFIDENCE_THRESHOLD", "80", "RAG_ADMIN_EMAIL", "base@acme.test",
            "RAG_MAX_CONTEXT_TOKENS", "2500", "RAG_MAX_HISTORY_TOKENS", "700", "RAG_MAX_RESPONSE_TOKENS", "900",
            "RAG_SYSTEM_PROMPT_TOKENS", "400"));

    private final DocumentStore store = InMemoryDocumentStore.builder().dimension(DIM).build();
    private final RecordingBackend backend = RecordingBackend.answering(r -> "ok", "90");

    @AfterEach
    void close() {
        store.close();
    }

    static Stream<Arguments> valueSetters() {
        return Stream.of(
                setter("model", b -> b.model("mistral"), c -> c.chatModel().equals("mistral")),
                setter("temperature", b -> b.temperature(0.3), c -> c.temperature() == 0.3),
                setter("confidenceThreshold", b -> b.confidenceThreshold(42), c -> c.confidenceThreshold() == 42),
                setter("adminEmail", b -> b.adminEmail("me@acme.test"), c -> c.adminEmail().equals("me@acme.test")),
                setter("maxContextTokens", b -> b.maxContextTokens(1234), c -> c.maxContextTokens() == 1234),
                setter("maxHistoryTokens", b -> b.maxHistoryTokens(55), c -> c.maxHistoryTokens() == 55),
                setter("maxResponseTokens", b -> b.maxResponseTokens(333), c -> c.maxResponseTokens() == 333),
                setter("systemPromptTokens", b -> b.systemPromptTokens(222), c -> c.systemPromptTokens() == 222));
    }

    private static Arguments setter(String name, UnaryOperator<RagPipeline.Builder> set,
            java.util.function.Predicate<RagConfig> holds) {
        return Arguments.of(name, set, holds);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("valueSetters")
    void valueSetter_beforeOrAfterConfig_winsOverTheBaseLayer(String name, UnaryOperator<RagPipeline.Builder> set,
            java.util.function.Predicate<RagConfig> holds) {
        RagConfig before = set.apply(builder()).config(BASE).build().config();
        RagConfig after = set.apply(builder().config(BASE)).build().config();

        // a.config(c) is the same as config(c).a, and the setting holds in both
        assertThat(before).isEqualTo(after);
        assertThat(holds.test(before)).as(name + " set explicitly").isTrue();
        // every other value still comes from the base layer: exactly one value differs from it
        Map<String, String> base = fields(BASE);
        Map<String, String> layered = fields(before);
        assertThat(layered.keySet().stream().filter(k -> !layered.get(k).equals(base.get(k))).toList())
                .as(name).hasSize(1);
    }

    /** The {@code name=value} pairs of a configuration's string form. */
    private static Map<String, String> fields(RagConfig config) {
        String s = config.toString();
        Map<String, String> fields = new java.util.TreeMap<>();
        for (String pair : s.substring(s.indexOf('[') + 1, s.length() - 1).split(", ")) {
            int eq = pair.indexOf('=');
            fields.put(pair.substring(0, eq), pair.substring(eq + 1));
        }
        return fields;
    }

    @Test
    void model_thenConfigFromEnvironment_answersWithTheExplicitModel() {
        // the trap a reviewer found: config(...) after model(...) used to put llama3.2 back
        RagPipeline rag = builder().model("mistral").config(RagConfig.fromEnvironment(Map.of("CHAT_MODEL",
                "llama3.2"))).build();

        put("docs/keys.md", "API keys rotate every ninety days.");
        RagResponse r = rag.ask(RagRequest.of("How often do API keys rotate?", ENG));

        assertThat(rag.defaultModel()).isEqualTo("mistral");
        assertThat(r.modelUsed()).isEqualTo("mistral");
        assertThat(backend.answerRequests().get(0).model()).isEqualTo("mistral");
    }

    @Test
    void config_alone_providesEveryValue() {
        assertThat(builder().config(BASE).build().config()).isEqualTo(BASE);
        assertThat(builder().build().config()).isEqualTo(RagConfig.defaults());
    }

    @Test
    void explicitValues_reachTheStages() {
        RagPipeline rag = builder().config(BASE).temperature(0.2).maxContextTokens(1111).maxResponseTokens(700)
                .build();
        put("docs/keys.md", "API keys rotate every ninety days.");

        rag.ask(RagRequest.of("How often do API keys rotate?", ENG));

        BudgetLimits limits = rag.limitsFor("qwen3:8b");
        assertThat(limits.contextCap()).isEqualTo(1111);
        assertThat(limits.responseReserve()).isEqualTo(700);
        assertThat(limits.historyCap()).isEqualTo(700);          // from the base layer
        assertThat(backend.answerRequests().get(0).temperature()).isEqualTo(0.2);
        assertThat(backend.answerRequests().get(0).model()).isEqualTo("qwen3:8b");
    }

    @Test
    void retriever_suppliedStage_isTheOneAsked() {
        AtomicInteger calls = new AtomicInteger();
        Retriever custom = new Retriever() {
            @Override
            public RetrievedContext retrieve(String query, Scope scope) {
                return retrieve(query, scope, RetrievalOptions.Overrides.builder().build());
            }

            @Override
            public RetrievedContext retrieve(String query, Scope scope, RetrievalOptions.Overrides overrides) {
                calls.incrementAndGet();
                return new RetrievedContext(List.of(), List.of(), List.of(), List.of(), 0, Map.of());
            }
        };

        RagResponse r = RagPipeline.builder().store(store).backend(backend).retriever(custom)
                .auditSink(dev.ragkit.audit.AuditSink.none()).build()
                .ask(RagRequest.of("How often do API keys rotate?", ENG));

        assertThat(calls).hasValue(1);
        assertThat(r.action()).isEqualTo(Action.ROUTE);           // the custom retriever found nothing
        assertThat(backend.requests).isEmpty();
    }

    @Test
    void tokenBudget_suppliedStage_fitsEveryPrompt() {
        AtomicInteger fits = new AtomicInteger();
        TokenBudget standard = TokenBudget.of(TokenCounters.estimate(), PromptBuilder.standard());
        TokenBudget counting = new TokenBudget() {
            @Override
            public Prompt fit(BudgetLimits limits, String question, List<ChatMessage> history,
                    List<ContextBlock> candidates) {
                fits.incrementAndGet();
                return standard.fit(limits, question, history, candidates);
            }

            @Override
            public dev.ragkit.tokens.TokenCounter counter() {
                return standard.counter();
            }
        };
        put("docs/keys.md", "API keys rotate every ninety days.");

        builder().tokenBudget(counting).build().ask(RagRequest.of("How often do API keys rotate?", ENG));

        assertThat(fits).hasValue(1);
    }

    static Stream<Arguments> clashes() {
        Retriever retriever = Retriever.builder().store(InMemoryDocumentStore.builder().dimension(DIM).build())
                .embedder(new HashedBagOfWordsEmbedder("toy", DIM)).build();
        TokenBudget budget = TokenBudget.of(TokenCounters.estimate(), PromptBuilder.standard());
        Router router = Router.standard(60, "a@b.c", InMemoryOwnerDirectory.builder().build());
        return Stream.of(
                clash(b -> b.retriever(retriever), "retriever(...) and embedder(...)"),
                clash(b -> b.retriever(retriever).retrievalOptions(RetrievalOptions.knowledgeBase()),
                        "retriever(...) and retrievalOptions(...)"),
                clash(b -> b.retriever(retriever).deduplicator(Deduplicator.jaccard(0.8)),
                        "retriever(...) and deduplicator(...)"),
                clash(b -> b.tokenBudget(budget).tokenCounter(TokenCounters.estimate()),
                        "tokenBudget(...) and tokenCounter(...)"),
                clash(b -> b.tokenBudget(budget).promptBuilder(PromptBuilder.standard()),
                        "tokenBudget(...) and promptBuilder(...)"),
                clash(b -> b.tokenBudget(budget).systemPrompt("Rules."), "tokenBudget(...) and systemPrompt(...)"),
                clash(b -> b.router(router).confidenceThreshold(70), "router(...) and confidenceThreshold(...)"),
                clash(b -> b.confidenceThreshold(70).router(router), "router(...) and confidenceThreshold(...)"),
                clash(b -> b.router(router).adminEmail("x@y.z"), "router(...) and adminEmail(...)"),
                clash(b -> b.router(router).ownerDirectory(InMemoryOwnerDirectory.builder().build()),
                        "router(...) and ownerDirectory(...)"));
    }

    private static Arguments clash(UnaryOperator<RagPipeline.Builder> settings, String message) {
        return Arguments.of(message, settings);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("clashes")
    void build_settingThatASuppliedStageIgnores_failsNamingBoth(String message,
            UnaryOperator<RagPipeline.Builder> settings) {
        assertThatThrownBy(() -> settings.apply(builder()).build())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining(message)
                .hasMessageContaining("keep ");
    }

    @Test
    void build_routerWithThresholdFromTheBaseLayer_isAccepted() {
        // the base layer is not an explicit setting: a custom router simply does not read it
        Router router = Router.standard(10, "a@b.c", InMemoryOwnerDirectory.builder().build());

        assertThat(builder().config(BASE).router(router).build().config().confidenceThreshold()).isEqualTo(80);
    }

    @Test
    void build_nothingGiven_listsEveryMissingStageAtOnce() {
        assertThatThrownBy(() -> RagPipeline.builder().build())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("no store")
                .hasMessageContaining("no backend")
                .hasMessageContaining("no embedder");
    }

    @Test
    void build_retrieverWithoutEmbedder_needsNoEmbedder() {
        Retriever retriever = Retriever.builder().store(store).embedder(new HashedBagOfWordsEmbedder("toy", DIM))
                .build();

        assertThat(RagPipeline.builder().store(store).backend(backend).retriever(retriever).build()).isNotNull();
    }

    @Test
    void toBuilder_keepsExplicitValuesAboveANewBaseLayer() {
        RagPipeline original = builder().model("mistral").build();

        RagPipeline variant = original.toBuilder().config(BASE).build();

        assertThat(variant.config().chatModel()).isEqualTo("mistral");
        assertThat(variant.config().temperature()).isEqualTo(0.9);
        assertThat(original.config().temperature()).isEqualTo(0.1);
    }

    private RagPipeline.Builder builder() {
        return RagPipeline.builder().store(store).embedder(new HashedBagOfWordsEmbedder("toy", DIM)).backend(backend)
                .relevanceModel(RelevanceModel.fused())
                .auditSink(dev.ragkit.audit.AuditSink.none());
    }

    private void put(String path, String text) {
        StoredDocument d = StoredDocument.builder().tenant("acme").path(path).title(path).accessTags("eng")
                .charCount(text.length()).build();
        store.upsert(d, List.of(new StoredChunk(d.id(), 0, text, HashedBagOfWordsEmbedder.vector(text, DIM),
                text.length() / 4, 1, 1, null, null)));
    }
}
