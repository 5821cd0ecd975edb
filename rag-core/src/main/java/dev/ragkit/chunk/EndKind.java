package dev.ragkit.chunk;

/** How good a place the end of a line is to end a chunk, worst first. */
enum EndKind {
    /** A heading: never a preferred end, so that a heading stays with what follows it. */
    HEADING,
    /** Any other line. */
    LINE,
    /** A line that ends a sentence. */
    SENTENCE,
    /** A line that ends a paragraph, a fenced block, a section or a page. */
    PARAGRAPH;

    /** @return whether this end is at least as good as a sentence end */
    boolean endsSentence() {
        return compareTo(SENTENCE) >= 0;
    }
}
