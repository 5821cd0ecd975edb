package dev.ragkit.spring;

import static org.assertj.core.api.Assertions.assertThat;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ragkit.RagPipeline;
import dev.ragkit.RagRequest;
import dev.ragkit.RagResponse;
import dev.ragkit.ResponseFlag;
import dev.ragkit.audit.AuditSink;
import dev.ragkit.error.LlmUnavailableException;
import dev.ragkit.generation.ExtractiveBackend;
import dev.ragkit.generation.ExtractiveFallbackBackend;
import dev.ragkit.generation.LlmBackend;
import dev.ragkit.generation.LlmBackendProvider;
import dev.ragkit.grounding.Action;
import dev.ragkit.grounding.Citation;
import dev.ragkit.embedding.CachingEmbedder;
import dev.ragkit.embedding.Embedder;
import dev.ragkit.micrometer.MicrometerRagListener;
import dev.ragkit.onnx.OnnxEmbedder;
import dev.ragkit.testing.HashedBagOfWordsEmbedder;
import dev.ragkit.store.DocumentStore;
import dev.ragkit.store.Scope;
import dev.ragkit.store.StoredChunk;
import dev.ragkit.store.StoredDocument;
import dev.ragkit.store.inmemory.InMemoryDocumentStore;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import java.io.IOException;
import java.net.ServerSocket;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.Status;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationContext;
import org.springframework.core.io.ClassPathResource;

/** Properties → beans, beans the application declares, and bad properties failing startup with their name. */
class RagKitAutoConfigurationTest {
    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(RagKitAutoConfiguration.class))
            .withBean(Embedder.class, () -> new HashedBagOfWordsEmbedder("word-hash-64", 64));

    @Test
    void propertiesBecomeThePipelinesSettings() {
        runner.withPropertyValues("ragkit.backend.provider=extractive", "ragkit.confidence-threshold=55",
                "ragkit.top-k=7", "ragkit.admin-email=help@example.com", "ragkit.owners.eng=eng-lead@example.com")
                .run(context -> {
                    assertThat(context).hasNotFailed().hasSingleBean(RagPipeline.class)
                            .hasSingleBean(DocumentStore.class).hasSingleBean(AuditSink.class);
                    assertThat(context.getBean(DocumentStore.class)).isInstanceOf(InMemoryDocumentStore.class);
                    assertThat(context.getBean(LlmBackend.class)).isInstanceOf(ExtractiveBackend.class);
                    RagPipeline pipeline = context.getBean(RagPipeline.class);
                    assertThat(pipeline.config().confidenceThreshold()).isEqualTo(55);
                    assertThat(pipeline.config().topK()).isEqualTo(7);
                    assertThat(pipeline.config().adminEmail()).isEqualTo("help@example.com");
                });
    }

    @Test
    void aNamedEmbedderIsLoadedByItsName() {
        new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(RagKitAutoConfiguration.class))
                .withPropertyValues("ragkit.backend.provider=extractive", "ragkit.embedder.provider=named",
                        "ragkit.embedder.model=ollama:nomic-embed-text", "ragkit.embedder.base-url=http://127.0.0.1:9")
                .run(context -> {
                    assertThat(context).hasNotFailed().hasSingleBean(Embedder.class);
                    assertThat(context.getBean(Embedder.class).name()).isEqualTo("ollama:nomic-embed-text");
                });
        new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(RagKitAutoConfiguration.class))
                .withPropertyValues("ragkit.backend.provider=extractive", "ragkit.embedder.provider=named",
                        "ragkit.embedder.model=bge-large")
                .run(context -> assertThat(context).hasFailed().getFailure()
                        .hasStackTraceContaining("ragkit.embedder.model")
                        .hasStackTraceContaining("no embedder named 'bge-large'"));
    }

    @Test
    void threadsSettings_reachTheInProcessEmbedderAndTheIngestion_andAreChecked() {
        new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(RagKitAutoConfiguration.class))
                .withPropertyValues("ragkit.backend.provider=extractive", "ragkit.embedder.provider=named",
                        "ragkit.embedder.model=all-minilm-l6-v2-q", "ragkit.embedder.threads=1",
                        "ragkit.ingest.threads=1")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    Embedder embedder = context.getBean(Embedder.class);
                    assertThat(((OnnxEmbedder) ((CachingEmbedder) embedder).delegate()).threads()).isEqualTo(1);
                    assertThat(context.getBean(RagKitProperties.class).getIngest().getThreads()).isEqualTo(1);
                });
        new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(RagKitAutoConfiguration.class))
                .withPropertyValues("ragkit.backend.provider=extractive", "ragkit.ingest.threads=0")
                .run(context -> assertThat(context).hasFailed().getFailure()
                        .hasStackTraceContaining("ragkit.ingest.threads must be a whole number from 1 to 256, got 0"));
        new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(RagKitAutoConfiguration.class))
                .withPropertyValues("ragkit.backend.provider=extractive", "ragkit.embedder.threads=300")
                .run(context -> assertThat(context).hasFailed().getFailure()
                        .hasStackTraceContaining("ragkit.embedder.threads must be a whole number from 1 to 256"));
    }

    @Test
    void beansTheApplicationDeclaresReplaceRagKits() {
        InMemoryDocumentStore mine = InMemoryDocumentStore.builder().build();
        runner.withPropertyValues("ragkit.backend.provider=extractive")
                .withBean("myStore", DocumentStore.class, () -> mine)
                .withBean("myBackend", LlmBackend.class, ExtractiveBackend::new)
                .run(context -> {
                    assertThat(context).hasNotFailed().hasSingleBean(DocumentStore.class)
                            .hasSingleBean(LlmBackend.class);
                    assertThat(context.getBean(DocumentStore.class)).isSameAs(mine);
                    assertThat(context).doesNotHaveBean("ragkitDocumentStore");
                });
    }

    @Test
    void withMicrometerRegistries_requestsAreObserved() {
        runner.withPropertyValues("ragkit.backend.provider=extractive", "ragkit.observations.pipeline-name=support")
                .withBean(ObservationRegistry.class, ObservationRegistry::create)
                .withBean(SimpleMeterRegistry.class, SimpleMeterRegistry::new)
                .run(context -> assertThat(context).hasSingleBean(MicrometerRagListener.class));
        runner.withPropertyValues("ragkit.backend.provider=extractive", "ragkit.observations.enabled=false")
                .withBean(ObservationRegistry.class, ObservationRegistry::create)
                .withBean(SimpleMeterRegistry.class, SimpleMeterRegistry::new)
                .run(context -> assertThat(context).doesNotHaveBean(MicrometerRagListener.class));
    }

    @Test
    void theApplicationsOwnListener_hearsRequestsBesideMicrometers() {
        java.util.List<String> heard = new java.util.concurrent.CopyOnWriteArrayList<>();
        runner.withPropertyValues("ragkit.backend.provider=extractive")
                .withBean(ObservationRegistry.class, ObservationRegistry::create)
                .withBean(SimpleMeterRegistry.class, SimpleMeterRegistry::new)
                .withBean("mine", dev.ragkit.RagListener.class, () -> request -> new dev.ragkit.RagListener.Request() {
                    @Override
                    public void responded(RagResponse response) {
                        heard.add(response.action().name());
                    }
                })
                .run(context -> {
                    assertThat(context).hasNotFailed().hasSingleBean(MicrometerRagListener.class);
                    askAboutKeys(context);
                    assertThat(heard).hasSize(1);
                    assertThat(context.getBean(SimpleMeterRegistry.class).find(MicrometerRagListener.REQUESTS)
                            .counter()).isNotNull();
                });
    }

    @Test
    void badPropertiesFailStartupNamingTheProperty() {
        runner.withPropertyValues("ragkit.backend.provider=extractive", "ragkit.confidence-threshold=150")
                .run(context -> assertThat(context).hasFailed().getFailure()
                        .hasStackTraceContaining("invalid RagKit configuration: ragkit.confidence-threshold"));
        runner.withPropertyValues("ragkit.profile=everything")
                .run(context -> assertThat(context).hasFailed().getFailure().rootCause()
                        .hasMessageContaining("ragkit.profile").hasMessageContaining("chunk-qa"));
        runner.withPropertyValues("ragkit.backend.provider=extractive", "ragkit.store.provider=nosuchstore")
                .run(context -> assertThat(context).hasFailed().getFailure()
                        .hasStackTraceContaining("ragkit.store").hasStackTraceContaining("nosuchstore"));
        runner.withPropertyValues("ragkit.backend.provider=extractive", "ragkit.min-relevance=NaN")
                .run(context -> assertThat(context).hasFailed().getFailure()
                        .hasStackTraceContaining("ragkit.min-relevance"));
    }

    @Test
    void withoutAnEmbedder_startupSaysHowToGiveOne() {
        new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(RagKitAutoConfiguration.class))
                .withPropertyValues("ragkit.backend.provider=extractive")
                .run(context -> assertThat(context).hasFailed().getFailure()
                        .hasStackTraceContaining("declare an Embedder bean"));
    }

    private static final String KEYS = "API keys rotate every ninety days. The rotate command replaces a key early.";

    /** Stores a document about API keys and two unrelated ones, with the context's embedder. */
    private static void storeDocuments(ApplicationContext context) {
        DocumentStore store = context.getBean(DocumentStore.class);
        Embedder embedder = context.getBean(Embedder.class);
        for (String text : List.of(KEYS, "Vacation requests go through the people portal.",
                "The cafeteria opens at eight and serves lunch until two.")) {
            StoredDocument d = StoredDocument.builder().tenant("acme").path("docs/" + text.substring(0, 8) + ".md")
                    .title(text).charCount(text.length()).build();
            store.upsert(d, List.of(new StoredChunk(d.id(), 0, text, embedder.embed(List.of(text))[0], 16, 1, 1,
                    null, null)));
        }
    }

    private static RagResponse askAboutKeys(ApplicationContext context) {
        return context.getBean(RagPipeline.class).ask(RagRequest.of("How often do API keys rotate?",
                Scope.of("acme")));
    }

    /** A local port nothing listens on: connections to it are refused. */
    private static int deadPort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    @Test
    void backendModuleMissing_answersExtractivelyFlagged_orFailsStartupWhenFallbackIsFail() {
        // an application without rag-ollama: no backend provider is registered on its class path
        FilteredClassLoader withoutBackends = new FilteredClassLoader(
                new ClassPathResource("META-INF/services/" + LlmBackendProvider.class.getName()));
        // the toy embedder's relevance is low: a lower bar, so that the question is answered rather than routed
        runner.withClassLoader(withoutBackends).withPropertyValues("ragkit.confidence-threshold=0",
                "ragkit.min-relevance=0.1").run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context.getBean(LlmBackend.class)).isInstanceOfSatisfying(ExtractiveFallbackBackend.class,
                    b -> assertThat(b.answeringExtractively()).isTrue());
            storeDocuments(context);
            RagResponse r = askAboutKeys(context);
            assertThat(r.action()).as(r.answer() + " " + r.routeTo()).isEqualTo(Action.CITE);
            assertThat(r.flags()).contains(ResponseFlag.EXTRACTIVE_ANSWER);
            assertThat(r.citations()).extracting(Citation::path).containsExactly("docs/API keys.md");
            Health health = context.getBean(RagKitHealthIndicator.class).health();
            assertThat(health.getStatus()).isEqualTo(Status.UP);
            assertThat(health.getDetails().get("backend").toString()).contains("dev.ragkit:rag-ollama");
            assertThat(health.getDetails().get("answers").toString()).startsWith("extractive");
        });
        runner.withClassLoader(withoutBackends).withPropertyValues("ragkit.backend.fallback=fail")
                .run(context -> assertThat(context).hasFailed().getFailure()
                        .hasStackTraceContaining("invalid RagKit configuration: ragkit.backend.provider: no LLM "
                                + "backend provider with id 'ollama'")
                        .hasStackTraceContaining("add the dependency dev.ragkit:rag-ollama"));
    }

    @Test
    void modelServerDown_aQuestionGetsAQuotedAnswer_orFailsWhenFallbackIsFail() throws IOException {
        String deadServer = "ragkit.backend.settings.base-url=http://127.0.0.1:" + deadPort();
        runner.withPropertyValues(deadServer, "ragkit.backend.settings.max-retries=0", "ragkit.confidence-threshold=0",
                        "ragkit.min-relevance=0.1")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    storeDocuments(context);
                    RagResponse r = askAboutKeys(context);
                    assertThat(r.action()).as(r.answer() + " " + r.routeTo()).isEqualTo(Action.CITE);
                    assertThat(r.flags()).contains(ResponseFlag.EXTRACTIVE_ANSWER);
                    assertThat(r.modelUsed()).isEqualTo(ExtractiveBackend.MODEL);
                    assertThat(r.answer()).contains("ninety days");
                    Health health = context.getBean(RagKitHealthIndicator.class).health();
                    assertThat(health.getStatus()).isEqualTo(Status.UP);
                    assertThat(health.getDetails()).containsEntry("backendReachable", false);
                    assertThat(health.getDetails().get("answers").toString()).startsWith("extractive");
                });
        runner.withPropertyValues(deadServer, "ragkit.backend.settings.max-retries=0", "ragkit.backend.fallback=fail")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    storeDocuments(context);
                    assertThatThrownBy(() -> askAboutKeys(context)).isInstanceOf(LlmUnavailableException.class);
                    assertThat(context.getBean(RagKitHealthIndicator.class).health().getStatus())
                            .isEqualTo(Status.DOWN);
                });
    }
}
