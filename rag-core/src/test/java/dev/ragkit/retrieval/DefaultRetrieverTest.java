package dev.ragkit.retrieval;

import dev.ragkit.audit.AuditRecord;
import dev.ragkit.audit.AuditOutcome;
import dev.ragkit.audit.AuditOperation;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.ragkit.embedding.Embedder;
import dev.ragkit.store.MetadataFilter;
import dev.ragkit.store.PromotionLevel;
import dev.ragkit.store.Scope;
import dev.ragkit.store.StoredChunk;
import dev.ragkit.store.StoredDocument;
import dev.ragkit.store.inmemory.InMemoryDocumentStore;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

final class DefaultRetrieverTest {
    private static final String QUERY = "the question";
    private final InMemoryDocumentStore store = InMemoryDocumentStore.builder().build();
    private final ScriptedEmbedder embedder = new ScriptedEmbedder();
    private final Scope scope = Scope.of("acme");

    /** A unit vector whose cosine with the query vector (1, 0, 0, 0) is exactly {@code cosine}. */
    private static float[] atCosine(double cosine) {
        return new float[] {(float) cosine, (float) Math.sqrt(1 - cosine * cosine), 0, 0};
    }

    private StoredDocument put(String tenant, String path, PromotionLevel level, List<String> tags,
            List<String> links, String text, double... cosines) {
        StoredDocument d = StoredDocument.builder().tenant(tenant).path(path).promotionLevel(level).accessTags(tags)
                .links(links).build();
        List<StoredChunk> chunks = new ArrayList<>();
        for (int i = 0; i < cosines.length; i++) {
            chunks.add(new StoredChunk(d.id(), i, text + " part " + i + " " + path, atCosine(cosines[i]), 5, i + 1,
                    i + 1, null, null));
        }
        store.upsert(d, chunks);
        return d;
    }

    private StoredDocument put(String path, PromotionLevel level, double... cosines) {
        return put("acme", path, level, List.of(), List.of(), "text of", cosines);
    }

    private Retriever retriever(RetrievalOptions options) {
        return Retriever.builder().store(store).embedder(embedder).relevanceModel(RelevanceModel.fused())
                .options(options).build();
    }

    private static RetrievalOptions.Builder vectorOnly() {
        return RetrievalOptions.builder().hybrid(false);
    }

    @Test
    void retrieve_withAnAuditSink_writesOneRetrieveRecordPerCallWithItsCounts() {
        put("a.md", PromotionLevel.STANDARD, 0.85, 0.5);
        put("c.md", PromotionLevel.CRITICAL, 0.2);
        List<AuditRecord> records = new ArrayList<>();
        Retriever retriever = Retriever.builder().store(store).embedder(embedder).relevanceModel(RelevanceModel.fused())
                .options(vectorOnly().includeCritical(true).build()).auditSink(records::add).build();

        RetrievedContext context = retriever.retrieve(QUERY, scope);
        retriever.retrieve(QUERY, Scope.of("nobody"));

        assertThat(records).hasSize(2);
        AuditRecord found = records.get(0);
        assertThat(found.operation()).isEqualTo(AuditOperation.RETRIEVE);
        assertThat(found.outcome()).isEqualTo(AuditOutcome.RETRIEVED);
        assertThat(found.tenant()).isEqualTo("acme");
        assertThat(found.query()).isNull();
        assertThat(found.querySha256()).isEqualTo(AuditRecord.sha256(QUERY));
        assertThat(found.sourceIds()).isEqualTo(context.relevant().stream().map(RetrievedChunk::sourceId).toList());
        assertThat(found.counts()).containsEntry("relevant", (long) context.relevant().size())
                .containsEntry("critical", 1L).containsEntry("totalMatches", (long) context.totalMatches());
        assertThat(found.model()).isEqualTo(embedder.name());
        assertThat(records.get(1).outcome()).isEqualTo(AuditOutcome.EMPTY_CONTEXT);
        assertThat(records.get(1).tenant()).isEqualTo("nobody");
    }

    @Test
    void retrieve_embedsTheQuestionAsAQuery_notAsADocument() {
        put("a.md", PromotionLevel.STANDARD, 0.9);
        // Documents would be embedded at (0, 1, 0, 0); queries, after the model's instruction, at (1, 0, 0, 0).
        Embedder instructed = new ScriptedEmbedder() {
            @Override
            public float[][] embed(List<String> texts) {
                return new float[][] {{0, 1, 0, 0}};
            }

            @Override
            public float[][] embedQueries(List<String> queries) {
                return super.embed(queries);
            }
        };
        Retriever retriever = Retriever.builder().store(store).embedder(instructed)
                .relevanceModel(RelevanceModel.fused())
                .options(vectorOnly().minRelevance(0.5).build()).build();

        RetrievedContext context = retriever.retrieve(QUERY, scope);

        assertThat(context.relevant()).singleElement()
                .satisfies(c -> assertThat(c.similarity()).isCloseTo(0.9, org.assertj.core.data.Offset.offset(1e-5)));
    }

    @Test
    void retrieve_storeFails_auditsTheErrorAndRethrows() {
        List<AuditRecord> records = new ArrayList<>();
        store.close();
        Retriever retriever = Retriever.builder().store(store).embedder(embedder)
                .relevanceModel(RelevanceModel.fused()).auditSink(records::add).build();

        assertThatThrownBy(() -> retriever.retrieve(QUERY, scope)).isInstanceOf(RuntimeException.class);

        assertThat(records).singleElement().satisfies(r -> {
            assertThat(r.outcome()).isEqualTo(AuditOutcome.ERROR);
            assertThat(r.errorType()).isNotBlank();
        });
    }

    @Test
    void retrieve_metadataFilter_fromTheOptionsAndTheRequest_onlyNarrowsAndAppliesToCriticalDocuments() {
        StoredDocument old = StoredDocument.builder().tenant("acme").path("old.md").metadata(Map.of("year", "2019",
                "product", "x")).build();
        StoredDocument fresh = StoredDocument.builder().tenant("acme").path("new.md").metadata(Map.of("year",
                "2025", "product", "x")).build();
        StoredDocument other = StoredDocument.builder().tenant("acme").path("other.md").metadata(Map.of("year",
                "2025", "product", "y")).promotionLevel(PromotionLevel.CRITICAL).build();
        for (StoredDocument d : List.of(old, fresh, other)) {
            store.upsert(d, List.of(new StoredChunk(d.id(), 0, "text of " + d.path(), atCosine(0.9), 5, 1, 1, null,
                    null)));
        }
        RetrievalOptions recent = vectorOnly().includeCritical(true)
                .metadataFilter(MetadataFilter.parse("year >= 2024")).build();

        RetrievedContext byOptions = retriever(recent).retrieve(QUERY, scope);
        RetrievedContext narrowed = retriever(recent).retrieve(QUERY, scope, RetrievalOptions.Overrides.builder()
                .build().withMetadataFilter(MetadataFilter.parse("product = x")));

        assertThat(byOptions.relevant()).extracting(c -> c.document().path()).containsExactly("new.md");
        assertThat(byOptions.critical()).extracting(d -> d.document().path()).containsExactly("other.md");
        assertThat(narrowed.relevant()).extracting(c -> c.document().path()).containsExactly("new.md");
        assertThat(narrowed.critical()).as("a critical document outside the filter is left out").isEmpty();
    }

    @Test
    void retrieve_withAReranker_reordersTheCandidatesBeforeTheCutAndKeepsTheRawScores() {
        put("a.md", PromotionLevel.STANDARD, 0.9);
        put("b.md", PromotionLevel.STANDARD, 0.8);
        put("c.md", PromotionLevel.STANDARD, 0.7);
        put("low.md", PromotionLevel.STANDARD, 0.1);
        List<List<String>> seen = new ArrayList<>();
        Reranker cPreferred = (query, candidates) -> {
            seen.add(candidates.stream().map(c -> c.document().path()).toList());
            return candidates.stream().mapToDouble(c -> c.document().path().equals("c.md") ? 0.99 : 0.5).toArray();
        };
        Retriever reranking = Retriever.builder().store(store).embedder(embedder)
                .relevanceModel(RelevanceModel.fused()).reranker(cPreferred)
                .options(vectorOnly().minRelevance(0.3).topK(2).build()).build();

        RetrievedContext context = reranking.retrieve(QUERY, scope);

        assertThat(seen).singleElement().satisfies(paths -> assertThat(paths).containsExactly("a.md", "b.md", "c.md"));
        assertThat(context.relevant()).extracting(c -> c.document().path()).containsExactly("c.md", "a.md");
        RetrievedChunk top = context.relevant().get(0);
        assertThat(top.reranked()).isEqualTo(0.99);
        assertThat(top.similarity()).isCloseTo(0.7, within(1e-6));          // thresholds keep meaning this
        assertThat(retriever(vectorOnly().build()).retrieve(QUERY, scope).relevant().get(0).reranked()).isNaN();
    }

    @Test
    void retrieve_aRerankerReturningBadScores_failsNamingIt() {
        put("a.md", PromotionLevel.STANDARD, 0.9);
        Reranker broken = (query, candidates) -> new double[] {1.5};
        Reranker short_ = (query, candidates) -> new double[0];

        assertThatThrownBy(() -> Retriever.builder().store(store).embedder(embedder)
                .relevanceModel(RelevanceModel.fused()).reranker(broken).build()
                .retrieve(QUERY, scope)).isInstanceOf(IllegalStateException.class).hasMessageContaining("[0, 1]");
        assertThatThrownBy(() -> Retriever.builder().store(store).embedder(embedder)
                .relevanceModel(RelevanceModel.fused()).reranker(short_).build()
                .retrieve(QUERY, scope)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("0 scores for 1 candidates");
    }

    @Test
    void termOverlapReranker_favoursChunksWithTheQuestionsTerms() {
        StoredDocument d = StoredDocument.builder().tenant("acme").path("k.md").title("Keys").build();
        StoredChunk rotation = new StoredChunk(d.id(), 0, "API keys rotate every ninety days.", atCosine(0.5), 5, 1, 1,
                "Keys > Rotation", null);
        StoredChunk other = new StoredChunk(d.id(), 1, "The office closes in August.", atCosine(0.5), 5, 2, 2, null,
                null);
        List<RetrievedChunk> candidates = List.of(new RetrievedChunk(other, d, 0.6, 0.6, 0.6),
                new RetrievedChunk(rotation, d, 0.55, 0.55, 0.55));

        double[] scores = new TermOverlapReranker(0.5).scores("How often do API keys rotate?", candidates);

        assertThat(scores[1]).isGreaterThan(scores[0]);
        for (double s : scores) {
            assertThat(s).isBetween(0.0, 1.0);
        }
        assertThatThrownBy(() -> new TermOverlapReranker(1.5)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void retrieve_threshold07_keepsTwoOfHitsScored085_072_045() {
        put("a.md", PromotionLevel.STANDARD, 0.85);
        put("b.md", PromotionLevel.STANDARD, 0.72);
        put("c.md", PromotionLevel.STANDARD, 0.45);
        RetrievedContext context = retriever(vectorOnly().minRelevance(0.7).build()).retrieve(QUERY, scope);
        assertThat(context.relevant()).extracting(c -> c.document().path()).containsExactly("a.md", "b.md");
        assertThat(context.relevant()).extracting(RetrievedChunk::similarity)
                .satisfiesExactly(s -> assertThat(s).isCloseTo(0.85, within(1e-6)),
                        s -> assertThat(s).isCloseTo(0.72, within(1e-6)));
        assertThat(context.totalMatches()).isEqualTo(2);
    }

    @Test
    void retrieve_boosts_turnCritical070Important075Standard080Into085_085_080() {
        put("critical.md", PromotionLevel.CRITICAL, 0.70);
        put("important.md", PromotionLevel.IMPORTANT, 0.75);
        put("standard.md", PromotionLevel.STANDARD, 0.80);
        RetrievedContext context = retriever(vectorOnly().build()).retrieve(QUERY, scope);
        Map<String, RetrievedChunk> byPath = new HashMap<>();
        context.relevant().forEach(c -> byPath.put(c.document().path(), c));
        assertThat(byPath.get("critical.md").boosted()).isCloseTo(0.85, within(1e-6));
        assertThat(byPath.get("important.md").boosted()).isCloseTo(0.85, within(1e-6));
        assertThat(byPath.get("standard.md").boosted()).isCloseTo(0.80, within(1e-6));
        assertThat(byPath.get("critical.md").similarity()).isCloseTo(0.70, within(1e-6)); // raw score kept
        assertThat(context.relevant().get(2).document().path()).isEqualTo("standard.md");
        assertThat(retriever(vectorOnly().build()).retrieve(QUERY, scope).relevant())
                .as("deterministic").isEqualTo(context.relevant());
    }

    @Test
    void retrieve_boosterIdentity_ordersByRawRelevance() {
        put("critical.md", PromotionLevel.CRITICAL, 0.70);
        put("standard.md", PromotionLevel.STANDARD, 0.80);
        Retriever plain = Retriever.builder().store(store).embedder(embedder)
                .relevanceModel(RelevanceModel.fused()).options(vectorOnly().build())
                .booster(Booster.identity()).build();
        assertThat(plain.retrieve(QUERY, scope).relevant()).extracting(c -> c.document().path())
                .containsExactly("standard.md", "critical.md");
    }

    @Test
    void retrieve_criticalDocuments_appearEvenWhenUnrelatedAndOnlyOnce() {
        put("unrelated-critical.md", PromotionLevel.CRITICAL, 0.0);
        put("matching-critical.md", PromotionLevel.CRITICAL, 0.9, 0.8);
        put("relevant.md", PromotionLevel.STANDARD, 0.6);
        RetrievedContext context = retriever(vectorOnly().includeCritical(true).build()).retrieve(QUERY, scope);
        assertThat(context.critical()).extracting(d -> d.document().path())
                .containsExactly("matching-critical.md", "unrelated-critical.md");
        assertThat(context.relevant()).extracting(c -> c.document().path()).containsExactly("relevant.md");
        RetrievedDocument matching = context.critical().get(0);
        assertThat(matching.boosted()).isCloseTo(1.0, within(1e-6)); // 0.9 + 0.15, capped
        assertThat(matching.text()).contains("part 0").contains("part 1");
        assertThat(context.critical().get(1).relevance()).isNaN();
    }

    @Test
    void retrieve_criticalInjectionAndLinks_neverCrossTenantOrAccessTags() {
        put("other", "critical.md", PromotionLevel.CRITICAL, List.of(), List.of(), "x", 0.9);
        put("acme", "hr-critical.md", PromotionLevel.CRITICAL, List.of("hr"), List.of(), "x", 0.9);
        put("other", "linked.md", PromotionLevel.STANDARD, List.of(), List.of(), "x", 0.1);
        put("acme", "secret-linked.md", PromotionLevel.STANDARD, List.of("hr"), List.of(), "x", 0.1);
        put("acme", "seed.md", PromotionLevel.STANDARD, List.of(), List.of("linked.md", "secret-linked.md"), "x", 0.9);
        RetrievedContext context = retriever(vectorOnly().includeCritical(true).linkDepth(2).build())
                .retrieve(QUERY, scope);
        assertThat(context.critical()).isEmpty();
        assertThat(context.linked()).isEmpty();
        assertThat(context.relevant()).extracting(c -> c.document().path()).containsExactly("seed.md");
        RetrievedContext hr = retriever(vectorOnly().includeCritical(true).linkDepth(2).build())
                .retrieve(QUERY, Scope.of("acme", "hr"));
        assertThat(hr.critical()).extracting(d -> d.document().path()).containsExactly("hr-critical.md");
        assertThat(hr.linked()).extracting(l -> l.document().path()).containsExactly("secret-linked.md");
    }

    @Test
    void retrieve_linkCycleAToBToA_terminatesWithBOnce() {
        put("acme", "a.md", PromotionLevel.STANDARD, List.of(), List.of("b.md"), "x", 0.9);
        put("acme", "b.md", PromotionLevel.STANDARD, List.of(), List.of("a.md"), "x", 0.0);
        RetrievedContext context = retriever(vectorOnly().linkDepth(2).build()).retrieve(QUERY, scope);
        assertThat(context.linked()).singleElement().satisfies(l -> {
            assertThat(l.document().path()).isEqualTo("b.md");
            assertThat(l.linkedFrom()).isEqualTo("a.md");
            assertThat(l.depth()).isEqualTo(1);
            // retrieval hands on complete context: the linked document comes with its chunks
            assertThat(l.chunks()).extracting(StoredChunk::text).containsExactly("x part 0 b.md");
        });
    }

    @Test
    void retrieve_nearDuplicateChunks_collapseToTheBetterOne() {
        put("acme", "copy-1.md", PromotionLevel.STANDARD, List.of(), List.of(), "same words", 0.8);
        put("acme", "copy-2.md", PromotionLevel.STANDARD, List.of(), List.of(), "same words", 0.9);
        // texts differ only in the path word, so Jaccard is 4/6: not duplicates; make them identical
        StoredDocument d3 = StoredDocument.builder().tenant("acme").path("dup-a.md").build();
        StoredDocument d4 = StoredDocument.builder().tenant("acme").path("dup-b.md").build();
        String words = "one two three four five six seven eight nine ten eleven twelve";
        store.upsert(d3, List.of(new StoredChunk(d3.id(), 0, words, atCosine(0.95), 5, 1, 1, null, null)));
        store.upsert(d4, List.of(new StoredChunk(d4.id(), 0, words.toUpperCase() + "!", atCosine(0.94), 5, 1, 1,
                null, null)));
        RetrievedContext context = retriever(vectorOnly().topK(10).candidateCap(30).build()).retrieve(QUERY, scope);
        assertThat(context.relevant()).extracting(c -> c.document().path())
                .containsExactly("dup-a.md", "copy-2.md", "copy-1.md");
        assertThat(context.totalMatches()).isEqualTo(4);
    }

    @Test
    void retrieve_perDocumentCap_keepsAtMostThreeChunksOfOneDocument() {
        put("acme", "long.md", PromotionLevel.STANDARD, List.of(), List.of(), "distinct", 0.99, 0.98, 0.97, 0.96,
                0.95);
        put("short.md", PromotionLevel.STANDARD, 0.5);
        RetrievedContext context = retriever(vectorOnly().build()).retrieve(QUERY, scope);
        assertThat(context.relevant()).extracting(c -> c.document().path())
                .containsExactly("long.md", "long.md", "long.md", "short.md");
        assertThat(context.relevant()).extracting(c -> c.chunk().index()).startsWith(0, 1, 2);
    }

    @Test
    void retrieve_documentGranularity_rollsUpToDocumentsScoredByTheirBestChunk() {
        put("acme", "two.md", PromotionLevel.STANDARD, List.of(), List.of(), "alpha", 0.2, 0.9);
        put("acme", "one.md", PromotionLevel.STANDARD, List.of(), List.of(), "beta", 0.8);
        put("acme", "three.md", PromotionLevel.STANDARD, List.of(), List.of(), "gamma", 0.75);
        RetrievedContext context = retriever(vectorOnly().granularity(RetrievalOptions.Granularity.DOCUMENT)
                .topK(2).minRelevance(0.1).build()).retrieve(QUERY, scope);
        assertThat(context.relevantDocuments()).extracting(d -> d.document().path()).containsExactly("two.md", "one.md");
        RetrievedDocument two = context.relevantDocuments().get(0);
        assertThat(two.boosted()).isCloseTo(0.9, within(1e-6));
        assertThat(two.text()).isEqualTo("alpha part 0 two.md\nalpha part 1 two.md");
        assertThat(two.chunks()).hasSize(2);
    }

    @Test
    void retrieve_fusedHybrid_thresholdsTheFusedScoreInZeroToOne() {
        put("acme", "lexical.md", PromotionLevel.STANDARD, List.of(), List.of(), "question", 0.5);
        put("acme", "semantic.md", PromotionLevel.STANDARD, List.of(), List.of(), "unrelated", 0.6);
        put("acme", "below.md", PromotionLevel.STANDARD, List.of(), List.of(), "unrelated", 0.1);
        RetrievedContext context = retriever(RetrievalOptions.builder().build()).retrieve(QUERY, scope);
        // relative-score fusion, weight 0.5: lexical 0.5·0.8 + 0.5·1 = 0.9, semantic 0.5·1 = 0.5, below 0
        assertThat(context.relevant()).extracting(c -> c.document().path())
                .containsExactly("lexical.md", "semantic.md");
        assertThat(context.relevant().get(0).relevance()).isCloseTo(0.9, org.assertj.core.data.Offset.offset(1e-6));
        assertThat(context.relevant().get(1).relevance()).isCloseTo(0.5, org.assertj.core.data.Offset.offset(1e-6));
    }

    @Test
    void retrieve_neighbourChunks_bringTheChunksAroundEachMatchForTheModel() {
        StoredDocument doc = put("long.md", PromotionLevel.STANDARD, 0.1, 0.1, 0.9, 0.1, 0.1, 0.85, 0.1);

        RetrievedContext one = retriever(vectorOnly().build()).retrieve(QUERY, scope);
        RetrievedContext none = retriever(vectorOnly().neighbourChunks(0).build()).retrieve(QUERY, scope);

        assertThat(one.relevant()).extracting(c -> c.chunk().index()).containsExactly(2, 5);
        assertThat(one.relevantDocuments()).singleElement().satisfies(window -> {
            assertThat(window.document().id()).isEqualTo(doc.id());
            assertThat(window.chunks()).extracting(StoredChunk::index).containsExactly(1, 2, 3, 4, 5, 6);
            assertThat(window.relevance()).isEqualTo(0.9, org.assertj.core.data.Offset.offset(1e-6));
        });
        assertThat(none.relevant()).hasSize(2);
        assertThat(none.relevantDocuments()).isEmpty();
    }

    @Test
    void retrieve_neighbourChunks_aWindowEndsWhereASentenceDoes_notWhereTheChunkerCutOne() {
        // one long paragraph on line 3, cut by the chunker into chunks 0 to 5; chunk 6 is the next paragraph
        StoredDocument d = StoredDocument.builder().tenant("acme").path("cast.md").build();
        String[] texts = {"Before the cast,", "in the film's voice cast,", "the cast includes Edie McClurg as Mary,",
                "Jess Harnell as Don, and", "Katie Lowes as Candlehead;", "Stefanie Scott as Moppet Girl.",
                "It opened in 2012."};
        double[] cosines = {0.1, 0.1, 0.1, 0.9, 0.1, 0.1, 0.1};
        List<StoredChunk> chunks = new ArrayList<>();
        for (int i = 0; i < texts.length; i++) {
            int line = i < 6 ? 3 : 5;
            chunks.add(new StoredChunk(d.id(), i, texts[i], atCosine(cosines[i]), 5, line, line, null, null));
        }
        store.upsert(d, chunks);

        RetrievedContext context = retriever(vectorOnly().build()).retrieve(QUERY, scope);

        // the match (3) and its neighbours (2, 4); chunk 2 starts inside chunk 1's sentence and chunk 4 ends inside
        // chunk 5's (a semicolon ends no sentence), so both come too; not 0 (one chunk more each way at most), not 6 (after a sentence's end)
        assertThat(context.relevantDocuments()).singleElement().satisfies(window -> assertThat(window.chunks())
                .extracting(StoredChunk::index).containsExactly(1, 2, 3, 4, 5));
    }

    @Test
    void retrieve_storeWithASmallMaxK_asksForNoMoreThanItTakes() {
        InMemoryDocumentStore small = InMemoryDocumentStore.builder().maxK(10).build();
        StoredDocument d = StoredDocument.builder().tenant("acme").path("a.md").title("a").build();
        small.upsert(d, List.of(new StoredChunk(d.id(), 0, "text of a", atCosine(0.9), 5, 1, 1, null, null)));

        RetrievedContext context = Retriever.builder().store(small).embedder(embedder)
                .relevanceModel(RelevanceModel.fused()).options(vectorOnly().topK(3).build()).build()
                .retrieve(QUERY, scope);

        assertThat(context.relevant()).hasSize(1);                  // 50 hits would be refused by this store
    }

    @Test
    void retrieve_overrides_changeOnlyThisRequest() {
        put("a.md", PromotionLevel.STANDARD, 0.9);
        put("b.md", PromotionLevel.STANDARD, 0.8);
        Retriever r = retriever(vectorOnly().build());
        assertThat(r.retrieve(QUERY, scope, RetrievalOptions.Overrides.builder().topK(1).build()).relevant())
                .hasSize(1);
        assertThat(r.retrieve(QUERY, scope).relevant()).hasSize(2);
    }

    @Test
    void retrieve_sameQueryTwice_embedsOnce_andReportsStageTimings() {
        put("a.md", PromotionLevel.STANDARD, 0.9);
        Retriever r = retriever(vectorOnly().linkDepth(1).includeCritical(true).build());
        RetrievedContext first = r.retrieve(QUERY, scope);
        r.retrieve(QUERY, scope);
        assertThat(embedder.calls.get()).isEqualTo(1);
        assertThat(first.timings()).containsOnlyKeys("embed", "search", "relevance", "rank", "neighbours", "critical",
                "links");
    }

    @Test
    void retrieve_badArguments_areRejectedClearly() {
        Retriever r = retriever(vectorOnly().build());
        assertThatThrownBy(() -> r.retrieve("  ", scope)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("blank");
        assertThatThrownBy(() -> r.retrieve(QUERY, null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> Retriever.builder().store(store).build()).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("embedder");
    }

    @Test
    void retrieve_nothingQualifies_returnsAnEmptyContext() {
        put("a.md", PromotionLevel.STANDARD, 0.1);
        assertThat(retriever(vectorOnly().build()).retrieve(QUERY, scope).isEmpty()).isTrue();
    }

    /** Answers the query with (1, 0, 0, 0) and counts calls. */
    private static class ScriptedEmbedder implements Embedder {
        final AtomicInteger calls = new AtomicInteger();

        @Override
        public float[][] embed(List<String> texts) {
            calls.incrementAndGet();
            float[][] out = new float[texts.size()][];
            for (int i = 0; i < out.length; i++) {
                out[i] = new float[] {1, 0, 0, 0};
            }
            return out;
        }

        @Override
        public int dimension() {
            return 4;
        }

        @Override
        public String name() {
            return "scripted";
        }
    }

    @Test
    void build_settingsThatWouldBeIgnored_failNamingThem() {
        dev.ragkit.embedding.Embedder caching = dev.ragkit.embedding.CachingEmbedder.of(
                new dev.ragkit.testing.HashedBagOfWordsEmbedder("toy", 4));
        assertThatThrownBy(() -> Retriever.builder().store(store).embedder(caching).queryCacheSize(10).build())
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("caches already");
        assertThatThrownBy(() -> Retriever.builder().store(store).embedder(caching)
                .queryRedaction(dev.ragkit.audit.QueryRedaction.NONE).build())
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("without auditSink");
        assertThat(Retriever.builder().store(store).embedder(caching).auditSink(r -> { })
                .queryRedaction(dev.ragkit.audit.QueryRedaction.NONE).build()).isNotNull();
    }
}
