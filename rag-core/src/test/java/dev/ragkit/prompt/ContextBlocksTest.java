package dev.ragkit.prompt;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ragkit.retrieval.LinkedDocument;
import dev.ragkit.retrieval.RetrievedChunk;
import dev.ragkit.retrieval.RetrievedContext;
import dev.ragkit.retrieval.RetrievedDocument;
import dev.ragkit.store.PromotionLevel;
import dev.ragkit.store.StoredChunk;
import dev.ragkit.store.StoredDocument;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

final class ContextBlocksTest {

    private static StoredDocument document(String path) {
        return StoredDocument.builder().tenant("acme").path(path).build();
    }

    private static StoredChunk chunk(StoredDocument d, int index, int startLine, int endLine) {
        StringBuilder text = new StringBuilder();
        for (int line = startLine; line <= endLine; line++) {
            text.append(line == startLine ? "" : "\n").append(d.path()).append(" line ").append(line);
        }
        return new StoredChunk(d.id(), index, text.toString(), null, 5, startLine, endLine, null, null);
    }

    /** Chunks 0 (lines 1-3), 1 (lines 3-5, overlapping line 3) and 2 (lines 6-7). */
    private static List<StoredChunk> threeChunks(StoredDocument d) {
        return List.of(chunk(d, 0, 1, 3), chunk(d, 1, 3, 5), chunk(d, 2, 6, 7));
    }

    private static RetrievedContext context(List<RetrievedDocument> critical, List<RetrievedChunk> relevant,
            List<RetrievedDocument> relevantDocuments, List<LinkedDocument> linked) {
        return new RetrievedContext(critical, relevant, relevantDocuments, linked, relevant.size(), Map.of());
    }

    @Test
    void of_chunkGranularity_oneRelevantBlockPerChunkWithItsScores() {
        StoredDocument a = document("a.md");
        StoredDocument b = document("b.md");
        RetrievedChunk a2 = new RetrievedChunk(chunk(a, 2, 4, 6), a, 0.9, 0.8, 0.85);
        RetrievedChunk b0 = new RetrievedChunk(chunk(b, 0, 1, 2), b, Double.NaN, 0.6, 0.7);
        RetrievedChunk a0 = new RetrievedChunk(chunk(a, 0, 1, 3), a, 0.5, 0.4, 0.45);

        List<ContextBlock> blocks = ContextBlocks.of(context(List.of(), List.of(a2, b0, a0), List.of(), List.of()));

        assertThat(blocks).extracting(ContextBlock::sourceId)
                .containsExactly(a2.sourceId(), b0.sourceId(), a0.sourceId());
        assertThat(blocks).allSatisfy(block -> {
            assertThat(block.kind()).isEqualTo(ContextBlock.Kind.RELEVANT);
            assertThat(block.text()).isEqualTo(block.chunk().text());
            assertThat(block.startLine()).isEqualTo(block.chunk().startLine());
            assertThat(block.endLine()).isEqualTo(block.chunk().endLine());
            assertThat(block.linkedFrom()).isNull();
            assertThat(block.truncated()).isFalse();
        });
        ContextBlock first = blocks.get(0);
        assertThat(first.document()).isEqualTo(a);
        assertThat(first.similarity()).isEqualTo(0.9);
        assertThat(first.relevance()).isEqualTo(0.8);
        assertThat(first.boosted()).isEqualTo(0.85);
        assertThat(blocks.get(1).similarity()).isNaN();
        assertThat(blocks.get(1).relevance()).isEqualTo(0.6);
        assertThat(blocks.get(1).boosted()).isEqualTo(0.7);
        assertThat(blocks.get(2).boosted()).isEqualTo(0.45);
    }

    @Test
    void of_documentGranularity_segmentsOfTheDocumentAndOnlyMatchedChunksCarryScores() {
        StoredDocument a = document("a.md").toBuilder().promotionLevel(PromotionLevel.IMPORTANT).build();
        List<StoredChunk> chunks = threeChunks(a);
        RetrievedChunk matched = new RetrievedChunk(chunks.get(1), a, 0.8, 0.7, 0.8);
        RetrievedDocument doc = RetrievedDocument.of(a, chunks, 0.7, 0.8);

        List<ContextBlock> blocks = ContextBlocks.of(context(List.of(), List.of(matched), List.of(doc), List.of()));

        assertThat(blocks).extracting(ContextBlock::sourceId)
                .containsExactly(a.id() + ":0", a.id() + ":1", a.id() + ":2");
        assertThat(blocks).extracting(ContextBlock::kind).containsOnly(ContextBlock.Kind.RELEVANT);
        assertThat(blocks).extracting(ContextBlock::boosted).containsOnly(0.8);
        // Lines are shown once: chunk 1 starts after the line chunk 0 already showed.
        assertThat(blocks).extracting(ContextBlock::startLine).containsExactly(1, 4, 6);
        assertThat(blocks).extracting(ContextBlock::endLine).containsExactly(3, 5, 7);
        assertThat(blocks.get(1).text()).isEqualTo("a.md line 4\na.md line 5");
        assertThat(blocks.get(1).similarity()).isEqualTo(0.8);
        assertThat(blocks.get(1).relevance()).isEqualTo(0.7);
        assertThat(blocks.get(0).similarity()).isNaN();
        assertThat(blocks.get(0).relevance()).isNaN();
        assertThat(blocks.get(2).similarity()).isNaN();
        assertThat(blocks.get(2).relevance()).isNaN();
    }

    @Test
    void of_documentGranularity_documentBoostedComesFromTheDocumentNotTheChunk() {
        StoredDocument a = document("a.md");
        List<StoredChunk> chunks = List.of(chunk(a, 0, 1, 2));
        RetrievedChunk matched = new RetrievedChunk(chunks.get(0), a, 0.5, 0.5, 0.5);

        List<ContextBlock> blocks = ContextBlocks.of(context(List.of(), List.of(matched),
                List.of(RetrievedDocument.of(a, chunks, 0.5, 0.9)), List.of()));

        assertThat(blocks).singleElement().satisfies(block -> {
            assertThat(block.boosted()).isEqualTo(0.9);
            assertThat(block.relevance()).isEqualTo(0.5);
        });
    }

    @Test
    void of_criticalDocuments_segmentsOfKindCriticalWithNaNSimilarity() {
        StoredDocument unmatched = document("policy.md").toBuilder().promotionLevel(PromotionLevel.CRITICAL).build();
        StoredDocument matched = document("rules.md").toBuilder().promotionLevel(PromotionLevel.CRITICAL).build();
        RetrievedDocument p = RetrievedDocument.of(unmatched, threeChunks(unmatched), Double.NaN, Double.NaN);
        RetrievedDocument r = RetrievedDocument.of(matched, List.of(chunk(matched, 0, 1, 2)), 0.6, 0.75);

        List<ContextBlock> blocks = ContextBlocks.of(context(List.of(p, r), List.of(), List.of(), List.of()));

        assertThat(blocks).extracting(ContextBlock::sourceId).containsExactly(unmatched.id() + ":0",
                unmatched.id() + ":1", unmatched.id() + ":2", matched.id() + ":0");
        assertThat(blocks).extracting(ContextBlock::kind).containsOnly(ContextBlock.Kind.CRITICAL);
        assertThat(blocks).allSatisfy(block -> {
            assertThat(block.similarity()).isNaN();
            assertThat(block.linkedFrom()).isNull();
        });
        assertThat(blocks).extracting(ContextBlock::startLine).containsExactly(1, 4, 6, 1);
        assertThat(blocks.get(0).boosted()).isNaN();
        assertThat(blocks.get(3).relevance()).isEqualTo(0.6);
        assertThat(blocks.get(3).boosted()).isEqualTo(0.75);
    }

    @Test
    void of_linkedDocuments_splitIntoTheirChunks_blocksAreLinkedWithTheirOrigin() {
        StoredDocument l1 = document("l1.md");
        StoredDocument l2 = document("l2.md");
        LinkedDocument first = new LinkedDocument(l1, "a.md", 1, threeChunks(l1));
        LinkedDocument second = new LinkedDocument(l2, "l1.md", 2, List.of(chunk(l2, 0, 1, 1)));

        List<ContextBlock> blocks = ContextBlocks.of(context(List.of(), List.of(), List.of(),
                List.of(first, second)));

        assertThat(blocks).extracting(ContextBlock::sourceId).containsExactly(l1.id() + ":0", l1.id() + ":1",
                l1.id() + ":2", l2.id() + ":0");
        assertThat(blocks).extracting(ContextBlock::kind).containsOnly(ContextBlock.Kind.LINKED);
        assertThat(blocks).extracting(ContextBlock::linkedFrom).containsExactly("a.md", "a.md", "a.md", "l1.md");
        assertThat(blocks).extracting(ContextBlock::startLine).containsExactly(1, 4, 6, 1);
        assertThat(blocks).allSatisfy(block -> {
            assertThat(block.similarity()).isNaN();
            assertThat(block.relevance()).isNaN();
            assertThat(block.boosted()).isNaN();
        });
    }

    @Test
    void of_duplicateSourceIds_keptOnceAndTheFirstWins() {
        StoredDocument c = document("critical.md").toBuilder().promotionLevel(PromotionLevel.CRITICAL).build();
        StoredChunk c0 = chunk(c, 0, 1, 2);
        StoredDocument a = document("a.md");
        RetrievedChunk a0 = new RetrievedChunk(chunk(a, 0, 1, 2), a, 0.9, 0.9, 0.9);
        RetrievedChunk a0Again = new RetrievedChunk(chunk(a, 0, 1, 2), a, 0.4, 0.4, 0.4);
        RetrievedChunk c0AsRelevant = new RetrievedChunk(c0, c, 0.7, 0.7, 0.85);
        LinkedDocument cLinked = new LinkedDocument(c, "a.md", 1, List.of(c0));

        List<ContextBlock> blocks = ContextBlocks.of(context(
                List.of(RetrievedDocument.of(c, List.of(c0), Double.NaN, Double.NaN)),
                List.of(a0, c0AsRelevant, a0Again), List.of(), List.of(cLinked)));

        assertThat(blocks).extracting(ContextBlock::sourceId).containsExactly(c0.sourceId(), a0.sourceId());
        assertThat(blocks.get(0).kind()).isEqualTo(ContextBlock.Kind.CRITICAL);
        assertThat(blocks.get(0).similarity()).isNaN();
        assertThat(blocks.get(1).similarity()).isEqualTo(0.9);
    }

    @Test
    void of_everyKind_orderIsCriticalThenRelevantThenLinked() {
        StoredDocument c = document("critical.md").toBuilder().promotionLevel(PromotionLevel.CRITICAL).build();
        StoredDocument a = document("a.md");
        StoredDocument l = document("l.md");
        RetrievedChunk a0 = new RetrievedChunk(chunk(a, 0, 1, 2), a, 0.9, 0.9, 0.9);

        List<ContextBlock> blocks = ContextBlocks.of(context(
                List.of(RetrievedDocument.of(c, List.of(chunk(c, 0, 1, 2)), Double.NaN, Double.NaN)),
                List.of(a0), List.of(), List.of(new LinkedDocument(l, "a.md", 1, List.of(chunk(l, 0, 1, 3))))));

        assertThat(blocks).extracting(ContextBlock::kind).containsExactly(ContextBlock.Kind.CRITICAL,
                ContextBlock.Kind.RELEVANT, ContextBlock.Kind.LINKED);
        assertThat(blocks).extracting(ContextBlock::document).containsExactly(c, a, l);
    }

    @Test
    void of_emptyContext_noBlocks() {
        assertThat(ContextBlocks.of(context(List.of(), List.of(), List.of(), List.of()))).isEmpty();
    }

    @Test
    void of_null_isRejected() {
        assertThatThrownBy(() -> ContextBlocks.of(null)).isInstanceOf(NullPointerException.class)
                .hasMessageContaining("context");
    }
}
