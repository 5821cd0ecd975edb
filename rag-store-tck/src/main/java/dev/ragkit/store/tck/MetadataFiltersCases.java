package dev.ragkit.store.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import dev.ragkit.store.MetadataFilter;
import dev.ragkit.store.Scope;
import dev.ragkit.store.SearchHit;
import dev.ragkit.store.SearchRequest;
import dev.ragkit.store.StoredDocument;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * {@link SearchRequest#metadataFilter()}: every filter kind, applied before the top-{@code k} cut, never widening
 * the scope, and documents without the key. Skipped for stores that declare no metadata filters, which must
 * reject a filtered request instead of ignoring it.
 */
abstract class MetadataFiltersCases extends ContractFixtures {

    /** Tenant A's documents with metadata (the ones the filters reject lie closest to the query), and intruders. */
    record MetadataCorpus(StoredDocument y2023, StoredDocument y2024x, StoredDocument y2024y, StoredDocument y2025z,
                          StoredDocument none, StoredDocument hrX, StoredDocument otherTenantX) {
    }

    private static Map<String, String> meta(String... keyValues) {
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < keyValues.length; i += 2) {
            m.put(keyValues[i], keyValues[i + 1]);
        }
        return m;
    }

    MetadataCorpus putMetadataCorpus() {
        StoredDocument y2023 = document(TENANT_A, "meta/2023.md")
                .metadata(meta("year", "2023", "product", "x", "published", "2023-06-01")).build();
        StoredDocument y2024x = document(TENANT_A, "meta/2024x.md")
                .metadata(meta("year", "2024", "product", "x", "published", "2024-03-15", "rating", "4.50")).build();
        StoredDocument y2024y = document(TENANT_A, "meta/2024y.md")
                .metadata(meta("year", "2024.0", "product", "y", "published", "2024-11-30T12:00:00Z")).build();
        StoredDocument y2025z = document(TENANT_A, "meta/2025z.md")
                .metadata(meta("year", "2025", "product", "z", "published", "2025-01-10T09:30:00+01:00")).build();
        StoredDocument none = document(TENANT_A, "meta/none.md").build();
        StoredDocument hrX = document(TENANT_A, "meta/hr.md").accessTags("hr")
                .metadata(meta("year", "2024", "product", "x", "published", "2024-03-15")).build();
        StoredDocument otherX = document(TENANT_B, "meta/2024x.md")
                .metadata(meta("year", "2024", "product", "x", "published", "2024-03-15")).build();
        put(none, "meta", descendingCosines(0.99, 0.01, 3));      // 0.99 … 0.97
        put(hrX, "meta", descendingCosines(0.96, 0.01, 3));       // 0.96 … 0.94
        put(otherX, "meta", descendingCosines(0.995, 0.01, 3));
        put(y2023, "meta", descendingCosines(0.90, 0.01, 3));     // 0.90 … 0.88
        put(y2024y, "meta", descendingCosines(0.80, 0.01, 3));    // 0.80 … 0.78
        put(y2024x, "meta", descendingCosines(0.70, 0.01, 3));    // 0.70 … 0.68
        put(y2025z, "meta", descendingCosines(0.40, 0.01, 4));    // 0.40 … 0.37
        return new MetadataCorpus(y2023, y2024x, y2024y, y2025z, none, hrX, otherX);
    }

    private List<SearchHit> search(Scope scope, String filter, int k) {
        return store().search(SearchRequest.builder(scope).vector(axis(0)).k(k).metadataFilter(filter).build());
    }

    private static Set<String> hitPaths(List<SearchHit> hits) {
        return hits.stream().map(h -> h.document().tenant() + "|" + h.document().path())
                .collect(Collectors.toCollection(TreeSet::new));
    }

    private static Set<String> pathsOf(StoredDocument... documents) {
        Set<String> out = new TreeSet<>();
        for (StoredDocument d : documents) {
            out.add(d.tenant() + "|" + d.path());
        }
        return out;
    }

    @Test
    void search_equalsFilter_returnsOnlyMatchingDocumentsOfTheScope() {
        assumeMetadataFilters();
        MetadataCorpus c = putMetadataCorpus();

        List<SearchHit> hits = search(Scope.of(TENANT_A), "product = x", 20);

        assertThat(hitPaths(hits)).isEqualTo(pathsOf(c.y2023(), c.y2024x()));
        assertThat(hits).hasSize(6);
    }

    @Test
    void search_inFilter_returnsDocumentsWithAnyListedValue() {
        assumeMetadataFilters();
        MetadataCorpus c = putMetadataCorpus();

        assertThat(hitPaths(search(Scope.of(TENANT_A), "product in (y, z, w)", 20)))
                .isEqualTo(pathsOf(c.y2024y(), c.y2025z()));
    }

    @Test
    void search_numberRange_comparesNumbersNotText() {
        assumeMetadataFilters();
        MetadataCorpus c = putMetadataCorpus();

        assertThat(hitPaths(search(Scope.of(TENANT_A), "year >= 2024 and year < 2025", 20)))
                .as("'2024.0' is the number 2024").isEqualTo(pathsOf(c.y2024x(), c.y2024y()));
        assertThat(hitPaths(search(Scope.of(TENANT_A), "year > 2024", 20))).isEqualTo(pathsOf(c.y2025z()));
        assertThat(hitPaths(search(Scope.of(TENANT_A), "year <= 2023.5", 20))).isEqualTo(pathsOf(c.y2023()));
        assertThat(hitPaths(search(Scope.of(TENANT_A), "rating >= 4.5 and rating <= 4.5", 20)))
                .as("'4.50' is 4.5").isEqualTo(pathsOf(c.y2024x()));
        assertThat(search(Scope.of(TENANT_A), "product >= 0", 20)).as("text values are not numbers").isEmpty();
    }

    @Test
    void search_dateRange_comparesDatesAndDateTimesAsInstants() {
        assumeMetadataFilters();
        MetadataCorpus c = putMetadataCorpus();

        assertThat(hitPaths(search(Scope.of(TENANT_A), "published >= 2024-01-01 and published < 2025-01-01", 20)))
                .isEqualTo(pathsOf(c.y2024x(), c.y2024y()));
        assertThat(hitPaths(search(Scope.of(TENANT_A), "published > 2024-11-30T11:59:59Z", 20)))
                .isEqualTo(pathsOf(c.y2024y(), c.y2025z()));
        // 2025-01-10T09:30:00+01:00 is 08:30 UTC
        assertThat(hitPaths(search(Scope.of(TENANT_A), "published <= 2025-01-10T08:30:00Z and published > 2024-12-01", 20)))
                .isEqualTo(pathsOf(c.y2025z()));
        assertThat(hitPaths(search(Scope.of(TENANT_A), "published < 2025-01-10T08:30:00Z and published > 2024-12-01", 20)))
                .isEmpty();
    }

    @Test
    void search_andOrNot_combineAsBooleanLogic() {
        assumeMetadataFilters();
        MetadataCorpus c = putMetadataCorpus();

        assertThat(hitPaths(search(Scope.of(TENANT_A), "(product = x or product = z) and not year = 2023", 20)))
                .isEqualTo(pathsOf(c.y2024x(), c.y2025z()));
        assertThat(hitPaths(search(Scope.of(TENANT_A), "product = y or year >= 2025", 20)))
                .isEqualTo(pathsOf(c.y2024y(), c.y2025z()));
        assertThat(hitPaths(search(Scope.of(TENANT_A), "product not in (x, y)", 20)))
                .as("not matches documents without the key").isEqualTo(pathsOf(c.y2025z(), c.none()));
    }

    @Test
    void search_documentsWithoutTheKey_matchNoLeafFilterButMatchItsNegation() {
        assumeMetadataFilters();
        MetadataCorpus c = putMetadataCorpus();

        assertThat(hitPaths(search(Scope.of(TENANT_A), "year >= 0", 20)))
                .isEqualTo(pathsOf(c.y2023(), c.y2024x(), c.y2024y(), c.y2025z()));
        assertThat(hitPaths(search(Scope.of(TENANT_A), "not year >= 0", 20))).isEqualTo(pathsOf(c.none()));
        assertThat(hitPaths(search(Scope.of(TENANT_A), "year != 2023", 20)))
                .isEqualTo(pathsOf(c.y2024x(), c.y2024y(), c.y2025z(), c.none()));
    }

    @Test
    void search_filterWithManyCloserNonMatchingChunks_returnsExactlyKMatching() {
        assumeMetadataFilters();
        MetadataCorpus c = putMetadataCorpus();

        List<SearchHit> hits = search(Scope.of(TENANT_A), "product = z", 3);

        assertThat(sourceIds(hits)).containsExactlyElementsOf(sourceIds(c.y2025z(), 0, 1, 2));
    }

    @Test
    void searchText_filterWithManyBetterNonMatchingChunks_returnsExactlyKMatching() {
        assumeMetadataFilters();
        assumeKeywordSearch();
        StoredDocument loud = document(TENANT_A, "text/loud.md").metadata(meta("lang", "en")).build();
        StoredDocument quiet = document(TENANT_A, "text/quiet.md").metadata(meta("lang", "de")).build();
        put(loud, "zephyr zephyr zephyr", descendingCosines(0.9, 0.01, 10));
        put(quiet, "zephyr among several other longer words here", descendingCosines(0.5, 0.01, 4));

        List<SearchHit> hits = store().search(SearchRequest.builder(Scope.of(TENANT_A)).text("zephyr").k(3)
                .metadataFilter("lang = de").build());

        assertThat(hits).hasSize(3).allSatisfy(hit -> {
            assertThat(hit.document()).isEqualTo(quiet);
            assertThat(hit.keywordScore()).isPositive();
        });
    }

    @Test
    void search_filterMatchingOtherTenantsAndHiddenDocuments_neverWidensTheScope() {
        assumeMetadataFilters();
        MetadataCorpus c = putMetadataCorpus();

        assertThat(hitPaths(search(Scope.of(TENANT_A), "product = x and year = 2024", 20)))
                .isEqualTo(pathsOf(c.y2024x()));
        assertThat(hitPaths(search(Scope.of(TENANT_A, "hr"), "product = x and year = 2024", 20)))
                .isEqualTo(pathsOf(c.y2024x(), c.hrX()));
        assertThat(hitPaths(search(Scope.unrestricted(TENANT_B), "product = x", 20))).isEqualTo(pathsOf(c.otherTenantX()));
        assertThat(search(Scope.unrestricted(TENANT_EMPTY), "product = x or not product = x", 20)).isEmpty();
        assertThat(hitPaths(search(Scope.of(TENANT_A), "product = x or not product = x", 20)))
                .as("a filter matching everything returns what the scope sees")
                .isEqualTo(hitPaths(searchVector(Scope.of(TENANT_A), axis(0), 20)));
    }

    @Test
    void searchHybrid_filter_appliesToVectorAndKeywordHits() {
        assumeMetadataFilters();
        assumeKeywordSearch();
        MetadataCorpus c = putMetadataCorpus();

        List<SearchHit> hits = store().search(SearchRequest.builder(Scope.of(TENANT_A)).vector(axis(0)).text("meta")
                .k(4).metadataFilter("year >= 2024").build());

        assertThat(hits).isNotEmpty();
        assertThat(hitPaths(hits)).isSubsetOf(pathsOf(c.y2024x(), c.y2024y(), c.y2025z()));
    }

    @Test
    void search_storeWithoutMetadataFilters_rejectsFilteredRequestInsteadOfIgnoringIt() {
        assumeFalse(store().capabilities().metadataFilters(), "the store declares metadata filters");
        put(document(TENANT_A, "plain.md").metadata(meta("year", "2020")).build(), "x", vectorAtCosine(0.9));
        SearchRequest request = SearchRequest.builder(Scope.of(TENANT_A)).vector(axis(0)).k(5)
                .metadataFilter(MetadataFilter.atLeast("year", 2024)).build();

        assertThatThrownBy(() -> store().search(request))
                .isInstanceOfAny(IllegalArgumentException.class, UnsupportedOperationException.class)
                .satisfies(e -> assertMessageMentions(e, "filter"));
    }
}
