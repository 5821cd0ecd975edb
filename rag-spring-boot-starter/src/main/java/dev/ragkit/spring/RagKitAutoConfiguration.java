package dev.ragkit.spring;

import dev.ragkit.RagConfig;
import dev.ragkit.RagListener;
import dev.ragkit.RagPipeline;
import dev.ragkit.audit.AuditSink;
import dev.ragkit.generation.ExtractiveBackend;
import dev.ragkit.generation.ExtractiveFallbackBackend;
import dev.ragkit.generation.LlmBackend;
import dev.ragkit.generation.LlmBackendProvider;
import dev.ragkit.generation.LlmBackends;
import dev.ragkit.grounding.InMemoryOwnerDirectory;
import dev.ragkit.grounding.Owner;
import dev.ragkit.grounding.OwnerDirectory;
import dev.ragkit.embedding.Embedder;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import dev.ragkit.embedding.Embedders;
import dev.ragkit.embedding.CachingEmbedder;
import dev.ragkit.micrometer.MicrometerRagListener;
import dev.ragkit.ollama.OllamaEmbedder;
import dev.ragkit.retrieval.RetrievalOptions;
import dev.ragkit.store.DocumentStore;
import dev.ragkit.store.StoreProvider;
import dev.ragkit.store.StoreProviders;
import io.micrometer.core.instrument.MeterRegistry;
import java.nio.file.Path;
import io.micrometer.observation.ObservationRegistry;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.BeanClassLoaderAware;
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
 * default model: declare an {@link Embedder} bean, or set {@code ragkit.embedder.provider} ({@code named} with
 * {@code ragkit.embedder.model}, or {@code ollama}). With Micrometer present, each request is observed
 * ({@link MicrometerRagListener}); with Actuator, {@code /actuator/health} shows the backend, model, store and index
 * ({@link RagKitHealthIndicator}).
 *
 * <p>The backend falls back to extractive answers ({@link ExtractiveFallbackBackend}) when its module is not on the
 * class path or its server cannot be reached, unless {@code ragkit.backend.fallback=fail}. The folders of
 * {@code ragkit.ingest.paths} are indexed at startup and kept in sync ({@link RagKitIngest}); a
 * {@code ragkit.store.lucene.path} keeps the index across restarts.
 */
@AutoConfiguration(afterName = {
        "org.springframework.boot.actuate.autoconfigure.observation.ObservationAutoConfiguration",
        "org.springframework.boot.actuate.autoconfigure.metrics.CompositeMeterRegistryAutoConfiguration"})
@ConditionalOnClass(RagPipeline.class)
@EnableConfigurationProperties(RagKitProperties.class)
public class RagKitAutoConfiguration implements BeanClassLoaderAware {
    private static final Logger LOG = LoggerFactory.getLogger(RagKitAutoConfiguration.class);
    /** The modules of RagKit's own backends, for the message when one is missing. */
    private static final Map<String, String> BACKEND_MODULES = Map.of("ollama", "rag-ollama", "openai", "rag-openai");

    private ClassLoader classLoader = RagKitAutoConfiguration.class.getClassLoader();

    /** Creates the auto-configuration (Spring does). */
    public RagKitAutoConfiguration() {
    }

    /** @param classLoader where backend providers are looked for */
    @Override
    public void setBeanClassLoader(ClassLoader classLoader) {
        this.classLoader = classLoader;
    }

    /**
     * @param properties {@code ragkit.store.*}
     * @param embedder   recorded in a Lucene index, which then refuses vectors of another embedder
     * @return a Lucene store at {@code ragkit.store.lucene.path}, else the store the provider id names (in-memory by
     *         default)
     */
    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean
    public DocumentStore ragkitDocumentStore(RagKitProperties properties, ObjectProvider<Embedder> embedder) {
        RagKitProperties.Store store = properties.getStore();
        Path lucene = store.getLucene().getPath();
        if (lucene == null) {
            String provider = store.getProvider() == null ? "in-memory" : store.getProvider();
            return named("ragkit.store", () -> StoreProviders.load(provider, store.getSettings()));
        }
        if (store.getProvider() != null && !"lucene".equals(store.getProvider())) {
            throw new IllegalStateException("invalid RagKit configuration: ragkit.store.lucene.path is set but "
                    + "ragkit.store.provider is '" + store.getProvider() + "'; remove one of them");
        }
        Map<String, String> settings = new LinkedHashMap<>(store.getSettings());
        settings.put("directory", lucene.toString());
        Embedder vectors = embedder.getIfAvailable();
        if (vectors != null) {
            settings.putIfAbsent("embedder", vectors.name());
        }
        return named("ragkit.store.lucene.path", () -> {
            StoreProvider provider = StoreProviders.available(classLoader).get("lucene");
            if (provider == null) {
                throw new IllegalArgumentException("the Lucene store is not on the class path; add the dependency "
                        + "dev.ragkit:rag-store-lucene");
            }
            return provider.create(settings);
        });
    }

    /**
     * The backend the provider id names (ollama by default; {@code extractive} answers with quotes only). With
     * {@code ragkit.backend.fallback=extractive} (the default) it answers extractively, flagged, while its server
     * cannot be reached, and a provider whose module is not on the class path gives extractive answers only (with a
     * warning at startup and in the health details); with {@code fail} the missing module fails startup.
     *
     * @param properties {@code ragkit.backend.*}
     * @return the backend
     */
    @Bean
    @ConditionalOnMissingBean
    public LlmBackend ragkitLlmBackend(RagKitProperties properties) {
        RagKitProperties.Backend backend = properties.getBackend();
        String id = backend.getProvider();
        if ("extractive".equals(id)) {
            return new ExtractiveBackend();
        }
        boolean fallback = backend.getFallback() == RagKitProperties.Fallback.EXTRACTIVE;
        Map<String, LlmBackendProvider> providers = named("ragkit.backend.provider",
                () -> LlmBackends.available(classLoader));
        LlmBackendProvider provider = providers.get(id);
        if (provider == null) {
            String module = BACKEND_MODULES.get(id);
            String missing = "no LLM backend provider with id '" + id + "' on the class path (found "
                    + (providers.isEmpty() ? "none" : String.join(", ", providers.keySet())) + "); add "
                    + (module != null ? "the dependency dev.ragkit:" + module : "the backend's module");
            if (!fallback) {
                throw new IllegalStateException("invalid RagKit configuration: ragkit.backend.provider: " + missing
                        + ", or set ragkit.backend.fallback=extractive to answer with quotes from the documents");
            }
            LOG.warn("{}; answering extractively (quotes from the documents, flagged EXTRACTIVE_ANSWER) because "
                    + "ragkit.backend.fallback=extractive", missing);
            return ExtractiveFallbackBackend.withoutModel(missing);
        }
        LlmBackend created = named("ragkit.backend", () -> provider.create(backend.getSettings()));
        return fallback ? ExtractiveFallbackBackend.of(created, backend.getFallbackRetryAfter()) : created;
    }

    /**
     * @param properties {@code ragkit.ingest.*}
     * @param store      where the documents go
     * @param embedder   embeds them
     * @return the ingest of the folders of {@code ragkit.ingest.paths}, started with the application (inert without
     *         folders)
     */
    @Bean
    @ConditionalOnMissingBean
    public RagKitIngest ragkitIngest(RagKitProperties properties, DocumentStore store,
            ObjectProvider<Embedder> embedder) {
        return named("ragkit.ingest", () -> new RagKitIngest(store, embedder.getIfAvailable(),
                properties.getIngest()));
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
            Map<String, String> settings = new HashMap<>();
            if (embedder.getModel().startsWith("ollama:") && embedder.getBaseUrl() != null) {
                settings.put("base-url", embedder.getBaseUrl());
            }
            if (embedder.getThreads() != null) {
                settings.put("threads", embedder.getThreads().toString());
            }
            return named("ragkit.embedder.model", () -> CachingEmbedder.of(Embedders.load(embedder.getModel(),
                    settings)));
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
        @ConditionalOnMissingBean(MicrometerRagListener.class)
        MicrometerRagListener ragkitListener(ObservationRegistry observations, MeterRegistry meters,
                RagKitProperties properties) {
            return new MicrometerRagListener(observations, meters, properties.getObservations().getPipelineName())
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
            LlmBackend backend, OwnerDirectory owners, AuditSink audit, ObjectProvider<RagListener> listeners) {
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
        List<RagListener> heard = listeners.orderedStream().toList();
        if (!heard.isEmpty()) {
            pipeline.listener(RagListener.all(heard));     // Micrometer's and the application's own, in bean order
        }
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

    /**
     * RagKit's HTTP server on its own port when {@code ragkit.server.enabled=true} and rag-server is on the class
     * path: the routes of {@code ragkit serve} over the application's pipeline ({@link RagKitServer}).
     */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "dev.ragkit.server.RagServer")
    @ConditionalOnProperty(prefix = "ragkit.server", name = "enabled", havingValue = "true")
    static class ServerConfiguration {
        @Bean
        @ConditionalOnMissingBean
        RagKitServer ragkitServer(RagKitProperties properties, RagPipeline pipeline, DocumentStore store,
                ObjectProvider<Embedder> embedder, AuditSink audit) {
            Embedder chosen = embedder.getIfAvailable();
            if (chosen == null) {
                throw new IllegalStateException("ragkit.server needs the pipeline's embedder as a bean, for "
                        + "/v1/search: declare an Embedder bean or set ragkit.embedder.provider");
            }
            return new RagKitServer(pipeline, store, chosen, audit, serverSettings(properties));
        }

        /** The server's settings from {@code ragkit.server.*}; a bad value fails startup naming the property. */
        static dev.ragkit.server.ServerSettings serverSettings(RagKitProperties properties) {
            RagKitProperties.Server server = properties.getServer();
            dev.ragkit.server.ServerSettings.Builder b = dev.ragkit.server.ServerSettings.builder();
            set("ragkit.server.address", server.getAddress(), a -> b.address(a, server.getPort()));
            if (server.getTokensFile() != null) {
                if (server.getTenant() != null || !server.getTags().isEmpty()) {
                    throw new IllegalStateException("invalid RagKit configuration: ragkit.server.tenant and "
                            + "ragkit.server.tags clash with ragkit.server.tokens-file: each token's line names its "
                            + "tenant and tags");
                }
                set("ragkit.server.tokens-file", server.getTokensFile(), b::tokensFile);
            } else {
                String tenant = server.getTenant() != null ? server.getTenant() : properties.getIngest().getTenant();
                set("ragkit.server.tenant", tenant, t -> b.scope(t, server.getTags()));
            }
            server.getAllowedOrigins().forEach(o -> set("ragkit.server.allowed-origins", o, b::allowOrigin));
            server.getAllowedHosts().forEach(h -> set("ragkit.server.allowed-hosts", h, b::allowHost));
            set("ragkit.server.max-concurrent", server.getMaxConcurrent(), b::maxConcurrentRequests);
            set("ragkit.server.max-request-bytes", server.getMaxRequestBytes(), b::maxRequestBytes);
            set("ragkit.server.request-timeout", server.getRequestTimeout(), b::requestTimeout);
            set("ragkit.server.idle-timeout", server.getIdleTimeout(), b::idleTimeout);
            set("ragkit.server.max-question-chars", server.getMaxQuestionChars(), b::maxQuestionChars);
            try {
                return b.build();
            } catch (IllegalStateException e) {
                throw new IllegalStateException("invalid RagKit configuration: ragkit.server: " + e.getMessage(), e);
            }
        }
    }

    /** Health of the backend, the model, the store and the index, when Actuator is present. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "org.springframework.boot.actuate.health.HealthIndicator")
    static class HealthConfiguration {
        @Bean
        @ConditionalOnMissingBean(name = "ragkitHealthIndicator")
        RagKitHealthIndicator ragkitHealthIndicator(RagPipeline pipeline, ObjectProvider<RagKitIngest> ingest,
                RagKitProperties properties) {
            return new RagKitHealthIndicator(pipeline, ingest.getIfAvailable(),
                    properties.getBackend().getFallback() == RagKitProperties.Fallback.EXTRACTIVE);
        }
    }
}
