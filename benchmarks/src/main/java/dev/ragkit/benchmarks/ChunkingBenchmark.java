package dev.ragkit.benchmarks;

import com.knuddels.jtokkit.Encodings;
import com.knuddels.jtokkit.api.Encoding;
import com.knuddels.jtokkit.api.EncodingType;
import dev.langchain4j.data.document.Document;
import dev.langchain4j.data.document.DocumentSplitter;
import dev.langchain4j.data.document.splitter.DocumentSplitters;
import dev.langchain4j.data.segment.TextSegment;
import dev.ragkit.tokens.TokenCounters;
import dev.ragkit.parse.MarkdownDocumentParser;
import dev.ragkit.parse.ParsedDocument;
import dev.ragkit.chunk.TextChunk;
import dev.ragkit.chunk.TokenWindowChunker;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Chunking one 10,000-line markdown document ({@link ChunkingFixtures}: about 850,000 characters and 210,000
 * {@code cl100k_base} tokens of headings, prose, long lines, lists, tables, code blocks small and huge, Chinese text
 * and emoji) into windows of 500 tokens with 50 of overlap, every implementation counting with the same
 * {@code cl100k_base} encoding:
 * <ul>
 *   <li>{@link Impl#RAGKIT}: {@code TokenWindowChunker} (500/50) with {@code TokenCounters.jtokkit()}, uncached,
 *       on the document as {@code MarkdownDocumentParser} parsed it (parsing is set-up, not measured);</li>
 *   <li>{@link Impl#LANGCHAIN4J}: LangChain4j's {@code DocumentSplitters.recursive(500, 50, estimator)} on the
 *       same text, where the estimator is {@link JtokkitTokenCountEstimator} on the same encoding;</li>
 *   <li>{@link Impl#ENCODE_BASELINE}: one plain jtokkit {@code encode} of the whole text, the least any exact
 *       token-window chunker must do. Targets: RagKit within 1.5&times; of it, at least 3&times; faster than
 *       LangChain4j, and under 60 ms.</li>
 * </ul>
 * The two chunkers do not cut at the same places (RagKit follows lines, paragraphs and code blocks and reports line
 * ranges; LangChain4j splits by paragraphs, lines, sentences, words, then characters), but both produce windows of
 * at most 500 exact tokens with about 50 tokens of overlap, which is the work measured.
 *
 * <p>Build, then run from the repository root (one fork; about four minutes, most of it LangChain4j):
 * <pre>{@code
 * mvn -B -q -pl benchmarks -am package -DskipTests
 * java -jar benchmarks/target/benchmarks.jar ChunkingBenchmark -prof gc
 *
 * # RagKit only, e.g. while working on the chunker
 * java -jar benchmarks/target/benchmarks.jar ChunkingBenchmark -p impl=RAGKIT,ENCODE_BASELINE -prof gc
 * }</pre>
 * Each fork prints the document's size and the number of chunks its implementation made.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 5, time = 2, timeUnit = TimeUnit.SECONDS)
@Measurement(iterations = 10, time = 2, timeUnit = TimeUnit.SECONDS)
@Fork(value = 1, jvmArgs = {"-Xms2g", "-Xmx2g"})
@State(Scope.Thread)
public class ChunkingBenchmark {

    /** The implementations compared. */
    public enum Impl {
        /** RagKit's {@code TokenWindowChunker}, 500/50, {@code TokenCounters.jtokkit()}. */
        RAGKIT,
        /** LangChain4j's {@code DocumentSplitters.recursive(500, 50, cl100k_base estimator)}, the peer. */
        LANGCHAIN4J,
        /** One jtokkit {@code encode} of the whole document: the floor. */
        ENCODE_BASELINE
    }

    /** Tokens per chunk. */
    static final int MAX_TOKENS = 500;
    /** Tokens of overlap between neighbouring chunks. */
    static final int OVERLAP_TOKENS = 50;

    /** Which implementation runs; every constant by default. */
    @Param
    public @Nullable Impl impl;

    private @Nullable Target target;

    /** Generates the document and prepares the implementation under test. */
    @Setup(Level.Trial)
    public void setUp() {
        Impl which = Objects.requireNonNull(impl, "impl");
        String text = ChunkingFixtures.text();
        target = createTarget(which, text);
        System.out.printf(Locale.ROOT, "%n# ChunkingBenchmark: impl=%s, %d lines, %d chars, %s%n", which,
                ChunkingFixtures.LINES, text.length(), target.describe());
    }

    /**
     * Chunks the document once.
     *
     * @param blackhole receives the result so the work is not eliminated
     */
    @Benchmark
    public void chunk(Blackhole blackhole) {
        Target t = target;
        if (t == null) {
            throw new IllegalStateException("call setUp() first");
        }
        t.run(blackhole);
    }

    static Target createTarget(Impl impl, String text) {
        Encoding encoding = Encodings.newLazyEncodingRegistry().getEncoding(EncodingType.CL100K_BASE);
        return switch (impl) {
            case RAGKIT -> new RagKitTarget(text);
            case LANGCHAIN4J -> new LangChain4jTarget(text, encoding);
            case ENCODE_BASELINE -> new EncodeTarget(text, encoding);
        };
    }

    /** One implementation with its input prepared. */
    abstract static class Target {

        /** Does the measured work once and hands the result to {@code blackhole}. */
        abstract void run(Blackhole blackhole);

        /** Something to print about the result, e.g. the number of chunks. */
        abstract String describe();
    }

    /** RagKit: the parsed document through {@code TokenWindowChunker}. */
    static final class RagKitTarget extends Target {
        private final ParsedDocument document;
        private final TokenWindowChunker chunker;

        RagKitTarget(String text) {
            document = new MarkdownDocumentParser().parse("benchmark.md", text);
            chunker = TokenWindowChunker.builder().counter(TokenCounters.jtokkit()).maxTokens(MAX_TOKENS)
                    .overlapTokens(OVERLAP_TOKENS).build();
        }

        @Override
        void run(Blackhole blackhole) {
            blackhole.consume(chunker.chunk(document));
        }

        /** The chunks, for tests and the set-up line. */
        List<TextChunk> chunks() {
            return chunker.chunk(document);
        }

        @Override
        String describe() {
            return chunks().size() + " chunks";
        }
    }

    /** LangChain4j: the text through {@code DocumentSplitters.recursive}. */
    static final class LangChain4jTarget extends Target {
        private final Document document;
        private final DocumentSplitter splitter;

        LangChain4jTarget(String text, Encoding encoding) {
            document = Document.from(text);
            splitter = DocumentSplitters.recursive(MAX_TOKENS, OVERLAP_TOKENS, new JtokkitTokenCountEstimator(encoding));
        }

        @Override
        void run(Blackhole blackhole) {
            blackhole.consume(splitter.split(document));
        }

        /** The segments, for tests and the set-up line. */
        List<TextSegment> segments() {
            return splitter.split(document);
        }

        @Override
        String describe() {
            return segments().size() + " segments";
        }
    }

    /** The floor: one encode of the whole text. */
    static final class EncodeTarget extends Target {
        private final String text;
        private final Encoding encoding;

        EncodeTarget(String text, Encoding encoding) {
            this.text = text;
            this.encoding = encoding;
        }

        @Override
        void run(Blackhole blackhole) {
            blackhole.consume(encoding.encode(text));
        }

        /** The token count, for tests and the set-up line. */
        int tokens() {
            return encoding.encode(text).size();
        }

        @Override
        String describe() {
            return tokens() + " tokens";
        }
    }
}
