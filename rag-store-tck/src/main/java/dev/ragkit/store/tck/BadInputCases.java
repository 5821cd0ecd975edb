package dev.ragkit.store.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ragkit.store.DocumentStore;
import dev.ragkit.store.PromotionLevel;
import dev.ragkit.store.Scope;
import dev.ragkit.store.SearchRequest;
import dev.ragkit.store.StoreException;
import dev.ragkit.store.StoredChunk;
import dev.ragkit.store.StoredDocument;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Every bad call is rejected with a clear exception and changes nothing. */
abstract class BadInputCases extends ContractFixtures {
    /** Bad chunk lists, each of which {@link DocumentStore#upsert} must reject. */
    enum BadChunks {
        TOO_MANY_DIMENSIONS("dimension"), TOO_FEW_DIMENSIONS("dimension"),
        FOREIGN_DOCUMENT_ID("document", "stranger-7"), INDEX_GAP("index", "indices"),
        DUPLICATE_INDEX("index", "indices"), INDEXES_OUT_OF_ORDER("index", "indices"),
        FIRST_INDEX_NOT_ZERO("index", "indices"), MISSING_EMBEDDING("embedding", "vector");

        final String[] messageMentions;

        BadChunks(String... messageMentions) {
            this.messageMentions = messageMentions;
    }
    }

    /** Calls with one {@code null} argument each. */
    enum NullCall {
        UPSERT_DOCUMENT, UPSERT_CHUNKS, UPSERT_CHUNK_ELEMENT, DELETE_SCOPE, DELETE_ID, SEARCH_REQUEST,
        DOCUMENT_SCOPE, DOCUMENT_ID, FIND_BY_PATHS_SCOPE, FIND_BY_PATHS_PATHS, FIND_BY_PROMOTION_SCOPE,
        FIND_BY_PROMOTION_LEVEL, FIND_BY_PROMOTION_DOC_TYPES, DOCUMENTS_SCOPE, CHUNKS_SCOPE, CHUNKS_ID
    }

    /** Non-finite and zero query vectors. */
    enum UnusableVector { NAN, POSITIVE_INFINITY, NEGATIVE_INFINITY, ALL_ZEROS }


    private StoredDocument existing = document(TENANT_A, "placeholder.md").build();
    private List<StoredChunk> existingChunks = List.of();

    @BeforeEach
    void putExistingData() {
        existing = document(TENANT_A, "existing.md").docType("guide").build();
        existingChunks = chunksOf(existing, "old version", vectorAtCosine(0.9), vectorAtCosine(0.8));
        store().upsert(existing, existingChunks);
        put(document(TENANT_B, "other-tenant.md").build(), "b", vectorAtCosine(0.7));
    }

    private List<StoredChunk> badChunks(BadChunks kind, StoredDocument doc) {
        float[] v = vectorAtCosine(0.5);
        String text = "new version";
        StoredChunk first = chunk(doc, 0, text, v);
        StoredChunk second = chunk(doc, 1, text, v);
        switch (kind) {
            case TOO_MANY_DIMENSIONS: {
                float[] longer = new float[dimension() + 1];
                Arrays.fill(longer, 1f);
                return List.of(first, second, chunk(doc, 2, text, longer));
            }
            case TOO_FEW_DIMENSIONS: {
                float[] shorter = new float[dimension() - 1];
                Arrays.fill(shorter, 1f);
                return List.of(first, second, chunk(doc, 2, text, shorter));
            }
            case FOREIGN_DOCUMENT_ID:
                return List.of(first, second, new StoredChunk("stranger-7", 2, text, v, 2, 1, 1, null, null));
            case INDEX_GAP:
                return List.of(first, second, chunk(doc, 3, text, v));
            case DUPLICATE_INDEX:
                return List.of(first, second, chunk(doc, 1, text, v));
            case INDEXES_OUT_OF_ORDER:
                return List.of(first, chunk(doc, 2, text, v), second);
            case FIRST_INDEX_NOT_ZERO:
                return List.of(second, chunk(doc, 2, text, v), chunk(doc, 3, text, v));
            case MISSING_EMBEDDING:
                return List.of(first, second, chunk(doc, 2, text, null));
            default:
                throw new IllegalStateException("unknown kind " + kind);
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(BadChunks.class)
    void upsert_badChunksForNewDocument_throwsIllegalArgumentAndStoresNothing(BadChunks kind) {
        StoredDocument fresh = document(TENANT_A, "fresh.md").build();
        List<StoredChunk> chunks = badChunks(kind, fresh);
        Map<String, Snapshot> before = snapshotAll();

        assertThatThrownBy(() -> store().upsert(fresh, chunks))
                .isInstanceOf(IllegalArgumentException.class)
                .satisfies(e -> assertMessageMentions(e, kind.messageMentions));

        assertThat(snapshotAll()).isEqualTo(before);
        assertThat(store().document(Scope.unrestricted(TENANT_A), fresh.id())).isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(BadChunks.class)
    void upsert_badChunksReplacingExistingDocument_throwsAndKeepsOldVersion(BadChunks kind) {
        StoredDocument newer = existing.toBuilder().title("New title").accessTags("hr").build();
        List<StoredChunk> chunks = badChunks(kind, newer);
        Map<String, Snapshot> before = snapshotAll();

        assertThatThrownBy(() -> store().upsert(newer, chunks))
                .isInstanceOf(IllegalArgumentException.class)
                .satisfies(e -> assertMessageMentions(e, kind.messageMentions));

        assertThat(snapshotAll()).isEqualTo(before);
        assertThat(store().document(Scope.of(TENANT_A), existing.id())).contains(existing);
        assertThat(store().chunks(Scope.of(TENANT_A), existing.id())).containsExactlyElementsOf(existingChunks);
    }

    @ParameterizedTest
    @ValueSource(ints = {-1, 1})
    void search_queryVectorOfWrongDimension_throwsIllegalArgumentNamingDimension(int delta) {
        float[] query = new float[dimension() + delta];
        Arrays.fill(query, 1f);
        SearchRequest request = SearchRequest.builder(Scope.of(TENANT_A)).vector(query).k(5).build();
        Map<String, Snapshot> before = snapshotAll();

        assertThatThrownBy(() -> store().search(request))
                .isInstanceOf(IllegalArgumentException.class)
                .satisfies(e -> assertMessageMentions(e, "dimension"));
        assertThat(snapshotAll()).isEqualTo(before);
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(UnusableVector.class)
    void searchRequest_unusableQueryVector_throwsIllegalArgumentException(UnusableVector kind) {
        float[] query = axis(0);
        switch (kind) {
            case NAN -> query[1] = Float.NaN;
            case POSITIVE_INFINITY -> query[1] = Float.POSITIVE_INFINITY;
            case NEGATIVE_INFINITY -> query[1] = Float.NEGATIVE_INFINITY;
            case ALL_ZEROS -> query[0] = 0f;
            default -> throw new IllegalStateException("unknown kind " + kind);
        }

        assertThatThrownBy(() -> SearchRequest.builder(Scope.of(TENANT_A)).vector(query).k(5).build())
                .isInstanceOf(IllegalArgumentException.class)
                .satisfies(e -> assertMessageMentions(e, kind == UnusableVector.ALL_ZEROS ? "zero" : "finite"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", " ", "  ", "\t\n"})
    void scope_blankTenant_throwsIllegalArgumentException(String tenant) {
        assertThatThrownBy(() -> Scope.of(tenant)).isInstanceOf(IllegalArgumentException.class)
                .satisfies(e -> assertMessageMentions(e, "tenant"));
        assertThatThrownBy(() -> Scope.unrestricted(tenant)).isInstanceOf(IllegalArgumentException.class);
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(NullCall.class)
    void anyMethod_nullArgument_throwsWithMessageAndChangesNothing(NullCall call) {
        Map<String, Snapshot> before = snapshotAll();
        DocumentStore s = store();
        Scope scope = Scope.unrestricted(TENANT_A);
        List<StoredChunk> newChunks = chunksOf(existing, "new", vectorAtCosine(0.1));
        String id = existing.id();

        assertThatThrownBy(() -> {
            switch (call) {
                case UPSERT_DOCUMENT -> s.upsert(null, newChunks);
                case UPSERT_CHUNKS -> s.upsert(existing, null);
                case UPSERT_CHUNK_ELEMENT -> s.upsert(existing, Arrays.asList(newChunks.get(0), null));
                case DELETE_SCOPE -> s.delete(null, id);
                case DELETE_ID -> s.delete(scope, null);
                case SEARCH_REQUEST -> s.search(null);
                case DOCUMENT_SCOPE -> s.document(null, id);
                case DOCUMENT_ID -> s.document(scope, null);
                case FIND_BY_PATHS_SCOPE -> s.findByPaths(null, List.of(existing.path()));
                case FIND_BY_PATHS_PATHS -> s.findByPaths(scope, null);
                case FIND_BY_PROMOTION_SCOPE -> s.findByPromotion(null, PromotionLevel.STANDARD, Set.of());
                case FIND_BY_PROMOTION_LEVEL -> s.findByPromotion(scope, null, Set.of());
                case FIND_BY_PROMOTION_DOC_TYPES -> s.findByPromotion(scope, PromotionLevel.STANDARD, null);
                case DOCUMENTS_SCOPE -> s.documents(null);
                case CHUNKS_SCOPE -> s.chunks(null, id);
                case CHUNKS_ID -> s.chunks(scope, null);
                default -> throw new IllegalStateException("unknown call " + call);
            }
        }).isInstanceOfAny(NullPointerException.class, IllegalArgumentException.class, StoreException.class)
                .satisfies(e -> assertThat(e.getMessage()).as("exception message").isNotBlank());

        assertThat(snapshotAll()).isEqualTo(before);
    }
}
