package dev.ragkit.store.inmemory;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ragkit.store.PromotionLevel;
import dev.ragkit.store.Scope;
import dev.ragkit.store.SearchHit;
import dev.ragkit.store.SearchRequest;
import dev.ragkit.store.StoredChunk;
import dev.ragkit.store.StoredDocument;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.IntFunction;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;

/**
 * Every scan configuration (scalar or Vector API kernel, sequential or parallel) returns the exact filtered
 * top-k of the textbook definition, on random corpora with tenants, tags, types, promotions, replaced and
 * deleted documents.
 */
final class SearchEquivalenceTest {
    private static final String[] TENANTS = {"acme", "globex"};
    private static final List<List<String>> TAG_SETS = List.of(List.of(), List.of("hr"), List.of("eng"),
            List.of("hr", "eng"), List.of("legal"));
    private static final String[] TYPES = {null, "guide", "faq", "policy"};

    private static List<InMemoryDocumentStore> configurations() {
        List<InMemoryDocumentStore> stores = new ArrayList<>();
        stores.add(InMemoryDocumentStore.builder().kernel(InMemoryDocumentStore.Kernel.SCALAR).build());
        stores.add(InMemoryDocumentStore.builder().kernel(InMemoryDocumentStore.Kernel.SCALAR)
                .parallelThreshold(1).parallelism(3).build());
        if (DotKernels.vectorModulePresent()) {
            stores.add(InMemoryDocumentStore.builder().kernel(InMemoryDocumentStore.Kernel.VECTOR_API).build());
            stores.add(InMemoryDocumentStore.builder().kernel(InMemoryDocumentStore.Kernel.VECTOR_API)
                    .parallelThreshold(1).parallelism(4).build());
        }
        return stores;
    }

    @Test
    void search_randomCorpusAndFilters_matchesTextbookTopKInEveryConfiguration() {
        Random random = new Random(20261122);
        int dim = 37;
        List<InMemoryDocumentStore> stores = configurations();
        Map<String, ReferenceSearch.Entry[]> live = fill(stores, random, dim, 400, d -> gaussian(random, d));

        List<ReferenceSearch.Entry> all = new ArrayList<>();
        live.values().forEach(entries -> all.addAll(List.of(entries)));
        for (int q = 0; q < 200; q++) {
            SearchRequest request = randomRequest(random, dim, gaussian(random, dim));
            List<ReferenceSearch.Scored> expected = ReferenceSearch.topK(all, request);
            Map<String, Double> exactScores = new HashMap<>();
            for (ReferenceSearch.Scored s : ReferenceSearch.topK(all, withK(request, 10_000))) {
                exactScores.put(s.sourceId(), s.similarity());
            }
            for (InMemoryDocumentStore store : stores) {
                List<SearchHit> hits = store.search(request);
                assertThat(hits).as("%s: %s", store.kernelName(), request).hasSameSizeAs(expected);
                for (int i = 0; i < hits.size(); i++) {
                    SearchHit hit = hits.get(i);
                    // the i-th best score is right, so no better chunk was missed ...
                    assertThat(hit.similarity()).isCloseTo(expected.get(i).similarity(), Offset.offset(1e-5));
                    // ... and the chunk returned really has that score and passes scope and filters
                    assertThat(exactScores).containsKey(hit.sourceId());
                    assertThat(hit.similarity()).isCloseTo(exactScores.get(hit.sourceId()), Offset.offset(1e-5));
                    assertThat(hit.document().tenant()).isEqualTo(request.scope().tenant());
                }
            }
        }
    }

    @Test
    void search_integerVectors_everyConfigurationReturnsIdenticalResultsIncludingTieBreaks() {
        // Small integer components make every dot product exact in any summation order, so the kernels and
        // the parallel merge must agree to the last bit, ties included.
        Random random = new Random(99);
        int dim = 19;
        List<InMemoryDocumentStore> stores = configurations();
        fill(stores, random, dim, 300, d -> smallIntegers(random, d));
        for (int q = 0; q < 200; q++) {
            SearchRequest request = randomRequest(random, dim, smallIntegers(random, dim));
            List<SearchHit> first = stores.get(0).search(request);
            for (InMemoryDocumentStore store : stores.subList(1, stores.size())) {
                assertThat(store.search(request)).as(store.kernelName()).isEqualTo(first);
            }
        }
    }

    /** Fills every store with the same random documents, replaces and deletes some; returns what is live. */
    private static Map<String, ReferenceSearch.Entry[]> fill(List<InMemoryDocumentStore> stores, Random random,
            int dim, int documents, IntFunction<float[]> vectors) {
        Map<String, ReferenceSearch.Entry[]> live = new LinkedHashMap<>();
        for (int n = 0; n < documents; n++) {
            String tenant = TENANTS[random.nextInt(TENANTS.length)];
            String path = "docs/" + (n % (documents * 3 / 4)) + ".md"; // some paths repeat: replacements
            StoredDocument document = StoredDocument.builder().tenant(tenant).path(path)
                    .docType(TYPES[random.nextInt(TYPES.length)])
                    .promotionLevel(PromotionLevel.values()[random.nextInt(3)])
                    .accessTags(TAG_SETS.get(random.nextInt(TAG_SETS.size()))).build();
            int chunkCount = 1 + random.nextInt(6);
            List<StoredChunk> chunks = new ArrayList<>();
            ReferenceSearch.Entry[] entries = new ReferenceSearch.Entry[chunkCount];
            for (int i = 0; i < chunkCount; i++) {
                StoredChunk chunk = new StoredChunk(document.id(), i, "chunk " + i + " of " + path,
                        vectors.apply(dim), 5, i + 1, i + 1, null, null);
                chunks.add(chunk);
                entries[i] = new ReferenceSearch.Entry(document, chunk);
            }
            for (InMemoryDocumentStore store : stores) {
                store.upsert(document, chunks);
            }
            live.put(tenant + "/" + document.id(), entries);
            if (random.nextInt(10) == 0) {
                for (InMemoryDocumentStore store : stores) {
                    assertThat(store.delete(Scope.unrestricted(tenant), document.id())).isTrue();
                }
                live.remove(tenant + "/" + document.id());
            }
        }
        return live;
    }

    private static SearchRequest randomRequest(Random random, int dim, float[] vector) {
        String tenant = TENANTS[random.nextInt(TENANTS.length)];
        Scope scope = random.nextInt(5) == 0 ? Scope.unrestricted(tenant)
                : Scope.of(tenant, TAG_SETS.get(random.nextInt(TAG_SETS.size())));
        SearchRequest.Builder builder = SearchRequest.builder(scope).vector(vector).k(1 + random.nextInt(25));
        if (random.nextInt(3) == 0) {
            builder.docTypes(random.nextBoolean() ? List.of("guide") : List.of("faq", "policy"));
        }
        if (random.nextInt(3) == 0) {
            builder.minPromotion(PromotionLevel.values()[1 + random.nextInt(2)]);
        }
        return builder.build();
    }

    private static SearchRequest withK(SearchRequest r, int k) {
        return new SearchRequest(r.scope(), r.queryVector(), r.queryText(), k, r.docTypes(), r.minPromotion());
    }

    private static float[] gaussian(Random random, int dim) {
        return DotKernelsTest.randomVector(random, dim);
    }

    private static float[] smallIntegers(Random random, int dim) {
        float[] v = new float[dim];
        while (true) {
            boolean nonZero = false;
            for (int i = 0; i < dim; i++) {
                v[i] = random.nextInt(7) - 3;
                nonZero |= v[i] != 0;
            }
            if (nonZero) {
                return v;
            }
        }
    }
}
