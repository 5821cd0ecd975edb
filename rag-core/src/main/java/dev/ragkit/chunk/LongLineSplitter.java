package dev.ragkit.chunk;

import dev.ragkit.tokens.TokenCounter;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Cuts text that is too long for a window — a line with more tokens than the window — into parts, and finds the
 * tail of a text that fits an overlap budget. Both prefer sentence ends, then word ends, then token boundaries, and
 * both cut just before whitespace, so byte-pair tokenizers (which attach the whitespace to the next word) cut no
 * token in two. Decisions are made by estimate and confirmed by counting. One instance serves one chunking run; not
 * thread-safe.
 */
final class LongLineSplitter {
    /** Aim this far below the room when choosing cuts by estimate. */
    static final double MARGIN = 0.04;
    /** A sentence or word estimated over the room by at most this factor is counted: the estimate may be high. */
    private static final double NEAR_MISS = 1.1;
    /** Only parts with at least this many estimated tokens teach the ratio. */
    static final int MIN_LEARNING_UNITS = 20 * ChunkerTokenEstimator.UNITS_PER_TOKEN;

    /** What to cut between. */
    private enum Boundary {
        SENTENCE, WORD
    }

    /** Where a part's overlap comes from. */
    enum Prefix {
        /** The part has none. */
        NONE,
        /** The lead given to {@link #split}: the end of the chunk before the line. */
        LEAD,
        /** The tail of the part before it, from {@link Part#prefixFrom()} of the same text. */
        TAIL
    }

    /**
     * One part of a long text: its own text {@code text[start, end)}, emitted after its overlap.
     *
     * @param start        where its own text starts
     * @param end          where it ends
     * @param prefix       where its overlap comes from
     * @param prefixFrom   for a {@link Prefix#TAIL} overlap, where it starts in the text (it ends at {@code start})
     * @param prefixTokens the overlap's exact count on its own (0 without overlap)
     * @param tokens       the exact count of the overlap and the own text together: the chunk as emitted
     */
    record Part(int start, int end, Prefix prefix, int prefixFrom, int prefixTokens, int tokens) {
    }

    /**
     * The parts of a text.
     *
     * @param parts         the parts in order; only whitespace follows the last
     * @param insideWordCut whether a part was cut inside a word (then the parts' own counts do not add up to the
     *                      count of the text)
     */
    record Split(List<Part> parts, boolean insideWordCut) {
    }

    private final TokenCounter counter;
    private final ChunkerTokenEstimator estimator;

    LongLineSplitter(TokenCounter counter, ChunkerTokenEstimator estimator) {
        this.counter = counter;
        this.estimator = estimator;
    }

    /**
     * A ratio raised after a count came out over what the estimate promised: at least 5% up, and at least 3% above
     * the ratio the count showed. The one retry step of every estimate-then-count loop of the chunker.
     *
     * @param current the ratio used
     * @param exact   the count
     * @param units   the estimate of the counted text
     * @return the ratio to try again with
     */
    static double raised(double current, int exact, long units) {
        double observed = exact * (double) ChunkerTokenEstimator.UNITS_PER_TOKEN / Math.max(1, units);
        return Math.max(current * 1.05, observed * 1.03);
    }

    /**
     * Cuts {@code text} into parts of at most {@code max} tokens each, overlap included: the first part comes after
     * {@code lead} (when given), each later one after the tail of the part before it (at most {@code overlap}
     * tokens). Each part is counted once, as emitted. When a part's own text would not fit beside its overlap, the
     * overlap is left out.
     *
     * @param text        the text
     * @param max         the most tokens in one part, overlap included, at least 1
     * @param overlap     the most tokens of a tail overlap; 0 for none
     * @param lead        the text the first part is emitted after, or {@code null}
     * @param leadTokens  the lead's count (for the estimate only)
     * @param ratio       exact tokens per estimated token seen so far
     * @return the parts
     */
    Split split(String text, int max, int overlap, @Nullable String lead, int leadTokens, double ratio) {
        int length = text.length();
        double lineRatio = ratio;
        List<Part> parts = new ArrayList<>();
        boolean insideWord = false;
        int from = 0;
        while (from < length && !isBlankFrom(text, from)) {
            Prefix kind = Prefix.NONE;
            String prefix = "";
            int prefixFrom = -1;
            int prefixTokens = 0;
            if (parts.isEmpty() && lead != null) {
                kind = Prefix.LEAD;
                prefix = lead;
                prefixTokens = leadTokens;
            } else if (!parts.isEmpty() && overlap > 0) {
                Cut tail = tail(text, parts.get(parts.size() - 1).start() + 1, from, overlap);
                if (tail != null) {
                    kind = Prefix.TAIL;
                    prefixFrom = tail.end();
                    prefix = text.substring(prefixFrom, from);
                    prefixTokens = tail.tokens();
                }
            }
            Piece part = kind == Prefix.NONE ? null : nextPart(text, from, max, prefix, prefixTokens, lineRatio, ratio);
            if (part == null) {
                kind = Prefix.NONE;
                prefixFrom = -1;
                prefixTokens = 0;
                part = Objects.requireNonNull(nextPart(text, from, max, "", 0, lineRatio, ratio));
            }
            insideWord |= part.insideWord();
            int tokens = part.tokens();
            parts.add(new Part(from, part.end(), kind, prefixFrom, prefixTokens, tokens));
            long units = estimator.units(text, from, part.end());
            if (units >= MIN_LEARNING_UNITS) {
                lineRatio = Math.max(1, tokens - prefixTokens) * (double) ChunkerTokenEstimator.UNITS_PER_TOKEN
                        / units;
            }
            from = part.end();
        }
        return new Split(parts, insideWord);
    }

    /**
     * The next part from {@code from} after {@code prefix}: as many whole sentences as fit; else as many words of
     * the first sentence; else (for one huge word) the last token boundary that fits.
     *
     * @return the part, or {@code null} when nothing of the text fits beside the prefix
     */
    private @Nullable Piece nextPart(String text, int from, int max, String prefix, int prefixTokens, double lineRatio,
            double ratio) {
        int bound = reachBound(text, from, max);
        Cut part = fill(text, from, bound, Boundary.SENTENCE, max, prefix, prefixTokens, lineRatio);
        if (part == null) {
            int sentenceEnd = ChunkerLines.nextSentenceBoundary(text, from, bound);
            int to = sentenceEnd < 0 ? bound : sentenceEnd;
            part = fill(text, from, to, Boundary.WORD, max, prefix, prefixTokens, lineRatio);
            if (part == null) {
                Cut cut = prefixCut(text, from, to, max, prefix, ratio);
                return cut == null ? null : new Piece(cut.end(), cut.tokens(), true);
            }
        }
        return new Piece(part.end(), part.tokens(), false);
    }

    /** A part's end, its count with its prefix, and whether it was cut inside a word. */
    private record Piece(int end, int tokens, boolean insideWord) {
    }

    /**
     * The longest tail of {@code text[from, to)} that has at most {@code budget} tokens, starting at a sentence
     * start, else at a word start, else at a token boundary (a character where the tail's count still fits);
     * leading whitespace is left out.
     *
     * @param text   the text
     * @param from   where the tail may start at the earliest
     * @param to     where the tail ends
     * @param budget the most tokens, at least 1
     * @return the tail's start and exact count (its end is {@code to}), or {@code null} when nothing fits
     */
    @Nullable Cut tail(String text, int from, int to, int budget) {
        if (from > 0 && from < to && Character.isLowSurrogate(text.charAt(from))) {
            from++;                          // never start inside a surrogate pair
        }
        if (from >= to || budget < 1) {
            return null;
        }
        // Look back no further than a generous number of characters per token of budget.
        int lookFrom = Math.max(from, to - budget * 16 - 16);
        for (Boundary kind : Boundary.values()) {
            List<Integer> starts = new ArrayList<>();
            if (lookFrom == from && !Character.isWhitespace(text.charAt(from))
                    && (from == 0 || Character.isWhitespace(text.charAt(from - 1)))) {
                starts.add(lookFrom);        // the start of the text (or of a word) is a sentence and a word start
            }
            int position = lookFrom;
            while (position < to) {
                int boundary = kind == Boundary.SENTENCE ? ChunkerLines.nextSentenceBoundary(text, position, to)
                        : ChunkerLines.nextWordBoundary(text, position, to);
                if (boundary < 0 || boundary >= to) {
                    break;
                }
                int start = skipWhitespace(text, boundary, to);
                if (start < to && start > lookFrom) {
                    starts.add(start);
                }
                position = Math.max(boundary, position + 1);
            }
            Cut best = longestFitting(text, starts, to, budget);
            if (best != null) {
                return best;
            }
        }
        // One word longer than the whole budget (a hash, a URL, text without spaces): cut it at a token boundary.
        int wordStart = to;
        while (wordStart > from && !Character.isWhitespace(text.charAt(wordStart - 1))) {
            wordStart--;
        }
        if (counter.count(text.substring(wordStart, to)) <= budget) {
            return null;                     // a short last word that is all the text allows: no tail
        }
        return characterTail(text, Math.max(wordStart, to - budget * 16 - 16), to, budget);
    }

    /**
     * The earliest of the ascending {@code starts} whose tail fits (tails shrink as starts grow): the estimate picks
     * the first candidate, by binary search over the starts (so a tail costs a few short estimates, not one per
     * word), and counting confirms it, moving to shorter tails while the count is over. Usually one count of a short
     * text.
     */
    private @Nullable Cut longestFitting(String text, List<Integer> starts, int to, int budget) {
        long budgetUnits = (long) budget * ChunkerTokenEstimator.UNITS_PER_TOKEN;
        int lo = 0;
        int hi = starts.size() - 1;      // the last start is taken when no earlier one fits by estimate
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (estimator.units(text, starts.get(mid), to) > budgetUnits) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        for (int i = lo; i < starts.size(); i++) {
            int start = starts.get(i);
            int tokens = counter.count(text.substring(start, to));
            if (tokens <= budget) {
                return new Cut(start, tokens);
            }
        }
        return null;
    }

    /** The earliest character (not inside a surrogate pair, not whitespace) whose tail fits, by binary search. */
    private @Nullable Cut characterTail(String text, int from, int to, int budget) {
        int lo = from;
        int hi = to - 1;
        Cut best = null;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            int start = mid;
            if (Character.isLowSurrogate(text.charAt(start))) {
                start = start > from ? start - 1 : start + 1;
                if (start >= to) {
                    break;
                }
            }
            int tokens = counter.count(text.substring(start, to));
            if (tokens <= budget) {
                best = new Cut(start, tokens);
                hi = start - 1;
            } else {
                lo = mid + 1;
            }
        }
        if (best != null) {
            int start = skipWhitespace(text, best.end(), to);
            if (start != best.end()) {
                best = start < to ? new Cut(start, counter.count(text.substring(start, to))) : null;
            }
        }
        return best;
    }

    /** Boundaries are looked for this far ahead at most, so that cutting a huge line stays linear. */
    private static int reachBound(String text, int from, int room) {
        long reach = Math.max(1024L, room * 64L);
        return (int) Math.min(text.length(), from + reach);
    }

    /**
     * The longest run of whole sentences (or words) from {@code from} that ends by {@code to} and fits the room:
     * chosen by estimate, then counted, and shortened while the count is over.
     *
     * @return the part, or {@code null} when not even the first one fits
     */
    private @Nullable Cut fill(String text, int from, int to, Boundary kind, int room, String prefix, int prefixTokens,
            double ratio) {
        double localRatio = ratio;
        int limit = to;
        while (true) {
            double roomUnits = (room * (1 - MARGIN) - prefixTokens) * ChunkerTokenEstimator.UNITS_PER_TOKEN
                    / localRatio;
            int end = -1;
            long units = 0;
            int firstEnd = -1;
            long firstUnits = 0;
            int position = from;
            while (position < limit) {
                int boundary = kind == Boundary.SENTENCE ? ChunkerLines.nextSentenceBoundary(text, position, to)
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
                if (firstEnd > from && firstUnits <= Math.max(0, roomUnits) * NEAR_MISS) {
                    int exact = counter.count(prefix + text.substring(from, firstEnd));
                    if (exact <= room) {
                        return new Cut(firstEnd, exact);
                    }
                }
                return null;
            }
            int exact = counter.count(prefix + text.substring(from, end));
            if (exact <= room) {
                return new Cut(end, exact);
            }
            localRatio = raised(localRatio, exact - prefixTokens, units);
            limit = end - 1;
            if (limit <= from) {
                return null;
            }
        }
    }

    /**
     * Cuts {@code text[from, to)}, a single word over the room, at the last token boundary that fits after
     * {@code prefix}.
     *
     * @return the part (its count with the prefix), {@code from < end <= to}; {@code null} when not even one
     *         character fits after a non-empty prefix
     */
    private @Nullable Cut prefixCut(String text, int from, int to, int room, String prefix, double ratio) {
        // The counter looks at a window of about one and a half times the room by estimate (so that cutting a huge
        // word stays linear), grown while everything in it fits.
        double units = 1.5 * room * ChunkerTokenEstimator.UNITS_PER_TOKEN / ratio;
        int reach = estimator.reach(text, from, to, (long) Math.ceil(units));
        int window = wholeCodePoints(text, from, Math.min(to - from, Math.max(64, reach - from)));
        int fitting;
        while (true) {
            fitting = counter.fittingPrefix(prefix + text.substring(from, from + window), room) - prefix.length();
            if (fitting < window || from + window == to) {
                break;
            }
            window = wholeCodePoints(text, from, (int) Math.min(to - from, window * 2L));
        }
        if (fitting <= 0 && !prefix.isEmpty()) {
            return null;
        }
        int end = fitting > 0 ? from + fitting
                // Not even one character fits: take one code point whatever it costs.
                : from + Character.charCount(text.codePointAt(from));
        return new Cut(end, counter.count(prefix + text.substring(from, end)));
    }

    /** {@code window}, one less when {@code text[from, from + window)} would end inside a surrogate pair. */
    private static int wholeCodePoints(String text, int from, int window) {
        int end = from + window;
        return end < text.length() && window > 1 && Character.isHighSurrogate(text.charAt(end - 1))
                ? window - 1 : window;
    }

    static boolean isBlankFrom(String text, int from) {
        for (int i = from; i < text.length(); i++) {
            if (!Character.isWhitespace(text.charAt(i))) {
                return false;
            }
        }
        return true;
    }

    private static int skipWhitespace(String text, int from, int to) {
        int i = from;
        while (i < to && Character.isWhitespace(text.charAt(i))) {
            i++;
        }
        return i;
    }
}
