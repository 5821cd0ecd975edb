package dev.ragkit.chunk;

import dev.ragkit.embedding.Embedder;
import dev.ragkit.embedding.EmbedderTokenCounter;
import dev.ragkit.parse.ParsedDocument;

import dev.ragkit.tokens.TokenCounter;
import dev.ragkit.tokens.TokenCounters;
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
 *   <li>A contiguous piece of the document: lines {@code startLine..endLine} joined with {@code \n}, exactly,
 *       except that it may start inside {@code startLine} when its overlap is the tail of a long line (see below),
 *       so the line range always holds it. A chunk never starts or ends with a blank (whitespace-only) line: blank
 *       lines at the edges are left out, blank lines inside are kept. Every non-blank line of the body is in at
 *       least one chunk, whole or (see below) in parts.</li>
 *   <li>Or part of one line, when that line alone has more than {@code maxTokens} tokens: the text is a substring
 *       of the line and {@code startLine == endLine}. The new text of the parts follows on without gap, and each
 *       part after the first starts with the tail of the part before (its overlap). A part holds as many whole
 *       sentences as fit beside its overlap; a sentence too long for the window is cut between words, and a word
 *       too long at the last token boundary that fits ({@link TokenCounter#fittingPrefix}). Cuts fall just after a
 *       sentence's terminator or a word, so the whitespace that follows starts the next part: byte-pair tokenizers
 *       attach it to the next word, so no token is cut in two.</li>
 *   <li>For documents with pages (PDF), a chunk never spans a page: its line numbers count within its page and
 *       {@link TextChunk#page()} names it.</li>
 *   <li>A chunk never spans a change of section: every line of it has the heading path {@code section} names, so a
 *       citation of any of its lines names the right section.</li>
 *   <li>{@code tokenCount} is {@code counter.count(text)}: every chunk's final text is counted once, exactly. No
 *       chunk has more than {@code maxTokens} tokens. The one exception is unavoidable: when {@code maxTokens} is
 *       smaller than the tokens of a single character (an emoji can take four), a part holds that one
 *       character.</li>
 *   <li>{@code section} is the document's heading path of its lines; {@code index} counts from 0.</li>
 * </ul>
 *
 * <h2>Where it cuts</h2>
 * A chunk grows by whole lines until the next one would not fit, and then ends at the best place in its second
 * half: after a paragraph (a line followed by a blank line, a heading, a code fence, a change of section — for code,
 * the next top-level declaration — a new page or the end of the body; or the end of a fenced code block), else
 * after a sentence (a line ending in {@code . ! ?} or their CJK forms, possibly
 * followed by closing quotes or brackets), else after any line. A heading line is never a preferred end, so a
 * heading stays with what follows it where possible. A fenced code block ({@code ```} or {@code ~~~}, per
 * CommonMark: a closing fence of the same character at least as long; an unclosed block runs to the end) is one
 * unit: it is never split unless it alone has more than {@code maxTokens} tokens, in which case its lines are cut
 * like any others. Fenced blocks and headings are markdown: they are read from the lines only for documents whose
 * {@link ParsedDocument#structure()} is {@code MARKDOWN} (fenced blocks also for {@code FENCED}: HTML's
 * {@code <pre>}).
 *
 * <h2>Overlap</h2>
 * A chunk starts with the end of the chunk before it, at most {@code overlapTokens} tokens (counted exactly): its
 * trailing whole lines, as many as fit; when not even its last line fits, the tail of that line — its last
 * sentences, else its last words, else the last characters that fit (token boundaries) — so a paragraph written as
 * one long line overlaps too. Never all of the previous chunk, never part of a fenced block, never text from another
 * section than the first new line (so {@code section} describes the new content) or from another page, and none
 * when the new content would not fit beside it. Parts of a long line overlap the same way: each part leaves room
 * for its overlap. {@code overlapTokens(0)} turns overlap off. Every chunk holds text that no earlier chunk held, so
 * chunking always progresses.
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
     * The most tokens of an embedding model's own tokenizer in a chunk of {@link #forEmbedder}, special tokens
     * included: 128, what all-MiniLM-L6-v2 reads. Models that read more get chunks of this size too, because small
     * chunks answer and hand off better: with bge-small-en-v1.5 on MLQA, chunks of 96 cl100k tokens gave answer-hit
     * 0.743 and cited-hit 0.683 where chunks of 384 gave 0.701 and 0.607 (docs/design-notes.md). The model reads
     * more around a match through {@code RetrievalOptions.neighbourChunks}.
     */
    public static final int EMBEDDER_WINDOW = 128;

    /**
     * The most cl100k tokens in a chunk of {@link #forEmbedder} for an embedder that does not count its own tokens
     * (an Ollama model, a user's own): about as much English text as {@value #EMBEDDER_WINDOW} word pieces, for the
     * same reason. On MLQA through RagKit's Ollama client (all-MiniLM-L6-v2 and bge-small-en-v1.5 served as Ollama
     * serves them), chunks of this size answered 0.76 and 0.77 of MLQA-47's answerable questions where chunks of 500
     * answered 0.62 and 0.63 (docs/design-notes.md, "A scale measured with answers").
     */
    public static final int UNCOUNTED_WINDOW = 120;

    /**
     * A chunker whose every chunk the embedder reads whole: for an embedder that states its input limit and counts
     * its own tokens ({@link Embedder#maxInputTokens()}, {@link Embedder#inputTokens}), windows of the smaller of that
     * limit and {@value #EMBEDDER_WINDOW} (less the special tokens the model adds), counted with the model's own
     * tokenizer, without overlap: e.g. 126 word pieces for all-MiniLM-L6-v2 and for bge-small-en-v1.5. Overlap would
     * embed a quarter of the text twice (the chunks end at sentence ends anyway, and the model reads the chunks
     * around a match through {@code RetrievalOptions.neighbourChunks}). For any other embedder, windows of
     * {@value #UNCOUNTED_WINDOW} cl100k tokens without overlap (fewer when it states a smaller limit). The indexer's
     * default.
     *
     * @param embedder the embedder that will read the chunks
     * @return the chunker
     */
    public static TokenWindowChunker forEmbedder(Embedder embedder) {
        Objects.requireNonNull(embedder, "embedder");
        int limit = embedder.maxInputTokens();
        if (limit > 0 && embedder.inputTokens("") >= 0) {
            EmbedderTokenCounter counter = new EmbedderTokenCounter(embedder);
            int max = Math.max(16, Math.min(limit, EMBEDDER_WINDOW) - counter.specialTokens());
            return builder().counter(counter).maxTokens(max).overlapTokens(0).build();
        }
        // a stated limit without a count: leave room for the two special tokens most models add
        int max = limit > 0 ? Math.max(16, Math.min(limit - 2, UNCOUNTED_WINDOW)) : UNCOUNTED_WINDOW;
        return builder().counter(TokenCounters.jtokkit()).maxTokens(max).overlapTokens(0).build();
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
        return new ChunkWindows(counter, maxTokens, overlapTokens, document).chunks();
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
}
