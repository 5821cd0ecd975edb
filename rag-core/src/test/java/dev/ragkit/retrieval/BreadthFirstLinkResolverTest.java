package dev.ragkit.retrieval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.ragkit.testing.HashedBagOfWordsEmbedder;
import dev.ragkit.ingest.IndexReport;
import dev.ragkit.ingest.Indexer;
import dev.ragkit.store.DocumentStore;
import dev.ragkit.store.PromotionLevel;
import dev.ragkit.store.Scope;
import dev.ragkit.store.SearchHit;
import dev.ragkit.store.SearchRequest;
import dev.ragkit.store.StoreCapabilities;
import dev.ragkit.store.StoredChunk;
import dev.ragkit.store.StoredDocument;
import dev.ragkit.store.inmemory.InMemoryDocumentStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

final class BreadthFirstLinkResolverTest {

    private static final String TENANT = "acme";
    private static final Scope USER = Scope.of(TENANT);
    private static final Path RUST_REFERENCE = Path.of("../../shared/corpora/rust-reference/src");

    private final InMemoryDocumentStore store = InMemoryDocumentStore.builder().build();
    private final LinkResolver resolver = new BreadthFirstLinkResolver();

    @AfterEach
    void closeStore() {
        store.close();
    }

    // ---------------------------------------------------------------------------------------------- cycles, depth

    @Test
    void resolve_cycleAToBToA_terminatesWithBOnce() {
        StoredDocument a = put("a.md", "b.md");
        put("b.md", "a.md");

        List<LinkedDocument> linked = assertTimeoutPreemptively(Duration.ofSeconds(10),
                () -> resolver.resolve(store, USER, List.of(a), List.of(), 5, 10));

        assertThat(linked).extracting(l -> l.document().path(), LinkedDocument::linkedFrom, LinkedDocument::depth)
                .containsExactly(tuple("b.md", "a.md", 1));
    }

    @Test
    void resolve_longerCycle_returnsEachDocumentOnce() {
        StoredDocument a = put("a.md", "b.md");
        put("b.md", "c.md");
        put("c.md", "a.md", "b.md");

        List<LinkedDocument> linked = resolver.resolve(store, USER, List.of(a), List.of(), 50, 50);

        assertThat(paths(linked)).containsExactly("b.md", "c.md");
    }

    @Test
    void resolve_depthOneVersusTwo_followsLinksOfLinksOnlyAtTwo() {
        StoredDocument a = put("a.md", "b.md");
        put("b.md", "c.md");
        put("c.md", "d.md");
        put("d.md");

        assertThat(paths(resolver.resolve(store, USER, List.of(a), List.of(), 1, 5))).containsExactly("b.md");
        assertThat(resolver.resolve(store, USER, List.of(a), List.of(), 2, 5))
                .extracting(l -> l.document().path(), LinkedDocument::depth)
                .containsExactly(tuple("b.md", 1), tuple("c.md", 2));
        assertThat(paths(resolver.resolve(store, USER, List.of(a), List.of(), 3, 5)))
                .containsExactly("b.md", "c.md", "d.md");
    }

    @Test
    void resolve_maxDepthZero_returnsNothingWithoutAskingTheStore() {
        StoredDocument a = put("a.md", "b.md");
        put("b.md");
        RecordingStore recording = new RecordingStore(store);

        assertThat(resolver.resolve(recording, USER, List.of(a), List.of(), 0, 5)).isEmpty();
        assertThat(resolver.resolve(recording, USER, List.of(a), List.of(), 2, 0)).isEmpty();
        assertThat(resolver.resolve(recording, USER, List.of(), List.of(), 2, 5)).isEmpty();
        assertThat(recording.lookups).isEmpty();
    }

    // ------------------------------------------------------------------------------------------------- the cap

    @Test
    void resolve_maxDocuments_keepsTheFirstInBreadthFirstOrder() {
        StoredDocument a = put("a.md", "b.md", "c.md", "d.md");
        put("b.md", "e.md");
        put("c.md");
        put("d.md");
        put("e.md");

        assertThat(paths(resolver.resolve(store, USER, List.of(a), List.of(), 2, 2))).containsExactly("b.md", "c.md");
        assertThat(paths(resolver.resolve(store, USER, List.of(a), List.of(), 2, 4)))
                .containsExactly("b.md", "c.md", "d.md", "e.md");
        assertThat(paths(resolver.resolve(store, USER, List.of(a), List.of(), 2, 100)))
                .containsExactly("b.md", "c.md", "d.md", "e.md");
    }

    @Test
    void resolve_brokenLinksAndRuleIds_areSkippedSilentlyAndTakeNoSlot() {
        StoredDocument a = put("a.md", "missing.md", "expressions/expr.closure", "images/diagram.png", "b.md");
        put("b.md");

        List<LinkedDocument> linked = resolver.resolve(store, USER, List.of(a), List.of(), 2, 1);

        assertThat(paths(linked)).containsExactly("b.md");
    }

    // -------------------------------------------------------------------------------------------------- exclusion

    @Test
    void resolve_seedsAndExcludedIds_areNeverReturned() {
        StoredDocument a = put("a.md", "seed2.md", "critical.md", "c.md");
        StoredDocument seed2 = put("seed2.md", "a.md");
        StoredDocument critical = put("critical.md", "c.md");
        put("c.md", "a.md", "seed2.md", "critical.md");

        List<LinkedDocument> linked = resolver.resolve(store, USER, List.of(a, seed2), Set.of(critical.id()), 5, 10);

        assertThat(paths(linked)).containsExactly("c.md");
    }

    @Test
    void resolve_excludedDocument_isWalkedThroughButNotReturned() {
        StoredDocument a = put("a.md", "critical.md");
        StoredDocument critical = put("critical.md", "e.md");
        put("e.md");

        List<LinkedDocument> linked = resolver.resolve(store, USER, List.of(a), List.of(critical.id()), 2, 5);

        assertThat(linked).extracting(l -> l.document().path(), LinkedDocument::linkedFrom, LinkedDocument::depth)
                .containsExactly(tuple("e.md", "critical.md", 2));
    }

    @Test
    void resolve_seedLinkingToItself_returnsNothingForThatLink() {
        StoredDocument a = put("a.md", "a.md", "b.md");
        put("b.md", "b.md");

        List<LinkedDocument> linked = resolver.resolve(store, USER, List.of(a), List.of(), 3, 5);

        assertThat(paths(linked)).containsExactly("b.md");
    }

    // --------------------------------------------------------------------------------------------- .html links

    @Test
    void resolve_htmlLinkWithoutStoredPage_fallsBackToMarkdown() {
        StoredDocument a = put("a.md", "expressions.html", "missing.html");
        put("expressions.md", "linkage.html");
        put("linkage.md");

        List<LinkedDocument> linked = resolver.resolve(store, USER, List.of(a), List.of(), 2, 5);

        assertThat(linked).extracting(l -> l.document().path(), LinkedDocument::linkedFrom, LinkedDocument::depth)
                .containsExactly(tuple("expressions.md", "a.md", 1), tuple("linkage.md", "expressions.md", 2));
    }

    @Test
    void resolve_htmlLinkWithStoredPage_keepsThatPage() {
        StoredDocument a = put("a.md", "page.html");
        put("page.html");
        put("page.md");

        assertThat(paths(resolver.resolve(store, USER, List.of(a), List.of(), 2, 5))).containsExactly("page.html");
    }

    @Test
    void resolve_htmlAndMarkdownLinksToOnePage_returnItOnce() {
        StoredDocument a = put("a.md", "b.html", "c.md", "b.md");
        StoredDocument seed = put("s.md", "s.html");
        put("b.md", "b.html");
        put("c.md", "b.html");

        List<LinkedDocument> linked = resolver.resolve(store, USER, List.of(a, seed), List.of(), 3, 10);

        assertThat(linked).extracting(l -> l.document().path(), LinkedDocument::linkedFrom)
                .containsExactly(tuple("b.md", "a.md"), tuple("c.md", "a.md"));
    }

    // ------------------------------------------------------------------------------------------------------ scope

    @Test
    void resolve_otherTenantsDocumentAtLinkedPath_isNeverReturned() {
        StoredDocument a = put("a.md", "shared.md", "b.md");
        put("b.md");
        put("globex", "shared.md", List.of(), List.of());

        List<LinkedDocument> linked = resolver.resolve(store, USER, List.of(a), List.of(), 2, 5);

        assertThat(paths(linked)).containsExactly("b.md");
        assertThat(linked).allSatisfy(l -> assertThat(l.document().tenant()).isEqualTo(TENANT));
    }

    @Test
    void resolve_taggedDocumentInvisibleToTheScope_isNeitherReturnedNorWalkedThrough() {
        StoredDocument a = put("a.md", "secret.md", "b.md");
        put(TENANT, "secret.md", List.of("behind-secret.md"), List.of("finance"));
        put("behind-secret.md");
        put("b.md");

        assertThat(paths(resolver.resolve(store, USER, List.of(a), List.of(), 3, 5))).containsExactly("b.md");
        assertThat(paths(resolver.resolve(store, Scope.of(TENANT, "hr"), List.of(a), List.of(), 3, 5)))
                .containsExactly("b.md");
        assertThat(paths(resolver.resolve(store, Scope.of(TENANT, "finance"), List.of(a), List.of(), 3, 5)))
                .containsExactly("secret.md", "b.md", "behind-secret.md");
    }

    @Test
    void resolve_everyLookup_usesTheCallersScope() {
        StoredDocument a = put("a.md", "b.md");
        put("b.md", "c.md");
        put("c.md");
        RecordingStore recording = new RecordingStore(store);
        Scope scope = Scope.of(TENANT, "support");

        resolver.resolve(recording, scope, List.of(a), List.of(), 3, 5);

        assertThat(recording.scopes).isNotEmpty().allSatisfy(s -> {
            assertThat(s).isEqualTo(scope);
            assertThat(s.unrestricted()).isFalse();
        });
    }

    @Test
    void resolve_storeReturningInvisibleDocument_isFilteredAgain() {
        StoredDocument a = put("a.md", "secret.md");
        StoredDocument secret = put(TENANT, "secret.md", List.of(), List.of("finance"));
        DocumentStore leaky = new RecordingStore(store) {
            @Override
            public List<StoredDocument> findByPaths(Scope scope, Collection<String> paths) {
                return List.of(secret);
            }
        };

        assertThat(resolver.resolve(leaky, USER, List.of(a), List.of(), 2, 5)).isEmpty();
    }

    // ------------------------------------------------------------------------------------ attribution and order

    @Test
    void resolve_linkedFromAndDepth_nameTheFirstLinkingDocument() {
        StoredDocument s1 = put("s1.md", "x.md");
        StoredDocument s2 = put("s2.md", "b.md", "x.md");
        put("x.md", "b.md", "y.md");
        put("b.md", "y.md");
        put("y.md");

        List<LinkedDocument> linked = resolver.resolve(store, USER, List.of(s1, s2), List.of(), 2, 10);

        assertThat(linked).extracting(l -> l.document().path(), LinkedDocument::linkedFrom, LinkedDocument::depth)
                .containsExactly(tuple("x.md", "s1.md", 1), tuple("b.md", "s2.md", 1), tuple("y.md", "x.md", 2));
    }

    @Test
    void resolve_order_followsSeedsAndLinksNotPaths() {
        StoredDocument s1 = put("s1.md", "z.md", "a.md");
        StoredDocument s2 = put("s2.md", "m.md");
        put("z.md", "y.md");
        put("a.md", "b.md");
        put("m.md");
        put("y.md");
        put("b.md");

        List<String> first = paths(resolver.resolve(store, USER, List.of(s1, s2), List.of(), 2, 10));
        List<String> second = paths(resolver.resolve(store, USER, List.of(s1, s2), List.of(), 2, 10));
        List<String> swapped = paths(resolver.resolve(store, USER, List.of(s2, s1), List.of(), 2, 10));

        assertThat(first).containsExactly("z.md", "a.md", "m.md", "y.md", "b.md").isEqualTo(second);
        assertThat(swapped).containsExactly("m.md", "z.md", "a.md", "y.md", "b.md");
    }

    @Test
    void resolve_oneStoreLookupPerLevel() {
        StoredDocument a = put("a.md", "b.md", "c.md", "gone.md", "d.html");
        put("b.md", "e.md", "f.md");
        put("c.md", "f.md", "g.md");
        put("d.md");
        put("e.md", "h.md");
        put("f.md");
        put("g.md");
        put("h.md");
        RecordingStore recording = new RecordingStore(store);

        List<LinkedDocument> linked = resolver.resolve(recording, USER, List.of(a), List.of(), 2, 10);

        assertThat(paths(linked)).containsExactly("b.md", "c.md", "d.md", "e.md", "f.md", "g.md");
        assertThat(recording.lookups).containsExactly(
                List.of("b.md", "c.md", "gone.md", "d.html", "d.md"),
                List.of("e.md", "f.md", "g.md"));
    }

    @Test
    void resolve_result_isImmutable() {
        StoredDocument a = put("a.md", "b.md");
        put("b.md");

        List<LinkedDocument> linked = resolver.resolve(store, USER, List.of(a), List.of(), 1, 5);

        assertThatThrownBy(() -> linked.add(linked.get(0))).isInstanceOf(UnsupportedOperationException.class);
    }

    // ------------------------------------------------------------------------------------------------ arguments

    @Test
    void resolve_negativeLimits_areRejected() {
        StoredDocument a = put("a.md");

        assertThatThrownBy(() -> resolver.resolve(store, USER, List.of(a), List.of(), -1, 5))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("maxDepth");
        assertThatThrownBy(() -> resolver.resolve(store, USER, List.of(a), List.of(), 2, -1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("maxDocuments");
    }

    @Test
    void resolve_nullArguments_throwNullPointerException() {
        StoredDocument a = put("a.md");

        assertThatThrownBy(() -> resolver.resolve(null, USER, List.of(a), List.of(), 2, 5))
                .isInstanceOf(NullPointerException.class).hasMessageContaining("store");
        assertThatThrownBy(() -> resolver.resolve(store, null, List.of(a), List.of(), 2, 5))
                .isInstanceOf(NullPointerException.class).hasMessageContaining("scope");
        assertThatThrownBy(() -> resolver.resolve(store, USER, null, List.of(), 2, 5))
                .isInstanceOf(NullPointerException.class).hasMessageContaining("seeds");
        assertThatThrownBy(() -> resolver.resolve(store, USER, List.of(a), null, 2, 5))
                .isInstanceOf(NullPointerException.class).hasMessageContaining("excludeIds");
        assertThatThrownBy(() -> resolver.resolve(store, USER, Arrays.asList(a, null), List.of(), 2, 5))
                .isInstanceOf(NullPointerException.class).hasMessageContaining("seed");
        assertThatThrownBy(() -> resolver.resolve(store, USER, List.of(a), Arrays.asList("x", null), 2, 5))
                .isInstanceOf(NullPointerException.class).hasMessageContaining("excluded id");
    }

    // ------------------------------------------------------------------------------------ the Rust Reference

    @Test
    void resolve_rustReferenceCorpus_terminatesWithoutDuplicatesWithinTheIndexedPages() {
        Assumptions.assumeTrue(Files.isDirectory(RUST_REFERENCE),
                "the Rust Reference corpus is missing at " + RUST_REFERENCE.toAbsolutePath().normalize()
                        + "; it lives in /work/shared/corpora/rust-reference/src next to the project");
        IndexReport report = Indexer.builder()
                .store(store)
                .embedder(new HashedBagOfWordsEmbedder("hashed-bag-of-words", 64))
                .tenant("rust")
                .build()
                .index(RUST_REFERENCE);
        assertThat(report.succeeded()).as("indexing %s: %s", RUST_REFERENCE, report.filesFailed()).isTrue();
        Scope scope = Scope.of("rust");
        Map<String, StoredDocument> pages = new HashMap<>();
        store.documents(scope).forEach(d -> pages.put(d.path(), d));
        assertThat(pages).hasSizeGreaterThan(100);

        for (List<String> seedPaths : List.of(
                List.of("introduction.md"),
                List.of("expressions/closure-expr.md", "types/closure.md"),
                List.of("attributes.md", "items.md", "expressions.md"),
                List.of("SUMMARY.md"))) {
            List<StoredDocument> seeds = seedPaths.stream().map(pages::get).toList();
            assertThat(seeds).as("seed pages %s", seedPaths).doesNotContainNull();
            Set<String> seedIds = seeds.stream().map(StoredDocument::id).collect(Collectors.toSet());

            List<LinkedDocument> linked = assertTimeoutPreemptively(Duration.ofSeconds(10),
                    () -> resolver.resolve(store, scope, seeds, List.of(), 2, 5));

            assertThat(linked).as("links from %s", seedPaths).isNotEmpty().hasSizeLessThanOrEqualTo(5);
            assertThat(linked).extracting(l -> l.document().id()).doesNotHaveDuplicates()
                    .doesNotContainAnyElementsOf(seedIds);
            assertThat(linked).allSatisfy(l -> {
                assertThat(pages).containsEntry(l.document().path(), l.document());
                assertThat(l.depth()).isBetween(1, 2);
            });
            assertLinkedFromIsConsistent(seeds, linked);
        }

        // No limits to speak of: the whole reachable part of the book, cycles and all, still ends, each page once.
        List<StoredDocument> everything = List.of(pages.get("SUMMARY.md"));
        List<LinkedDocument> all = assertTimeoutPreemptively(Duration.ofSeconds(20),
                () -> resolver.resolve(store, scope, everything, List.of(), 1_000, 10_000));
        assertThat(all).hasSizeGreaterThan(50).hasSizeLessThan(pages.size());
        assertThat(all).extracting(l -> l.document().path()).doesNotHaveDuplicates()
                .allSatisfy(p -> assertThat(pages).containsKey(p));
        assertLinkedFromIsConsistent(everything, all);

        // introduction.md reaches linkage.md only through "linkage.html" (the mdBook convention).
        StoredDocument introduction = pages.get("introduction.md");
        assertThat(introduction.links()).contains("linkage.html").doesNotContain("linkage.md");
        assertThat(resolver.resolve(store, scope, List.of(introduction), List.of(), 1, 100))
                .extracting(l -> l.document().path(), LinkedDocument::linkedFrom)
                .contains(tuple("linkage.md", "introduction.md"));
    }

    /** Every result was reached from a seed (depth 1) or from a result one level up that links to it. */
    private static void assertLinkedFromIsConsistent(List<StoredDocument> seeds, List<LinkedDocument> linked) {
        Map<String, Integer> depthOf = new HashMap<>();
        Map<String, List<String>> linksOf = new HashMap<>();
        seeds.forEach(s -> {
            depthOf.put(s.path(), 0);
            linksOf.put(s.path(), s.links());
        });
        int previousDepth = 1;
        for (LinkedDocument l : linked) {
            assertThat(l.depth()).as("breadth-first order").isGreaterThanOrEqualTo(previousDepth);
            previousDepth = l.depth();
            assertThat(depthOf).as("linkedFrom of %s", l.document().path()).containsEntry(l.linkedFrom(), l.depth() - 1);
            String path = l.document().path();
            String html = path.endsWith(".md") ? path.substring(0, path.length() - 3) + ".html" : path;
            assertThat(linksOf.get(l.linkedFrom())).as("links of %s", l.linkedFrom()).containsAnyOf(path, html);
            depthOf.put(path, l.depth());
            linksOf.put(path, l.document().links());
        }
    }

    // ----------------------------------------------------------------------------------------------- fixtures

    private StoredDocument put(String path, String... links) {
        return put(TENANT, path, List.of(links), List.of());
    }

    private StoredDocument put(String tenant, String path, List<String> links, List<String> accessTags) {
        StoredDocument doc = StoredDocument.builder().tenant(tenant).path(path).links(links).accessTags(accessTags)
                .promotionLevel(PromotionLevel.STANDARD).build();
        store.upsert(doc, List.of(new StoredChunk(doc.id(), 0, "text of " + path, new float[] {1, 0}, 1, 1, 1,
                null, null)));
        return doc;
    }

    private static List<String> paths(List<LinkedDocument> linked) {
        return linked.stream().map(l -> l.document().path()).toList();
    }

    /** A store that records every findByPaths call (paths in the order given, and the scope) and delegates. */
    private static class RecordingStore implements DocumentStore {
        final DocumentStore delegate;
        final List<List<String>> lookups = new ArrayList<>();
        final List<Scope> scopes = new ArrayList<>();

        RecordingStore(DocumentStore delegate) {
            this.delegate = delegate;
        }

        @Override
        public List<StoredDocument> findByPaths(Scope scope, Collection<String> paths) {
            lookups.add(List.copyOf(paths));
            scopes.add(scope);
            return delegate.findByPaths(scope, paths);
        }

        @Override
        public void upsert(StoredDocument document, List<StoredChunk> chunks) {
            delegate.upsert(document, chunks);
        }

        @Override
        public boolean delete(Scope scope, String documentId) {
            return delegate.delete(scope, documentId);
        }

        @Override
        public List<SearchHit> search(SearchRequest request) {
            return delegate.search(request);
        }

        @Override
        public Optional<StoredDocument> document(Scope scope, String documentId) {
            return delegate.document(scope, documentId);
        }

        @Override
        public List<StoredDocument> findByPromotion(Scope scope, PromotionLevel minLevel, Set<String> docTypes) {
            return delegate.findByPromotion(scope, minLevel, docTypes);
        }

        @Override
        public List<StoredDocument> documents(Scope scope) {
            return delegate.documents(scope);
        }

        @Override
        public List<StoredChunk> chunks(Scope scope, String documentId) {
            return delegate.chunks(scope, documentId);
        }

        @Override
        public StoreCapabilities capabilities() {
            return delegate.capabilities();
        }

        @Override
        public void close() {
            delegate.close();
        }
    }
}
