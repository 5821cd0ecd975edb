package dev.ragkit.spring;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ragkit.RagPipeline;
import dev.ragkit.audit.AuditSink;
import dev.ragkit.generation.ExtractiveBackend;
import dev.ragkit.generation.LlmBackend;
import dev.ragkit.ingest.Embedder;
import dev.ragkit.micrometer.MicrometerRagObserver;
import dev.ragkit.testing.HashedBagOfWordsEmbedder;
import dev.ragkit.store.DocumentStore;
import dev.ragkit.store.inmemory.InMemoryDocumentStore;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

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
                .run(context -> assertThat(context).hasSingleBean(MicrometerRagObserver.class));
        runner.withPropertyValues("ragkit.backend.provider=extractive", "ragkit.observations.enabled=false")
                .withBean(ObservationRegistry.class, ObservationRegistry::create)
                .withBean(SimpleMeterRegistry.class, SimpleMeterRegistry::new)
                .run(context -> assertThat(context).doesNotHaveBean(MicrometerRagObserver.class));
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
}
