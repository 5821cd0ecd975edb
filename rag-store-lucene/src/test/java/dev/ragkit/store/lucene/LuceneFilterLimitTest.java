package dev.ragkit.store.lucene;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ragkit.store.MetadataFilter;
import dev.ragkit.store.PromotionLevel;
import dev.ragkit.store.Scope;
import dev.ragkit.store.SearchHit;
import dev.ragkit.store.SearchRequest;
import dev.ragkit.store.StoredChunk;
import dev.ragkit.store.StoredDocument;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The parser's limits ({@link MetadataFilter#MAX_CONDITIONS}, {@link MetadataFilter#MAX_NESTING}) fit Lucene's
 * 1,024-clause budget: the largest filter the parser reads, beside the longest text query and every scope and
 * type clause, is answered (issue 28: more clauses were an unexpected {@code TooManyClauses}).
 */
final class LuceneFilterLimitTest {
    @TempDir
    Path tmp;

    @Test
    void theLargestParsableFilter_besideTheLongestTextQuery_isAnswered() {
        try (LuceneDocumentStore store = LuceneDocumentStore.builder().directory(tmp.resolve("idx")).build()) {
            StoredDocument doc = StoredDocument.builder().tenant("t").path("a.md").docType("guide")
                    .promotionLevel(PromotionLevel.CRITICAL).accessTags("eng").metadata(Map.of("k", "keep"))
                    .build();
            StoredChunk chunk = new StoredChunk(doc.id(), 0, "word1 word2 word3", new float[] {1, 0, 0, 0}, 3, 1, 1,
                    null, null);
            store.upsert(doc, List.of(chunk));

            // every condition a '!=': a comparison and a 'not', each its own Lucene clause
            List<String> notEquals = new ArrayList<>();
            for (int i = 0; i < MetadataFilter.MAX_CONDITIONS / 2; i++) {
                notEquals.add("k != v" + i);
            }
            String widest = String.join(" and ", notEquals);
            int n = MetadataFilter.MAX_NESTING;
            String deepest = "(".repeat(n / 2) + "not ".repeat(n / 2) + "k = keep" + ")".repeat(n / 2);
            List<String> words = new ArrayList<>();
            for (int i = 0; i < 2_000; i++) {
                words.add("word" + i);                // more distinct terms than the text query keeps (512)
            }

            for (String filter : List.of(widest, deepest)) {
                List<SearchHit> hits = store.search(SearchRequest.builder(Scope.of("t", "eng", "hr"))
                        .vector(new float[] {1, 0, 0, 0}).text(String.join(" ", words)).k(5).docTypes("guide")
                        .minPromotion(PromotionLevel.CRITICAL).metadataFilter(filter).build());

                assertThat(hits).extracting(SearchHit::sourceId).containsExactly(chunk.sourceId());
            }
        }
    }
}
