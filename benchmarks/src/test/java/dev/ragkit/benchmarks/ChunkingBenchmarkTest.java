package dev.ragkit.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import com.knuddels.jtokkit.Encodings;
import com.knuddels.jtokkit.api.Encoding;
import com.knuddels.jtokkit.api.EncodingType;
import dev.langchain4j.data.segment.TextSegment;
import dev.ragkit.benchmarks.ChunkingBenchmark.EncodeTarget;
import dev.ragkit.benchmarks.ChunkingBenchmark.Impl;
import dev.ragkit.benchmarks.ChunkingBenchmark.LangChain4jTarget;
import dev.ragkit.benchmarks.ChunkingBenchmark.RagKitTarget;
import dev.ragkit.tokens.TokenCounter;
import dev.ragkit.tokens.TokenCounters;
import dev.ragkit.parse.MarkdownDocumentParser;
import dev.ragkit.parse.ParsedDocument;
import dev.ragkit.chunk.TextChunk;
import dev.ragkit.chunk.TokenWindowChunker;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * Checks that {@link ChunkingBenchmark} measures what it claims: the same document every time, of the promised
 * shape, and implementations that really chunk it.
 */
final class ChunkingBenchmarkTest {

    private static final Encoding CL100K = Encodings.newLazyEncodingRegistry().getEncoding(EncodingType.CL100K_BASE);

    @Test
    void document_isDeterministicAndHasTenThousandLinesOfEveryShape() {
        List<String> lines = ChunkingFixtures.lines();

        assertThat(lines).hasSize(ChunkingFixtures.LINES).hasSize(10_000).isEqualTo(ChunkingFixtures.lines());
        assertThat(ChunkingFixtures.text()).isEqualTo(String.join("\n", lines));
        assertThat(lines).anyMatch(line -> line.startsWith("# ")).anyMatch(line -> line.startsWith("### "))
                .anyMatch(line -> line.startsWith("| ")).anyMatch(line -> line.startsWith("|---|"))
                .anyMatch(line -> line.startsWith("```")).anyMatch(line -> line.startsWith("~~~"))
                .anyMatch(line -> line.startsWith("- ")).anyMatch(line -> line.startsWith("> "))
                .anyMatch(line -> line.length() > 3000)
                .anyMatch(line -> line.length() > 2500 && line.indexOf(". ") < 0)
                .anyMatch(line -> line.codePoints().anyMatch(c -> c >= 0x4E00 && c <= 0x9FFF))
                .anyMatch(line -> line.codePoints().anyMatch(c -> c > 0xFFFF));
        // Fences are balanced, and some blocks are far larger than a 500-token window.
        assertThat(lines.stream().filter(line -> line.startsWith("```") || line.startsWith("~~~")).count() % 2)
                .isZero();
        assertThat(longestFencedBlock(lines)).isGreaterThan(300);
        int tokens = CL100K.countTokensOrdinary(ChunkingFixtures.text());
        assertThat(tokens).isBetween(150_000, 300_000);
    }

    @Test
    void ragKit_chunksTheWholeDocumentWithinTheWindow() {
        RagKitTarget target = (RagKitTarget) ChunkingBenchmark.createTarget(Impl.RAGKIT, ChunkingFixtures.text());

        List<TextChunk> chunks = target.chunks();

        assertThat(chunks).hasSizeGreaterThan(300);
        assertThat(chunks).allSatisfy(chunk -> assertThat(chunk.tokenCount())
                .isEqualTo(CL100K.countTokensOrdinary(chunk.text())).isLessThanOrEqualTo(500));
        assertThat(chunks.get(chunks.size() - 1).endLine()).isGreaterThan(9_900);
        assertThat(target.describe()).isEqualTo(chunks.size() + " chunks");
    }

    @Test
    void ragKit_readsAboutOnePassOfTheText() {
        // How much text the chunker hands its counter, per character of the document: the chunks (with their
        // overlaps), the overlaps on their own, and the few counts that decide long lines and large blocks.
        TokenCounter exact = TokenCounters.jtokkit();
        AtomicLong chars = new AtomicLong();
        TokenCounter counting = new TokenCounter() {
            @Override
            public int count(String text) {
                chars.addAndGet(text.length());
                return exact.count(text);
            }

            @Override
            public int fittingPrefix(String text, int maxTokens) {
                chars.addAndGet(text.length());
                return exact.fittingPrefix(text, maxTokens);
            }

            @Override
            public String name() {
                return "counting";
            }
        };
        String text = ChunkingFixtures.text();
        ParsedDocument document = new MarkdownDocumentParser().parse("benchmark.md", text);
        TokenWindowChunker chunker = TokenWindowChunker.builder().counter(counting).build();

        List<TextChunk> chunks = chunker.chunk(document);

        long chunkChars = chunks.stream().mapToLong(chunk -> chunk.text().length()).sum();
        assertThat((double) chunkChars / text.length()).as("chunk text per character").isBetween(1.0, 1.1);
        // 1.17 before overlap came from inside long lines too, 1.26 since (the overlaps are counted with their chunks)
        assertThat((double) chars.get() / text.length()).as("counted per character").isLessThan(1.30);
    }

    @Test
    void langChain4j_splitsTheWholeDocumentWithinTheWindow() {
        LangChain4jTarget target =
                (LangChain4jTarget) ChunkingBenchmark.createTarget(Impl.LANGCHAIN4J, ChunkingFixtures.text());

        List<TextSegment> segments = target.segments();

        assertThat(segments).hasSizeGreaterThan(300);
        assertThat(segments).allSatisfy(segment -> assertThat(CL100K.countTokensOrdinary(segment.text()))
                .isLessThanOrEqualTo(500));
    }

    @Test
    void encodeBaseline_encodesTheWholeDocument() {
        EncodeTarget target = (EncodeTarget) ChunkingBenchmark.createTarget(Impl.ENCODE_BASELINE,
                ChunkingFixtures.text());

        assertThat(target.tokens()).isEqualTo(CL100K.encode(ChunkingFixtures.text()).size()).isGreaterThan(150_000);
    }

    @Test
    void estimator_countsLikeJtokkit() {
        JtokkitTokenCountEstimator estimator = new JtokkitTokenCountEstimator(CL100K);

        assertThat(estimator.estimateTokenCountInText("tiktoken is great!")).isEqualTo(6);
        assertThat(estimator.estimateTokenCountInMessages(List.of(
                dev.langchain4j.data.message.SystemMessage.from("tiktoken is great!"),
                dev.langchain4j.data.message.UserMessage.from("tiktoken is great!")))).isEqualTo(12);
    }

    @Test
    void jmhGenerator_ran_benchmarkListed() throws IOException {
        try (InputStream in = getClass().getResourceAsStream("/META-INF/BenchmarkList")) {
            assertThat(in).as("META-INF/BenchmarkList: the JMH annotation processor did not run").isNotNull();
            String list = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            assertThat(list).contains(ChunkingBenchmark.class.getName());
        }
    }

    private static int longestFencedBlock(List<String> lines) {
        int longest = 0;
        int open = -1;
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            if (line.startsWith("```") || line.startsWith("~~~")) {
                if (open < 0) {
                    open = i;
                } else {
                    longest = Math.max(longest, i - open + 1);
                    open = -1;
                }
            }
        }
        return longest;
    }
}
