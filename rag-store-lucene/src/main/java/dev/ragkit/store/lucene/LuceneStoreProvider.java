package dev.ragkit.store.lucene;

import dev.ragkit.store.DocumentStore;
import dev.ragkit.store.StoreProvider;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * Provider id {@code lucene}. Settings:
 * <ul>
 *   <li>{@code directory} (required): the index directory;</li>
 *   <li>{@code dimension}: the vector dimension; otherwise the index's, or the first stored chunk's;</li>
 *   <li>{@code embedder}: the embedding model's id, recorded in and checked against the index;</li>
 *   <li>{@code language}: {@code en} (default), {@code de}, {@code fr}, {@code es}, {@code it}, {@code nl},
 *       {@code pt} or {@code standard};</li>
 *   <li>{@code commit}: {@code each-write} (default) or {@code batched};</li>
 *   <li>{@code lock-wait-seconds}: how long to wait for another writer's lock (default 0);</li>
 *   <li>{@code read-only}: {@code true} to search without taking the write lock;</li>
 *   <li>{@code max-k}: the largest {@code k} a search may ask for;</li>
 *   <li>{@code search-candidates}: neighbours collected from the HNSW graph per vector search (default 100);</li>
 *   <li>{@code vectors}: {@code float} or {@code int8} (scalar-quantized), recorded in a new index and checked
 *       against an existing one; without it an existing index keeps its own;</li>
 *   <li>{@code max-conn}: neighbours per node of the HNSW graph (default 16);</li>
 *   <li>{@code beam-width}: candidates considered when inserting into the graph (default 100).</li>
 * </ul>
 */
public final class LuceneStoreProvider implements StoreProvider {
    /** The provider id. */
    public static final String ID = "lucene";
    private static final Set<String> KEYS = Set.of("directory", "dimension", "embedder", "language", "commit",
            "lock-wait-seconds", "read-only", "max-k", "search-candidates",
            "vectors", "max-conn", "beam-width");

    /** For {@link java.util.ServiceLoader}. */
    public LuceneStoreProvider() {
    }

    @Override
    public String id() {
        return ID;
    }

    @Override
    public DocumentStore create(Map<String, String> config) {
        Objects.requireNonNull(config, "config");
        for (String key : config.keySet()) {
            if (!KEYS.contains(key)) {
                throw new IllegalArgumentException("unknown lucene store setting '" + key + "'; known settings: "
                        + String.join(", ", new TreeSet<>(KEYS)));
            }
        }
        String directory = config.get("directory");
        if (directory == null || directory.isBlank()) {
            throw new IllegalArgumentException("the lucene store needs the setting directory=<index folder>,"
                    + " e.g. directory=.ragkit/index");
        }
        LuceneDocumentStore.Builder b = LuceneDocumentStore.builder().directory(Path.of(directory.strip()));
        if (config.containsKey("dimension")) {
            b.dimension(integer(config, "dimension"));
        }
        if (config.containsKey("embedder")) {
            b.embedder(config.get("embedder"));
        }
        if (config.containsKey("language")) {
            b.language(config.get("language"));
        }
        if (config.containsKey("max-k")) {
            b.maxK(integer(config, "max-k"));
        }
        if (config.containsKey("search-candidates")) {
            b.searchCandidates(integer(config, "search-candidates"));
        }
        if (config.containsKey("vectors")) {
            b.vectorEncoding(VectorEncoding.parse(config.get("vectors")));
        }
        if (config.containsKey("max-conn")) {
            b.maxConn(integer(config, "max-conn"));
        }
        if (config.containsKey("beam-width")) {
            b.beamWidth(integer(config, "beam-width"));
        }
        if (config.containsKey("lock-wait-seconds")) {
            b.lockWait(Duration.ofSeconds(integer(config, "lock-wait-seconds")));
        }
        if (config.containsKey("read-only")) {
            b.readOnly(bool(config, "read-only"));
        }
        if (config.containsKey("commit")) {
            String mode = config.get("commit").strip().toLowerCase(Locale.ROOT);
            switch (mode) {
                case "each-write" -> b.commitMode(LuceneDocumentStore.CommitMode.EACH_WRITE);
                case "batched" -> b.commitMode(LuceneDocumentStore.CommitMode.BATCHED);
                default -> throw new IllegalArgumentException("lucene store setting commit='" + config.get("commit")
                        + "' is not one of: each-write, batched");
            }
        }
        return b.build();
    }

    private static int integer(Map<String, String> config, String key) {
        String value = config.get(key);
        try {
            return Integer.parseInt(value.strip());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("lucene store setting " + key + "='" + value
                    + "' is not a whole number", e);
        }
    }

    private static boolean bool(Map<String, String> config, String key) {
        String value = config.get(key).strip().toLowerCase(Locale.ROOT);
        if (!value.equals("true") && !value.equals("false")) {
            throw new IllegalArgumentException("lucene store setting " + key + "='" + config.get(key)
                    + "' is not true or false");
        }
        return value.equals("true");
    }
}
