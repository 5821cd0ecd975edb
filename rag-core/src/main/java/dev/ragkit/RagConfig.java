package dev.ragkit;

import dev.ragkit.retrieval.Deduplicator;
import dev.ragkit.retrieval.JaccardDeduplicator;
import dev.ragkit.retrieval.RetrievalOptions;
import java.math.BigDecimal;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * The environment-level settings of a RagKit deployment: where Ollama is, which model answers, and the token,
 * retrieval and routing limits. Immutable and thread-safe; start from {@link #defaults()},
 * {@link #fromEnvironment()} or {@link #builder()}, and change single values with {@link #toBuilder()}.
 *
 * <p>Each setting can be read from an environment variable. Unset or blank variables keep the default; values
 * are trimmed first. The variables, their defaults and what they accept:
 * <table>
 *   <caption>Environment variables</caption>
 *   <tr><th>Variable</th><th>Default</th><th>Accepts</th><th>Accessor</th></tr>
 *   <tr><td>{@code OLLAMA_BASE_URL}</td><td>{@code http://localhost:11434}</td>
 *       <td>an http or https URL with a host</td><td>{@link #ollamaBaseUrl()}</td></tr>
 *   <tr><td>{@code CHAT_MODEL}</td><td>{@code llama3.2}</td><td>a model name, not blank</td>
 *       <td>{@link #chatModel()}</td></tr>
 *   <tr><td>{@code RAG_TEMPERATURE}</td><td>0.1</td><td>a number from 0 to 2</td>
 *       <td>{@link #temperature()}</td></tr>
 *   <tr><td>{@code RAG_TIMEOUT_SECONDS}</td><td>30</td>
 *       <td>a whole number of seconds from 1 to 86400 (a day, {@link #MAX_TIMEOUT})</td>
 *       <td>{@link #timeout()}</td></tr>
 *   <tr><td>{@code RAG_CONFIDENCE_THRESHOLD}</td><td>60</td><td>a whole number from 0 to 100</td>
 *       <td>{@link #confidenceThreshold()}</td></tr>
 *   <tr><td>{@code RAG_ADMIN_EMAIL}</td><td>{@code admin@company.com}</td>
 *       <td>an e-mail address (text on both sides of an {@code @}, no spaces)</td>
 *       <td>{@link #adminEmail()}</td></tr>
 *   <tr><td>{@code RAG_MAX_CONTEXT_TOKENS}</td><td>3000</td><td>a whole number, at least 1</td>
 *       <td>{@link #maxContextTokens()}</td></tr>
 *   <tr><td>{@code RAG_MAX_HISTORY_TOKENS}</td><td>1000</td><td>a whole number, at least 0</td>
 *       <td>{@link #maxHistoryTokens()}</td></tr>
 *   <tr><td>{@code RAG_MAX_RESPONSE_TOKENS}</td><td>1024</td><td>a whole number, at least 1</td>
 *       <td>{@link #maxResponseTokens()}</td></tr>
 *   <tr><td>{@code RAG_SYSTEM_PROMPT_TOKENS}</td><td>500</td><td>a whole number, at least 0</td>
 *       <td>{@link #systemPromptTokens()}</td></tr>
 *   <tr><td>{@code RAG_MIN_SIMILARITY_SCORE}</td><td>0.3</td><td>a number from 0 to 1</td>
 *       <td>{@link #minSimilarityScore()}</td></tr>
 *   <tr><td>{@code RAG_MAX_CHUNKS_PER_DOC}</td><td>3</td><td>a whole number, at least 1</td>
 *       <td>{@link #maxChunksPerDoc()}</td></tr>
 *   <tr><td>{@code RAG_TOTAL_CONTEXT_CHUNKS}</td><td>5</td><td>a whole number, at least 1</td>
 *       <td>{@link #totalContextChunks()}</td></tr>
 *   <tr><td>{@code RAG_DEDUP_CANDIDATES_CAP}</td><td>15</td>
 *       <td>a whole number, at least 1 and not below {@code RAG_TOTAL_CONTEXT_CHUNKS}</td>
 *       <td>{@link #dedupCandidatesCap()}</td></tr>
 *   <tr><td>{@code RAG_CHUNK_OVERLAP_THRESHOLD}</td><td>0.9</td>
 *       <td>a number above 0 and at most 1</td><td>{@link #chunkOverlapThreshold()}</td></tr>
 * </table>
 */
public final class RagConfig {

    /**
     * The longest {@link #timeout()}: a day. Backends take it as the upper bound of their own time limits, so a
     * value is rejected once, where it is set.
     */
    public static final Duration MAX_TIMEOUT = Duration.ofDays(1);

    /** Environment variable of {@link #ollamaBaseUrl()}. */
    public static final String OLLAMA_BASE_URL = "OLLAMA_BASE_URL";
    /** Environment variable of {@link #chatModel()}. */
    public static final String CHAT_MODEL = "CHAT_MODEL";
    /** Environment variable of {@link #temperature()}. */
    public static final String RAG_TEMPERATURE = "RAG_TEMPERATURE";
    /** Environment variable of {@link #timeout()}, in whole seconds. */
    public static final String RAG_TIMEOUT_SECONDS = "RAG_TIMEOUT_SECONDS";
    /** Environment variable of {@link #confidenceThreshold()}. */
    public static final String RAG_CONFIDENCE_THRESHOLD = "RAG_CONFIDENCE_THRESHOLD";
    /** Environment variable of {@link #adminEmail()}. */
    public static final String RAG_ADMIN_EMAIL = "RAG_ADMIN_EMAIL";
    /** Environment variable of {@link #maxContextTokens()}. */
    public static final String RAG_MAX_CONTEXT_TOKENS = "RAG_MAX_CONTEXT_TOKENS";
    /** Environment variable of {@link #maxHistoryTokens()}. */
    public static final String RAG_MAX_HISTORY_TOKENS = "RAG_MAX_HISTORY_TOKENS";
    /** Environment variable of {@link #maxResponseTokens()}. */
    public static final String RAG_MAX_RESPONSE_TOKENS = "RAG_MAX_RESPONSE_TOKENS";
    /** Environment variable of {@link #systemPromptTokens()}. */
    public static final String RAG_SYSTEM_PROMPT_TOKENS = "RAG_SYSTEM_PROMPT_TOKENS";
    /** Environment variable of {@link #minSimilarityScore()}. */
    public static final String RAG_MIN_SIMILARITY_SCORE = "RAG_MIN_SIMILARITY_SCORE";
    /** Environment variable of {@link #maxChunksPerDoc()}. */
    public static final String RAG_MAX_CHUNKS_PER_DOC = "RAG_MAX_CHUNKS_PER_DOC";
    /** Environment variable of {@link #totalContextChunks()}. */
    public static final String RAG_TOTAL_CONTEXT_CHUNKS = "RAG_TOTAL_CONTEXT_CHUNKS";
    /** Environment variable of {@link #dedupCandidatesCap()}. */
    public static final String RAG_DEDUP_CANDIDATES_CAP = "RAG_DEDUP_CANDIDATES_CAP";
    /** Environment variable of {@link #chunkOverlapThreshold()}. */
    public static final String RAG_CHUNK_OVERLAP_THRESHOLD = "RAG_CHUNK_OVERLAP_THRESHOLD";

    private static final String URL_RULE = "an http or https URL with a host, such as http://localhost:11434";
    private static final String MODEL_RULE = "a model name that is not blank, such as llama3.2";
    private static final String TEMPERATURE_RULE = "a number from 0 to 2";
    private static final String TIMEOUT_RULE = "a positive duration of at most a day (RagConfig.MAX_TIMEOUT)";
    private static final String TIMEOUT_SECONDS_RULE = "a whole number of seconds from 1 to "
            + MAX_TIMEOUT.toSeconds() + " (a day)";
    private static final String CONFIDENCE_RULE = "a whole number from 0 to 100";
    private static final String EMAIL_RULE = "an e-mail address with text on both sides of the '@' and no spaces";
    private static final String AT_LEAST_0 = "a whole number, at least 0";
    private static final String AT_LEAST_1 = "a whole number, at least 1";
    private static final String UNIT_RULE = "a number from 0 to 1";
    private static final String OVERLAP_RULE = "a number above 0 and at most 1";

    private static final RagConfig DEFAULTS = new Builder().build();

    private final URI ollamaBaseUrl;
    private final String chatModel;
    private final double temperature;
    private final Duration timeout;
    private final int confidenceThreshold;
    private final String adminEmail;
    private final int maxContextTokens;
    private final int maxHistoryTokens;
    private final int maxResponseTokens;
    private final int systemPromptTokens;
    private final double minSimilarityScore;
    private final int maxChunksPerDoc;
    private final int totalContextChunks;
    private final int dedupCandidatesCap;
    private final double chunkOverlapThreshold;

    private RagConfig(Builder b) {
        this.ollamaBaseUrl = b.ollamaBaseUrl;
        this.chatModel = b.chatModel;
        this.temperature = b.temperature;
        this.timeout = b.timeout;
        this.confidenceThreshold = b.confidenceThreshold;
        this.adminEmail = b.adminEmail;
        this.maxContextTokens = b.maxContextTokens;
        this.maxHistoryTokens = b.maxHistoryTokens;
        this.maxResponseTokens = b.maxResponseTokens;
        this.systemPromptTokens = b.systemPromptTokens;
        this.minSimilarityScore = b.minSimilarityScore;
        this.maxChunksPerDoc = b.maxChunksPerDoc;
        this.totalContextChunks = b.totalContextChunks;
        this.dedupCandidatesCap = b.dedupCandidatesCap;
        this.chunkOverlapThreshold = b.chunkOverlapThreshold;
    }

    /**
     * The documented defaults (see the class javadoc), ignoring the environment.
     *
     * @return the defaults
     */
    public static RagConfig defaults() {
        return DEFAULTS;
    }

    /**
     * The defaults overridden by the process environment ({@link System#getenv()}).
     *
     * @return the configuration
     * @throws IllegalArgumentException when a variable holds a value it does not accept, or two variables clash;
     *                                  the message names the variable, the value and what is accepted
     */
    public static RagConfig fromEnvironment() {
        return fromEnvironment(System.getenv());
    }

    /**
     * The defaults overridden by the given variables (see the class javadoc for the names). Variables that are
     * missing, {@code null} or blank keep the default; values are trimmed; other keys are ignored.
     *
     * @param env variable names to values, such as {@link System#getenv()}
     * @return the configuration
     * @throws IllegalArgumentException when a variable holds a value it does not accept, or two variables clash;
     *                                  the message names the variable, the value and what is accepted
     */
    public static RagConfig fromEnvironment(Map<String, String> env) {
        Objects.requireNonNull(env, "env");
        Builder b = new Builder();
        read(env, OLLAMA_BASE_URL, URL_RULE, v -> b.ollamaBaseUrl(parseUri(v)));
        read(env, CHAT_MODEL, MODEL_RULE, b::chatModel);
        read(env, RAG_TEMPERATURE, TEMPERATURE_RULE, v -> b.temperature(parseNumber(v)));
        read(env, RAG_TIMEOUT_SECONDS, TIMEOUT_SECONDS_RULE,
                v -> b.timeout(Duration.ofSeconds(atLeast(Integer.parseInt(v), 1, "timeout seconds"))));
        // timeout(..) rejects more than MAX_TIMEOUT; read(..) reports it under RAG_TIMEOUT_SECONDS with its range
        read(env, RAG_CONFIDENCE_THRESHOLD, CONFIDENCE_RULE, v -> b.confidenceThreshold(Integer.parseInt(v)));
        read(env, RAG_ADMIN_EMAIL, EMAIL_RULE, b::adminEmail);
        read(env, RAG_MAX_CONTEXT_TOKENS, AT_LEAST_1, v -> b.maxContextTokens(Integer.parseInt(v)));
        read(env, RAG_MAX_HISTORY_TOKENS, AT_LEAST_0, v -> b.maxHistoryTokens(Integer.parseInt(v)));
        read(env, RAG_MAX_RESPONSE_TOKENS, AT_LEAST_1, v -> b.maxResponseTokens(Integer.parseInt(v)));
        read(env, RAG_SYSTEM_PROMPT_TOKENS, AT_LEAST_0, v -> b.systemPromptTokens(Integer.parseInt(v)));
        read(env, RAG_MIN_SIMILARITY_SCORE, UNIT_RULE, v -> b.minSimilarityScore(parseNumber(v)));
        read(env, RAG_MAX_CHUNKS_PER_DOC, AT_LEAST_1, v -> b.maxChunksPerDoc(Integer.parseInt(v)));
        read(env, RAG_TOTAL_CONTEXT_CHUNKS, AT_LEAST_1, v -> b.totalContextChunks(Integer.parseInt(v)));
        read(env, RAG_DEDUP_CANDIDATES_CAP, AT_LEAST_1, v -> b.dedupCandidatesCap(Integer.parseInt(v)));
        read(env, RAG_CHUNK_OVERLAP_THRESHOLD, OVERLAP_RULE, v -> b.chunkOverlapThreshold(parseNumber(v)));
        if (b.dedupCandidatesCap < b.totalContextChunks) {
            throw new IllegalArgumentException(RAG_DEDUP_CANDIDATES_CAP + " (" + b.dedupCandidatesCap
                    + ") must not be below " + RAG_TOTAL_CONTEXT_CHUNKS + " (" + b.totalContextChunks
                    + "); raise " + RAG_DEDUP_CANDIDATES_CAP + " or lower " + RAG_TOTAL_CONTEXT_CHUNKS);
        }
        return b.build();
    }

    /**
     * @return a builder holding the {@link #defaults()}
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * @return a builder holding this configuration
     */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.ollamaBaseUrl = ollamaBaseUrl;
        b.chatModel = chatModel;
        b.temperature = temperature;
        b.timeout = timeout;
        b.confidenceThreshold = confidenceThreshold;
        b.adminEmail = adminEmail;
        b.maxContextTokens = maxContextTokens;
        b.maxHistoryTokens = maxHistoryTokens;
        b.maxResponseTokens = maxResponseTokens;
        b.systemPromptTokens = systemPromptTokens;
        b.minSimilarityScore = minSimilarityScore;
        b.maxChunksPerDoc = maxChunksPerDoc;
        b.totalContextChunks = totalContextChunks;
        b.dedupCandidatesCap = dedupCandidatesCap;
        b.chunkOverlapThreshold = chunkOverlapThreshold;
        return b;
    }

    /**
     * The {@link RetrievalOptions#chunkQa()} preset with this configuration's retrieval limits: minimum relevance
     * {@link #minSimilarityScore()}, top-k {@link #totalContextChunks()}, {@link #maxChunksPerDoc()} chunks per
     * document and a candidate cap of {@link #dedupCandidatesCap()}.
     *
     * @return the retrieval options
     */
    public RetrievalOptions retrievalOptions() {
        return RetrievalOptions.chunkQa().toBuilder()
                .minRelevance(minSimilarityScore)
                .topK(totalContextChunks)
                .maxChunksPerDocument(maxChunksPerDoc)
                .candidateCap(dedupCandidatesCap)
                .build();
    }

    /**
     * @return a Jaccard deduplicator with the threshold {@link #chunkOverlapThreshold()}
     */
    public Deduplicator deduplicator() {
        return new JaccardDeduplicator(chunkOverlapThreshold);
    }

    /** @return the Ollama server's base URL; default {@code http://localhost:11434} */
    public URI ollamaBaseUrl() {
        return ollamaBaseUrl;
    }

    /** @return the model that answers; default {@code llama3.2} */
    public String chatModel() {
        return chatModel;
    }

    /** @return the sampling temperature, 0 to 2; default 0.1 */
    public double temperature() {
        return temperature;
    }

    /** @return how long one LLM call may take; default 30 seconds */
    public Duration timeout() {
        return timeout;
    }

    /** @return the confidence (0–100) below which answers are routed to a human; default 60 */
    public int confidenceThreshold() {
        return confidenceThreshold;
    }

    /** @return who low-confidence answers are routed to; default {@code admin@company.com} */
    public String adminEmail() {
        return adminEmail;
    }

    /** @return the most tokens of retrieved context in a prompt; default 3000 */
    public int maxContextTokens() {
        return maxContextTokens;
    }

    /** @return the most tokens of conversation history in a prompt; default 1000 */
    public int maxHistoryTokens() {
        return maxHistoryTokens;
    }

    /** @return the most tokens the model may answer with; default 1024 */
    public int maxResponseTokens() {
        return maxResponseTokens;
    }

    /** @return the tokens reserved for the system prompt; default 500 */
    public int systemPromptTokens() {
        return systemPromptTokens;
    }

    /** @return the lowest cosine similarity a retrieved chunk may have, 0 to 1; default 0.3 */
    public double minSimilarityScore() {
        return minSimilarityScore;
    }

    /** @return the most chunks kept from one document; default 3 */
    public int maxChunksPerDoc() {
        return maxChunksPerDoc;
    }

    /** @return how many chunks go into the context; default 5 */
    public int totalContextChunks() {
        return totalContextChunks;
    }

    /** @return the most candidates fetched before deduplication; default 15 */
    public int dedupCandidatesCap() {
        return dedupCandidatesCap;
    }

    /** @return the Jaccard similarity above which two chunks are near duplicates, in (0, 1]; default 0.9 */
    public double chunkOverlapThreshold() {
        return chunkOverlapThreshold;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RagConfig c && ollamaBaseUrl.equals(c.ollamaBaseUrl) && chatModel.equals(c.chatModel)
                && Double.compare(temperature, c.temperature) == 0 && timeout.equals(c.timeout)
                && confidenceThreshold == c.confidenceThreshold && adminEmail.equals(c.adminEmail)
                && maxContextTokens == c.maxContextTokens && maxHistoryTokens == c.maxHistoryTokens
                && maxResponseTokens == c.maxResponseTokens && systemPromptTokens == c.systemPromptTokens
                && Double.compare(minSimilarityScore, c.minSimilarityScore) == 0
                && maxChunksPerDoc == c.maxChunksPerDoc && totalContextChunks == c.totalContextChunks
                && dedupCandidatesCap == c.dedupCandidatesCap
                && Double.compare(chunkOverlapThreshold, c.chunkOverlapThreshold) == 0;
    }

    @Override
    public int hashCode() {
        return Objects.hash(ollamaBaseUrl, chatModel, temperature, timeout, confidenceThreshold, adminEmail,
                maxContextTokens, maxHistoryTokens, maxResponseTokens, systemPromptTokens, minSimilarityScore,
                maxChunksPerDoc, totalContextChunks, dedupCandidatesCap, chunkOverlapThreshold);
    }

    @Override
    public String toString() {
        return "RagConfig[ollamaBaseUrl=" + ollamaBaseUrl + ", chatModel=" + chatModel + ", temperature="
                + temperature + ", timeout=" + timeout + ", confidenceThreshold=" + confidenceThreshold
                + ", adminEmail=" + adminEmail + ", maxContextTokens=" + maxContextTokens + ", maxHistoryTokens="
                + maxHistoryTokens + ", maxResponseTokens=" + maxResponseTokens + ", systemPromptTokens="
                + systemPromptTokens + ", minSimilarityScore=" + minSimilarityScore + ", maxChunksPerDoc="
                + maxChunksPerDoc + ", totalContextChunks=" + totalContextChunks + ", dedupCandidatesCap="
                + dedupCandidatesCap + ", chunkOverlapThreshold=" + chunkOverlapThreshold + "]";
    }

    /** Builds {@link RagConfig}; starts from the defaults, setters reject bad values at once. Not thread-safe. */
    public static final class Builder {
        private URI ollamaBaseUrl = URI.create("http://localhost:11434");
        private String chatModel = "llama3.2";
        private double temperature = 0.1;
        private Duration timeout = Duration.ofSeconds(30);
        private int confidenceThreshold = 60;
        private String adminEmail = "admin@company.com";
        private int maxContextTokens = 3000;
        private int maxHistoryTokens = 1000;
        private int maxResponseTokens = 1024;
        private int systemPromptTokens = 500;
        private double minSimilarityScore = 0.3;
        private int maxChunksPerDoc = 3;
        private int totalContextChunks = 5;
        private int dedupCandidatesCap = 15;
        private double chunkOverlapThreshold = JaccardDeduplicator.DEFAULT_THRESHOLD;

        private Builder() {
        }

        /**
         * @param url an http or https URL with a host
         * @return this builder
         */
        public Builder ollamaBaseUrl(URI url) {
            Objects.requireNonNull(url, "ollamaBaseUrl");
            String scheme = url.getScheme() == null ? "" : url.getScheme().toLowerCase(Locale.ROOT);
            if (!(scheme.equals("http") || scheme.equals("https")) || url.getHost() == null
                    || url.getHost().isEmpty()) {
                throw rejected("ollamaBaseUrl", URL_RULE, url);
            }
            this.ollamaBaseUrl = url;
            return this;
        }

        /**
         * @param model the model name, not blank
         * @return this builder
         */
        public Builder chatModel(String model) {
            if (Objects.requireNonNull(model, "chatModel").isBlank()) {
                throw rejected("chatModel", MODEL_RULE, "'" + model + "'");
            }
            this.chatModel = model;
            return this;
        }

        /**
         * @param temperature from 0 to 2
         * @return this builder
         */
        public Builder temperature(double temperature) {
            if (!(temperature >= 0 && temperature <= 2)) {
                throw rejected("temperature", TEMPERATURE_RULE, temperature);
            }
            this.temperature = temperature;
            return this;
        }

        /**
         * @param timeout positive and at most {@link RagConfig#MAX_TIMEOUT} (a day)
         * @return this builder
         */
        public Builder timeout(Duration timeout) {
            // compareTo, not toMillis(): toMillis() overflows for huge durations
            if (Objects.requireNonNull(timeout, "timeout").isNegative() || timeout.isZero()
                    || timeout.compareTo(MAX_TIMEOUT) > 0) {
                throw rejected("timeout", TIMEOUT_RULE, timeout);
            }
            this.timeout = timeout;
            return this;
        }

        /**
         * @param threshold from 0 to 100
         * @return this builder
         */
        public Builder confidenceThreshold(int threshold) {
            if (threshold < 0 || threshold > 100) {
                throw rejected("confidenceThreshold", CONFIDENCE_RULE, threshold);
            }
            this.confidenceThreshold = threshold;
            return this;
        }

        /**
         * @param email text on both sides of an {@code @}, no spaces
         * @return this builder
         */
        public Builder adminEmail(String email) {
            Objects.requireNonNull(email, "adminEmail");
            int at = email.lastIndexOf('@');
            if (at <= 0 || at == email.length() - 1 || email.chars().anyMatch(Character::isWhitespace)) {
                throw rejected("adminEmail", EMAIL_RULE, "'" + email + "'");
            }
            this.adminEmail = email;
            return this;
        }

        /**
         * @param tokens at least 1
         * @return this builder
         */
        public Builder maxContextTokens(int tokens) {
            this.maxContextTokens = atLeast(tokens, 1, "maxContextTokens");
            return this;
        }

        /**
         * @param tokens at least 0
         * @return this builder
         */
        public Builder maxHistoryTokens(int tokens) {
            this.maxHistoryTokens = atLeast(tokens, 0, "maxHistoryTokens");
            return this;
        }

        /**
         * @param tokens at least 1
         * @return this builder
         */
        public Builder maxResponseTokens(int tokens) {
            this.maxResponseTokens = atLeast(tokens, 1, "maxResponseTokens");
            return this;
        }

        /**
         * @param tokens at least 0
         * @return this builder
         */
        public Builder systemPromptTokens(int tokens) {
            this.systemPromptTokens = atLeast(tokens, 0, "systemPromptTokens");
            return this;
        }

        /**
         * @param score from 0 to 1
         * @return this builder
         */
        public Builder minSimilarityScore(double score) {
            if (!(score >= 0 && score <= 1)) {
                throw rejected("minSimilarityScore", UNIT_RULE, score);
            }
            this.minSimilarityScore = score;
            return this;
        }

        /**
         * @param max at least 1
         * @return this builder
         */
        public Builder maxChunksPerDoc(int max) {
            this.maxChunksPerDoc = atLeast(max, 1, "maxChunksPerDoc");
            return this;
        }

        /**
         * @param chunks at least 1
         * @return this builder
         */
        public Builder totalContextChunks(int chunks) {
            this.totalContextChunks = atLeast(chunks, 1, "totalContextChunks");
            return this;
        }

        /**
         * @param cap at least 1, and at least {@code totalContextChunks} when built
         * @return this builder
         */
        public Builder dedupCandidatesCap(int cap) {
            this.dedupCandidatesCap = atLeast(cap, 1, "dedupCandidatesCap");
            return this;
        }

        /**
         * @param threshold above 0 and at most 1
         * @return this builder
         */
        public Builder chunkOverlapThreshold(double threshold) {
            if (!(threshold > 0 && threshold <= 1)) {
                throw rejected("chunkOverlapThreshold", OVERLAP_RULE, threshold);
            }
            this.chunkOverlapThreshold = threshold;
            return this;
        }

        /**
         * @return the configuration
         * @throws IllegalStateException when {@code dedupCandidatesCap < totalContextChunks}, which would make
         *                               the context size unreachable
         */
        public RagConfig build() {
            if (dedupCandidatesCap < totalContextChunks) {
                throw new IllegalStateException("dedupCandidatesCap (" + dedupCandidatesCap
                        + ") is below totalContextChunks (" + totalContextChunks
                        + "); raise dedupCandidatesCap or lower totalContextChunks");
            }
            return new RagConfig(this);
        }
    }

    /** Sets one variable through the builder, turning any rejection into a message about the variable. */
    private static void read(Map<String, String> env, String name, String rule, Setter setter) {
        String raw = env.get(name);
        if (raw == null || raw.isBlank()) {
            return;
        }
        try {
            setter.set(raw.strip());
        } catch (IllegalArgumentException e) {
            // NumberFormatException is an IllegalArgumentException too.
            throw new IllegalArgumentException(name + " must be " + rule + ", got '" + raw + "'", e);
        }
    }

    @FunctionalInterface
    private interface Setter {
        void set(String value);
    }

    /** Parses a plain decimal number; unlike Double.parseDouble rejects NaN, Infinity, hex and 'd'/'f' suffixes. */
    private static double parseNumber(String text) {
        return new BigDecimal(text).doubleValue();
    }

    private static URI parseUri(String text) {
        try {
            return new URI(text);
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
    }

    private static int atLeast(int value, int min, String name) {
        if (value < min) {
            throw rejected(name, min == 0 ? AT_LEAST_0 : AT_LEAST_1, value);
        }
        return value;
    }

    private static IllegalArgumentException rejected(String name, String rule, Object value) {
        return new IllegalArgumentException(name + " must be " + rule + ", got " + value);
    }
}
