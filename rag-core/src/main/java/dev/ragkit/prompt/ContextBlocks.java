package dev.ragkit.prompt;

import dev.ragkit.retrieval.DocumentSegment;
import dev.ragkit.retrieval.LinkedDocument;
import dev.ragkit.retrieval.RetrievedChunk;
import dev.ragkit.retrieval.RetrievedContext;
import dev.ragkit.retrieval.RetrievedDocument;
import dev.ragkit.store.StoredChunk;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/** Turns retrieved context into citable {@link ContextBlock}s. */
public final class ContextBlocks {

    private ContextBlocks() {
    }

    /**
     * One block per chunk of context, each line of a document shown once: critical documents and relevant
     * documents (document granularity) are split back into their chunks' segments, relevant chunks become one
     * block each, and linked documents are split like whole documents. A SourceId appears at most once.
     *
     * @param context what retrieval found, linked documents with their chunks
     * @return the candidate blocks in retrieval order: critical, relevant, linked
     */
    public static List<ContextBlock> of(RetrievedContext context) {
        Objects.requireNonNull(context, "context");
        List<ContextBlock> blocks = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (RetrievedDocument d : context.critical()) {
            for (DocumentSegment s : d.segments()) {
                add(blocks, seen, new ContextBlock(ContextBlock.Kind.CRITICAL, d.document(), s.chunk(), s.text(),
                        s.startLine(), s.endLine(), Double.NaN, d.relevance(), d.boosted(), null, false));
            }
        }
        if (context.relevantDocuments().isEmpty()) {
            for (RetrievedChunk c : context.relevant()) {
                add(blocks, seen, new ContextBlock(ContextBlock.Kind.RELEVANT, c.document(), c.chunk(),
                        c.chunk().text(), c.chunk().startLine(), c.chunk().endLine(), c.similarity(), c.relevance(),
                        c.boosted(), null, false));
            }
        } else {
            Map<String, RetrievedChunk> matched = new HashMap<>();
            context.relevant().forEach(c -> matched.putIfAbsent(c.sourceId(), c));
            for (RetrievedDocument d : context.relevantDocuments()) {
                for (DocumentSegment s : d.segments()) {
                    RetrievedChunk m = matched.get(s.chunk().sourceId());
                    add(blocks, seen, new ContextBlock(ContextBlock.Kind.RELEVANT, d.document(), s.chunk(), s.text(),
                            s.startLine(), s.endLine(), m == null ? Double.NaN : m.similarity(),
                            m == null ? Double.NaN : m.relevance(), d.boosted(), null, false));
                }
            }
        }
        for (LinkedDocument l : context.linked()) {
            for (DocumentSegment s : DocumentSegment.of(l.chunks())) {
                add(blocks, seen, new ContextBlock(ContextBlock.Kind.LINKED, l.document(), s.chunk(), s.text(),
                        s.startLine(), s.endLine(), Double.NaN, Double.NaN, Double.NaN, l.linkedFrom(), false));
            }
        }
        return blocks;
    }

    private static void add(List<ContextBlock> blocks, Set<String> seen, ContextBlock block) {
        if (seen.add(block.sourceId())) {
            blocks.add(block);
        }
    }
}
