package dev.ragkit.store.lucene;

import dev.ragkit.store.DocumentStore;
import dev.ragkit.store.ProviderSettings;
import dev.ragkit.store.StoreProvider;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Set;

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
 *   <li>{@code beam-width}: candidates considered when inserting into the graph (default 100);</li>
 *   <li>{@code merge-threads}: threads that build a merged segment's graph together (default 1).</li>
 * </ul>
 */
public final class LuceneStoreProvider implements StoreProvider {
    /** The provider id. */
    public static final String ID = "lucene";
    private static final Set<String> KEYS = Set.of("directory", "dimension", "embedder", "language", "commit",
            "lock-wait-seconds", "read-only", "max-k", "search-candidates",
            "vectors", "max-conn", "beam-width", "merge-threads");

    /** For {@link java.util.ServiceLoader}. */
    public LuceneStoreProvider() {
    }

    @Override
    public String id() {
        return ID;
    }

    @Override
    public DocumentStore create(Map<String, String> config) {
        ProviderSettings settings = new ProviderSettings("lucene store", config, KEYS);
        String directory = config.get("directory");
        if (directory == null || directory.isBlank()) {
            throw new IllegalArgumentException("the lucene store needs the setting directory=<index folder>,"
                    + " e.g. directory=.ragkit/index");
        }
        LuceneDocumentStore.Builder b = LuceneDocumentStore.builder().directory(Path.of(directory.strip()));
        settings.apply("dimension", v -> b.dimension(settings.integer("dimension", v)));
        settings.apply("embedder", b::embedder);
        settings.apply("language", b::language);
        settings.apply("max-k", v -> b.maxK(settings.integer("max-k", v)));
        settings.apply("search-candidates", v -> b.searchCandidates(settings.integer("search-candidates", v)));
        settings.apply("vectors", v -> b.vectorEncoding(VectorEncoding.parse(v)));
        settings.apply("max-conn", v -> b.maxConn(settings.integer("max-conn", v)));
        settings.apply("beam-width", v -> b.beamWidth(settings.integer("beam-width", v)));
        settings.apply("merge-threads", v -> b.mergeThreads(settings.integer("merge-threads", v)));
        settings.apply("lock-wait-seconds",
                v -> b.lockWait(Duration.ofSeconds(settings.integer("lock-wait-seconds", v))));
        settings.apply("read-only", v -> b.readOnly(settings.bool("read-only", v)));
        settings.apply("commit", v -> b.commitMode(settings.option("commit", v, LuceneDocumentStore.CommitMode.class)));
        return b.build();
    }
}
