package dev.ragkit.chunk;

/**
 * Where the chunker cuts, with what it cost: the cut's position and the exact token count of the text up to it.
 *
 * @param end    the position after the cut: a character index in a line, or a line index
 * @param tokens the exact token count of the text that ends at {@code end}
 */
record Cut(int end, int tokens) {
}
