package dev.ragkit.prompt;

import dev.ragkit.store.StoredChunk;
import dev.ragkit.store.StoredDocument;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One citable piece of context: the part of a chunk that goes into the prompt under its
 * {@code [SourceId: documentId:chunkIndex]} header.
 *
 * @param kind       which section of the prompt it belongs to
 * @param document   its document
 * @param chunk      its chunk (without embedding)
 * @param text       the text shown; for whole documents, the chunk's lines not already shown by the previous chunk
 * @param startLine  first line of {@code text} in the document, 1-based
 * @param endLine    last line of {@code text}, {@code >= startLine}
 * @param similarity the raw cosine similarity of the chunk to the question, or {@code NaN} when it was not
 *                   matched (critical or linked documents) or matched by keywords only
 * @param relevance  the relevance before boosting, or {@code NaN} when not matched
 * @param boosted    the score the block is ranked by: the chunk's relevance after the promotion boost, or for
 *                   whole documents the document's (its best chunk's); {@code NaN} when there is none
 * @param linkedFrom for linked documents, the path of the document that linked here; otherwise {@code null}
 * @param truncated  whether the token budget cut {@code text} short
 */
public record ContextBlock(Kind kind, StoredDocument document, StoredChunk chunk, String text, int startLine,
        int endLine, double similarity, double relevance, double boosted, @Nullable String linkedFrom,
        boolean truncated) {

    /** The prompt section a block belongs to, in priority order. */
    public enum Kind {
        /** A document the organisation marked critical: always included, first. */
        CRITICAL,
        /** A chunk (or a chunk of a document) that matched the question. */
        RELEVANT,
        /** A chunk of a document that a relevant document links to. */
        LINKED
    }

    /**
     * Validates the arguments.
     *
     * @throws IllegalArgumentException when the chunk is not the document's, the line range is not within the
     *                                  chunk's, or a linked block does not say where it was linked from
     */
    public ContextBlock {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(document, "document");
        Objects.requireNonNull(chunk, "chunk");
        Objects.requireNonNull(text, "text");
        if (!chunk.documentId().equals(document.id())) {
            throw new IllegalArgumentException("chunk " + chunk.sourceId() + " does not belong to " + document.id());
        }
        if (startLine < chunk.startLine() || endLine > chunk.endLine() || endLine < startLine) {
            throw new IllegalArgumentException("lines " + startLine + "-" + endLine + " are not within chunk "
                    + chunk.sourceId() + " (" + chunk.startLine() + "-" + chunk.endLine() + ")");
        }
        if ((kind == Kind.LINKED) != (linkedFrom != null)) {
            throw new IllegalArgumentException("linkedFrom is required for linked blocks and only for them");
        }
    }

    /** @return the citation id, {@code documentId:chunkIndex} */
    public String sourceId() {
        return chunk.sourceId();
    }

    /**
     * @return the score retrieval matched this block with, for the confidence's retrieval signal: its calibrated
     *         relevance, which means the same on every embedder (the raw cosine does not), or {@code NaN} when it was
     *         not matched (critical or linked documents)
     */
    public double matchScore() {
        return relevance;
    }

    /**
     * @param keptText    the first lines of {@link #text()} that fit
     * @param keptEndLine the last line they reach
     * @return this block cut to {@code keptText} and marked truncated
     */
    public ContextBlock truncate(String keptText, int keptEndLine) {
        return new ContextBlock(kind, document, chunk, keptText, startLine, keptEndLine, similarity, relevance,
                boosted, linkedFrom, true);
    }
}
