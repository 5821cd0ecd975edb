package dev.ragkit.store.inmemory;

import dev.ragkit.store.StoredChunk;
import dev.ragkit.store.StoredDocument;

/**
 * One stored version of a document inside one generation of a tenant's index. Immutable. Its chunks carry
 * no embeddings: the vectors live in the generation's contiguous array, rows
 * {@code firstRow .. firstRow + chunks.length - 1}.
 */
final class DocEntry {
    final StoredDocument document;
    final StoredChunk[] chunks;
    final int generation;
    final int ordinal;
    final int firstRow;
    /** The document type's id in the tenant's dictionary, or -1 for no type. */
    final int typeId;
    /** The access tags' ids in the tenant's dictionary, sorted; empty for an untagged document. */
    final int[] tagIds;
    /** Keyword-index tokens in all chunks, for the BM25 average length. */
    final long tokenTotal;

    DocEntry(StoredDocument document, StoredChunk[] chunks, int generation, int ordinal, int firstRow, int typeId,
            int[] tagIds, long tokenTotal) {
        this.document = document;
        this.chunks = chunks;
        this.generation = generation;
        this.ordinal = ordinal;
        this.firstRow = firstRow;
        this.typeId = typeId;
        this.tagIds = tagIds;
        this.tokenTotal = tokenTotal;
    }

    int rowCount() {
        return chunks.length;
    }
}
