package dev.ragkit.store.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectNestedClass;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectNestedMethod;

import dev.ragkit.store.DocumentStore;
import dev.ragkit.store.PromotionLevel;
import dev.ragkit.store.Scope;
import dev.ragkit.store.SearchHit;
import dev.ragkit.store.SearchRequest;
import dev.ragkit.store.StoredChunk;
import dev.ragkit.store.StoredDocument;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.platform.engine.DiscoverySelector;
import org.junit.platform.engine.TestDescriptor;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.support.descriptor.MethodSource;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;

/**
 * The suite can fail: each test runs part of {@link DocumentStoreContract} (through JUnit's engine test kit)
 * against a copy of {@link ReferenceDocumentStore} with one realistic bug, and checks that the contract tests
 * aimed at that bug fail with an assertion error, while the same tests pass on the reference store.
 *
 * <p>The {@code *Contract} classes below are not run by themselves: Surefire skips nested classes, and JUnit
 * runs only {@code @Nested} inner classes of a selected class.
 */
final class BrokenStoreTest {

    private static final String ISOLATION_TEST =
            "readPath_otherTenantHoldsSameIdsAndCloserVectors_returnsOnlyOwnTenantData";

    @Test
    void tenantIsolation_storeIgnoringTenant_failsOnEveryReadPath() {
        Map<String, Throwable> failed = failures(selectNestedClass(List.of(TenantLeakingContract.class),
                DocumentStoreContract.TenantIsolation.class));

        assertThat(failed).containsKeys(
                ISOLATION_TEST + "[SEARCH_VECTOR]", ISOLATION_TEST + "[SEARCH_TEXT]", ISOLATION_TEST + "[SEARCH_HYBRID]",
                ISOLATION_TEST + "[DOCUMENT]", ISOLATION_TEST + "[FIND_BY_PATHS]", ISOLATION_TEST + "[FIND_BY_PROMOTION]",
                ISOLATION_TEST + "[DOCUMENTS]", ISOLATION_TEST + "[CHUNKS]",
                "readPaths_concurrentWritesToOtherTenant_neverReturnOtherTenantData",
                "delete_idOfOtherTenantsDocument_returnsFalseAndDeletesNothing");
        assertThat(failed.values()).allSatisfy(t -> assertThat(t).isInstanceOf(AssertionError.class));
        assertThat(failures(selectNestedClass(List.of(ReferenceDocumentStoreTest.class),
                DocumentStoreContract.TenantIsolation.class))).isEmpty();
    }

    @Test
    void filters_storeFilteringAfterTopK_failsTheBeforeTopKTests() {
        Map<String, Throwable> failed = failures(selectNestedClass(List.of(FilterAfterTopKContract.class),
                DocumentStoreContract.Filters.class));

        assertThat(failed).containsKeys(
                "search_docTypeFilterWithManyCloserNonMatchingChunks_returnsExactlyKMatching",
                "search_minPromotionWithManyCloserStandardChunks_returnsExactlyKQualifying",
                "search_docTypeAndMinPromotion_appliesBoth",
                "searchText_docTypeFilterWithManyBetterNonMatchingChunks_returnsExactlyKMatching",
                "searchText_minPromotionWithManyBetterStandardChunks_returnsExactlyKQualifying");
        assertThat(failed.values()).allSatisfy(t -> assertThat(t).isInstanceOf(AssertionError.class));
        assertThat(failures(selectNestedClass(List.of(ReferenceDocumentStoreTest.class),
                DocumentStoreContract.Filters.class))).isEmpty();
    }

    @Test
    void metadataFilters_storeFilteringAfterTopK_failsTheBeforeTopKTests() {
        Map<String, Throwable> failed = failures(selectNestedClass(List.of(FilterAfterTopKContract.class),
                DocumentStoreContract.MetadataFilters.class));

        assertThat(failed).containsOnlyKeys(
                "search_filterWithManyCloserNonMatchingChunks_returnsExactlyKMatching",
                "searchText_filterWithManyBetterNonMatchingChunks_returnsExactlyKMatching");
        assertThat(failed.values()).allSatisfy(t -> assertThat(t).isInstanceOf(AssertionError.class));
        assertThat(failures(selectNestedClass(List.of(ReferenceDocumentStoreTest.class),
                DocumentStoreContract.MetadataFilters.class))).isEmpty();
    }

    @Test
    void metadataFilters_storeLettingTheFilterReplaceAccessTags_failsTheScopeTest() {
        Map<String, Throwable> failed = failures(selectNestedClass(List.of(FilterWideningContract.class),
                DocumentStoreContract.MetadataFilters.class));

        assertThat(failed).containsKey("search_filterMatchingOtherTenantsAndHiddenDocuments_neverWidensTheScope");
        assertThat(failed.values()).allSatisfy(t -> assertThat(t).isInstanceOf(AssertionError.class));
    }

    @Test
    void metadataFilters_storeIgnoringTheFilter_failsEveryFilterKind() {
        Map<String, Throwable> failed = failures(selectNestedClass(List.of(FilterIgnoringContract.class),
                DocumentStoreContract.MetadataFilters.class));

        assertThat(failed).containsKeys("search_equalsFilter_returnsOnlyMatchingDocumentsOfTheScope",
                "search_inFilter_returnsDocumentsWithAnyListedValue", "search_numberRange_comparesNumbersNotText",
                "search_dateRange_comparesDatesAndDateTimesAsInstants", "search_andOrNot_combineAsBooleanLogic",
                "search_documentsWithoutTheKey_matchNoLeafFilterButMatchItsNegation");
    }

    @Test
    void upsert_storeWritingInTwoSteps_failsTheAtomicityTest() {
        String atomicity = "upsert_concurrentReplacementsOfOneDocument_readersSeeOneWholeVersion";

        Map<String, Throwable> failed = failures(selectNestedMethod(List.of(TwoStepUpsertContract.class),
                DocumentStoreContract.Upsert.class, atomicity));

        assertThat(failed).containsOnlyKeys(atomicity);
        assertThat(failed.get(atomicity)).isInstanceOf(AssertionError.class).hasMessageContaining("mix");
        assertThat(failures(selectNestedMethod(List.of(ReferenceDocumentStoreTest.class),
                DocumentStoreContract.Upsert.class, atomicity))).isEmpty();
    }

    @Test
    void ordering_storeRescalingCosineToUnitRange_failsTheClampAndCosineTests() {
        Map<String, Throwable> failed = failures(selectNestedClass(List.of(RescaledSimilarityContract.class),
                DocumentStoreContract.Ordering.class));

        assertThat(failed).containsOnlyKeys(
                "search_distinctSimilarities_orderedBySimilarityDescending",
                "search_obtuseAngle_similarityClampedToZero",
                "search_knownAngles_similarityEqualsRawCosine");
        assertThat(failed.values()).allSatisfy(t -> assertThat(t).isInstanceOf(AssertionError.class));
        // (1 + cos) / 2 maps an exact negation to 0 as well, so search_oppositeVector_similarityClampedToZero
        // only catches stores that do not clamp at all.
    }

    /**
     * Runs the selected contract tests and returns the failed ones by method name, with {@code [display name]}
     * appended for parameterized invocations.
     */
    private static Map<String, Throwable> failures(DiscoverySelector selector) {
        EngineExecutionResults results = EngineTestKit.engine("junit-jupiter").selectors(selector).execute();
        assertThat(results.testEvents().started().count()).as("contract tests run").isPositive();
        assertThat(results.containerEvents().failed().count()).as("failed containers").isZero();
        return results.testEvents().failed().stream()
                .collect(Collectors.toMap(BrokenStoreTest::testName, BrokenStoreTest::throwable,
                        (a, b) -> a, TreeMap::new));
    }

    private static String testName(Event event) {
        TestDescriptor descriptor = event.getTestDescriptor();
        String method = descriptor.getSource().filter(MethodSource.class::isInstance).map(MethodSource.class::cast)
                .map(MethodSource::getMethodName).orElse(descriptor.getDisplayName());
        String display = descriptor.getDisplayName();
        return display.startsWith(method) ? method : method + "[" + display + "]";
    }

    private static Throwable throwable(Event event) {
        return event.getPayload(TestExecutionResult.class).flatMap(TestExecutionResult::getThrowable)
                .orElseGet(() -> new IllegalStateException("no throwable for " + event));
    }

    // --- broken stores ---------------------------------------------------------------------------------------

    /** Forgets the tenant check: a scope sees matching documents of every tenant. */
    static final class TenantLeakingStore extends ReferenceDocumentStore {
        @Override
        protected boolean visible(Scope scope, StoredDocument document) {
            return scope.canSee(scope.tenant(), document.accessTags());
        }
    }

    /** Takes the top k first and filters afterwards, so filtered searches come back short. */
    static final class FilterAfterTopKStore extends ReferenceDocumentStore {
        @Override
        public List<SearchHit> search(SearchRequest request) {
            SearchRequest unfiltered = new SearchRequest(request.scope(), request.queryVector(), request.queryText(),
                    request.k(), new TreeSet<>(), PromotionLevel.STANDARD);
            return super.search(unfiltered).stream()
                    .filter(hit -> request.accepts(hit.document()))
                    .collect(Collectors.toList());
        }
    }

    /** Applies the metadata filter in place of the access tags: a filter opens the whole tenant. */
    static final class FilterWideningStore extends ReferenceDocumentStore {
        @Override
        public List<SearchHit> search(SearchRequest request) {
            if (request.metadataFilter() == null) {
                return super.search(request);
            }
            return super.search(new SearchRequest(Scope.unrestricted(request.scope().tenant()), request.queryVector(),
                    request.queryText(), request.k(), request.docTypes(), request.minPromotion(),
                    request.metadataFilter()));
        }
    }

    /** Declares metadata filters and ignores them. */
    static final class FilterIgnoringStore extends ReferenceDocumentStore {
        @Override
        public List<SearchHit> search(SearchRequest request) {
            return super.search(request.withMetadataFilter(null));
        }
    }

    /** Writes a document's first chunk, then (a moment later) all of them: readers can see a half-written version. */
    static final class TwoStepUpsertStore extends ReferenceDocumentStore {
        @Override
        public void upsert(StoredDocument document, List<StoredChunk> chunks) {
            if (chunks.size() > 1) {
                super.upsert(document, chunks.subList(0, 1));
                LockSupport.parkNanos(200_000);
            }
            super.upsert(document, chunks);
        }
    }

    /** Maps the cosine from [−1, 1] onto [0, 1] instead of clamping it. */
    static final class RescaledSimilarityStore extends ReferenceDocumentStore {
        @Override
        protected double similarity(float[] query, float[] embedding) {
            return (1 + DocumentStoreContract.cosine(query, embedding)) / 2;
        }
    }

    static final class TenantLeakingContract extends DocumentStoreContract {
        @Override
        protected DocumentStore createStore() {
            return new TenantLeakingStore();
        }
    }

    static final class FilterAfterTopKContract extends DocumentStoreContract {
        @Override
        protected DocumentStore createStore() {
            return new FilterAfterTopKStore();
        }
    }

    static final class FilterWideningContract extends DocumentStoreContract {
        @Override
        protected DocumentStore createStore() {
            return new FilterWideningStore();
        }
    }

    static final class FilterIgnoringContract extends DocumentStoreContract {
        @Override
        protected DocumentStore createStore() {
            return new FilterIgnoringStore();
        }
    }

    static final class TwoStepUpsertContract extends DocumentStoreContract {
        @Override
        protected DocumentStore createStore() {
            return new TwoStepUpsertStore();
        }

        @Override
        protected int concurrencyIterations() {
            return 500;
        }
    }

    static final class RescaledSimilarityContract extends DocumentStoreContract {
        @Override
        protected DocumentStore createStore() {
            return new RescaledSimilarityStore();
        }
    }
}
