package dev.ragkit;

import dev.ragkit.internal.Settings;
import dev.ragkit.retrieval.Deduplicator;
import dev.ragkit.retrieval.RetrievalOptions;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The settings of a {@link RagPipeline} that a deployment changes without code: which model answers, the
 * sampling temperature, routing, the token limits and the retrieval limits. Immutable and thread-safe; start from
 * {@link #defaults()}, {@link #fromEnvironment()} or {@link #builder()}, and change single values with
 * {@link #toBuilder()}. Where to find the model server is the backend's own configuration (for Ollama,
 * {@code OllamaConfig} in {@code rag-ollama}).
 *
 * <p>A configuration given to {@link RagPipeline.Builder#config(RagConfig)} is a <em>base layer</em>: a setting
 * made on the pipeline builder itself wins, whatever the order of the calls. The retrieval settings carry the same
 * names as in {@link RetrievalOptions}.
 *
 * <p>Each setting can be read from an environment variable (the names come from the product specifications).
 * Unset or blank variables keep the default; values are trimmed first. The variables, their defaults and what they
 * accept:
 * <table>
 *   <caption>Environment variables</caption>
 *   <tr><th>Variable</th><th>Default</th><th>Accepts</th><th>Accessor</th></tr>
 *   <tr><td>{@code CHAT_MODEL}</td><td>{@code llama3.2}</td><td>a model name, not blank</td>
 *       <td>{@link #chatModel()}</td></tr>
 *   <tr><td>{@code RAG_TEMPERATURE}</td><td>0.1</td><td>a number from 0 to 2</td>
 *       <td>{@link #temperature()}</td></tr>
 *   <tr><td>{@code RAG_CONFIDENCE_THRESHOLD}</td><td>60</td><td>a whole number from 0 to 100</td>
 *       <td>{@link #confidenceThreshold()}</td></tr>
 *   <tr><td>{@code RAG_ADMIN_EMAIL}</td><td>none: routed questions say no owner is configured</td>
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
 *       <td>{@link #minRelevance()}</td></tr>
 *   <tr><td>{@code RAG_MAX_CHUNKS_PER_DOC}</td><td>3</td><td>a whole number, at least 1</td>
 *       <td>{@link #maxChunksPerDocument()}</td></tr>
 *   <tr><td>{@code RAG_TOTAL_CONTEXT_CHUNKS}</td><td>5</td><td>a whole number, at least 1</td>
 *       <td>{@link #topK()}</td></tr>
 *   <tr><td>{@code RAG_DEDUP_CANDIDATES_CAP}</td><td>15</td>
 *       <td>a whole number, at least 1 and not below {@code RAG_TOTAL_CONTEXT_CHUNKS}</td>
 *       <td>{@link #candidateCap()}</td></tr>
 *   <tr><td>{@code RAG_CHUNK_OVERLAP_THRESHOLD}</td><td>0.9</td>
 *       <td>a number above 0 and at most 1</td><td>{@link #duplicateThreshold()}</td></tr>
 * </table>
 */
public final class RagConfig {

    /** Environment variable of {@link #chatModel()}. */
    public static final String CHAT_MODEL = "CHAT_MODEL";
    /** Environment variable of {@link #temperature()}. */
    public static final String RAG_TEMPERATURE = "RAG_TEMPERATURE";
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
    /** Environment variable of {@link #minRelevance()}. */
    public static final String RAG_MIN_SIMILARITY_SCORE = "RAG_MIN_SIMILARITY_SCORE";
    /** Environment variable of {@link #maxChunksPerDocument()}. */
    public static final String RAG_MAX_CHUNKS_PER_DOC = "RAG_MAX_CHUNKS_PER_DOC";
    /** Environment variable of {@link #topK()}. */
    public static final String RAG_TOTAL_CONTEXT_CHUNKS = "RAG_TOTAL_CONTEXT_CHUNKS";
    /** Environment variable of {@link #candidateCap()}. */
    public static final String RAG_DEDUP_CANDIDATES_CAP = "RAG_DEDUP_CANDIDATES_CAP";
    /** Environment variable of {@link #duplicateThreshold()}. */
    public static final String RAG_CHUNK_OVERLAP_THRESHOLD = "RAG_CHUNK_OVERLAP_THRESHOLD";

    private static final String MODEL_RULE = "a model name that is not blank, such as llama3.2";
    private static final String TEMPERATURE_RULE = "a number from 0 to 2";
    private static final String CONFIDENCE_RULE = "a whole number from 0 to 100";
    private static final String EMAIL_RULE = "an e-mail address with text on both sides of the '@' and no spaces";
    private static final String AT_LEAST_0 = "a whole number, at least 0";
    private static final String AT_LEAST_1 = "a whole number, at least 1";
    private static final String UNIT_RULE = "a number from 0 to 1";
    private static final String OVERLAP_RULE = "a number above 0 and at most 1";

    private static final RagConfig DEFAULTS = new RagConfig("llama3.2", 0.1, 60, null, 3000, 1000,
            1024, 500, 0.3, 3, 5, 15, Deduplicator.DEFAULT_JACCARD_THRESHOLD);

    private final String chatModel;
    private final double temperature;
    private final int confidenceThreshold;
    private final @Nullable String adminEmail;
    private final int maxContextTokens;
    private final int maxHistoryTokens;
    private final int maxResponseTokens;
    private final int systemPromptTokens;
    private final double minRelevance;
    private final int maxChunksPerDocument;
    private final int topK;
    private final int candidateCap;
    private final double duplicateThreshold;

    private RagConfig(String chatModel, double temperature, int confidenceThreshold, @Nullable String adminEmail,
            int maxContextTokens, int maxHistoryTokens, int maxResponseTokens, int systemPromptTokens,
            double minRelevance, int maxChunksPerDocument, int topK, int candidateCap, double duplicateThreshold) {
        this.chatModel = chatModel;
        this.temperature = temperature;
        this.confidenceThreshold = confidenceThreshold;
        this.adminEmail = adminEmail;
        this.maxContextTokens = maxContextTokens;
        this.maxHistoryTokens = maxHistoryTokens;
        this.maxResponseTokens = maxResponseTokens;
        this.systemPromptTokens = systemPromptTokens;
        this.minRelevance = minRelevance;
        this.maxChunksPerDocument = maxChunksPerDocument;
        this.topK = topK;
        this.candidateCap = candidateCap;
        this.duplicateThreshold = duplicateThreshold;
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
        Settings.read(env, CHAT_MODEL, MODEL_RULE, b::chatModel);
        Settings.read(env, RAG_TEMPERATURE, TEMPERATURE_RULE, v -> b.temperature(Settings.parseNumber(v)));
        Settings.read(env, RAG_CONFIDENCE_THRESHOLD, CONFIDENCE_RULE, v -> b.confidenceThreshold(Integer.parseInt(v)));
        Settings.read(env, RAG_ADMIN_EMAIL, EMAIL_RULE, b::adminEmail);
        Settings.read(env, RAG_MAX_CONTEXT_TOKENS, AT_LEAST_1, v -> b.maxContextTokens(Integer.parseInt(v)));
        Settings.read(env, RAG_MAX_HISTORY_TOKENS, AT_LEAST_0, v -> b.maxHistoryTokens(Integer.parseInt(v)));
        Settings.read(env, RAG_MAX_RESPONSE_TOKENS, AT_LEAST_1, v -> b.maxResponseTokens(Integer.parseInt(v)));
        Settings.read(env, RAG_SYSTEM_PROMPT_TOKENS, AT_LEAST_0, v -> b.systemPromptTokens(Integer.parseInt(v)));
        Settings.read(env, RAG_MIN_SIMILARITY_SCORE, UNIT_RULE, v -> b.minRelevance(Settings.parseNumber(v)));
        Settings.read(env, RAG_MAX_CHUNKS_PER_DOC, AT_LEAST_1, v -> b.maxChunksPerDocument(Integer.parseInt(v)));
        Settings.read(env, RAG_TOTAL_CONTEXT_CHUNKS, AT_LEAST_1, v -> b.topK(Integer.parseInt(v)));
        Settings.read(env, RAG_DEDUP_CANDIDATES_CAP, AT_LEAST_1, v -> b.candidateCap(Integer.parseInt(v)));
        Settings.read(env, RAG_CHUNK_OVERLAP_THRESHOLD, OVERLAP_RULE,
                v -> b.duplicateThreshold(Settings.parseNumber(v)));
        RagConfig config = b.over(DEFAULTS, false);
        if (config.candidateCap < config.topK) {
            throw new IllegalArgumentException(RAG_DEDUP_CANDIDATES_CAP + " (" + config.candidateCap
                    + ") must not be below " + RAG_TOTAL_CONTEXT_CHUNKS + " (" + config.topK + "); raise "
                    + RAG_DEDUP_CANDIDATES_CAP + " or lower " + RAG_TOTAL_CONTEXT_CHUNKS);
        }
        return config;
    }

    /**
     * @return an empty builder: what it does not set comes from the {@link #defaults()}
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * @return a builder holding every value of this configuration
     */
    public Builder toBuilder() {
        Builder b = new Builder().chatModel(chatModel).temperature(temperature)
                .confidenceThreshold(confidenceThreshold).maxContextTokens(maxContextTokens)
                .maxHistoryTokens(maxHistoryTokens).maxResponseTokens(maxResponseTokens)
                .systemPromptTokens(systemPromptTokens).minRelevance(minRelevance)
                .maxChunksPerDocument(maxChunksPerDocument).topK(topK).candidateCap(candidateCap)
                .duplicateThreshold(duplicateThreshold);
        return adminEmail == null ? b : b.adminEmail(adminEmail);
    }

    /**
     * The {@link RetrievalOptions#chunkQa()} preset with this configuration's retrieval settings, which carry the
     * same names: {@link #minRelevance()}, {@link #topK()}, {@link #maxChunksPerDocument()} and
     * {@link #candidateCap()}.
     *
     * @return the retrieval options
     */
    public RetrievalOptions retrievalOptions() {
        return RetrievalOptions.chunkQa().toBuilder()
                .minRelevance(minRelevance)
                .topK(topK)
                .maxChunksPerDocument(maxChunksPerDocument)
                .candidateCap(candidateCap)
                .build();
    }

    /**
     * @return a Jaccard deduplicator with the threshold {@link #duplicateThreshold()}
     */
    public Deduplicator deduplicator() {
        return Deduplicator.jaccard(duplicateThreshold);
    }

    /** @return the model that answers; default {@code llama3.2} */
    public String chatModel() {
        return chatModel;
    }

    /** @return the sampling temperature, 0 to 2; default 0.1 */
    public double temperature() {
        return temperature;
    }

    /** @return the confidence (0–100) below which answers are routed to a human; default 60 */
    public int confidenceThreshold() {
        return confidenceThreshold;
    }

    /**
     * @return who gets questions no owner is found for, or {@code null} when nobody is configured (the default: a
     *         routed response then says that no owner is configured and how to configure one, rather than showing an
     *         invented address)
     */
    public @Nullable String adminEmail() {
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

    /**
     * @return the lowest calibrated relevance a retrieved chunk may have, 0 to 1; default 0.3 (as
     *         {@link RetrievalOptions#minRelevance()})
     */
    public double minRelevance() {
        return minRelevance;
    }

    /** @return the most chunks kept from one document; default 3 (as {@link RetrievalOptions#maxChunksPerDocument()}) */
    public int maxChunksPerDocument() {
        return maxChunksPerDocument;
    }

    /** @return how many chunks go into the context; default 5 (as {@link RetrievalOptions#topK()}) */
    public int topK() {
        return topK;
    }

    /**
     * @return the most candidates fetched before deduplication; default 15 (as {@link RetrievalOptions#candidateCap()})
     */
    public int candidateCap() {
        return candidateCap;
    }

    /** @return the Jaccard similarity above which two chunks are near duplicates, in (0, 1]; default 0.9 */
    public double duplicateThreshold() {
        return duplicateThreshold;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RagConfig c && chatModel.equals(c.chatModel)
                && Double.compare(temperature, c.temperature) == 0
                && confidenceThreshold == c.confidenceThreshold && Objects.equals(adminEmail, c.adminEmail)
                && maxContextTokens == c.maxContextTokens && maxHistoryTokens == c.maxHistoryTokens
                && maxResponseTokens == c.maxResponseTokens && systemPromptTokens == c.systemPromptTokens
                && Double.compare(minRelevance, c.minRelevance) == 0
                && maxChunksPerDocument == c.maxChunksPerDocument && topK == c.topK
                && candidateCap == c.candidateCap
                && Double.compare(duplicateThreshold, c.duplicateThreshold) == 0;
    }

    @Override
    public int hashCode() {
        return Objects.hash(chatModel, temperature, confidenceThreshold, adminEmail, maxContextTokens,
                maxHistoryTokens, maxResponseTokens, systemPromptTokens, minRelevance, maxChunksPerDocument, topK,
                candidateCap, duplicateThreshold);
    }

    @Override
    public String toString() {
        return "RagConfig[chatModel=" + chatModel + ", temperature=" + temperature + ", confidenceThreshold="
                + confidenceThreshold + ", adminEmail=" + adminEmail + ", maxContextTokens=" + maxContextTokens
                + ", maxHistoryTokens=" + maxHistoryTokens + ", maxResponseTokens=" + maxResponseTokens
                + ", systemPromptTokens=" + systemPromptTokens + ", minRelevance=" + minRelevance
                + ", maxChunksPerDocument=" + maxChunksPerDocument + ", topK=" + topK + ", candidateCap="
                + candidateCap + ", duplicateThreshold=" + duplicateThreshold + "]";
    }

    /**
     * Builds {@link RagConfig}. Setters reject bad values at once; what is not set comes from the defaults (or, for
     * the pipeline builder, from the configuration below). Not thread-safe.
     */
    public static final class Builder {
        private @Nullable String chatModel;
        private @Nullable Double temperature;
        private @Nullable Integer confidenceThreshold;
        private @Nullable String adminEmail;
        private @Nullable Integer maxContextTokens;
        private @Nullable Integer maxHistoryTokens;
        private @Nullable Integer maxResponseTokens;
        private @Nullable Integer systemPromptTokens;
        private @Nullable Double minRelevance;
        private @Nullable Integer maxChunksPerDocument;
        private @Nullable Integer topK;
        private @Nullable Integer candidateCap;
        private @Nullable Double duplicateThreshold;

        private Builder() {
        }

        /** @return an independent builder holding the same settings */
        Builder copy() {
            Builder b = new Builder();
            b.chatModel = chatModel;
            b.temperature = temperature;
            b.confidenceThreshold = confidenceThreshold;
            b.adminEmail = adminEmail;
            b.maxContextTokens = maxContextTokens;
            b.maxHistoryTokens = maxHistoryTokens;
            b.maxResponseTokens = maxResponseTokens;
            b.systemPromptTokens = systemPromptTokens;
            b.minRelevance = minRelevance;
            b.maxChunksPerDocument = maxChunksPerDocument;
            b.topK = topK;
            b.candidateCap = candidateCap;
            b.duplicateThreshold = duplicateThreshold;
            return b;
        }

        /** @return the confidence threshold set here, or {@code null} */
        @Nullable Integer confidenceThresholdOrNull() {
            return confidenceThreshold;
        }

        /** @return the administrator's address set here, or {@code null} */
        @Nullable String adminEmailOrNull() {
            return adminEmail;
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
         * @param relevance the lowest calibrated relevance, from 0 to 1
         * @return this builder
         */
        public Builder minRelevance(double relevance) {
            if (!(relevance >= 0 && relevance <= 1)) {
                throw rejected("minRelevance", UNIT_RULE, relevance);
            }
            this.minRelevance = relevance;
            return this;
        }

        /**
         * @param max at least 1
         * @return this builder
         */
        public Builder maxChunksPerDocument(int max) {
            this.maxChunksPerDocument = atLeast(max, 1, "maxChunksPerDocument");
            return this;
        }

        /**
         * @param chunks at least 1
         * @return this builder
         */
        public Builder topK(int chunks) {
            this.topK = atLeast(chunks, 1, "topK");
            return this;
        }

        /**
         * @param cap at least 1, and at least {@code topK} when built
         * @return this builder
         */
        public Builder candidateCap(int cap) {
            this.candidateCap = atLeast(cap, 1, "candidateCap");
            return this;
        }

        /**
         * @param threshold above 0 and at most 1
         * @return this builder
         */
        public Builder duplicateThreshold(double threshold) {
            if (!(threshold > 0 && threshold <= 1)) {
                throw rejected("duplicateThreshold", OVERLAP_RULE, threshold);
            }
            this.duplicateThreshold = threshold;
            return this;
        }

        /**
         * @return the configuration: the values set here, the defaults for the rest
         * @throws IllegalStateException when {@code candidateCap < topK}, which would make the context size
         *                               unreachable
         */
        public RagConfig build() {
            return over(DEFAULTS, true);
        }

        /**
         * The values set on this builder over {@code base}: what is set here wins, the rest comes from {@code base}.
         *
         * @param base  the configuration below
         * @param check whether to check the cross-field rule
         * @return the layered configuration
         */
        RagConfig over(RagConfig base, boolean check) {
            RagConfig c = new RagConfig(Settings.layered(chatModel, base.chatModel),
                    Settings.layered(temperature, base.temperature),
                    Settings.layered(confidenceThreshold, base.confidenceThreshold),
                    adminEmail != null ? adminEmail : base.adminEmail,
                    Settings.layered(maxContextTokens, base.maxContextTokens),
                    Settings.layered(maxHistoryTokens, base.maxHistoryTokens),
                    Settings.layered(maxResponseTokens, base.maxResponseTokens),
                    Settings.layered(systemPromptTokens, base.systemPromptTokens),
                    Settings.layered(minRelevance, base.minRelevance),
                    Settings.layered(maxChunksPerDocument, base.maxChunksPerDocument),
                    Settings.layered(topK, base.topK),
                    Settings.layered(candidateCap, base.candidateCap),
                    Settings.layered(duplicateThreshold, base.duplicateThreshold));
            if (check && c.candidateCap < c.topK) {
                throw new IllegalStateException("candidateCap (" + c.candidateCap + ") is below topK (" + c.topK
                        + "); raise candidateCap or lower topK");
            }
            return c;
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
