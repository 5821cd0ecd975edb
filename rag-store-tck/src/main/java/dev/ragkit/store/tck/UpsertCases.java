package dev.ragkit.store.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ragkit.store.DocumentStore;
import dev.ragkit.store.PromotionLevel;
import dev.ragkit.store.Scope;
import dev.ragkit.store.SearchHit;
import dev.ragkit.store.StoredChunk;
import dev.ragkit.store.StoredDocument;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** {@link DocumentStore#upsert} stores and replaces whole documents. */
abstract class UpsertCases extends ContractFixtures {

    @Test
    void upsert_documentWithEveryField_readsBackEqualEverywhere() {
        Map<String, String> metadata = new LinkedHashMap<>();
        metadata.put("author", "Ada");
        metadata.put("status", "draft");
        StoredDocument doc = document(TENANT_A, "full/doc.md").title("A full document").docType("guide")
                .promotionLevel(PromotionLevel.IMPORTANT).date(LocalDate.of(2024, 5, 17))
                .accessTags("hr", "eng").ownerTag("docs-team").links(List.of("full/other.md", "full/third.md"))
                .metadata(metadata).charCount(1234).build();
        StoredChunk chunk = new StoredChunk(doc.id(), 0, "Intro text\nsecond line", vectorAtCosine(0.7),
                12, 3, 9, "Intro > Scope", 2);
        Scope scope = Scope.of(TENANT_A, "eng");

        store().upsert(doc, List.of(chunk));

        assertThat(store().document(scope, doc.id())).contains(doc);
        assertThat(store().findByPaths(scope, List.of(doc.path()))).containsExactly(doc);
        assertThat(store().findByPromotion(scope, PromotionLevel.IMPORTANT, Set.of("guide"))).containsExactly(doc);
        assertThat(store().documents(scope)).containsExactly(doc);
        assertThat(store().chunks(scope, doc.id())).containsExactly(chunk);
        assertThat(searchVector(scope, axis(0), 5)).singleElement().satisfies(hit -> {
            assertThat(hit.document()).isEqualTo(doc);
            assertThat(hit.chunk()).isEqualTo(chunk.withoutEmbedding());
        });
    }

    @Test
    void upsert_replaceWithFewerChunks_removesOldExtraChunksFromChunks() {
        StoredDocument doc = put(document(TENANT_A, "replace.md").build(), "old", descendingCosines(0.9, 0.1, 5));
        List<StoredChunk> newer = chunksOf(doc, "new", vectorAtCosine(0.3), vectorAtCosine(0.2));

        store().upsert(doc, newer);

        assertThat(store().chunks(Scope.of(TENANT_A), doc.id())).containsExactlyElementsOf(newer);
    }

    @Test
    void upsert_replaceWithFewerChunks_removesOldExtraChunksFromSearch() {
        StoredDocument doc = put(document(TENANT_A, "replace.md").build(), "old", descendingCosines(0.9, 0.1, 5));
        List<StoredChunk> newer = chunksOf(doc, "new", vectorAtCosine(0.3), vectorAtCosine(0.2));

        store().upsert(doc, newer);

        List<SearchHit> hits = searchVector(Scope.of(TENANT_A), axis(0), 10);
        assertThat(hits).extracting(SearchHit::chunk).containsExactlyElementsOf(withoutEmbeddings(newer));
    }

    @Test
    void upsert_replaceWithNewAccessTags_appliesNewVisibility() {
        StoredDocument doc = put(document(TENANT_A, "tags.md").build(), "tags", vectorAtCosine(0.9));
        StoredDocument tagged = doc.toBuilder().accessTags("hr").build();

        put(tagged, "tags", vectorAtCosine(0.9));

        assertThat(store().document(Scope.of(TENANT_A), doc.id())).isEmpty();
        assertThat(searchVector(Scope.of(TENANT_A), axis(0), 5)).isEmpty();
        assertThat(store().document(Scope.of(TENANT_A, "hr"), doc.id())).contains(tagged);
        assertThat(searchVector(Scope.of(TENANT_A, "hr"), axis(0), 5)).hasSize(1);
    }

    @Test
    void upsert_replaceWithNewPath_findsDocumentOnlyAtNewPath() {
        StoredDocument doc = put(document(TENANT_A, "old/path.md").id("moving").build(), "x", vectorAtCosine(0.9));
        StoredDocument moved = doc.toBuilder().path("new/path.md").build();

        put(moved, "x", vectorAtCosine(0.9));

        assertThat(store().findByPaths(Scope.of(TENANT_A), List.of("old/path.md"))).isEmpty();
        assertThat(store().findByPaths(Scope.of(TENANT_A), List.of("new/path.md"))).containsExactly(moved);
        assertThat(store().documents(Scope.of(TENANT_A))).containsExactly(moved);
    }

    @Test
    void upsert_sameVersionTwice_keepsOneCopyOfEachChunk() {
        StoredDocument doc = document(TENANT_A, "twice.md").build();
        List<StoredChunk> chunks = chunksOf(doc, "twice", vectorAtCosine(0.9), vectorAtCosine(0.8));

        store().upsert(doc, chunks);
        store().upsert(doc, chunks);

        assertThat(store().chunks(Scope.of(TENANT_A), doc.id())).containsExactlyElementsOf(chunks);
        assertThat(sourceIds(searchVector(Scope.of(TENANT_A), axis(0), 10)))
                .containsExactlyElementsOf(sourceIds(doc, 0, 1));
        assertThat(store().documents(Scope.of(TENANT_A))).containsExactly(doc);
    }

    @Test
    void upsert_emptyChunkList_documentFoundButNeverSearched() {
        StoredDocument other = put(document(TENANT_A, "other.md").build(), "other", vectorAtCosine(0.5));
        StoredDocument empty = document(TENANT_A, "empty.md").build();

        store().upsert(empty, List.of());

        assertThat(store().document(Scope.of(TENANT_A), empty.id())).contains(empty);
        assertThat(store().findByPaths(Scope.of(TENANT_A), List.of("empty.md"))).containsExactly(empty);
        assertThat(store().documents(Scope.of(TENANT_A))).containsExactly(empty, other);
        assertThat(store().chunks(Scope.of(TENANT_A), empty.id())).isEmpty();
        assertThat(searchVector(Scope.of(TENANT_A), axis(0), 10)).extracting(SearchHit::document)
                .containsOnly(other);
    }

    @Test
    void upsert_emptyChunkListOverExistingChunks_removesThemFromSearch() {
        StoredDocument doc = put(document(TENANT_A, "emptied.md").build(), "x", descendingCosines(0.9, 0.1, 3));

        store().upsert(doc, List.of());

        assertThat(store().chunks(Scope.of(TENANT_A), doc.id())).isEmpty();
        assertThat(searchVector(Scope.of(TENANT_A), axis(0), 10)).isEmpty();
        assertThat(store().document(Scope.of(TENANT_A), doc.id())).contains(doc);
    }

    @Test
    void upsert_afterDelete_storesDocumentAgain() {
        StoredDocument doc = put(document(TENANT_A, "again.md").build(), "x", vectorAtCosine(0.9));
        assertThat(store().delete(Scope.of(TENANT_A), doc.id())).isTrue();

        put(doc, "y", vectorAtCosine(0.8), vectorAtCosine(0.7));

        assertThat(store().document(Scope.of(TENANT_A), doc.id())).contains(doc);
        assertThat(store().chunks(Scope.of(TENANT_A), doc.id())).hasSize(2);
    }

    @Test
    void upsert_mixedDimensionsInFirstUpsert_throwsAndDoesNotFixDimension() {
        StoredDocument doc = document(TENANT_A, "mixed.md").build();
        float[] longer = new float[dimension() + 1];
        Arrays.fill(longer, 1f);
        List<StoredChunk> mixed = List.of(chunk(doc, 0, "first", longer), chunk(doc, 1, "second", axis(0)));

        assertThatThrownBy(() -> store().upsert(doc, mixed))
                .isInstanceOf(IllegalArgumentException.class)
                .satisfies(e -> assertMessageMentions(e, "dimension"));

        assertThat(store().documents(Scope.unrestricted(TENANT_A))).isEmpty();
        put(doc, "valid", axis(0));
        assertThat(store().chunks(Scope.of(TENANT_A), doc.id())).hasSize(1);
    }

    @Test
    void upsert_concurrentReplacementsOfOneDocument_readersSeeOneWholeVersion() throws InterruptedException {
        int k = requireMaxK(10);
        StoredDocument doc = document(TENANT_A, "atomic/doc.md").build();
        put(document(TENANT_A, "atomic/neighbour.md").build(), "neighbour", vectorAtCosine(0.1, 2),
                vectorAtCosine(0.05, 3));
        List<StoredChunk> alpha = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            alpha.add(chunk(doc, i, "version alpha part " + i, vectorAtCosine(0.9 - 0.1 * i, 1 + i)));
        }
        List<StoredChunk> bravo = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            bravo.add(chunk(doc, i, "version bravo part " + i, vectorAtCosine(0.85 - 0.1 * i, 2 + i)));
        }
        List<StoredChunk> alphaHits = withoutEmbeddings(alpha);
        List<StoredChunk> bravoHits = withoutEmbeddings(bravo);
        store().upsert(doc, alpha);
        Scope scope = Scope.of(TENANT_A);
        int iterations = concurrencyIterations();

        Runnable writer = () -> {
            for (int i = 0; i < iterations; i++) {
                store().upsert(doc, i % 2 == 0 ? bravo : alpha);
            }
        };
        List<Runnable> readers = new ArrayList<>();
        readers.add(() -> {
            List<StoredChunk> seen = store().chunks(scope, doc.id());
            check(seen.equals(alpha) || seen.equals(bravo), () -> "chunks() returned a mix: " + seen);
        });
        readers.add(() -> {
            List<StoredChunk> seen = searchVector(scope, axis(0), k).stream()
                    .filter(hit -> hit.document().id().equals(doc.id())).map(SearchHit::chunk)
                    .sorted(Comparator.comparingInt(StoredChunk::index)).collect(Collectors.toList());
            check(seen.equals(alphaHits) || seen.equals(bravoHits), () -> "search() returned a mix: " + seen);
        });
        readers.add(() -> check(store().document(scope, doc.id()).isPresent(),
                () -> "document() lost the document while it was being replaced"));
        if (store().capabilities().keywordSearch()) {
            readers.add(() -> {
                List<StoredChunk> seen = searchText(scope, "alpha bravo", k).stream()
                        .filter(hit -> hit.document().id().equals(doc.id())).map(SearchHit::chunk)
                        .sorted(Comparator.comparingInt(StoredChunk::index)).collect(Collectors.toList());
                check(seen.equals(alphaHits) || seen.equals(bravoHits),
                        () -> "text search returned a mix: " + seen);
            });
        }

        List<String> failures = race(List.of(writer), readers);

        assertThat(failures).as("failures in concurrent threads").isEmpty();
        assertThat(store().chunks(scope, doc.id())).containsExactlyElementsOf(iterations % 2 == 0 ? alpha : bravo);
    }

    @Test
    void upsert_concurrentWritersOfDifferentDocuments_storesEveryDocument() throws InterruptedException {
        int writers = 4;
        int perWriter = 25;
        List<Runnable> tasks = new ArrayList<>();
        for (int w = 0; w < writers; w++) {
            int writer = w;
            tasks.add(() -> {
                for (int i = 0; i < perWriter; i++) {
                    StoredDocument doc = document(TENANT_A, String.format(Locale.ROOT, "w%d/doc%02d.md", writer, i)).build();
                    put(doc, "parallel", vectorAtCosine(0.9, i), vectorAtCosine(0.8, i + 1));
                }
            });
        }

        List<String> failures = race(tasks, List.of());

        assertThat(failures).as("failures in concurrent threads").isEmpty();
        List<StoredDocument> stored = store().documents(Scope.of(TENANT_A));
        assertThat(stored).hasSize(writers * perWriter);
        assertThat(stored).allSatisfy(doc -> assertThat(store().chunks(Scope.of(TENANT_A), doc.id())).hasSize(2));
    }
}
