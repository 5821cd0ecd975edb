package dev.ragkit.store.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.ragkit.store.Scope;
import dev.ragkit.store.SearchHit;
import dev.ragkit.store.SearchRequest;
import dev.ragkit.store.StoredDocument;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** Ranking, tie-breaking, determinism and the similarity scale. */
abstract class OrderingCases extends ContractFixtures {

    @Test
    void search_distinctSimilarities_orderedBySimilarityDescending() {
        List<StoredDocument> docs = new ArrayList<>();
        Map<String, Double> expected = new LinkedHashMap<>();
        List<Integer> slots = IntStream.range(0, 30).boxed().collect(Collectors.toList());
        Collections.shuffle(slots, new Random(42));
        for (int d = 0; d < 3; d++) {
            StoredDocument doc = document(TENANT_A, "rank/doc" + d + ".md").build();
            float[][] vectors = new float[10][];
            for (int i = 0; i < 10; i++) {
                double cos = 0.95 - 0.03 * slots.get(d * 10 + i);
                vectors[i] = vectorAtCosine(cos, 1 + d + i);
                expected.put(doc.id() + ":" + i, cos);
            }
            docs.add(put(doc, "x", vectors));
        }
        List<String> expectedOrder = expected.entrySet().stream()
                .sorted(Map.Entry.<String, Double>comparingByValue().reversed())
                .map(Map.Entry::getKey).collect(Collectors.toList());

        List<SearchHit> hits = searchVector(Scope.of(TENANT_A), axis(0), requireMaxK(30));

        assertThat(sourceIds(hits)).containsExactlyElementsOf(expectedOrder);
        assertRanked(hits, SearchHit::similarity, "similarity");
        assertThat(hits).allSatisfy(hit ->
                assertThat(hit.similarity()).isCloseTo(expected.get(hit.sourceId()), within(EPSILON)));
    }

    @Test
    void search_exactTies_brokenByDocumentIdThenChunkIndex() {
        float[] high = vectorAtCosine(0.8);
        float[] low = vectorAtCosine(0.4);
        for (String id : List.of("doc-c", "doc-a", "doc-b")) {
            put(document(TENANT_A, "tie/" + id + ".md").id(id).build(), "tie", high, low, high, low);
        }

        List<SearchHit> hits = searchVector(Scope.of(TENANT_A), axis(0), requireMaxK(12));

        assertThat(sourceIds(hits)).containsExactly(
                "doc-a:0", "doc-a:2", "doc-b:0", "doc-b:2", "doc-c:0", "doc-c:2",
                "doc-a:1", "doc-a:3", "doc-b:1", "doc-b:3", "doc-c:1", "doc-c:3");
        assertRanked(hits, SearchHit::similarity, "similarity");
    }

    @Test
    void search_sameRequestTwice_returnsIdenticalResults() {
        Random random = new Random(5);
        float[] shared = randomVector(random);
        for (int d = 0; d < 4; d++) {
            float[][] vectors = new float[6][];
            for (int i = 0; i < vectors.length; i++) {
                vectors[i] = i % 3 == 0 ? shared : randomVector(random);
            }
            put(document(TENANT_A, "same/doc" + d + ".md").build(), "same", vectors);
        }
        SearchRequest request = SearchRequest.builder(Scope.of(TENANT_A)).vector(randomVector(random))
                .k(requireMaxK(15)).build();

        List<SearchHit> first = store().search(request);
        List<SearchHit> second = store().search(request);

        assertThat(first).hasSize(15);
        assertThat(second).isEqualTo(first);
    }

    @Test
    void search_oppositeVector_similarityClampedToZero() {
        put(document(TENANT_A, "opposite.md").build(), "x", vectorAtCosine(-1));

        assertThat(searchVector(Scope.of(TENANT_A), axis(0), 1)).singleElement()
                .extracting(SearchHit::similarity).isEqualTo(0.0);
    }

    @Test
    void search_obtuseAngle_similarityClampedToZero() {
        put(document(TENANT_A, "obtuse.md").build(), "x", vectorAtCosine(-0.5));

        assertThat(searchVector(Scope.of(TENANT_A), axis(0), 1)).singleElement()
                .extracting(SearchHit::similarity).isEqualTo(0.0);
    }

    @Test
    void search_sameDirection_similarityIsOne() {
        Random random = new Random(3);
        float[] query = randomVector(random);
        put(document(TENANT_A, "same.md").build(), "x", query.clone());

        assertThat(searchVector(Scope.of(TENANT_A), query, 1)).singleElement()
                .satisfies(hit -> assertThat(hit.similarity()).isCloseTo(1.0, within(EPSILON)));
    }

    @Test
    void search_scaledCopyOfQuery_similarityIsOne() {
        Random random = new Random(4);
        float[] query = randomVector(random);
        float[] scaled = query.clone();
        for (int i = 0; i < scaled.length; i++) {
            scaled[i] *= 3f;
        }
        put(document(TENANT_A, "scaled.md").build(), "x", scaled);

        assertThat(searchVector(Scope.of(TENANT_A), query, 1)).singleElement()
                .satisfies(hit -> assertThat(hit.similarity()).isCloseTo(1.0, within(EPSILON)));
    }

    @Test
    void search_knownAngles_similarityEqualsRawCosine() {
        Random random = new Random(9);
        float[] query = randomVector(random);
        float[] first = randomVector(random);
        float[] second = randomVector(random);
        float[] near = vectorAtCosine(0.6);
        StoredDocument doc = put(document(TENANT_A, "angles.md").build(), "x", first, second, near);
        Map<String, Double> expected = Map.of(
                doc.id() + ":0", Math.max(0, cosine(query, first)),
                doc.id() + ":1", Math.max(0, cosine(query, second)),
                doc.id() + ":2", Math.max(0, cosine(query, near)));

        List<SearchHit> hits = searchVector(Scope.of(TENANT_A), query, 3);

        assertThat(hits).hasSize(3).allSatisfy(hit ->
                assertThat(hit.similarity()).isCloseTo(expected.get(hit.sourceId()), within(EPSILON)));
        assertThat(searchVector(Scope.of(TENANT_A), axis(0), 3)).filteredOn(hit -> hit.chunk().index() == 2)
                .singleElement().satisfies(hit -> assertThat(hit.similarity()).isCloseTo(0.6, within(EPSILON)));
    }
}
