package dev.ragkit;

import dev.ragkit.prompt.ContextBlock;
import dev.ragkit.store.StoredDocument;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/** Rolls a prompt's blocks up to the documents shown to the caller. */
final class Sources {

    private Sources() {
    }

    /** The critical and relevant documents, in prompt order, each with its best scores. */
    static List<Source> of(List<ContextBlock> blocks) {
        Map<String, double[]> best = new LinkedHashMap<>();
        Map<String, StoredDocument> documents = new LinkedHashMap<>();
        for (ContextBlock b : blocks) {
            if (b.kind() == ContextBlock.Kind.LINKED) {
                continue;
            }
            documents.putIfAbsent(b.document().id(), b.document());
            double[] s = best.computeIfAbsent(b.document().id(),
                    id -> new double[] {Double.NaN, Double.NaN, Double.NaN});
            s[0] = max(s[0], b.similarity());
            s[1] = max(s[1], b.relevance());
            s[2] = max(s[2], b.boosted());
        }
        List<Source> sources = new ArrayList<>(documents.size());
        for (StoredDocument d : documents.values()) {
            double[] s = best.get(d.id());
            sources.add(new Source(d.id(), d.path(), d.title(), d.charCount(), orNull(s[0]), orNull(s[1]),
                    orNull(s[2]), d.promotionLevel()));
        }
        return sources;
    }

    /** The linked documents, in prompt order. */
    static List<LinkedSource> linked(List<ContextBlock> blocks) {
        Map<String, LinkedSource> linked = new LinkedHashMap<>();
        for (ContextBlock b : blocks) {
            if (b.kind() == ContextBlock.Kind.LINKED && b.linkedFrom() != null) {
                StoredDocument d = b.document();
                linked.putIfAbsent(d.id(), new LinkedSource(d.id(), d.path(), d.title(), d.charCount(),
                        b.linkedFrom()));
            }
        }
        return new ArrayList<>(linked.values());
    }

    private static @Nullable Double orNull(double value) {
        return Double.isNaN(value) ? null : value;
    }

    private static double max(double a, double b) {
        if (Double.isNaN(a)) {
            return b;
        }
        return Double.isNaN(b) ? a : Math.max(a, b);
    }
}
