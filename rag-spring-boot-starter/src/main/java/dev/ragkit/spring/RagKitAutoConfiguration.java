package dev.ragkit.spring;

import dev.ragkit.RagConfig;
import dev.ragkit.RagObserver;
import dev.ragkit.RagPipeline;
import dev.ragkit.audit.AuditSink;
import dev.ragkit.generation.ExtractiveBackend;
import dev.ragkit.generation.LlmBackend;
import dev.ragkit.generation.LlmBackends;
import dev.ragkit.grounding.InMemoryOwnerDirectory;
import dev.ragkit.grounding.Owner;
import dev.ragkit.grounding.OwnerDirectory;
import dev.ragkit.ingest.Embedder;
import java.util.Map;
import dev.ragkit.ingest.Embedders;
import dev.ragkit.ingest.CachingEmbedder;
import dev.ragkit.micrometer.MicrometerRagObserver;
import dev.ragkit.ollama.OllamaEmbedder;
import dev.ragkit.retrieval.RetrievalOptions;
import dev.ragkit.store.DocumentStore;
import dev.ragkit.store.StoreProviders;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import java.util.function.Consumer;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * RagKit for a Spring Boot application: a {@link RagPipeline} from the {@code ragkit.*} properties
 * ({@link RagKitProperties}), with the store, backend, audit sink and owner directory as beans. Every bean is
 * {@code @ConditionalOnMissingBean}: declare your own {@link DocumentStore}, {@link Embedder}, {@link LlmBackend},
 * {@link OwnerDirectory}, {@link AuditSink} or {@link RagPipeline} and it is used instead. The embedder has no
 * default model: declare an {@link Embedder} bean, or set {@code ragkit.embedder.provider=ollama}. With Micrometer
 * present, each request is observed ({@link MicrometerRagObserver}); with Actuator, {@code /actuator/health} shows
 * the backend, model and store ({@link RagKitHealthIndicator}).
 */
@AutoConfiguration(afterName = {
        "org.springframework.boot.actuate.autoconfigure.observation.ObservationAutoConfiguration",
        "org.springframework.boot.actuate.autoconfigure.metrics.CompositeMeterRegistryAutoConfiguration"})
@ConditionalOnClass(RagPipeline.class)
@EnableConfigurationProperties(RagKitProperties.class)
public class RagKitAutoConfiguration {

    /**
     * @param properties {@code ragkit.store.*}
     * @return the store the provider id names (in-memory by default)
     */
    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean
    public DocumentStore ragkitDocumentStore(RagKitProperties properties) {
        RagKitProperties.Store store = properties.getStore();
        return named("ragkit.store", () -> StoreProviders.load(store.getProvider(), store.getSettings()));
    }

    /**
     * @param properties {@code ragkit.backend.*}
     * @return the backend the provider id names (ollama by default; extractive answers with quotes only)
     */
    @Bean
    @ConditionalOnMissingBean
    public LlmBackend ragkitLlmBackend(RagKitProperties properties) {
        RagKitProperties.Backend backend = properties.getBackend();
        if ("extractive".equals(backend.getProvider())) {
            return new ExtractiveBackend();
        }
        return named("ragkit.backend", () -> LlmBackends.load(backend.getProvider(), backend.getSettings()));
    }

    /** An Ollama embedding model when {@code ragkit.embedder.provider=ollama} (needs rag-ollama). */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(OllamaEmbedder.class)
    @ConditionalOnProperty(prefix = "ragkit.embedder", name = "provider", havingValue = "ollama")
    static class OllamaEmbedderConfiguration {
        @Bean
        @ConditionalOnMissingBean
        Embedder ragkitEmbedder(RagKitProperties properties) {
            RagKitProperties.Embedder embedder = properties.getEmbedder();
            return named("ragkit.embedder", () -> {
                OllamaEmbedder.Builder builder = OllamaEmbedder.builder().model(embedder.getModel());
                if (embedder.getBaseUrl() != null) {
                    builder.baseUrl(embedder.getBaseUrl());
                }
                return builder.build();
            });
        }
    }

    /** Any embedder by name when {@code ragkit.embedder.provider=named}: {@code ragkit.embedder.model} is the name. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnProperty(prefix = "ragkit.embedder", name = "provider", havingValue = "named")
    static class NamedEmbedderConfiguration {
        @Bean
        @ConditionalOnMissingBean
        Embedder ragkitEmbedder(RagKitProperties properties) {
            RagKitProperties.Embedder embedder = properties.getEmbedder();
            return named("ragkit.embedder.model", () -> CachingEmbedder.of(Embedders.load(embedder.getModel(),
                    embedder.getModel().startsWith("ollama:") && embedder.getBaseUrl() != null
                            ? Map.of("base-url", embedder.getBaseUrl()) : Map.of())));
        }
    }

    /**
     * @param properties {@code ragkit.owners} (tag → e-mail)
     * @return the owners of access tags, for routing
     */
    @Bean
    @ConditionalOnMissingBean
    public OwnerDirectory ragkitOwnerDirectory(RagKitProperties properties) {
        InMemoryOwnerDirectory.Builder owners = InMemoryOwnerDirectory.builder();
        properties.getOwners().forEach((tag, email) -> named("ragkit.owners." + tag,
                () -> owners.owner(tag, new Owner(email, email))));
        return owners.build();
    }

    /**
     * @param properties {@code ragkit.audit.file}
     * @return a JSON Lines file, or the log when no file is set
     */
    @Bean
    @ConditionalOnMissingBean
    public AuditSink ragkitAuditSink(RagKitProperties properties) {
        return properties.getAudit().getFile() == null ? AuditSink.logging()
                : named("ragkit.audit.file", () -> AuditSink.jsonLines(properties.getAudit().getFile()));
    }

    /** Observations of each request and stage, when Micrometer's registries are beans. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(ObservationRegistry.class)
    @ConditionalOnBean({ObservationRegistry.class, MeterRegistry.class})
    @ConditionalOnProperty(prefix = "ragkit.observations", name = "enabled", havingValue = "true",
            matchIfMissing = true)
    static class ObservationConfiguration {
        @Bean
        @ConditionalOnMissingBean(RagObserver.class)
        MicrometerRagObserver ragkitObserver(ObservationRegistry observations, MeterRegistry meters,
                RagKitProperties properties) {
            return new MicrometerRagObserver(observations, meters, properties.getObservations().getPipelineName())
                    .recordQuestions(properties.getObservations().isRecordQuestions());
        }
    }

    /**
     * The pipeline: RagKit's defaults, overridden by the {@code ragkit.*} properties, over the beans above.
     *
     * @return the pipeline
     */
    @Bean
    @ConditionalOnMissingBean
    public RagPipeline ragPipeline(RagKitProperties properties, DocumentStore store, ObjectProvider<Embedder> embedder,
            LlmBackend backend, OwnerDirectory owners, AuditSink audit, ObjectProvider<RagObserver> observer) {
        Embedder chosen = embedder.getIfAvailable();
        if (chosen == null) {
            throw new IllegalStateException("ragkit needs an embedder: declare an Embedder bean (e.g. LangChain4j's "
                    + "in-process all-MiniLM-L6-v2 through LangChain4jEmbedder) or set ragkit.embedder.provider=ollama");
        }
        RagConfig.Builder config = RagConfig.builder();
        set("ragkit.model", properties.getModel(), config::chatModel);
        set("ragkit.temperature", properties.getTemperature(), config::temperature);
        set("ragkit.confidence-threshold", properties.getConfidenceThreshold(), config::confidenceThreshold);
        set("ragkit.admin-email", properties.getAdminEmail(), config::adminEmail);
        set("ragkit.min-relevance", properties.getMinRelevance(), config::minRelevance);
        set("ragkit.top-k", properties.getTopK(), config::topK);
        set("ragkit.max-context-tokens", properties.getMaxContextTokens(), config::maxContextTokens);
        set("ragkit.max-response-tokens", properties.getMaxResponseTokens(), config::maxResponseTokens);
        RagConfig built = named("ragkit", config::build);
        RagPipeline.Builder pipeline = RagPipeline.builder().config(built).store(store).embedder(chosen)
                .backend(backend).ownerDirectory(owners).auditSink(audit).selfRating(properties.isSelfRating());
        if ("knowledge-base".equals(properties.getProfile())) {
            pipeline.retrievalOptions(RetrievalOptions.knowledgeBase());
        }
        if (backend instanceof ExtractiveBackend) {
            pipeline.model(ExtractiveBackend.MODEL).selfRating(false);
        }
        observer.ifAvailable(pipeline::observer);
        return named("ragkit", pipeline::build);
    }

    private static <T> void set(String property, T value, Consumer<T> setter) {
        if (value != null) {
            named(property, () -> {
                setter.accept(value);
                return null;
            });
        }
    }

    /** Runs {@code work}; a value RagKit refuses fails startup naming the property to fix. */
    private static <T> T named(String property, java.util.function.Supplier<T> work) {
        try {
            return work.get();
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException("invalid RagKit configuration: " + property + ": " + e.getMessage(), e);
        }
    }

    /** Health of the backend, the model and the store, when Actuator is present. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "org.springframework.boot.actuate.health.HealthIndicator")
    static class HealthConfiguration {
        @Bean
        @ConditionalOnMissingBean(name = "ragkitHealthIndicator")
        RagKitHealthIndicator ragkitHealthIndicator(RagPipeline pipeline) {
            return new RagKitHealthIndicator(pipeline);
        }
    }
}
