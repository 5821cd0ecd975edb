package dev.ragkit.store.tck;

import dev.ragkit.store.DocumentStore;
import dev.ragkit.store.Scope;
import dev.ragkit.store.SearchHit;
import dev.ragkit.store.SearchRequest;
import dev.ragkit.store.StoreCapabilities;
import dev.ragkit.store.StoredChunk;
import java.util.Optional;
import org.junit.jupiter.api.Nested;

/**
 * The contract every {@link DocumentStore} must meet, as a JUnit 5 suite.
 *
 * <p>Extend it in a test class of the store's module and implement {@link #createStore()}; see the
 * {@linkplain dev.ragkit.store.tck package documentation} for an example. The cases live in {@code @Nested} groups
 * (each in its own source file, all sharing this class's store factory); every test gets a fresh, empty store
 * and closes it afterwards (closing twice must be harmless, so a test may close it itself).
 *
 * <p>The suite checks what the javadoc of {@link DocumentStore}, {@link Scope}, {@link SearchRequest},
 * {@link SearchHit} and {@link StoredChunk} promises: tenant isolation on every read path (also while another
 * tenant is being written), access tags, filters (doc type, promotion, metadata) applied before the top-{@code k}
 * cut and never widening the scope, atomic replacing upserts, deletes, look-ups and their order, search ranking
 * and tie-breaking, similarity clamping, {@code k} bounds, keyword and hybrid search (when
 * {@linkplain StoreCapabilities#keywordSearch() declared}), rejection of bad input without any change to stored
 * data, the closed state, and, for stores that override {@link #reopenStore}, data (and an empty store) surviving
 * a reopen.
 *
 * <p>The data is deterministic (explicit vectors, seeded randomness); the concurrency tests use a bounded
 * number of iterations ({@link #concurrencyIterations()}) and real threads, and never sleep or measure time.
 * Tests ask for up to 10 results without further ado; tests that need more than a store's
 * {@link StoreCapabilities#maxK()} allows, keyword search or metadata filters the store does not declare are
 * skipped by assumption.
 *
 * <p>Subclasses may add their own tests and {@code @BeforeEach} methods. This class's own {@code @BeforeEach}
 * methods and {@code @TempDir} fields are set up before a nested case opens its store, so {@link #createStore()}
 * may use them.
 */
public abstract class DocumentStoreContract {

    /** The tenant most tests write to and read from. */
    protected static final String TENANT_A = "tenant-a";
    /** A second tenant, whose data must never show up in {@link #TENANT_A}'s reads. */
    protected static final String TENANT_B = "tenant-b";
    /** A tenant that never holds any document. */
    protected static final String TENANT_EMPTY = "tenant-c";

    /**
     * Creates the store under test.
     *
     * @return a new, empty store; the suite closes it after each test
     */
    protected abstract DocumentStore createStore();

    /**
     * The dimension of every vector the suite stores and queries with.
     *
     * @return at least 4; 8 unless overridden (e.g. by a store configured with a fixed dimension)
     */
    protected int dimension() {
        return 8;
    }

    /**
     * How many writes each writer thread of the concurrency tests performs.
     *
     * @return a positive number; 200 unless overridden
     */
    protected int concurrencyIterations() {
        return 200;
    }

    /**
     * Closes {@code store} and opens a new store over the same data, as an application restart would. Stores that
     * keep data on disk (or in a server) override it to run the {@link Persistence} cases; the default returns
     * empty without touching the store, and those cases are skipped.
     *
     * @param store the running test's store
     * @return the reopened store, or empty when this store test cannot reopen
     */
    protected Optional<DocumentStore> reopenStore(DocumentStore store) {
        return Optional.empty();
    }

    /**
     * The textbook cosine similarity in double precision, unclamped: the reference that store results are
     * compared with.
     *
     * @param a a vector
     * @param b a vector of the same length
     * @return {@code a·b / (|a| |b|)}
     */
    public static double cosine(float[] a, float[] b) {
        return ContractSupport.cosine(a, b);
    }

    /** {@link DocumentStore#capabilities()}. */
    @Nested
    public class Capabilities extends CapabilitiesCases {
        @Override
        DocumentStoreContract host() {
            return DocumentStoreContract.this;
        }
    }

    /** No read path ever returns another tenant's data; the same id in two tenants names two documents. */
    @Nested
    public class TenantIsolation extends TenantIsolationCases {
        @Override
        DocumentStoreContract host() {
            return DocumentStoreContract.this;
        }
    }

    /** Untagged documents are visible to the whole tenant; tagged ones only to scopes sharing a tag. */
    @Nested
    public class AccessTags extends AccessTagsCases {
        @Override
        DocumentStoreContract host() {
            return DocumentStoreContract.this;
        }
    }

    /** Doc-type and promotion filters apply before the top-k cut. */
    @Nested
    public class Filters extends FiltersCases {
        @Override
        DocumentStoreContract host() {
            return DocumentStoreContract.this;
        }
    }

    /** Metadata filters: equals, in, number and date ranges, and/or/not, before the top-k cut, never widening the scope. */
    @Nested
    public class MetadataFilters extends MetadataFiltersCases {
        @Override
        DocumentStoreContract host() {
            return DocumentStoreContract.this;
        }
    }

    /** {@link DocumentStore#upsert} stores and replaces whole documents. */
    @Nested
    public class Upsert extends UpsertCases {
        @Override
        DocumentStoreContract host() {
            return DocumentStoreContract.this;
        }
    }

    /** {@link DocumentStore#delete}. */
    @Nested
    public class Delete extends DeleteCases {
        @Override
        DocumentStoreContract host() {
            return DocumentStoreContract.this;
        }
    }

    /** {@link DocumentStore#document}, {@link DocumentStore#findByPaths}, {@link DocumentStore#findByPromotion}, {@link DocumentStore#documents}. */
    @Nested
    public class Lookups extends LookupsCases {
        @Override
        DocumentStoreContract host() {
            return DocumentStoreContract.this;
        }
    }

    /** {@link DocumentStore#chunks}. */
    @Nested
    public class Chunks extends ChunksCases {
        @Override
        DocumentStoreContract host() {
            return DocumentStoreContract.this;
        }
    }

    /** What a {@link SearchHit} carries. */
    @Nested
    public class SearchHits extends SearchHitsCases {
        @Override
        DocumentStoreContract host() {
            return DocumentStoreContract.this;
        }
    }

    /** Ranking, tie-breaking, determinism and the similarity scale. */
    @Nested
    public class Ordering extends OrderingCases {
        @Override
        DocumentStoreContract host() {
            return DocumentStoreContract.this;
        }
    }

    /** How many hits come back. */
    @Nested
    public class KBounds extends KBoundsCases {
        @Override
        DocumentStoreContract host() {
            return DocumentStoreContract.this;
        }
    }

    /** Keyword (BM25) and hybrid search, or their absence. */
    @Nested
    public class KeywordSearch extends KeywordSearchCases {
        @Override
        DocumentStoreContract host() {
            return DocumentStoreContract.this;
        }
    }

    /** Every bad call is rejected with a clear exception and changes nothing. */
    @Nested
    public class BadInput extends BadInputCases {
        @Override
        DocumentStoreContract host() {
            return DocumentStoreContract.this;
        }
    }

    /** {@link DocumentStore#close()}. */
    @Nested
    public class Lifecycle extends LifecycleCases {
        @Override
        DocumentStoreContract host() {
            return DocumentStoreContract.this;
        }
    }

    /** Data (and an empty store) survive closing and reopening, for stores that override {@link #reopenStore}. */
    @Nested
    public class Persistence extends PersistenceCases {
        @Override
        DocumentStoreContract host() {
            return DocumentStoreContract.this;
        }
    }
}
