package dev.ragkit.spring;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * RagKit's {@code ragkit.*} properties. A value out of range fails at startup, the message naming the property. What
 * is not set keeps RagKit's defaults (the product specification's), so an empty configuration is a working one.
 */
@ConfigurationProperties(prefix = "ragkit")
public class RagKitProperties {
    /** The chat model, e.g. llama3.2 or gpt-4o-mini (default llama3.2). */
    private String model;
    /** Sampling temperature, 0 to 2 (default 0.1). */
    private Double temperature;
    /** Answers scoring below this confidence (0-100) are routed to a human (default 60). */
    private Integer confidenceThreshold;
    /** Where questions go when no owner is known. */
    private String adminEmail;
    /** Passages below this calibrated relevance are not used, 0 to 1 (default 0.3). */
    private Double minRelevance;
    /** Chunks retrieved per question (default 5). */
    private Integer topK;
    /** Token budget: the most context tokens in a prompt. */
    private Integer maxContextTokens;
    /** Token budget: tokens kept free for the answer. */
    private Integer maxResponseTokens;
    /** chunk-qa (passages, default) or knowledge-base (whole documents). */
    private String profile = "chunk-qa";
    /** Whether the model rates its own answer (a second call; default true). */
    private boolean selfRating = true;
    /** Owners by access tag: tag → e-mail, used to route questions a document's tag owner should answer. */
    private Map<String, String> owners = new LinkedHashMap<>();
    private final Store store = new Store();
    private final Backend backend = new Backend();
    private final Embedder embedder = new Embedder();
    private final Audit audit = new Audit();
    private final Observations observations = new Observations();
    private final Ingest ingest = new Ingest();
    private final Server server = new Server();

    /** The document store. */
    public static class Store {
        /**
         * The store provider id: in-memory, lucene, solr, or a plugin's (default in-memory, or lucene when
         * ragkit.store.lucene.path is set).
         */
        private String provider;
        /** The provider's settings, e.g. snapshot-path or base-url. */
        private Map<String, String> settings = new LinkedHashMap<>();
        private final Lucene lucene = new Lucene();

        /** @return the provider id set, or {@code null} (in-memory, or lucene with a Lucene path) */
        public String getProvider() {
            return provider;
        }

        public void setProvider(String provider) {
            this.provider = requireText(provider, "ragkit.store.provider");
        }

        public Lucene getLucene() {
            return lucene;
        }

        public Map<String, String> getSettings() {
            return settings;
        }

        public void setSettings(Map<String, String> settings) {
            this.settings = settings;
        }
    }

    /** A persistent Lucene store (needs rag-store-lucene). */
    public static class Lucene {
        /**
         * The Lucene index folder, created when absent and kept across restarts; setting it makes the store a Lucene
         * store. The index records the embedder; unchanged files are not embedded again after a restart.
         */
        private Path path;

        public Path getPath() {
            return path;
        }

        public void setPath(Path path) {
            this.path = path;
        }
    }

    /** What answers when the model cannot. */
    public enum Fallback {
        /** Answer with quotes from the documents (the extractive backend), flagged EXTRACTIVE_ANSWER. */
        EXTRACTIVE,
        /** Fail: startup without the backend's module, the request while the model server is down. */
        FAIL
    }

    /** The language-model backend. */
    public static class Backend {
        /** The backend provider id: ollama (default), openai, extractive (quotes only), or a plugin's. */
        private String provider = "ollama";
        /** The provider's settings, e.g. base-url, timeout-seconds, api-key-env. */
        private Map<String, String> settings = new LinkedHashMap<>();
        /**
         * When the backend's module is not on the class path, or its server cannot be reached or does not answer in
         * time: extractive (default) answers with quotes from the documents, flagged; fail fails startup or the
         * request.
         */
        private Fallback fallback = Fallback.EXTRACTIVE;
        /** After the model server failed, how long questions are answered extractively before it is tried again. */
        private Duration fallbackRetryAfter = Duration.ofSeconds(30);

        public Fallback getFallback() {
            return fallback;
        }

        public void setFallback(Fallback fallback) {
            this.fallback = fallback;
        }

        public Duration getFallbackRetryAfter() {
            return fallbackRetryAfter;
        }

        public void setFallbackRetryAfter(Duration fallbackRetryAfter) {
            if (fallbackRetryAfter == null || fallbackRetryAfter.isNegative()) {
                throw new IllegalArgumentException("ragkit.backend.fallback-retry-after must be zero or more, got "
                        + fallbackRetryAfter);
            }
            this.fallbackRetryAfter = fallbackRetryAfter;
        }

        public String getProvider() {
            return provider;
        }

        public void setProvider(String provider) {
            this.provider = requireText(provider, "ragkit.backend.provider");
        }

        public Map<String, String> getSettings() {
            return settings;
        }

        public void setSettings(Map<String, String> settings) {
            this.settings = settings;
        }
    }

    /** The embedder, when no Embedder bean is declared. */
    public static class Embedder {
        /**
         * ollama (an Ollama embedding model; needs rag-ollama), named (any embedder by name through
         * {@code Embedders.load}: {@code model} is the name, e.g. bge-small-en-v1.5 with rag-langchain4j and the
         * model's artifact, or ollama:nomic-embed-text), or none (declare an Embedder bean).
         */
        private String provider = "none";
        /** The embedding model, e.g. nomic-embed-text, or with provider named an embedder name. */
        private String model = "nomic-embed-text";
        /** The Ollama server (default http://localhost:11434), for ollama and for named ollama:&lt;model&gt;. */
        private String baseUrl;
        /**
         * With provider named and an in-process model: the most texts it embeds at once, 1-256 (default: the cores).
         * A single question is embedded on the request's own thread whatever this says; lower it to leave a core to
         * the questions while the startup ingestion embeds documents.
         */
        private Integer threads;

        public String getProvider() {
            return provider;
        }

        public void setProvider(String provider) {
            this.provider = requireText(provider, "ragkit.embedder.provider");
        }

        public String getModel() {
            return model;
        }

        public void setModel(String model) {
            this.model = requireText(model, "ragkit.embedder.model");
        }

        public String getBaseUrl() {
            return baseUrl;
        }

        public void setBaseUrl(String baseUrl) {
            this.baseUrl = baseUrl;
        }

        public Integer getThreads() {
            return threads;
        }

        public void setThreads(Integer threads) {
            this.threads = requireThreads(threads, "ragkit.embedder.threads");
        }
    }

    /** The audit trail. */
    public static class Audit {
        /** A JSON Lines file for audit records; unset: records go to the log. */
        private Path file;

        public Path getFile() {
            return file;
        }

        public void setFile(Path file) {
            this.file = file;
        }
    }

    /** Micrometer observations, when a registry is present. */
    public static class Observations {
        /** Whether observations are made (default true when Micrometer is present). */
        private boolean enabled = true;
        /** Whether request spans carry the question text (default false: questions can hold personal data). */
        private boolean recordQuestions;
        /** The pipeline's name on every meter and span (default ragkit). */
        private String pipelineName = "ragkit";

        public boolean isEnabled() {
            return enabled;
        }

        public void setEnabled(boolean enabled) {
            this.enabled = enabled;
        }

        public boolean isRecordQuestions() {
            return recordQuestions;
        }

        public void setRecordQuestions(boolean recordQuestions) {
            this.recordQuestions = recordQuestions;
        }

        public String getPipelineName() {
            return pipelineName;
        }

        public void setPipelineName(String pipelineName) {
            this.pipelineName = requireText(pipelineName, "ragkit.observations.pipeline-name");
        }
    }

    /**
     * RagKit's HTTP server (the routes of {@code ragkit serve}: /v1/ask, /v1/search, /v1/documents,
     * /v1/chat/completions, /v1/health, the OpenAPI document and the web page) on a port of its own, over the
     * application's pipeline; needs dev.ragkit:rag-server. The limits' defaults are rag-server's own constants
     * (compile-time constants, inlined: this class loads without rag-server).
     */
    public static class Server {
        /** Whether to start it with the application (default false). */
        private boolean enabled;
        /** The address to bind (default 127.0.0.1); an address other machines reach needs tokens-file. */
        private String address = "127.0.0.1";
        /** The port (default 8081; 0 picks a free one). */
        private int port = 8081;
        /** Without tokens-file: the one tenant served (default: ragkit.ingest.tenant). */
        private String tenant;
        /** Without tokens-file: the access tags its callers hold. */
        private List<String> tags = new ArrayList<>();
        /** A file of lines '<token> <tenant> [tag,tag]': each bearer token fixes its caller's scope. */
        private Path tokensFile;
        /** Browser origins allowed besides the server's own page, e.g. https://app.example.com. */
        private List<String> allowedOrigins = new ArrayList<>();
        /** Host header values allowed besides the loopback names and the bound address, e.g. rag.example:8081. */
        private List<String> allowedHosts = new ArrayList<>();
        /** The most API requests running at once; more get 429 (default 16). */
        private int maxConcurrent = dev.ragkit.server.ServerSettings.DEFAULT_MAX_CONCURRENT_REQUESTS;
        /** The largest request body in bytes (default 1048576). */
        private int maxRequestBytes = dev.ragkit.server.ServerSettings.DEFAULT_MAX_REQUEST_BYTES;
        /** The longest an answer may take before it is cancelled with 504 (default 120s). */
        private Duration requestTimeout = Duration.ofSeconds(
                dev.ragkit.server.ServerSettings.DEFAULT_REQUEST_TIMEOUT_SECONDS);
        /** How long a connection may stall (default 30s). */
        private Duration idleTimeout = Duration.ofSeconds(dev.ragkit.server.ServerSettings.DEFAULT_IDLE_TIMEOUT_SECONDS);
        /** The longest question or query in characters (default 4000). */
        private int maxQuestionChars = dev.ragkit.server.ServerSettings.DEFAULT_MAX_QUESTION_CHARS;

        public boolean isEnabled() {
            return enabled;
        }

        public void setEnabled(boolean enabled) {
            this.enabled = enabled;
        }

        public String getAddress() {
            return address;
        }

        public void setAddress(String address) {
            this.address = requireText(address, "ragkit.server.address");
        }

        public int getPort() {
            return port;
        }

        public void setPort(int port) {
            this.port = port;
        }

        /** @return the tenant set, or {@code null} (the ingest's tenant) */
        public String getTenant() {
            return tenant;
        }

        public void setTenant(String tenant) {
            this.tenant = requireText(tenant, "ragkit.server.tenant");
        }

        public List<String> getTags() {
            return tags;
        }

        public void setTags(List<String> tags) {
            this.tags = tags;
        }

        public Path getTokensFile() {
            return tokensFile;
        }

        public void setTokensFile(Path tokensFile) {
            this.tokensFile = tokensFile;
        }

        public List<String> getAllowedOrigins() {
            return allowedOrigins;
        }

        public void setAllowedOrigins(List<String> allowedOrigins) {
            this.allowedOrigins = allowedOrigins;
        }

        public List<String> getAllowedHosts() {
            return allowedHosts;
        }

        public void setAllowedHosts(List<String> allowedHosts) {
            this.allowedHosts = allowedHosts;
        }

        public int getMaxConcurrent() {
            return maxConcurrent;
        }

        public void setMaxConcurrent(int maxConcurrent) {
            this.maxConcurrent = maxConcurrent;
        }

        public int getMaxRequestBytes() {
            return maxRequestBytes;
        }

        public void setMaxRequestBytes(int maxRequestBytes) {
            this.maxRequestBytes = maxRequestBytes;
        }

        public Duration getRequestTimeout() {
            return requestTimeout;
        }

        public void setRequestTimeout(Duration requestTimeout) {
            this.requestTimeout = requestTimeout;
        }

        public Duration getIdleTimeout() {
            return idleTimeout;
        }

        public void setIdleTimeout(Duration idleTimeout) {
            this.idleTimeout = idleTimeout;
        }

        public int getMaxQuestionChars() {
            return maxQuestionChars;
        }

        public void setMaxQuestionChars(int maxQuestionChars) {
            this.maxQuestionChars = maxQuestionChars;
        }
    }

    /** Documents indexed at startup and kept in sync with their folders. */
    public static class Ingest {
        /**
         * Folders whose documents (markdown, text, code; PDF, Word and HTML with rag-documents) are indexed at
         * startup, in the background, and scanned again every interval: new and changed files are indexed, documents
         * of deleted files removed. Each folder's documents are stored under its name (docs/guide.md).
         */
        private List<Path> paths = new ArrayList<>();
        /** The tenant the documents belong to (default "default"); ask with Scope.of(tenant). */
        private String tenant = "default";
        /** How often the folders are scanned again (default 1m); 0 indexes once, at startup. */
        private Duration interval = Duration.ofMinutes(1);
        /** Globs of the paths to read, relative to each folder (default: every file some parser reads). */
        private List<String> include = new ArrayList<>();
        /** Globs of the paths to leave out, e.g. drafts/**. */
        private List<String> exclude = new ArrayList<>();
        /**
         * The most threads that read and parse files ahead of the embedding, 1-256 (default: the cores). With
         * ragkit.embedder.threads it bounds what the ingestion takes from the machine while questions are served.
         */
        private Integer threads;

        public List<Path> getPaths() {
            return paths;
        }

        public void setPaths(List<Path> paths) {
            this.paths = paths;
        }

        public String getTenant() {
            return tenant;
        }

        public void setTenant(String tenant) {
            this.tenant = requireText(tenant, "ragkit.ingest.tenant");
        }

        public Duration getInterval() {
            return interval;
        }

        public void setInterval(Duration interval) {
            if (interval == null || interval.isNegative()) {
                throw new IllegalArgumentException("ragkit.ingest.interval must be zero or more, got " + interval);
            }
            this.interval = interval;
        }

        public List<String> getInclude() {
            return include;
        }

        public void setInclude(List<String> include) {
            this.include = include;
        }

        public List<String> getExclude() {
            return exclude;
        }

        public void setExclude(List<String> exclude) {
            this.exclude = exclude;
        }

        public Integer getThreads() {
            return threads;
        }

        public void setThreads(Integer threads) {
            this.threads = requireThreads(threads, "ragkit.ingest.threads");
        }
    }

    static Integer requireThreads(Integer threads, String property) {
        if (threads != null && (threads < 1 || threads > 256)) {
            throw new IllegalArgumentException(property + " must be a whole number from 1 to 256, got " + threads);
        }
        return threads;
    }

    static String requireText(String value, String property) {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException(property + " must not be blank");
        }
        return value.strip();
    }

    public String getModel() {
        return model;
    }

    public void setModel(String model) {
        this.model = requireText(model, "ragkit.model");
    }

    public Double getTemperature() {
        return temperature;
    }

    public void setTemperature(Double temperature) {
        this.temperature = temperature;
    }

    public Integer getConfidenceThreshold() {
        return confidenceThreshold;
    }

    public void setConfidenceThreshold(Integer confidenceThreshold) {
        this.confidenceThreshold = confidenceThreshold;
    }

    public String getAdminEmail() {
        return adminEmail;
    }

    public void setAdminEmail(String adminEmail) {
        this.adminEmail = adminEmail;
    }

    public Double getMinRelevance() {
        return minRelevance;
    }

    public void setMinRelevance(Double minRelevance) {
        this.minRelevance = minRelevance;
    }

    public Integer getTopK() {
        return topK;
    }

    public void setTopK(Integer topK) {
        this.topK = topK;
    }

    public Integer getMaxContextTokens() {
        return maxContextTokens;
    }

    public void setMaxContextTokens(Integer maxContextTokens) {
        this.maxContextTokens = maxContextTokens;
    }

    public Integer getMaxResponseTokens() {
        return maxResponseTokens;
    }

    public void setMaxResponseTokens(Integer maxResponseTokens) {
        this.maxResponseTokens = maxResponseTokens;
    }

    public String getProfile() {
        return profile;
    }

    public void setProfile(String profile) {
        if (!"chunk-qa".equals(profile) && !"knowledge-base".equals(profile)) {
            throw new IllegalArgumentException("ragkit.profile must be chunk-qa or knowledge-base, got '" + profile
                    + "'");
        }
        this.profile = profile;
    }

    public boolean isSelfRating() {
        return selfRating;
    }

    public void setSelfRating(boolean selfRating) {
        this.selfRating = selfRating;
    }

    public Map<String, String> getOwners() {
        return owners;
    }

    public void setOwners(Map<String, String> owners) {
        this.owners = owners;
    }

    public Store getStore() {
        return store;
    }

    public Backend getBackend() {
        return backend;
    }

    public Embedder getEmbedder() {
        return embedder;
    }

    public Audit getAudit() {
        return audit;
    }

    public Observations getObservations() {
        return observations;
    }

    public Ingest getIngest() {
        return ingest;
    }

    public Server getServer() {
        return server;
    }
}
