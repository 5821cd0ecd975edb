package dev.ragkit.chunk;

import dev.ragkit.internal.SentenceEnds;
import dev.ragkit.parse.ParsedDocument;

import dev.ragkit.tokens.TokenCounter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Chunking one document: the state of one {@link TokenWindowChunker#chunk} call, and the window algorithm its
 * javadoc describes (cuts chosen by estimate and confirmed by one count, preferred ends, fenced blocks, overlap,
 * pages and sections that no chunk crosses). Long lines are cut by the {@link LongLineSplitter}. Not shared between
 * threads.
 */
final class ChunkWindows {
    /** Aim this far below the window when choosing cuts by estimate. */
    private static final double MARGIN = LongLineSplitter.MARGIN;
    /** A preferred cut must leave the chunk at least this full (of the estimated room)... */
    private static final double MIN_FILL = 0.5;
    /** ...or, for a paragraph or sentence end when there is none in the second half, this full. */
    private static final double LOW_FILL = 0.25;
    /** Lines estimated above this share of the window are cut into parts first, to see whether they fit alone. */
    private static final double LONG_LINE_CHECK = 0.9;
    /**
     * A fenced block estimated above twice the window is cut straight away, and proven over the window with its
     * first chunk and the lines after it, as many as are estimated at this multiple of the tokens still missing;
     * see {@link #blockOverWindow}.
     */
    private static final double BLOCK_PROOF = 1.25;
    /** How many tokens those two counts must together be over the window to prove the block is. */
    private static final int BLOCK_PROOF_SLACK = 8;
    /** A line already counted at this share of the window or more makes a chunk of its own. */
    private static final double FULL_LINE = 0.8;
    /** What {@link #emitWindow} returns when its first new line turned out to be over the window alone. */
    private static final int LONG_LINE = -1;

    /**
     * The text a chunk repeats from the one before it: from {@code column} of {@code line} to the end of
     * {@code endLine}, with its exact count.
     */
    private record Overlap(int line, int column, int endLine, String text, int tokens) {
    }

    /**
     * What one pass over the candidate lines of a window found: the first new unit alone too big by estimate
     * ({@code tooBig >= 0}), or the places where the window could end.
     */
    private record Scan(int tooBig, int tooBigEnd, long tooBigUnits, int lastAny, int lastLine, int lastSentence,
            int lastParagraph, int lastSection, int lastLowSentence, boolean forced) {

        static Scan tooBig(int start, int end, long units) {
            return new Scan(start, end, units, -1, -1, -1, -1, -1, -1, false);
        }

        /** The cut: the last line when nothing forced a cut, else the best end found, best kind first. */
        int cut() {
            return !forced ? lastAny
                    : lastSection >= 0 ? lastSection
                    : lastParagraph >= 0 ? lastParagraph
                    : lastSentence >= 0 ? lastSentence
                    : lastLowSentence >= 0 ? lastLowSentence
                    : lastLine >= 0 ? lastLine
                    : lastAny;
        }
    }

    private final TokenCounter counter;
    private final int maxTokens;
    private final int overlapTokens;
    private final ParsedDocument document;
    private final List<String> lines;
    private final List<@Nullable String> sections;
    private final boolean markdown;
    /** Whether fenced blocks are read from the lines: markdown, and text with fenced preformatted blocks. */
    private final boolean fenced;
    private final int first;
    private final int n;
    private final boolean[] blank;
    /** For an opening fence line, its block's last line; else -1. */
    private final int[] fenceEnd;
    /** For every line of a fenced block (fences included), its opening line; else -1. */
    private final int[] fenceStart;
    /** By opening line: the block has more than maxTokens tokens, so its lines are cut one by one. */
    private final boolean[] blockSplit;
    /** Exact counts of single lines (by line) and whole blocks (by opening line); -1 when not counted. */
    private final int[] lineExact;
    private final int[] blockExact;
    /** The first and the last line of each line's page (the whole document when it has no pages). */
    private final int[] pageFirst;
    private final int[] pageLast;
    /** The last line of each line's run of lines on one page and in one section: no chunk reaches past it. */
    private final int[] segmentLast;
    /**
     * {@code prefix[i + 1] - prefix[i]}: estimated units of line {@code i} plus the line break before it (none before
     * the first body line).
     */
    private final long[] prefix;
    private final List<TextChunk> out = new ArrayList<>();
    private final ChunkerTokenEstimator estimator = new ChunkerTokenEstimator();
    private final LongLineSplitter splitter;
    /** Exact tokens per estimated token, learned from the chunks made so far. */
    private double ratio = 1.0;
    /** Where the last chunk emitted starts: its line and column. */
    private int lastStartLine = -1;
    private int lastStartColumn;

    ChunkWindows(TokenCounter counter, int maxTokens, int overlapTokens, ParsedDocument document) {
        this.counter = counter;
        this.maxTokens = maxTokens;
        this.overlapTokens = overlapTokens;
        this.document = document;
        this.lines = document.lines();
        this.sections = document.sections();
        this.markdown = document.structure() == ParsedDocument.Structure.MARKDOWN;
        this.fenced = document.structure() != ParsedDocument.Structure.PLAIN;
        this.first = document.firstBodyLine() - 1;
        this.n = lines.size();
        this.blank = new boolean[n];
        this.fenceEnd = new int[n];
        this.fenceStart = new int[n];
        this.blockSplit = new boolean[n];
        this.lineExact = new int[n];
        this.blockExact = new int[n];
        this.pageFirst = new int[n];
        this.pageLast = new int[n];
        this.segmentLast = new int[n];
        this.prefix = new long[n + 1];
        this.splitter = new LongLineSplitter(counter, estimator);
        scan();
    }

    /** One pass over the body: blank lines, fenced blocks, pages and the estimate's prefix sums. */
    private void scan() {
        Arrays.fill(fenceEnd, -1);
        Arrays.fill(fenceStart, -1);
        Arrays.fill(lineExact, -1);
        Arrays.fill(blockExact, -1);
        int open = -1;
        char fenceChar = 0;
        int fenceLength = 0;
        long sum = 0;
        int pageStart = first;
        for (int i = first; i < n; i++) {
            String line = lines.get(i);
            blank[i] = line.isBlank();
            if (i > first) {
                sum += ChunkerTokenEstimator.lineBreakUnits(lines.get(i - 1));
                if (!Objects.equals(document.page(i), document.page(i + 1))) {
                    Arrays.fill(pageLast, pageStart, i, i - 1);
                    pageStart = i;
                }
            }
            pageFirst[i] = pageStart;
            sum += estimator.units(line);
            prefix[i + 1] = sum;
            if (!fenced) {
                continue;
            }
            if (open >= 0) {
                fenceStart[i] = open;
                if (ChunkerLines.closesFence(line, fenceChar, fenceLength)) {
                    fenceEnd[open] = i;
                    open = -1;
                }
            } else {
                int length = ChunkerLines.opensFence(line);
                if (length > 0) {
                    open = i;
                    fenceStart[i] = i;
                    fenceChar = line.charAt(line.length() - line.stripLeading().length());
                    fenceLength = length;
                }
            }
        }
        Arrays.fill(pageLast, pageStart, n, n - 1);
        for (int i = n - 1; i >= first; i--) {
            segmentLast[i] = i + 1 < n && pageLast[i] == pageLast[i + 1]
                    && Objects.equals(sections.get(i), sections.get(i + 1)) ? segmentLast[i + 1] : i;
        }
        if (open >= 0) {
            // An unclosed block runs to the end of the body; as a unit it ends at its last non-blank line.
            int last = n - 1;
            while (last > open && blank[last]) {
                last--;
            }
            fenceEnd[open] = last;
        }
    }

    List<TextChunk> chunks() {
        int next = skipBlank(first);
        Overlap overlap = null;
        while (next < n) {
            if (mayBeLong(next)) {
                int lastPart = splitIfLong(next, overlap);
                if (lastPart >= 0) {
                    int line = next;
                    next = skipBlank(next + 1);
                    overlap = next < n ? tailOverlap(line, lastPart + 1, next) : null;
                    continue;
                }
            }
            int known = lineExact[next];
            int end;
            if (known >= FULL_LINE * maxTokens && known <= maxTokens && overlap == null) {
                // Counted already, and little else would fit beside it: it is a chunk of its own.
                emit(next, 0, next, lines.get(next), known);
                end = next;
            } else {
                end = emitWindow(next, overlap);
                if (end == LONG_LINE) {
                    continue; // the line is now known to be over the window: it is cut into parts next
                }
            }
            next = skipBlank(end + 1);
            overlap = next < n ? overlapAfter(end, next) : null;
        }
        return Collections.unmodifiableList(out);
    }

    /**
     * Emits the chunk that starts with the new line {@code next}, after the overlap when there is one (dropped when
     * the new text would not fit beside it).
     *
     * @return the chunk's last line, or {@link #LONG_LINE} when {@code next} turned out to be over the window alone
     *         (nothing emitted)
     */
    private int emitWindow(int next, @Nullable Overlap overlap) {
        Overlap lead = overlap;
        int unproven = -1; // a block cut before knowing it is over the window
        double localRatio = ratio;
        int limit = segmentLast[next];
        while (true) {
            // The estimate covers the new lines from base on; the overlap's count is exact.
            int base = lead != null ? lead.endLine() + 1 : next;
            double room = maxTokens * (1 - MARGIN) - (lead != null ? lead.tokens() : 0);
            double roomUnits = room * ChunkerTokenEstimator.UNITS_PER_TOKEN / localRatio;
            Scan scan = scanWindow(next, base, lead != null, roomUnits, limit);
            if (scan.tooBig() >= 0) {
                if (lead != null) {
                    lead = null;                       // the first new unit does not fit beside the overlap
                    continue;
                }
                // It does not fit by estimate even alone: decide exactly.
                int i = scan.tooBig();
                int atomEnd = scan.tooBigEnd();
                if (atomEnd > i) {
                    if (blockExact[i] < 0 && scan.tooBigUnits() > 2 * roomUnits) {
                        // Far over by estimate: cut it, and prove it over once the first chunk is counted.
                        blockSplit[i] = true;
                        unproven = i;
                        continue;
                    }
                    if (blockExact(i) > maxTokens) {
                        blockSplit[i] = true;
                        continue;
                    }
                    emit(i, 0, atomEnd, join(i, atomEnd), blockExact[i]);
                    return atomEnd;
                }
                int exact = lineExact(i);
                if (exact > maxTokens) {
                    return LONG_LINE;
                }
                if (unproven >= 0 && !blockOverWindow(unproven, i, exact)) {
                    blockSplit[unproven] = false;
                    unproven = -1;
                    continue;
                }
                emit(i, 0, i, lines.get(i), exact);
                return i;
            }
            int cut = scan.cut();
            String text = lead != null ? withLead(lead, next) + join(next, cut) : join(next, cut);
            int exact = counter.count(text);
            long units = units(base, cut, lead != null);
            int newTokens = exact - (lead != null ? lead.tokens() : 0);
            if (exact <= maxTokens) {
                if (unproven >= 0 && !blockOverWindow(unproven, cut, exact)) {
                    blockSplit[unproven] = false; // it fits after all: keep it whole
                    unproven = -1;
                    continue;
                }
                learn(newTokens, units);
                emit(lead != null ? lead.line() : next, lead != null ? lead.column() : 0, cut, text, exact);
                return cut;
            }
            // Over the window: cut earlier.
            if (cut == atomEnd(next)) {
                if (lead != null) {
                    lead = null;
                    continue;
                }
                if (cut > next) {
                    blockExact[next] = exact;
                    blockSplit[next] = true;
                    continue;
                }
                if (unproven >= 0 && !blockOverWindow(unproven, -1, 0)) {
                    blockSplit[unproven] = false;
                    unproven = -1;
                    continue;
                }
                lineExact[next] = exact;
                return LONG_LINE;
            }
            localRatio = LongLineSplitter.raised(localRatio, newTokens, units);
            limit = cut - 1;
        }
    }

    /** One pass from {@code next} over whole units (lines, or fenced blocks kept whole) while they fit the room. */
    private Scan scanWindow(int next, int base, boolean withOverlap, double roomUnits, int limit) {
        double minUnits = roomUnits * MIN_FILL;
        double lowUnits = roomUnits * LOW_FILL;
        int lastAny = -1;
        int lastLine = -1;
        int lastSentence = -1;
        int lastParagraph = -1;
        int lastSection = -1;
        int lastLowSentence = -1;
        boolean forced = limit < segmentLast[next];
        int i = next;
        while (i <= segmentLast[next]) {
            if (blank[i]) {
                i++;
                continue;
            }
            int atomEnd = atomEnd(i);
            if (atomEnd > limit && (lastAny >= 0 || atomEnd > pageLast[next])) {
                forced = true;
                break;                              // a fenced block across a change of section is kept whole
            }
            if (atomEnd == i && lastAny >= 0 && mayBeLong(i)) {
                break; // the chunk ends before a line that may have to be cut
            }
            long units = units(base, atomEnd, withOverlap);
            if (units > roomUnits) {
                if (lastAny < 0) {
                    return Scan.tooBig(i, atomEnd, units);
                }
                forced = true;
                break;
            }
            lastAny = atomEnd;
            EndKind kind = endKind(atomEnd);
            if (kind != EndKind.HEADING) {
                lastLine = atomEnd;
            }
            if (units >= minUnits) {
                if (kind == EndKind.PARAGRAPH) {
                    lastParagraph = atomEnd;
                    if (endsSection(atomEnd)) {
                        lastSection = atomEnd;
                    }
                } else if (kind == EndKind.SENTENCE) {
                    lastSentence = atomEnd;
                }
            } else if (units >= lowUnits && kind.endsSentence()) {
                lastLowSentence = atomEnd;
            }
            i = atomEnd + 1;
        }
        return new Scan(-1, -1, 0, lastAny, lastLine, lastSentence, lastParagraph, lastSection, lastLowSentence,
                forced);
    }

    /**
     * The overlap for the chunk after the last one (which ends at {@code chunkEnd}) whose first new line is
     * {@code next}: trailing whole lines of that chunk within the budget (never all of its lines, never part of a
     * fenced block, only of the section {@code next} is in); else the tail of its last line — its last sentences,
     * else words, else a token-boundary piece within the budget.
     *
     * @return the overlap, or {@code null} for none
     */
    private @Nullable Overlap overlapAfter(int chunkEnd, int next) {
        if (overlapTokens == 0 || pageLast[chunkEnd] < next) {
            return null;
        }
        int chunkStart = lastStartLine;
        String section = sections.get(next);
        double maxUnits = overlapTokens * (double) ChunkerTokenEstimator.UNITS_PER_TOKEN / ratio;
        int start = -1;
        int j = chunkEnd;
        while (j > chunkStart) {
            if (blank[j]) {
                j--;
                continue;
            }
            int atomStart = atomStart(j);
            if (atomStart <= chunkStart || !Objects.equals(sections.get(atomStart), section)
                    || units(atomStart, chunkEnd, false) > maxUnits) {
                break;
            }
            start = atomStart;
            j = atomStart - 1;
        }
        while (start >= 0 && start <= chunkEnd) {
            String text = join(start, chunkEnd);
            int exact = counter.count(text);
            if (exact <= overlapTokens) {
                return new Overlap(start, 0, chunkEnd, text, exact);
            }
            start = skipBlank(atomEnd(start) + 1);
        }
        if (fenceStart[chunkEnd] >= 0) {
            return null; // never a piece of a fenced block
        }
        return tailOverlap(chunkEnd, chunkEnd == chunkStart ? lastStartColumn + 1 : 0, next);
    }

    /**
     * The tail of line {@code line} from column {@code from} on, within the overlap budget, as the overlap of the
     * chunk whose first new line is {@code next} (none across a section or page change).
     */
    private @Nullable Overlap tailOverlap(int line, int from, int next) {
        String text = lines.get(line);
        if (overlapTokens == 0 || from >= text.length() || pageLast[line] < next
                || !Objects.equals(sections.get(line), sections.get(next))) {
            return null;
        }
        Cut tail = splitter.tail(text, from, text.length(), overlapTokens);
        return tail == null ? null : new Overlap(line, tail.end(), line, text.substring(tail.end()), tail.tokens());
    }

    /**
     * Whether line {@code i} alone may be over the window: known to be, or estimated close to it (and not inside a
     * fenced block that fits whole).
     */
    private boolean mayBeLong(int i) {
        if (lineExact[i] >= 0) {
            return lineExact[i] > maxTokens;
        }
        int block = fenceStart[i];
        if (block >= 0 && !blockSplit[block]) {
            return false;
        }
        long units = prefix[i + 1] - prefix[i] - (i > first ? breakBefore(i) : 0);
        return ratio * units / ChunkerTokenEstimator.UNITS_PER_TOKEN > maxTokens * LONG_LINE_CHECK;
    }

    /**
     * Cuts line {@code i} into parts and emits them if it is over the window; otherwise records its exact count and
     * emits nothing. The first part comes after {@code lead}, each later one after the tail of the part before it
     * (within the overlap budget); each part is counted once, as emitted.
     *
     * <p>The parts are counted anyway, so the line itself is counted only when their counts leave the answer open.
     * Parts cut before whitespace (at sentence or word ends) keep every token of a byte-pair encoding intact, so
     * their own counts add up to the line's; the four-characters estimate rounds each piece up, at most one token per
     * cut. A part's own count is its count less its overlap's, give or take a token where the two meet. So when the
     * parts' own counts, less two tokens per cut, are over the window, so is the line. A part cut inside a word
     * proves nothing: then the line is counted.
     *
     * @return the column where the last part starts when parts were emitted, else -1
     */
    private int splitIfLong(int i, @Nullable Overlap lead) {
        String text = lines.get(i);
        String leadText = lead == null ? null : withLead(lead, i);
        LongLineSplitter.Split split = splitter.split(text, maxTokens, overlapTokens, leadText,
                lead == null ? 0 : lead.tokens() + 1, ratio);
        List<LongLineSplitter.Part> parts = split.parts();
        int count = parts.size();
        if (lineExact[i] < 0) {
            LongLineSplitter.Part only = parts.get(0);
            if (count == 1 && only.end() == text.length() && only.prefix() == LongLineSplitter.Prefix.NONE) {
                lineExact[i] = only.tokens();
                return -1;
            }
            long own = 0;
            for (LongLineSplitter.Part part : parts) {
                own += part.tokens() - part.prefixTokens();
            }
            boolean proven = count > 1 && !split.insideWordCut() && own - 2L * (count - 1) > maxTokens;
            if (!proven && lineExact(i) <= maxTokens) {
                return -1;
            }
        } else if (lineExact[i] <= maxTokens) {
            return -1;
        }
        for (LongLineSplitter.Part part : parts) {
            switch (part.prefix()) {
                case LEAD:
                    emit(lead.line(), lead.column(), i, leadText + text.substring(0, part.end()), part.tokens());
                    break;
                case TAIL:
                    emit(i, part.prefixFrom(), i, text.substring(part.prefixFrom(), part.end()), part.tokens());
                    break;
                case NONE:
                default:
                    emit(i, part.start(), i, text.substring(part.start(), part.end()), part.tokens());
                    break;
            }
        }
        return parts.get(count - 1).start();
    }

    /** The overlap's text and the (blank) lines between it and line {@code next}, ending in a line break. */
    private String withLead(Overlap lead, int next) {
        StringBuilder sb = new StringBuilder(lead.text());
        for (int l = lead.endLine() + 1; l < next; l++) {
            sb.append('\n').append(lines.get(l));
        }
        return sb.append('\n').toString();
    }

    /**
     * Whether the fenced block opening at {@code open}, whose first lines {@code open..firstEnd} have
     * {@code firstCount} tokens, is over the window. The block has already been cut by estimate (it is far over it),
     * and its first chunk counted; that count and the count of a few lines after it settle the question when their
     * sum is well over the window ({@value #BLOCK_PROOF_SLACK} tokens), since joining two texts with a line break
     * takes at most a token or two off the count of the first one's last word or symbol (for byte-pair encodings;
     * the four-characters estimate takes at most one). Otherwise the whole block is counted.
     *
     * @param firstEnd   the first chunk's last line, or -1 when there is none
     * @param firstCount its exact count
     */
    private boolean blockOverWindow(int open, int firstEnd, int firstCount) {
        int end = fenceEnd[open];
        if (firstEnd >= open && firstEnd < end) {
            // Enough lines to make up the difference, by estimate, with a quarter to spare.
            double needed = BLOCK_PROOF * (maxTokens + BLOCK_PROOF_SLACK + 1 - firstCount);
            double perUnit = ratio / ChunkerTokenEstimator.UNITS_PER_TOKEN;
            int probeEnd = firstEnd + 1;
            while (probeEnd < end && perUnit * units(firstEnd + 1, probeEnd, false) < needed) {
                probeEnd++;
            }
            if (firstCount + counter.count(join(firstEnd + 1, probeEnd)) > maxTokens + BLOCK_PROOF_SLACK) {
                return true;
            }
        }
        return blockExact(open) > maxTokens;
    }

    private int blockExact(int open) {
        if (blockExact[open] < 0) {
            blockExact[open] = counter.count(join(open, fenceEnd[open]));
        }
        return blockExact[open];
    }

    private int lineExact(int i) {
        if (lineExact[i] < 0) {
            lineExact[i] = counter.count(lines.get(i));
        }
        return lineExact[i];
    }

    private void learn(int exactTokens, long units) {
        if (units >= LongLineSplitter.MIN_LEARNING_UNITS && exactTokens > 0) {
            double observed = exactTokens * (double) ChunkerTokenEstimator.UNITS_PER_TOKEN / units;
            ratio = 0.5 * ratio + 0.5 * observed;
        }
    }

    /** Estimated units of lines {@code base..end}, with the line break before {@code base} when asked. */
    private long units(int base, int end, boolean breakBefore) {
        long units = prefix[end + 1] - prefix[base];
        return breakBefore || base == first ? units : units - breakBefore(base);
    }

    private int breakBefore(int i) {
        return ChunkerTokenEstimator.lineBreakUnits(lines.get(i - 1));
    }

    /** The last line of the unit that starts at non-blank line {@code i}: a whole block, or the line. */
    private int atomEnd(int i) {
        int end = fenceEnd[i];
        return end >= 0 && !blockSplit[i] ? end : i;
    }

    /** The first line of the unit that ends at non-blank line {@code i}. */
    private int atomStart(int i) {
        int start = fenceStart[i];
        return start >= 0 && !blockSplit[start] && fenceEnd[start] == i ? start : i;
    }

    private EndKind endKind(int i) {
        if (isHeading(i)) {
            return EndKind.HEADING;
        }
        int block = fenceStart[i];
        if (block >= 0 && fenceEnd[block] == i) {
            return EndKind.PARAGRAPH; // the end of a fenced block
        }
        int after = i + 1;
        if (after >= n || blank[after] || fenceEnd[after] >= 0 || isHeading(after) || pageLast[i] == i
                || !Objects.equals(sections.get(after), sections.get(i))) {
            return EndKind.PARAGRAPH;
        }
        return SentenceEnds.endsSentence(lines.get(i)) ? EndKind.SENTENCE : EndKind.LINE;
    }

    /** Whether the next text after line {@code i} is in another section (or on another page, or there is none). */
    private boolean endsSection(int i) {
        int after = skipBlank(i + 1);
        return after >= n || pageLast[i] < after || !Objects.equals(sections.get(after), sections.get(i));
    }

    /**
     * Whether line {@code i} heads what follows: a markdown heading, or, in text without markup, the line that opens
     * a section (a Word or HTML heading, a declaration in code).
     */
    private boolean isHeading(int i) {
        if (fenceStart[i] >= 0 || blank[i]) {
            return false;
        }
        if (!markdown) {
            int before = i - 1;
            while (before >= first && blank[before]) {
                before--;
            }
            return before >= first && sections.get(i) != null && pageLast[before] == pageLast[i]
                    && !Objects.equals(sections.get(i), sections.get(before));
        }
        String line = lines.get(i);
        if (ChunkerLines.isAtxHeading(line)) {
            return true;
        }
        // A setext heading: a paragraph line underlined with = or -, or the underline itself.
        if (i + 1 < n && fenceStart[i + 1] < 0 && ChunkerLines.isSetextUnderline(lines.get(i + 1))) {
            return true;
        }
        return i > first && !blank[i - 1] && fenceStart[i - 1] < 0 && ChunkerLines.isSetextUnderline(line);
    }

    private int skipBlank(int i) {
        while (i < n && blank[i]) {
            i++;
        }
        return i;
    }

    private String join(int start, int end) {
        if (start == end) {
            return lines.get(start);
        }
        int length = end - start;
        for (int i = start; i <= end; i++) {
            length += lines.get(i).length();
        }
        StringBuilder sb = new StringBuilder(length);
        sb.append(lines.get(start));
        for (int i = start + 1; i <= end; i++) {
            sb.append('\n').append(lines.get(i));
        }
        return sb.toString();
    }

    /** Emits lines {@code start..end} from {@code column} of the first; line numbers count within the page. */
    private void emit(int start, int column, int end, String text, int exact) {
        lastStartLine = start;
        lastStartColumn = column;
        int offset = document.paged() ? pageFirst[start] : 0;
        out.add(new TextChunk(out.size(), text, exact, start + 1 - offset, end + 1 - offset,
                sections.get(start), document.page(start + 1)));
    }
}
