package dev.ragkit.retrieval;

import dev.ragkit.store.StoredChunk;
import dev.ragkit.store.StoredDocument;
import java.util.List;
import java.util.Objects;

/**
 * A whole document in the context: a critical document, or a relevant one at document granularity. Its text is
 * reassembled from its chunks in line order, with chunk overlaps removed.
 *
 * @param document  the document
 * @param text      the reassembled text
 * @param chunks    its chunks in index order (without embeddings), for citations
 * @param relevance the best chunk's relevance before boosting, or {@code NaN} for a critical document that did
 *                  not match the query
 * @param boosted   the best chunk's boosted relevance, or {@code NaN} likewise
 */
public record RetrievedDocument(StoredDocument document, String text, List<StoredChunk> chunks, double relevance,
        double boosted) {

    /** Validates and copies the arguments. */
    public RetrievedDocument {
        Objects.requireNonNull(document, "document");
        Objects.requireNonNull(text, "text");
        chunks = List.copyOf(Objects.requireNonNull(chunks, "chunks"));
    }

    /**
     * Reassembles a document from its chunks: overlapping lines are written once, parts of a split line are
     * joined with a space, and a gap in line numbers (blank lines trimmed from chunk edges) becomes a blank line.
     *
     * @param document  the document
     * @param chunks    its chunks in index order (without embeddings)
     * @param relevance the best chunk's relevance, or {@code NaN}
     * @param boosted   the best chunk's boosted relevance, or {@code NaN}
     * @return the document with its text
     */
    public static RetrievedDocument of(StoredDocument document, List<StoredChunk> chunks, double relevance,
            double boosted) {
        return new RetrievedDocument(document, DocumentSegment.join(DocumentSegment.of(chunks)), chunks, relevance,
                boosted);
    }

    /**
     * @return the text split back into the chunks it came from, each line once ({@link DocumentSegment#of})
     */
    public List<DocumentSegment> segments() {
        return DocumentSegment.of(chunks);
    }
}
