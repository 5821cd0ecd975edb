package dev.ragkit.store;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One piece of a document's text with its embedding and the place it came from.
 *
 * <p>Its citation id is {@link #sourceId()}: {@code documentId + ":" + index}.
 *
 * <p>The embedding is copied on construction and on every call of {@link #embedding()}, so a chunk is
 * immutable. It is {@code null} only in chunks a store returns from
 * {@link DocumentStore#search(SearchRequest)}, which carry no vectors; {@link DocumentStore#chunks} returns
 * them, and {@link DocumentStore#upsert} requires them. A non-null embedding holds only finite values
 * and is not all zeros.
 *
 * @param documentId the id of the document this chunk belongs to; not blank
 * @param index      the chunk's position in its document, from 0
 * @param text       the chunk's text, exactly as it stands in the document's lines
 * @param embedding  the chunk's vector, or {@code null} in search results
 * @param tokenCount the chunk's token count as measured at ingestion; not negative
 * @param startLine  first line of the chunk in its document, 1-based, inclusive
 * @param endLine    last line of the chunk in its document, 1-based, inclusive, {@code >= startLine}
 * @param section    the heading path of the chunk (e.g. {@code Install > Linux}), or {@code null}
 * @param page       the page number for paged sources, 1-based, or {@code null}
 */
public record StoredChunk(
        String documentId,
        int index,
        String text,
        float @Nullable [] embedding,
        int tokenCount,
        int startLine,
        int endLine,
        @Nullable String section,
        @Nullable Integer page) {

    /**
     * Validates and copies the arguments.
     *
     * @throws IllegalArgumentException on a negative index or token count, a bad line range, a page below 1,
     *                                  or an embedding that is empty, zero or not finite
     */
    public StoredChunk {
        documentId = Scope.requireText(documentId, "documentId");
        if (index < 0) {
            throw new IllegalArgumentException("chunk index must not be negative, got " + index);
        }
        Objects.requireNonNull(text, "text");
        if (embedding != null) {
            requireUsableVector(embedding, "chunk " + documentId + ":" + index + " embedding");
            embedding = embedding.clone();
        }
        if (tokenCount < 0) {
            throw new IllegalArgumentException("tokenCount must not be negative, got " + tokenCount);
        }
        if (startLine < 1 || endLine < startLine) {
            throw new IllegalArgumentException("line range must be 1-based with startLine <= endLine, got "
                    + startLine + "-" + endLine);
        }
        if (section != null && section.isBlank()) {
            section = null;
        }
        if (page != null && page < 1) {
            throw new IllegalArgumentException("page must be 1 or more, got " + page);
        }
    }

    /**
     * A copy of the embedding.
     *
     * @return a fresh copy of the vector, or {@code null} when this chunk came from a search result
     */
    @Override
    public float @Nullable [] embedding() {
        return embedding == null ? null : embedding.clone();
    }

    /**
     * The embedding's dimension.
     *
     * @return the vector length, or 0 when this chunk carries no vector
     */
    public int dimension() {
        return embedding == null ? 0 : embedding.length;
    }

    /**
     * The citation id of this chunk.
     *
     * @return {@code documentId + ":" + index}
     */
    public String sourceId() {
        return documentId + ":" + index;
    }

    /**
     * This chunk without its vector, as search results carry it.
     *
     * @return an equal chunk whose embedding is {@code null}
     */
    public StoredChunk withoutEmbedding() {
        return embedding == null ? this
                : new StoredChunk(documentId, index, text, null, tokenCount, startLine, endLine, section, page);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof StoredChunk c
                && index == c.index && tokenCount == c.tokenCount
                && startLine == c.startLine && endLine == c.endLine
                && documentId.equals(c.documentId) && text.equals(c.text)
                && Arrays.equals(embedding, c.embedding)
                && Objects.equals(section, c.section) && Objects.equals(page, c.page);
    }

    @Override
    public int hashCode() {
        return Objects.hash(documentId, index, text, Arrays.hashCode(embedding), tokenCount, startLine, endLine,
                section, page);
    }

    @Override
    public String toString() {
        return "StoredChunk[" + sourceId() + ", lines " + startLine + "-" + endLine
                + ", tokens " + tokenCount + ", dimension " + dimension()
                + (section == null ? "" : ", section " + section)
                + ", text " + (text.length() > 40 ? text.substring(0, 40) + "…" : text) + "]";
    }

    /**
     * The checks every store makes on {@link DocumentStore#upsert} input before it writes anything, in one place:
     * no null chunk, every chunk belongs to {@code document}, indexes are {@code 0..n-1} in order, every chunk has
     * an embedding, and all embeddings have one dimension — {@code dimension} when it is positive (the store's),
     * else the first chunk's.
     *
     * @param document  the document being stored
     * @param chunks    its chunks
     * @param dimension the store's dimension, or 0 while it is not fixed
     * @return the chunks' dimension, or 0 when there are no chunks
     * @throws NullPointerException     on a null chunk
     * @throws IllegalArgumentException on any other violation, naming the chunk and the fix
     */
    public static int requireUpsertable(StoredDocument document, List<StoredChunk> chunks, int dimension) {
        Objects.requireNonNull(document, "document");
        Objects.requireNonNull(chunks, "chunks");
        int dim = dimension;
        for (int i = 0; i < chunks.size(); i++) {
            StoredChunk chunk = Objects.requireNonNull(chunks.get(i), "chunks[" + i + "]");
            if (!chunk.documentId().equals(document.id())) {
                throw new IllegalArgumentException("chunk " + chunk.sourceId() + " belongs to document "
                        + chunk.documentId() + ", not to document " + document.id() + " (" + document.path() + ")");
            }
            if (chunk.index() != i) {
                throw new IllegalArgumentException("chunk indexes must be 0.." + (chunks.size() - 1)
                        + " in order; position " + i + " holds index " + chunk.index() + " (document "
                        + document.path() + ")");
            }
            float[] vector = chunk.embedding;
            if (vector == null) {
                throw new IllegalArgumentException("chunk " + chunk.sourceId() + " has no embedding; embed every"
                        + " chunk before storing it");
            }
            if (dim == 0) {
                dim = vector.length;
            } else if (vector.length != dim) {
                throw new IllegalArgumentException("chunk " + chunk.sourceId() + " has dimension " + vector.length
                        + ", expected " + dim + (dimension > 0 ? " (the store's)" : " (the document's first chunk's)")
                        + "; embed every chunk with the same model");
            }
        }
        return chunks.isEmpty() ? 0 : dim;
    }

    /**
     * Checks that {@code vector} can take part in cosine similarity: not empty, every value finite, not all
     * zeros.
     *
     * @param vector the vector
     * @param what   how to name the vector in the message
     * @throws IllegalArgumentException when it cannot
     */
    static void requireUsableVector(float[] vector, String what) {
        if (vector.length == 0) {
            throw new IllegalArgumentException(what + " is empty");
        }
        boolean nonZero = false;
        for (int i = 0; i < vector.length; i++) {
            float v = vector[i];
            if (!Float.isFinite(v)) {
                throw new IllegalArgumentException(what + " has a non-finite value (" + v + ") at position " + i
                        + "; check the embedding model's output");
            }
            nonZero |= v != 0f;
        }
        if (!nonZero) {
            throw new IllegalArgumentException(what + " is all zeros, so cosine similarity is undefined;"
                    + " check the embedding model's output");
        }
    }
}
