package dev.ragkit.ingest;

import dev.ragkit.tokens.TokenCounter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Cuts a document's body into windows of at most {@link #maxTokens()} tokens that follow its lines, with up to
 * {@link #overlapTokens()} tokens of overlap between neighbours. Immutable and thread-safe; the output depends on
 * nothing but the document and the options.
 *
 * <pre>{@code
 * Chunker chunker = TokenWindowChunker.builder()
 *         .counter(TokenCounters.jtokkit())   // required: counts must match the model's tokenizer
 *         .maxTokens(500)                     // default 500
 *         .overlapTokens(50)                  // default 50
 *         .build();
 * List<TextChunk> chunks = chunker.chunk(parsedDocument);
 * }</pre>
 *
 * <h2>What a chunk is</h2>
 * <ul>
 *   <li>Whole lines: the text is lines {@code startLine..endLine} of the document joined with {@code \n}, exactly,
 *       so the line range reproduces it. A chunk never starts or ends with a blank (whitespace-only) line: blank
 *       lines at the edges are left out, blank lines inside are kept. Every non-blank line of the body is in at
 *       least one chunk, whole or (see below) in parts.</li>
 *   <li>Or part of one line, when that line alone has more than {@code maxTokens} tokens: the text is a substring
 *       of the line and {@code startLine == endLine}. The parts of a line follow each other without gap or
 *       overlap, so concatenated they give the line back (less any whitespace at its end). A part holds as many
 *       whole sentences as fit; a sentence too long for the window is cut between words, and a word too long at
 *       the last token boundary that fits ({@link TokenCounter#fittingPrefix}). Cuts fall just after a sentence's
 *       terminator or a word, so the whitespace that follows starts the next part: byte-pair tokenizers attach it
 *       to the next word, so no token is cut in two and the parts' counts add up to the line's.</li>
 *   <li>{@code tokenCount} is {@code counter.count(text)}: every chunk's final text is counted once, exactly. No
 *       chunk has more than {@code maxTokens} tokens. The one exception is unavoidable: when {@code maxTokens} is
 *       smaller than the tokens of a single character (an emoji can take four), a part holds that one
 *       character.</li>
 *   <li>{@code section} is the document's heading path at {@code startLine}; {@code index} counts from 0.</li>
 * </ul>
 *
 * <h2>Where it cuts</h2>
 * A chunk grows by whole lines until the next one would not fit, and then ends at the best place in its second
 * half: after a paragraph (a line followed by a blank line, a heading, a code fence or the end of the body; or the
 * end of a fenced code block), else after a sentence (a line ending in {@code . ! ?} or their CJK forms, possibly
 * followed by closing quotes or brackets), else after any line. A heading line is never a preferred end, so a
 * heading stays with what follows it where possible. A fenced code block ({@code ```} or {@code ~~~}, per
 * CommonMark: a closing fence of the same character at least as long; an unclosed block runs to the end) is one
 * unit: it is never split unless it alone has more than {@code maxTokens} tokens, in which case its lines are cut
 * like any others.
 *
 * <h2>Overlap</h2>
 * A chunk made of whole lines starts with the trailing lines of the chunk before it, as many as have at most
 * {@code overlapTokens} tokens together (counted exactly), but never all of that chunk's lines, never part of a
 * fenced block, never lines from another section than the first new line (so {@code section} describes the new
 * content), and none when the new content would not fit beside them. Parts of a long line neither give nor take
 * overlap. {@code overlapTokens(0)} turns overlap off. Every chunk holds at least one line (or part) that no earlier
 * chunk held, so chunking always progresses.
 *
 * <h2>Speed</h2>
 * Counting tokens dominates. Rather than counting every line and then every chunk (two full tokenizer passes), the
 * chunker decides cuts with a cheap estimate (one table lookup per character) scaled by the ratio of exact to
 * estimated tokens it has seen so far in the document, aims a few percent below the window, and counts only the
 * chunk it chose. When that count is over the window it cuts earlier and counts again (rare). What must not be
 * decided by estimate is decided by counts: a line that may be over the window alone is cut into parts, which are
 * counted anyway and whose sum shows whether the line was over (else the line is counted); a fenced block that may
 * be over the window is counted whole (the count is kept for the chunk), or, when it is far over by estimate, cut,
 * its first chunk counted, and proven over by that count and the lines after it. On a 10,000-line document the
 * counter reads about 1.2 times the text (the chunks, their overlaps, and a few counts to decide); see
 * {@code ChunkingBenchmark}.
 */
public final class TokenWindowChunker implements Chunker {

    /** The default window: 500 tokens. */
    public static final int DEFAULT_MAX_TOKENS = 500;
    /** The default overlap: 50 tokens. */
    public static final int DEFAULT_OVERLAP_TOKENS = 50;

    private final TokenCounter counter;
    private final int maxTokens;
    private final int overlapTokens;

    private TokenWindowChunker(Builder builder) {
        this.counter = Objects.requireNonNull(builder.counter, "counter");
        this.maxTokens = builder.maxTokens;
        this.overlapTokens = builder.overlapTokens;
    }

    /**
     * A builder with the defaults: 500 tokens, 50 overlap, and no counter (which must be set).
     *
     * @return a new builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * A builder holding this chunker's options.
     *
     * @return a new builder
     */
    public Builder toBuilder() {
        return new Builder().counter(counter).maxTokens(maxTokens).overlapTokens(overlapTokens);
    }

    /**
     * @return the counter that decides and reports token counts
     */
    public TokenCounter counter() {
        return counter;
    }

    /**
     * @return the most tokens in one chunk
     */
    public int maxTokens() {
        return maxTokens;
    }

    /**
     * @return the most tokens a chunk repeats from the one before it
     */
    public int overlapTokens() {
        return overlapTokens;
    }

    /**
     * Chunks the body of {@code document} (lines {@code firstBodyLine..}).
     *
     * @param document the parsed document
     * @return the chunks in order, indexed from 0; empty when the body is empty or blank
     */
    @Override
    public List<TextChunk> chunk(ParsedDocument document) {
        Objects.requireNonNull(document, "document");
        return new Run(document).chunks();
    }

    @Override
    public String toString() {
        return "TokenWindowChunker[" + counter.name() + ", maxTokens=" + maxTokens + ", overlapTokens="
                + overlapTokens + "]";
    }

    /** Options for a {@link TokenWindowChunker}. Not thread-safe. */
    public static final class Builder {
        private @Nullable TokenCounter counter;
        private int maxTokens = DEFAULT_MAX_TOKENS;
        private int overlapTokens = DEFAULT_OVERLAP_TOKENS;

        private Builder() {
        }

        /**
         * The counter that decides and reports token counts; required. Use the tokenizer of the model that will
         * read the chunks (e.g. {@code TokenCounters.jtokkit()}), so that a budget of tokens means the same to both.
         *
         * @param counter the counter
         * @return this builder
         */
        public Builder counter(TokenCounter counter) {
            this.counter = Objects.requireNonNull(counter, "counter");
            return this;
        }

        /**
         * The most tokens in one chunk; default {@value TokenWindowChunker#DEFAULT_MAX_TOKENS}.
         *
         * @param maxTokens at least 1
         * @return this builder
         * @throws IllegalArgumentException when {@code maxTokens < 1}
         */
        public Builder maxTokens(int maxTokens) {
            if (maxTokens < 1) {
                throw new IllegalArgumentException("maxTokens must be at least 1, got " + maxTokens);
            }
            this.maxTokens = maxTokens;
            return this;
        }

        /**
         * The most tokens a chunk repeats from the one before it; default
         * {@value TokenWindowChunker#DEFAULT_OVERLAP_TOKENS}; 0 for none. Must be less than {@code maxTokens},
         * which {@link #build()} checks.
         *
         * @param overlapTokens at least 0
         * @return this builder
         * @throws IllegalArgumentException when {@code overlapTokens < 0}
         */
        public Builder overlapTokens(int overlapTokens) {
            if (overlapTokens < 0) {
                throw new IllegalArgumentException("overlapTokens must not be negative, got " + overlapTokens);
            }
            this.overlapTokens = overlapTokens;
            return this;
        }

        /**
         * Builds the chunker.
         *
         * @return the chunker
         * @throws IllegalStateException when no counter was set, or {@code overlapTokens >= maxTokens}
         */
        public TokenWindowChunker build() {
            if (counter == null) {
                throw new IllegalStateException("no token counter set; call counter(TokenCounters.jtokkit()) or "
                        + "pass the counter of the model that will read the chunks");
            }
            if (overlapTokens >= maxTokens) {
                throw new IllegalStateException("overlapTokens (" + overlapTokens + ") must be less than maxTokens ("
                        + maxTokens + "); lower the overlap or raise the window");
            }
            return new TokenWindowChunker(this);
        }
    }

    // ---------------------------------------------------------------------------------------------------------

    /** Aim this far below the window when choosing cuts by estimate. */
    private static final double MARGIN = 0.04;
    /** A preferred cut must leave the chunk at least this full (of the estimated room)... */
    private static final double MIN_FILL = 0.5;
    /** ...or, for a paragraph or sentence end when there is none in the second half, this full. */
    private static final double LOW_FILL = 0.25;
    /** Lines estimated above this share of the window are cut into parts first, to see whether they fit alone. */
    private static final double LONG_LINE_CHECK = 0.9;
    /**
     * A fenced block estimated above twice the window is cut straight away, and proven over the window with its
     * first chunk and the lines after it, as many as are estimated at this multiple of the tokens still missing;
     * see {@link Run#blockOverWindow}.
     */
    private static final double BLOCK_PROOF = 1.25;
    /** How many tokens those two counts must together be over the window to prove the block is. */
    private static final int BLOCK_PROOF_SLACK = 8;
    /** A line already counted at this share of the window or more makes a chunk of its own. */
    private static final double FULL_LINE = 0.8;
    /** A sentence or word estimated over the room by at most this factor is counted: the estimate may be high. */
    private static final double NEAR_MISS = 1.1;
    /** Only chunks with at least this many estimated tokens of new text teach the ratio. */
    private static final int MIN_LEARNING_UNITS = 20 * ChunkerTokenEstimator.UNITS_PER_TOKEN;

    private static final int END_HEADING = 0;
    private static final int END_LINE = 1;
    private static final int END_SENTENCE = 2;
    private static final int END_PARAGRAPH = 3;

    private static final boolean SENTENCES = true;
    private static final boolean WORDS = false;

    /** Returned by {@link Run#emitWindow} when the first new line alone is over the window. */
    private static final int LONG_LINE = -2;

    private static long pack(int end, int exact) {
        return ((long) end << 32) | exact;
    }

    private static int end(long packed) {
        return (int) (packed >>> 32);
    }

    private static int exact(long packed) {
        return (int) packed;
    }

    /** The state of chunking one document: not shared between threads. */
    private final class Run {
        private final ParsedDocument document;
        private final List<String> lines;
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
        /**
         * {@code prefix[i + 1] - prefix[i]}: estimated units of line {@code i} plus the line break before it
         * (none before the first body line).
         */
        private final long[] prefix;
        private final List<TextChunk> out = new ArrayList<>();
        private final ChunkerTokenEstimator estimator = new ChunkerTokenEstimator();
        /** Exact tokens per estimated token, learned from the chunks made so far. */
        private double ratio = 1.0;
        /** Whether {@link #prefixCut} cut the line being split inside a word. */
        private boolean insideWordCut;

        Run(ParsedDocument document) {
            this.document = document;
            this.lines = document.lines();
            this.first = document.firstBodyLine() - 1;
            this.n = lines.size();
            this.blank = new boolean[n];
            this.fenceEnd = new int[n];
            this.fenceStart = new int[n];
            this.blockSplit = new boolean[n];
            this.lineExact = new int[n];
            this.blockExact = new int[n];
            this.prefix = new long[n + 1];
            scan();
        }

        /** One pass over the body: blank lines, fenced blocks and the estimate's prefix sums. */
        private void scan() {
            Arrays.fill(fenceEnd, -1);
            Arrays.fill(fenceStart, -1);
            Arrays.fill(lineExact, -1);
            Arrays.fill(blockExact, -1);
            int open = -1;
            char fenceChar = 0;
            int fenceLength = 0;
            long sum = 0;
            for (int i = first; i < n; i++) {
                String line = lines.get(i);
                blank[i] = line.isBlank();
                if (i > first) {
                    sum += ChunkerTokenEstimator.lineBreakUnits(lines.get(i - 1));
                }
                sum += estimator.units(line);
                prefix[i + 1] = sum;
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
            int overlapStart = -1;
            int overlapCount = 0;
            int previousEnd = -1;
            while (next < n) {
                if (mayBeLong(next) && splitIfLong(next)) {
                    previousEnd = next;
                    next = skipBlank(next + 1);
                    overlapStart = -1;
                    continue;
                }
                int known = lineExact[next];
                int end;
                if (known >= FULL_LINE * maxTokens && known <= maxTokens) {
                    // Counted already, and little else would fit beside it: it is a chunk of its own.
                    emit(next, next, lines.get(next), known);
                    end = next;
                } else {
                    end = emitWindow(next, overlapStart, overlapCount, previousEnd);
                }
                if (end == LONG_LINE) {
                    continue; // the line is now known to be over the window
                }
                previousEnd = end;
                next = skipBlank(end + 1);
                overlapStart = -1;
                if (overlapTokens > 0 && next < n) {
                    long overlap = overlap(out.get(out.size() - 1).startLine() - 1, end, next);
                    if (overlap >= 0) {
                        overlapStart = end(overlap);
                        overlapCount = exact(overlap);
                    }
                }
            }
            return Collections.unmodifiableList(out);
        }

        /**
         * Emits the chunk that starts with the new line {@code next}, after the overlap lines
         * {@code overlapStart..previousEnd} when {@code overlapStart >= 0}.
         *
         * @return the chunk's last line, or {@link #LONG_LINE} when {@code next} turned out to be over the window
         *         alone (nothing emitted)
         */
        private int emitWindow(int next, int overlapStart, int overlapCount, int previousEnd) {
            boolean withOverlap = overlapStart >= 0;
            int unproven = -1; // a block cut before knowing it is over the window
            double localRatio = ratio;
            int limit = n - 1;
            attempt:
            while (true) {
                // The estimate covers the new lines from base on; the overlap's count is exact.
                int base = withOverlap ? previousEnd + 1 : next;
                double room = maxTokens * (1 - MARGIN) - (withOverlap ? overlapCount : 0);
                double roomUnits = room * ChunkerTokenEstimator.UNITS_PER_TOKEN / localRatio;
                double minUnits = roomUnits * MIN_FILL;
                double lowUnits = roomUnits * LOW_FILL;
                int lastAny = -1;
                int lastLine = -1;
                int lastSentence = -1;
                int lastParagraph = -1;
                int lastLowSentence = -1;
                boolean forced = limit < n - 1;
                int i = next;
                while (i < n) {
                    if (blank[i]) {
                        i++;
                        continue;
                    }
                    int atomEnd = atomEnd(i);
                    if (atomEnd > limit) {
                        forced = true;
                        break;
                    }
                    if (atomEnd == i && lastAny >= 0 && mayBeLong(i)) {
                        break; // the chunk ends before a line that may have to be cut
                    }
                    long units = units(base, atomEnd, withOverlap);
                    if (units > roomUnits) {
                        if (lastAny >= 0) {
                            forced = true;
                            break;
                        }
                        // The first new unit does not fit beside the overlap: drop the overlap.
                        if (withOverlap) {
                            withOverlap = false;
                            continue attempt;
                        }
                        // It does not fit by estimate even alone: decide exactly.
                        if (atomEnd > i) {
                            if (blockExact[i] < 0 && units > 2 * roomUnits) {
                                // Far over by estimate: cut it, and prove it over once the first chunk is counted.
                                blockSplit[i] = true;
                                unproven = i;
                                continue attempt;
                            }
                            if (blockExact(i) > maxTokens) {
                                blockSplit[i] = true;
                                continue attempt;
                            }
                            emit(i, atomEnd, join(i, atomEnd), blockExact[i]);
                            return atomEnd;
                        }
                        int exact = lineExact(i);
                        if (exact <= maxTokens) {
                            if (unproven >= 0 && !blockOverWindow(unproven, i, exact)) {
                                blockSplit[unproven] = false;
                                unproven = -1;
                                continue attempt;
                            }
                            emit(i, i, lines.get(i), exact);
                            return i;
                        }
                        return LONG_LINE;
                    }
                    lastAny = atomEnd;
                    int kind = endKind(atomEnd);
                    if (kind != END_HEADING) {
                        lastLine = atomEnd;
                    }
                    if (units >= minUnits) {
                        if (kind == END_PARAGRAPH) {
                            lastParagraph = atomEnd;
                        } else if (kind == END_SENTENCE) {
                            lastSentence = atomEnd;
                        }
                    } else if (units >= lowUnits && kind >= END_SENTENCE) {
                        lastLowSentence = atomEnd;
                    }
                    i = atomEnd + 1;
                }
                int cut = !forced ? lastAny
                        : lastParagraph >= 0 ? lastParagraph
                        : lastSentence >= 0 ? lastSentence
                        : lastLowSentence >= 0 ? lastLowSentence
                        : lastLine >= 0 ? lastLine
                        : lastAny;
                int start = withOverlap ? overlapStart : next;
                String text = join(start, cut);
                int exact = counter.count(text);
                long units = units(base, cut, withOverlap);
                int newTokens = exact - (withOverlap ? overlapCount : 0);
                if (exact <= maxTokens) {
                    if (unproven >= 0 && !blockOverWindow(unproven, cut, exact)) {
                        blockSplit[unproven] = false; // it fits after all: keep it whole
                        unproven = -1;
                        continue;
                    }
                    learn(newTokens, units);
                    emit(start, cut, text, exact);
                    return cut;
                }
                // Over the window: cut earlier.
                if (cut == atomEnd(next)) {
                    if (withOverlap) {
                        withOverlap = false;
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
                double observed = newTokens * (double) ChunkerTokenEstimator.UNITS_PER_TOKEN / Math.max(1, units);
                localRatio = Math.max(localRatio * 1.05, observed * 1.03);
                limit = cut - 1;
            }
        }

        /**
         * The overlap for the chunk after {@code chunkStart..chunkEnd} whose first new line is {@code next}.
         *
         * @return {@code pack(start, exactCount)}, or -1 for none
         */
        private long overlap(int chunkStart, int chunkEnd, int next) {
            if (chunkStart >= chunkEnd || mayBeLong(next)) {
                return -1;
            }
            String section = document.section(next + 1);
            double maxUnits = overlapTokens * (double) ChunkerTokenEstimator.UNITS_PER_TOKEN / ratio;
            int start = -1;
            int j = chunkEnd;
            while (j > chunkStart) {
                if (blank[j]) {
                    j--;
                    continue;
                }
                int atomStart = atomStart(j);
                if (atomStart <= chunkStart || !Objects.equals(document.section(atomStart + 1), section)
                        || units(atomStart, chunkEnd, false) > maxUnits) {
                    break;
                }
                start = atomStart;
                j = atomStart - 1;
            }
            while (start >= 0) {
                int exact = counter.count(join(start, chunkEnd));
                if (exact <= overlapTokens) {
                    return pack(start, exact);
                }
                start = skipBlank(atomEnd(start) + 1);
                if (start > chunkEnd) {
                    return -1;
                }
            }
            return -1;
        }

        /**
         * Whether line {@code i} alone may be over the window: known to be, or estimated close to it (and not
         * inside a fenced block that fits whole).
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
         * Cuts line {@code i} into parts and emits them if it is over the window; otherwise records its exact count
         * and emits nothing.
         *
         * <p>The parts are counted anyway, so the line itself is counted only when their counts leave the answer
         * open. Parts cut before whitespace (at sentence or word ends) keep every token of a byte-pair encoding
         * intact, so their counts add up to the line's; the four-characters estimate rounds each part up, at most
         * one token per cut. So when the parts' sum minus the number of cuts is over the window, so is the line. A
         * part cut inside a word ({@link TokenCounter#fittingPrefix}) proves nothing: then the line is counted.
         *
         * @return whether parts were emitted
         */
        private boolean splitIfLong(int i) {
            String text = lines.get(i);
            insideWordCut = false;
            long[] parts = parts(text);
            int count = parts.length;
            if (lineExact[i] < 0) {
                if (count == 1 && end(parts[0]) == text.length()) {
                    lineExact[i] = exact(parts[0]);
                    return false;
                }
                long sum = 0;
                for (long part : parts) {
                    sum += exact(part);
                }
                boolean proven = count > 1 && !insideWordCut && sum - (count - 1) > maxTokens;
                if (!proven && lineExact(i) <= maxTokens) {
                    return false;
                }
            } else if (lineExact[i] <= maxTokens) {
                return false;
            }
            int from = 0;
            for (long part : parts) {
                emit(i, i, text.substring(from, end(part)), exact(part));
                from = end(part);
            }
            return true;
        }

        /** The parts of a long line, each {@code pack(end, exactCount)}; only whitespace follows the last. */
        private long[] parts(String text) {
            int length = text.length();
            double lineRatio = ratio;
            long[] parts = new long[8];
            int count = 0;
            int from = 0;
            while (from < length && !isBlankFrom(text, from)) {
                long part = nextPart(text, from, lineRatio);
                if (count == parts.length) {
                    parts = Arrays.copyOf(parts, count * 2);
                }
                parts[count++] = part;
                long units = estimator.units(text, from, end(part));
                if (units >= MIN_LEARNING_UNITS) {
                    lineRatio = exact(part) * (double) ChunkerTokenEstimator.UNITS_PER_TOKEN / units;
                }
                from = end(part);
            }
            return Arrays.copyOf(parts, count);
        }

        /**
         * The next part of a long line from {@code from}: as many whole sentences as fit; else as many words of the
         * first sentence as fit; else the longest prefix that fits ({@link TokenCounter#fittingPrefix}).
         *
         * @return {@code pack(end, exactCount)}, {@code end > from}
         */
        private long nextPart(String text, int from, double lineRatio) {
            // Boundaries are looked for this far ahead at most, so that cutting a huge line stays linear.
            long reach = Math.max(1024L, maxTokens * 64L);
            int bound = (int) Math.min(text.length(), from + reach);
            long part = fill(text, from, bound, SENTENCES, lineRatio);
            if (part >= 0) {
                return part;
            }
            int sentenceEnd = ChunkerLines.nextSentenceBoundary(text, from, bound);
            int to = sentenceEnd < 0 ? bound : sentenceEnd;
            part = fill(text, from, to, WORDS, lineRatio);
            return part >= 0 ? part : prefixCut(text, from, to);
        }

        /**
         * The longest run of whole sentences (or words) from {@code from} that ends by {@code to} and fits the
         * window: chosen by estimate, then counted, and shortened while the count is over.
         *
         * @return {@code pack(end, exactCount)}, or -1 when not even the first one fits
         */
        private long fill(String text, int from, int to, boolean sentences, double lineRatio) {
            double localRatio = lineRatio;
            int limit = to;
            while (true) {
                double roomUnits = maxTokens * (1 - MARGIN) * ChunkerTokenEstimator.UNITS_PER_TOKEN / localRatio;
                int end = -1;
                long units = 0;
                int firstEnd = -1;
                long firstUnits = 0;
                int position = from;
                while (position < limit) {
                    int boundary = sentences ? ChunkerLines.nextSentenceBoundary(text, position, to)
                            : ChunkerLines.nextWordBoundary(text, position, to);
                    if (boundary < 0 || boundary > limit) {
                        break;
                    }
                    long more = units + estimator.units(text, position, boundary);
                    if (firstEnd < 0) {
                        firstEnd = boundary;
                        firstUnits = more;
                    }
                    if (more > roomUnits) {
                        break;
                    }
                    units = more;
                    end = boundary;
                    position = boundary;
                }
                if (end < 0) {
                    // The first one is over by estimate; when only a little, count it: the estimate may be high.
                    if (firstEnd > from && firstUnits <= roomUnits * NEAR_MISS) {
                        int exact = counter.count(text.substring(from, firstEnd));
                        if (exact <= maxTokens) {
                            return pack(firstEnd, exact);
                        }
                    }
                    return -1;
                }
                int exact = counter.count(text.substring(from, end));
                if (exact <= maxTokens) {
                    return pack(end, exact);
                }
                double observed = exact * (double) ChunkerTokenEstimator.UNITS_PER_TOKEN / Math.max(1, units);
                localRatio = Math.max(localRatio * 1.05, observed * 1.03);
                limit = end - 1;
                if (limit <= from) {
                    return -1;
                }
            }
        }

        /**
         * Cuts {@code text[from, to)}, a single word over the window, at the last token boundary that fits.
         *
         * @return {@code pack(end, exactCount)}, {@code from < end <= to}
         */
        private long prefixCut(String text, int from, int to) {
            // The counter looks at a window of about one and a half times the window by estimate (so that cutting
            // a huge word stays linear), grown while everything in it fits.
            double units = 1.5 * maxTokens * ChunkerTokenEstimator.UNITS_PER_TOKEN / ratio;
            int reach = estimator.reach(text, from, to, (long) Math.ceil(units));
            int window = wholeCodePoints(text, from, Math.min(to - from, Math.max(64, reach - from)));
            int fitting;
            while (true) {
                fitting = counter.fittingPrefix(text.substring(from, from + window), maxTokens);
                if (fitting < window || from + window == to) {
                    break;
                }
                window = wholeCodePoints(text, from, (int) Math.min(to - from, window * 2L));
            }
            int end = fitting > 0 ? from + fitting
                    // Not even one character fits: take one code point whatever it costs.
                    : from + Character.charCount(text.codePointAt(from));
            insideWordCut = true;
            return pack(end, counter.count(text.substring(from, end)));
        }

        /** {@code window}, one less when {@code text[from, from + window)} would end inside a surrogate pair. */
        private int wholeCodePoints(String text, int from, int window) {
            int end = from + window;
            return end < text.length() && window > 1 && Character.isHighSurrogate(text.charAt(end - 1))
                    ? window - 1 : window;
        }

        /**
         * Whether the fenced block opening at {@code open}, whose first lines {@code open..firstEnd} have
         * {@code firstCount} tokens, is over the window. The block has already been cut by estimate (it is far over
         * it), and its first chunk counted; that count and the count of a few lines after it settle the question
         * when their sum is well over the window ({@value #BLOCK_PROOF_SLACK} tokens), since joining two texts with
         * a line break takes at most a token or two off the count of the first one's last word or symbol (for
         * byte-pair encodings; the four-characters estimate takes at most one). Otherwise the whole block is
         * counted.
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
            if (units >= MIN_LEARNING_UNITS && exactTokens > 0) {
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

        private int endKind(int i) {
            if (isHeading(i)) {
                return END_HEADING;
            }
            int block = fenceStart[i];
            if (block >= 0 && fenceEnd[block] == i) {
                return END_PARAGRAPH; // the end of a fenced block
            }
            int after = i + 1;
            if (after >= n || blank[after] || fenceEnd[after] >= 0 || isHeading(after)) {
                return END_PARAGRAPH;
            }
            return ChunkerLines.endsSentence(lines.get(i)) ? END_SENTENCE : END_LINE;
        }

        private boolean isHeading(int i) {
            if (fenceStart[i] >= 0 || blank[i]) {
                return false;
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

        private boolean isBlankFrom(String text, int from) {
            for (int i = from; i < text.length(); i++) {
                if (!Character.isWhitespace(text.charAt(i))) {
                    return false;
                }
            }
            return true;
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

        private void emit(int start, int end, String text, int exact) {
            out.add(new TextChunk(out.size(), text, exact, start + 1, end + 1, document.section(start + 1)));
        }
    }
}
