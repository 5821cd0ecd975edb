package dev.ragkit.grounding;

import dev.ragkit.prompt.ContextBlock;
import dev.ragkit.store.StoredChunk;
import dev.ragkit.store.StoredDocument;
import java.util.List;
import org.jspecify.annotations.Nullable;

/** Builds documents and context blocks for the grounding tests. */
final class Blocks {

    static final String TENANT = "acme";

    private Blocks() {
    }

    static StoredDocument document(String path, String... accessTags) {
        return StoredDocument.builder().tenant(TENANT).path(path).title("Title of " + path)
                .accessTags(List.of(accessTags)).build();
    }

    static StoredDocument ownedDocument(String path, String ownerTag, String... accessTags) {
        return document(path, accessTags).toBuilder().ownerTag(ownerTag).build();
    }

    /** A relevant block covering the whole chunk, with the given similarity and relevance. */
    static ContextBlock block(StoredDocument document, int index, String text, double similarity, double relevance) {
        StoredChunk chunk = new StoredChunk(document.id(), index, text, null, 10, 1, 5, null, null);
        return new ContextBlock(ContextBlock.Kind.RELEVANT, document, chunk, text, 1, 5, similarity, relevance,
                relevance, null, false);
    }

    static ContextBlock block(StoredDocument document, int index, String text) {
        return block(document, index, text, 0.8, 0.8);
    }

    /** A critical block: never matched by search, so its scores are NaN. */
    static ContextBlock critical(StoredDocument document, int index, String text) {
        StoredChunk chunk = new StoredChunk(document.id(), index, text, null, 10, 1, 5, null, null);
        return new ContextBlock(ContextBlock.Kind.CRITICAL, document, chunk, text, 1, 5, Double.NaN, Double.NaN,
                Double.NaN, null, false);
    }

    /** A block showing lines {@code startLine..endLine} of a chunk spanning 1..100, with section and page. */
    static ContextBlock block(StoredDocument document, int index, String text, int startLine, int endLine,
            @Nullable String section, @Nullable Integer page) {
        StoredChunk chunk = new StoredChunk(document.id(), index, text, null, 10, 1, 100, section, page);
        return new ContextBlock(ContextBlock.Kind.RELEVANT, document, chunk, text, startLine, endLine, 0.9, 0.7,
                0.8, null, false);
    }
}
