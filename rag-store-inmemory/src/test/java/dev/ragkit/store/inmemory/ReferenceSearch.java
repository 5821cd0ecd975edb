package dev.ragkit.store.inmemory;

import dev.ragkit.store.SearchRequest;
import dev.ragkit.store.StoredChunk;
import dev.ragkit.store.StoredDocument;
import dev.ragkit.store.tck.DocumentStoreContract;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/** The textbook definition of an exact filtered cosine top-k, in double precision, for comparison. */
final class ReferenceSearch {
    private ReferenceSearch() {
    }

    record Scored(String sourceId, String documentId, int index, double similarity) {
    }

    record Entry(StoredDocument document, StoredChunk chunk) {
    }

    static List<Scored> topK(List<Entry> live, SearchRequest request) {
        float[] q = request.queryVector();
        List<Scored> all = new ArrayList<>();
        for (Entry e : live) {
            if (!request.scope().canSee(e.document())
                    || !request.accepts(e.document().docType(), e.document().promotionLevel())) {
                continue;
            }
            double cosine = Math.max(0, Math.min(1, DocumentStoreContract.cosine(q, e.chunk().embedding())));
            all.add(new Scored(e.chunk().sourceId(), e.document().id(), e.chunk().index(), cosine));
        }
        all.sort(Comparator.comparingDouble(Scored::similarity).reversed()
                .thenComparing(Scored::documentId).thenComparingInt(Scored::index));
        return all.subList(0, Math.min(request.k(), all.size()));
    }
}
