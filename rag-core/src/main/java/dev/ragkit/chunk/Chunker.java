package dev.ragkit.chunk;

import dev.ragkit.parse.ParsedDocument;

import java.util.List;

/**
 * Splits a document's body into chunks small enough to embed and to fit a prompt. Implementations are
 * thread-safe and deterministic. The default is {@link TokenWindowChunker}.
 */
public interface Chunker {

    /**
     * Chunks the body of {@code document}.
     *
     * @param document the parsed document
     * @return the chunks in order, indexed from 0; empty for an empty or blank body
     */
    List<TextChunk> chunk(ParsedDocument document);
}
