package dev.ragkit.grounding;

import dev.ragkit.internal.Markup;
import dev.ragkit.internal.PageKind;
import dev.ragkit.internal.QueryTerms;
import dev.ragkit.internal.Sentences;
import dev.ragkit.prompt.ContextBlock;
import java.util.Set;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * Finds the lines of a cited block that support a statement of the answer, so that a citation points at them rather
 * than at the whole chunk: where the statement is quoted from the block (extractive answers, quotes in model answers),
 * the lines of the quote, or of its part in the block when it runs over the block's edge; otherwise the lines of the
 * block's sentence ({@link Sentences}) that shares the most of the statement's content words ({@link QueryTerms});
 * when no sentence shares any, the block's lines. Stateless.
 */
final class SupportingLines {

    /** A list marker before a quoted sentence as the extractive backend writes it. */
    private static final Pattern DECORATION = Pattern.compile("^\\s*([-*+\u2022]|\\d{1,3}[.)])\\s+");
    private static final int SHORTEST_QUOTE = 12;

    private SupportingLines() {
    }

    /**
     * @param statement the part of the answer the citation follows
     * @param block     the cited block
     * @return {@code {startLine, endLine}} in the document, within the block's range
     */
    static int[] of(String statement, ContextBlock block) {
        PageKind kind = PageKind.of(block.document());
        String claim = withoutPlace(DECORATION.matcher(lastItem(statement).strip()).replaceAll("").strip(), kind,
                block);
        // quotes of one passage with text left out between them (" … "): the lines from the first to the last
        String[] parts = claim.split(" … ");
        int[] lines = ofClaim(parts[0].strip(), block);
        for (int k = 1; k < parts.length; k++) {
            int[] found = ofClaim(parts[k].strip(), block);
            lines = new int[] {Math.min(lines[0], found[0]), Math.max(lines[1], found[1])};
        }
        return lines;
    }

    private static int[] ofClaim(String claim, ContextBlock block) {
        String text = block.text();
        Sentences.Layout layout = Sentences.Layout.of(block.document());
        int[] quoted = quote(claim, text, layout);
        if (quoted != null) {
            return lines(block, text, quoted[0], quoted[1]);
        }
        Set<String> said = QueryTerms.of(claim);
        Sentences.Sentence best = null;
        int bestShared = 0;
        for (Sentences.Sentence s : Sentences.of(text, block.chunk().section(), layout)) {
            if (s.heading()) {
                continue;
            }
            Set<String> terms = QueryTerms.inPassage(s.text());
            terms.retainAll(said);
            if (terms.size() > bestShared) {
                best = s;
                bestShared = terms.size();
            }
        }
        if (best == null) {
            return new int[] {block.startLine(), block.endLine()};
        }
        return new int[] {block.startLine() + best.firstLine(), block.startLine() + best.lastLine()};
    }

    /**
     * The statement from its last line that opens a list item at the left margin ({@code "- "}), else all of it: the
     * extractive answer's first quote comes after its label line, and a quote's lines after the first (a code block
     * it introduces) are indented.
     */
    private static String lastItem(String statement) {
        int item = statement.lastIndexOf("\n- ");
        return item < 0 ? statement : statement.substring(item + 1);
    }

    /** The claim without the place the extractive backend writes after a quote ({@code (p. 12)}, {@code (slide 7)}). */
    private static String withoutPlace(String claim, PageKind kind, ContextBlock block) {
        Integer page = block.chunk().page();
        if (page == null) {
            return claim;
        }
        String place = "(" + kind.at(page.toString(), block.chunk().section()) + ")";
        return claim.endsWith(place) ? claim.substring(0, claim.length() - place.length()).strip() : claim;
    }

    /**
     * Where the claim stands in the text, white space aside: {@code {start, end}} offsets, or null. The claim is looked
     * for as written, then both read with their markup as text ({@link Markup#rendered}: a quote of a documentation
     * comment reads {@code x} where the line says {@code {@code x}}), then as running over the block's edge.
     */
    private static int @Nullable [] quote(String claim, String text, Sentences.Layout layout) {
        String written = claim.replaceAll("\\s+", " ");
        String wanted = Markup.rendered(claim, layout).replaceAll("\\s+", " ");
        if (wanted.length() < SHORTEST_QUOTE) {
            return null;
        }
        StringBuilder flat = new StringBuilder(text.length());
        int[] origin = new int[text.length() + 2];
        boolean space = false;
        // the text as it reads (blockquote markers and lines that render as nothing left out), as quotes are written
        for (int[] line : Sentences.renderedLines(text, layout)) {
            for (int i = line[0]; i <= line[1]; i++) {
                char c = i < line[1] ? text.charAt(i) : '\n';        // a line's end reads as white space
                if (!Character.isWhitespace(c)) {
                    origin[flat.length()] = i;
                    flat.append(c);
                    space = false;
                } else if (!space && flat.length() > 0) {
                    origin[flat.length()] = i;
                    flat.append(' ');
                    space = true;
                }
            }
        }
        int at = written.length() < SHORTEST_QUOTE ? -1 : flat.indexOf(written);
        if (at >= 0) {
            return new int[] {origin[at], origin[at + written.length() - 1] + 1};
        }
        // markup read as text, as quotes are written ([`fs.readFile()`][] reads `fs.readFile()`, {@code x} reads x)
        boolean[] syntax = Markup.of(flat.toString(), layout);
        int kept = 0;
        for (int i = 0; i < flat.length(); i++) {
            if (!syntax[i]) {
                origin[kept] = origin[i];
                flat.setCharAt(kept++, flat.charAt(i));
            }
        }
        flat.setLength(kept);
        at = flat.indexOf(wanted);
        if (at >= 0) {
            return new int[] {origin[at], origin[at + wanted.length() - 1] + 1};
        }
        String f = flat.toString().stripTrailing();
        int[] part = partOf(wanted, f);
        return part == null ? null : new int[] {origin[part[0]], origin[part[1] - 1] + 1};
    }

    /**
     * A quote that runs over the block's edge — the extractive answer quotes a sentence a chunk boundary cut in two
     * whole, and cites both chunks: where the text ends with the quote's beginning, or starts with its end, at least
     * {@value #SHORTEST_QUOTE} characters of it. {@code {start, end}} in {@code text}, or null.
     */
    private static int @Nullable [] partOf(String wanted, String text) {
        if (text.length() < SHORTEST_QUOTE) {
            return null;
        }
        String opening = wanted.substring(0, SHORTEST_QUOTE);
        for (int p = text.indexOf(opening); p >= 0; p = text.indexOf(opening, p + 1)) {
            if (wanted.startsWith(text.substring(p))) {
                return new int[] {p, text.length()};                     // the text ends with the quote's beginning
            }
        }
        String head = text.substring(0, SHORTEST_QUOTE);
        for (int q = wanted.indexOf(head); q >= 0; q = wanted.indexOf(head, q + 1)) {
            if (text.startsWith(wanted.substring(q))) {
                return new int[] {0, wanted.length() - q};                // the text starts with the quote's end
            }
        }
        return null;
    }

    private static int[] lines(ContextBlock block, String text, int start, int end) {
        int first = block.startLine() + count(text, start);
        int last = block.startLine() + count(text, end - 1);
        return new int[] {first, Math.min(last, block.endLine())};
    }

    private static int count(String text, int upTo) {
        int n = 0;
        for (int i = text.indexOf('\n'); i >= 0 && i < upTo; i = text.indexOf('\n', i + 1)) {
            n++;
        }
        return n;
    }
}
