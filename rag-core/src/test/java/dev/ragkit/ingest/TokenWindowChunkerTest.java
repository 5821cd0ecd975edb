package dev.ragkit.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ragkit.tokens.TokenCounter;
import dev.ragkit.tokens.TokenCounters;
import dev.ragkit.store.PromotionLevel;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.assertj.core.api.Assumptions;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

final class TokenWindowChunkerTest {

    private static final TokenCounter CL100K = TokenCounters.jtokkit();

    /** The real corpus, relative to the rag-core module directory (CI has {@code shared/} beside the repository). */
    private static final Path RUST_REFERENCE = Paths.get("../../shared/corpora/rust-reference/src");

    // ---------------------------------------------------------------------------------------------- builder

    @Test
    void builder_defaults_are500And50() {
        TokenWindowChunker chunker = TokenWindowChunker.builder().counter(CL100K).build();

        assertThat(chunker.maxTokens()).isEqualTo(500).isEqualTo(TokenWindowChunker.DEFAULT_MAX_TOKENS);
        assertThat(chunker.overlapTokens()).isEqualTo(50).isEqualTo(TokenWindowChunker.DEFAULT_OVERLAP_TOKENS);
        assertThat(chunker.counter()).isSameAs(CL100K);
        assertThat(chunker.toString()).contains("jtokkit:cl100k_base", "500", "50");
    }

    @Test
    void builder_badValues_areRejectedAtOnce() {
        TokenWindowChunker.Builder builder = TokenWindowChunker.builder();

        assertThatThrownBy(() -> builder.maxTokens(0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("maxTokens");
        assertThatThrownBy(() -> builder.overlapTokens(-1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("overlapTokens");
        assertThatThrownBy(() -> builder.counter(null)).isInstanceOf(NullPointerException.class)
                .hasMessageContaining("counter");
    }

    @Test
    void build_withoutCounter_throwsIllegalStateNamingTheFix() {
        assertThatThrownBy(() -> TokenWindowChunker.builder().build()).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("counter(TokenCounters.jtokkit())");
    }

    @Test
    void build_overlapNotBelowWindow_throwsIllegalState() {
        TokenWindowChunker.Builder builder = TokenWindowChunker.builder().counter(CL100K).maxTokens(100);

        assertThatThrownBy(() -> builder.overlapTokens(100).build()).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("overlapTokens (100) must be less than maxTokens (100)");
        // Order of the setters does not matter: only the final combination is checked.
        assertThat(TokenWindowChunker.builder().counter(CL100K).overlapTokens(600).maxTokens(1000).build()
                .overlapTokens()).isEqualTo(600);
        assertThat(TokenWindowChunker.builder().counter(CL100K).maxTokens(1).overlapTokens(0).build().maxTokens())
                .isEqualTo(1);
    }

    @Test
    void toBuilder_copiesEveryOption() {
        TokenWindowChunker chunker = TokenWindowChunker.builder().counter(TokenCounters.estimate()).maxTokens(80)
                .overlapTokens(7).build();

        TokenWindowChunker copy = chunker.toBuilder().build();

        assertThat(copy.counter()).isSameAs(chunker.counter());
        assertThat(copy.maxTokens()).isEqualTo(80);
        assertThat(copy.overlapTokens()).isEqualTo(7);
    }

    // ---------------------------------------------------------------------------------------------- examples

    @Test
    void chunk_emptyOrBlankBody_returnsNoChunks() {
        TokenWindowChunker chunker = chunker(CL100K, 50, 10);

        assertThat(chunker.chunk(document(List.of()))).isEmpty();
        assertThat(chunker.chunk(document(List.of("")))).isEmpty();
        assertThat(chunker.chunk(document(List.of("", "   ", "\t", " \t ", "")))).isEmpty();
        // Front matter only: the body is empty although the file is not.
        assertThat(chunker.chunk(document(List.of("---", "title: x", "---"), 4))).isEmpty();
        assertThat(chunker.chunk(document(List.of("---", "title: x", "---", "", "  "), 4))).isEmpty();
    }

    @Test
    void chunk_smallDocument_isOneChunkWithoutBlankEdgesAndWithExactCount() {
        List<String> lines = List.of("---", "title: t", "---", "", "# Title", "", "Some text.", "More text.", "", "");
        ParsedDocument document = document(lines, 4);

        List<TextChunk> chunks = chunker(CL100K, 500, 50).chunk(document);

        assertThat(chunks).hasSize(1);
        TextChunk chunk = chunks.get(0);
        assertThat(chunk.index()).isZero();
        assertThat(chunk.startLine()).isEqualTo(5);
        assertThat(chunk.endLine()).isEqualTo(8);
        assertThat(chunk.text()).isEqualTo("# Title\n\nSome text.\nMore text.");
        assertThat(chunk.tokenCount()).isEqualTo(CL100K.count(chunk.text()));
        assertThat(chunk.section()).isEqualTo("Title");
    }

    @Test
    void chunk_paragraphs_endEveryChunkAtAParagraphEnd() {
        List<String> lines = new ArrayList<>();
        Random random = new Random(7);
        for (int p = 0; p < 40; p++) {
            int paragraphLines = 1 + random.nextInt(2);
            for (int l = 0; l < paragraphLines; l++) {
                lines.add(sentences(random, 20 + random.nextInt(40)));
            }
            lines.add("");
        }
        ParsedDocument document = document(lines);

        List<TextChunk> chunks = chunker(CL100K, 200, 0).chunk(document);

        assertThat(chunks).hasSizeGreaterThan(3);
        for (TextChunk chunk : chunks) {
            int after = chunk.endLine() + 1;
            assertThat(after > lines.size() || lines.get(after - 1).isBlank())
                    .as("chunk %d ends at line %d, not at a paragraph end", chunk.index(), chunk.endLine()).isTrue();
        }
        assertValid(document, chunker(CL100K, 200, 0), chunks);
    }

    @Test
    void chunk_noParagraphEnds_endsChunksAtSentenceEnds() {
        List<String> lines = new ArrayList<>();
        Random random = new Random(8);
        for (int l = 0; l < 80; l++) {
            // Every third line ends mid-sentence.
            String line = sentences(random, 15 + random.nextInt(25));
            lines.add(l % 3 == 2 ? line.substring(0, line.length() - 1) + "," : line);
        }
        ParsedDocument document = document(lines);
        TokenWindowChunker chunker = chunker(CL100K, 100, 0);

        List<TextChunk> chunks = chunker.chunk(document);

        for (TextChunk chunk : chunks.subList(0, chunks.size() - 1)) {
            assertThat(lines.get(chunk.endLine() - 1)).matches(".*[.!?]");
        }
        assertValid(document, chunker, chunks);
    }

    @Test
    void chunk_headingBeforeText_staysWithItsText() {
        List<String> lines = new ArrayList<>();
        Random random = new Random(9);
        for (int s = 0; s < 12; s++) {
            lines.add("## Part " + s);
            for (int l = 0; l < 3; l++) {
                lines.add(sentences(random, 60 + random.nextInt(60)));
            }
        }
        ParsedDocument document = document(lines);

        List<TextChunk> chunks = chunker(CL100K, 90, 0).chunk(document);

        for (TextChunk chunk : chunks) {
            assertThat(lines.get(chunk.endLine() - 1)).as("chunk %d", chunk.index()).doesNotStartWith("#");
            assertThat(chunk.section()).isEqualTo(document.section(chunk.startLine()));
        }
    }

    @Test
    void chunk_fencedBlockSmallerThanWindow_isKeptWhole() {
        List<String> lines = new ArrayList<>();
        Random random = new Random(10);
        lines.add(sentences(random, 300));
        lines.add("");
        lines.add("```java");
        for (int l = 0; l < 12; l++) {
            lines.add("    int x" + l + " = compute(" + l + ");");
        }
        lines.add("");
        lines.add("# not a heading inside code");
        lines.add("```");
        lines.add(sentences(random, 200));
        ParsedDocument document = document(lines);
        String block = String.join("\n", lines.subList(2, 17));
        int blockTokens = CL100K.count(block);
        TokenWindowChunker chunker = chunker(CL100K, blockTokens + 5, 10);

        List<TextChunk> chunks = chunker.chunk(document);

        assertThat(chunks).anySatisfy(chunk -> assertThat(chunk.text()).contains(block));
        for (TextChunk chunk : chunks) {
            boolean disjoint = chunk.endLine() < 3 || chunk.startLine() > 17;
            boolean whole = chunk.startLine() <= 3 && chunk.endLine() >= 17;
            assertThat(disjoint || whole).as("chunk %d: lines %d-%d", chunk.index(), chunk.startLine(),
                    chunk.endLine()).isTrue();
        }
        assertValid(document, chunker, chunks);
    }

    @Test
    void chunk_fencedBlockLargerThanWindow_isSplitAtLineBoundaries() {
        List<String> lines = new ArrayList<>();
        lines.add("~~~python");
        for (int l = 0; l < 200; l++) {
            lines.add("value_" + l + " = transform(value_" + (l - 1) + ", factor=" + l + ")");
        }
        lines.add("~~~");
        ParsedDocument document = document(lines);
        TokenWindowChunker chunker = chunker(CL100K, 100, 20);

        List<TextChunk> chunks = chunker.chunk(document);

        assertThat(chunks).hasSizeGreaterThan(10);
        assertThat(chunks).allSatisfy(chunk -> assertThat(chunk.text())
                .isEqualTo(String.join("\n", lines.subList(chunk.startLine() - 1, chunk.endLine()))));
        assertValid(document, chunker, chunks);
    }

    @Test
    void chunk_longLineWithSentences_isSplitAfterSentenceEnds() {
        Random random = new Random(11);
        String line = sentences(random, 6000);
        ParsedDocument document = document(List.of("Intro.", "", line, "", "Outro."));
        TokenWindowChunker chunker = chunker(CL100K, 200, 30);

        List<TextChunk> chunks = chunker.chunk(document);

        List<TextChunk> parts = chunks.stream().filter(c -> c.startLine() == 3).collect(Collectors.toList());
        assertThat(parts).hasSizeGreaterThan(5);
        assertThat(parts.stream().map(TextChunk::text).collect(Collectors.joining())).isEqualTo(line);
        for (TextChunk part : parts.subList(0, parts.size() - 1)) {
            assertThat(part.text()).matches("(?s).*[.!?]");
            assertThat(part.tokenCount()).isLessThanOrEqualTo(200).isGreaterThan(100);
        }
        // The space after a sentence starts the next part: cl100k attaches it to the next word, so no token is cut.
        assertThat(parts.subList(1, parts.size())).allSatisfy(part -> assertThat(part.text()).startsWith(" "));
        assertThat(parts.stream().mapToInt(TextChunk::tokenCount).sum()).isEqualTo(CL100K.count(line));
        assertValid(document, chunker, chunks);
    }

    @Test
    void chunk_longLineWithoutSentenceEnds_isSplitAfterWords() {
        Random random = new Random(12);
        String line = words(random, 4000).replace(".", "").replace("?", "");
        ParsedDocument document = document(List.of(line));
        TokenWindowChunker chunker = chunker(CL100K, 150, 30);

        List<TextChunk> parts = chunker.chunk(document);

        assertThat(parts).hasSizeGreaterThan(3);
        assertThat(parts.stream().map(TextChunk::text).collect(Collectors.joining())).isEqualTo(line);
        for (TextChunk part : parts.subList(0, parts.size() - 1)) {
            assertThat(part.text()).doesNotEndWith(" ");
            assertThat(part.tokenCount()).isLessThanOrEqualTo(150).isGreaterThan(100);
        }
        assertThat(parts.subList(1, parts.size())).allSatisfy(part -> assertThat(part.text()).startsWith(" "));
        assertValid(document, chunker, parts);
    }

    @Test
    void chunk_hugeWordWithoutSpaces_isSplitAtTokenBoundaries() {
        Random random = new Random(13);
        StringBuilder sb = new StringBuilder();
        String alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
        for (int i = 0; i < 20_000; i++) {
            sb.append(alphabet.charAt(random.nextInt(alphabet.length())));
        }
        String line = sb.toString();
        ParsedDocument document = document(List.of(line));
        TokenWindowChunker chunker = chunker(CL100K, 300, 0);

        List<TextChunk> parts = chunker.chunk(document);

        assertThat(parts.stream().map(TextChunk::text).collect(Collectors.joining())).isEqualTo(line);
        assertThat(parts.subList(0, parts.size() - 1))
                .allSatisfy(part -> assertThat(part.tokenCount()).isBetween(280, 300));
        assertValid(document, chunker, parts);
    }

    @Test
    void chunk_windowSmallerThanOneCharacter_takesOneCodePointPerPart() {
        // "😀" alone is more than one cl100k token: the only chunk that may exceed the window.
        String emoji = "\uD83D\uDE00";
        assertThat(CL100K.count(emoji)).isGreaterThan(1);
        ParsedDocument document = document(List.of(emoji + emoji + emoji));

        List<TextChunk> parts = chunker(CL100K, 1, 0).chunk(document);

        assertThat(parts).extracting(TextChunk::text).containsExactly(emoji, emoji, emoji);
    }

    @Test
    void chunk_overlap_repeatsWholeTrailingLinesWithinTheBudget() {
        List<String> lines = new ArrayList<>();
        Random random = new Random(14);
        for (int l = 0; l < 120; l++) {
            lines.add(sentences(random, 20 + random.nextInt(50)));
        }
        ParsedDocument document = document(lines);
        TokenWindowChunker chunker = chunker(CL100K, 100, 30);

        List<TextChunk> chunks = chunker.chunk(document);

        int overlapping = 0;
        for (int c = 1; c < chunks.size(); c++) {
            TextChunk previous = chunks.get(c - 1);
            TextChunk current = chunks.get(c);
            if (current.startLine() <= previous.endLine()) {
                overlapping++;
                String repeated = String.join("\n", lines.subList(current.startLine() - 1, previous.endLine()));
                assertThat(previous.text()).endsWith(repeated);
                assertThat(current.text()).startsWith(repeated);
                assertThat(CL100K.count(repeated)).isLessThanOrEqualTo(30);
            }
        }
        assertThat(overlapping).isGreaterThan(chunks.size() / 2);
        assertValid(document, chunker, chunks);
    }

    @Test
    void chunk_overlapZero_chunksShareNoLine() {
        List<String> lines = new ArrayList<>();
        Random random = new Random(15);
        for (int l = 0; l < 120; l++) {
            lines.add(sentences(random, 20 + random.nextInt(50)));
        }

        List<TextChunk> chunks = chunker(CL100K, 100, 0).chunk(document(lines));

        for (int c = 1; c < chunks.size(); c++) {
            assertThat(chunks.get(c).startLine()).isGreaterThan(chunks.get(c - 1).endLine());
        }
    }

    @Test
    void chunk_overlap_neverReachesBackIntoAnotherSection() {
        List<String> lines = new ArrayList<>();
        Random random = new Random(16);
        for (int s = 0; s < 10; s++) {
            lines.add("# Section " + s);
            lines.add("");
            for (int l = 0; l < 6; l++) {
                lines.add(sentences(random, 40 + random.nextInt(40)));
            }
            lines.add("");
        }
        ParsedDocument document = document(lines);
        TokenWindowChunker chunker = chunker(CL100K, 120, 60);

        List<TextChunk> chunks = chunker.chunk(document);

        for (int c = 1; c < chunks.size(); c++) {
            TextChunk previous = chunks.get(c - 1);
            TextChunk current = chunks.get(c);
            if (current.startLine() <= previous.endLine()) {
                assertThat(current.section()).isEqualTo(document.section(previous.endLine() + 1 + blankRun(lines,
                        previous.endLine())));
            }
        }
        assertValid(document, chunker, chunks);
    }

    @Test
    void chunk_sameInputTwice_givesEqualChunks() {
        Random random = new Random(17);
        ParsedDocument document = document(generate(random, 400));
        TokenWindowChunker chunker = chunker(CL100K, 200, 40);

        assertThat(chunker.chunk(document)).isEqualTo(chunker.chunk(document))
                .isEqualTo(chunker.toBuilder().build().chunk(document));
    }

    @Test
    void chunk_largeDocument_countsAboutOnePassOfItsText() {
        // Not a benchmark: a guard on the design. Cuts are chosen by estimate, and the counter sees each chunk once
        // (plus the overlaps and the rare recount), not every line and then every chunk.
        List<String> lines = new ArrayList<>();
        Random random = new Random(18);
        while (lines.size() < 10_000) {
            lines.addAll(generateRealistic(random));
        }
        ParsedDocument document = document(lines);
        CountingCounter counting = new CountingCounter(CL100K);
        TokenWindowChunker chunker = chunker(counting, 500, 50);

        List<TextChunk> chunks = chunker.chunk(document);

        long bodyChars = document.bodyCharCount();
        assertThat((double) counting.chars.get() / bodyChars).as("characters counted per character of the body")
                .isLessThan(1.35);
        assertValid(document, chunker(CL100K, 500, 50), chunks);
    }

    // ---------------------------------------------------------------------------------------------- properties

    @Test
    void chunk_generatedDocumentsWithCl100k_holdEveryProperty() {
        Random random = new Random(20261122L);
        int[] windows = {24, 50, 100, 200, 500};
        for (int d = 0; d < 300; d++) {
            List<String> lines = generate(random, 20 + random.nextInt(random.nextInt(10) == 0 ? 1500 : 200));
            int max = windows[random.nextInt(windows.length)];
            int overlap = random.nextInt(4) == 0 ? 0 : random.nextInt(max / 2);
            checkProperties("doc " + d, documentWithRandomFrontMatter(random, lines), chunker(CL100K, max, overlap));
        }
    }

    @Test
    void chunk_generatedDocumentsWithOtherCounters_holdEveryProperty() {
        Random random = new Random(42);
        TokenCounter[] counters = {TokenCounters.jtokkit("o200k_base"), TokenCounters.estimate(), new CharCounter(),
                new WordCounter()};
        for (int d = 0; d < 160; d++) {
            TokenCounter counter = counters[d % counters.length];
            List<String> lines = generate(random, 20 + random.nextInt(250));
            int max = counter instanceof CharCounter ? 100 + random.nextInt(2000)
                    : counter instanceof WordCounter ? 10 + random.nextInt(200) : 30 + random.nextInt(500);
            int overlap = random.nextInt(3) == 0 ? 0 : random.nextInt(max / 2);
            checkProperties("doc " + d + " " + counter.name(), documentWithRandomFrontMatter(random, lines),
                    chunker(counter, max, overlap));
        }
    }

    @Test
    void chunk_rustReferenceCorpus_holdsEveryProperty() throws IOException {
        Assumptions.assumeThat(Files.isDirectory(RUST_REFERENCE))
                .as("the corpus is expected at %s (shared/ beside the repository root)", RUST_REFERENCE.toAbsolutePath())
                .isTrue();
        List<Path> files;
        try (Stream<Path> walk = Files.walk(RUST_REFERENCE)) {
            files = walk.filter(p -> p.toString().endsWith(".md")).sorted().collect(Collectors.toList());
        }
        assertThat(files).hasSizeGreaterThan(20);
        MarkdownDocumentParser parser = new MarkdownDocumentParser();
        CountingCounter counting = new CountingCounter(CL100K);
        long bodyChars = 0;
        int chunkCount = 0;
        for (Path file : files) {
            ParsedDocument document = parser.parse(RUST_REFERENCE, file);
            bodyChars += document.bodyCharCount();
            chunkCount += chunker(counting, 500, 50).chunk(document).size();
            checkProperties(file.toString(), document, chunker(CL100K, 500, 50));
            checkProperties(file.toString(), document, chunker(CL100K, 128, 16));
        }
        assertThat(chunkCount).isGreaterThan(files.size());
        assertThat((double) counting.chars.get() / bodyChars).as("characters counted per character of the body")
                .isLessThan(1.35);
    }

    // ---------------------------------------------------------------------------------------------- checks

    private static void checkProperties(String what, ParsedDocument document, TokenWindowChunker chunker) {
        List<TextChunk> chunks;
        try {
            chunks = chunker.chunk(document);
        } catch (RuntimeException e) {
            throw new AssertionError(what + " with " + chunker + " failed", e);
        }
        try {
            assertValid(document, chunker, chunks);
            assertThat(chunker.chunk(document)).as("deterministic").isEqualTo(chunks);
        } catch (AssertionError e) {
            throw new AssertionError(what + " with " + chunker + ": " + e.getMessage(), e);
        }
    }

    /**
     * Every property a chunking must have. A chunk is a <em>part</em> when its text is not the join of its lines
     * (then it is a substring of its single line).
     */
    private static void assertValid(ParsedDocument document, TokenWindowChunker chunker, List<TextChunk> chunks) {
        List<String> lines = document.lines();
        TokenCounter counter = chunker.counter();
        int max = chunker.maxTokens();
        int overlapMax = chunker.overlapTokens();
        int first = document.firstBodyLine();
        boolean blankBody = lines.subList(first - 1, lines.size()).stream().allMatch(String::isBlank);
        assertThat(chunks.isEmpty()).as("no chunks exactly when the body is blank").isEqualTo(blankBody);

        boolean[] coveredWhole = new boolean[lines.size() + 1];
        StringBuilder[] partsOf = new StringBuilder[lines.size() + 1];
        for (int c = 0; c < chunks.size(); c++) {
            TextChunk chunk = chunks.get(c);
            String label = "chunk " + c + " (lines " + chunk.startLine() + "-" + chunk.endLine() + ")";
            assertThat(chunk.index()).as(label).isEqualTo(c);
            assertThat(chunk.startLine()).as(label).isGreaterThanOrEqualTo(first);
            assertThat(chunk.endLine()).as(label).isLessThanOrEqualTo(lines.size());
            assertThat(chunk.tokenCount()).as(label + " count").isEqualTo(counter.count(chunk.text()));
            assertThat(chunk.tokenCount()).as(label + " over the window").isLessThanOrEqualTo(max);
            assertThat(chunk.section()).as(label + " section").isEqualTo(document.section(chunk.startLine()));
            assertThat(chunk.text()).as(label).isNotBlank();
            String joined = String.join("\n", lines.subList(chunk.startLine() - 1, chunk.endLine()));
            if (joined.equals(chunk.text())) {
                assertThat(lines.get(chunk.startLine() - 1)).as(label + " starts with a blank line").isNotBlank();
                assertThat(lines.get(chunk.endLine() - 1)).as(label + " ends with a blank line").isNotBlank();
                for (int l = chunk.startLine(); l <= chunk.endLine(); l++) {
                    coveredWhole[l] = true;
                }
            } else {
                assertThat(chunk.startLine()).as(label + " is a part of one line").isEqualTo(chunk.endLine());
                String line = lines.get(chunk.startLine() - 1);
                StringBuilder parts = partsOf[chunk.startLine()];
                if (parts == null) {
                    parts = new StringBuilder();
                    partsOf[chunk.startLine()] = parts;
                }
                assertThat(line).as(label + " follows the previous part").startsWith(parts + chunk.text());
                parts.append(chunk.text());
            }
        }
        for (int l = first; l <= lines.size(); l++) {
            String line = lines.get(l - 1);
            StringBuilder parts = partsOf[l];
            if (parts != null) {
                assertThat(coveredWhole[l]).as("line %d is both whole and in parts", l).isFalse();
                assertThat(line.substring(parts.length())).as("the parts of line %d leave only blanks", l).isBlank();
                assertThat(counter.count(line)).as("line %d was split although it fits: %s", l, line)
                        .isGreaterThan(max);
            } else if (!line.isBlank()) {
                assertThat(coveredWhole[l]).as("line %d is in no chunk", l).isTrue();
            }
        }
        // Order, progress and overlap.
        for (int c = 1; c < chunks.size(); c++) {
            TextChunk previous = chunks.get(c - 1);
            TextChunk current = chunks.get(c);
            String label = "chunks " + (c - 1) + " and " + c;
            boolean previousPart = isPart(lines, previous);
            boolean currentPart = isPart(lines, current);
            if (previousPart || currentPart) {
                boolean sameLine = previousPart && currentPart && previous.startLine() == current.startLine();
                assertThat(sameLine || current.startLine() > previous.endLine()).as(label + " overlap a part")
                        .isTrue();
                continue;
            }
            assertThat(current.startLine()).as(label + " progress").isGreaterThan(previous.startLine());
            assertThat(current.endLine()).as(label + " progress").isGreaterThan(previous.endLine());
            if (current.startLine() <= previous.endLine()) {
                String repeated = String.join("\n", lines.subList(current.startLine() - 1, previous.endLine()));
                assertThat(counter.count(repeated)).as(label + " overlap").isLessThanOrEqualTo(overlapMax);
            }
        }
        // Fenced blocks that fit are never split.
        for (int[] block : fencedBlocks(lines, first)) {
            String text = String.join("\n", lines.subList(block[0] - 1, block[1]));
            if (counter.count(text) > max) {
                continue;
            }
            for (TextChunk chunk : chunks) {
                boolean disjoint = chunk.endLine() < block[0] || chunk.startLine() > block[1];
                boolean whole = chunk.startLine() <= block[0] && chunk.endLine() >= block[1];
                assertThat(disjoint || whole).as("chunk %d (lines %d-%d) splits the block at lines %d-%d",
                        chunk.index(), chunk.startLine(), chunk.endLine(), block[0], block[1]).isTrue();
            }
        }
    }

    private static boolean isPart(List<String> lines, TextChunk chunk) {
        return !String.join("\n", lines.subList(chunk.startLine() - 1, chunk.endLine())).equals(chunk.text());
    }

    /**
     * Fenced blocks as 1-based inclusive line ranges, found independently of the chunker: an opening line of
     * three or more backticks or tildes (any indentation; no backtick in a backtick fence's info string), closed by
     * a line of at least as many of the same character and nothing else; an unclosed block ends at the last
     * non-blank line.
     */
    private static List<int[]> fencedBlocks(List<String> lines, int firstBodyLine) {
        List<int[]> blocks = new ArrayList<>();
        for (int i = firstBodyLine - 1; i < lines.size(); i++) {
            String open = lines.get(i).strip();
            char c = open.isEmpty() ? ' ' : open.charAt(0);
            int length = 0;
            while (length < open.length() && open.charAt(length) == c) {
                length++;
            }
            if ((c != '`' && c != '~') || length < 3 || (c == '`' && open.indexOf('`', length) >= 0)) {
                continue;
            }
            int end = -1;
            for (int j = i + 1; j < lines.size(); j++) {
                String close = lines.get(j).strip();
                if (close.length() >= length && close.chars().allMatch(ch -> ch == c)) {
                    end = j;
                    break;
                }
            }
            if (end < 0) {
                end = lines.size() - 1;
                while (lines.get(end).isBlank()) {
                    end--;
                }
            }
            blocks.add(new int[] {i + 1, end + 1});
            i = end;
        }
        return blocks;
    }

    private static int blankRun(List<String> lines, int afterLine) {
        int run = 0;
        while (afterLine + run < lines.size() && lines.get(afterLine + run).isBlank()) {
            run++;
        }
        return run;
    }

    // ---------------------------------------------------------------------------------------------- documents

    private static TokenWindowChunker chunker(TokenCounter counter, int max, int overlap) {
        return TokenWindowChunker.builder().counter(counter).maxTokens(max).overlapTokens(overlap).build();
    }

    private static ParsedDocument document(List<String> lines) {
        return document(lines, 1);
    }

    /** A document with the heading path of every line worked out the simple way (ATX headings outside fences). */
    private static ParsedDocument document(List<String> lines, int firstBodyLine) {
        List<@Nullable String> sections = new ArrayList<>();
        String[] path = new String[7];
        char fence = 0;
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            String stripped = line.strip();
            if (i + 1 >= firstBodyLine) {
                if (fence != 0) {
                    char open = fence;
                    if (stripped.length() >= 3 && stripped.chars().allMatch(ch -> ch == open)) {
                        fence = 0;
                    }
                } else if (stripped.startsWith("```") || stripped.startsWith("~~~")) {
                    fence = stripped.charAt(0);
                } else if (line.startsWith("#")) {
                    int level = 0;
                    while (level < line.length() && line.charAt(level) == '#') {
                        level++;
                    }
                    if (level <= 6 && (level == line.length() || line.charAt(level) == ' ')) {
                        path[level] = line.substring(level).strip();
                        Arrays.fill(path, level + 1, path.length, null);
                    }
                }
            }
            String section = Arrays.stream(path).filter(Objects::nonNull).filter(s -> !s.isEmpty())
                    .collect(Collectors.joining(" > "));
            sections.add(i + 1 < firstBodyLine || section.isEmpty() ? null : section);
        }
        return new ParsedDocument("doc.md", "doc", null, PromotionLevel.STANDARD, null, new TreeSet<>(), null, null,
                Map.of(), List.of(), 0, lines, firstBodyLine, sections);
    }

    private static ParsedDocument documentWithRandomFrontMatter(Random random, List<String> body) {
        if (random.nextInt(4) != 0) {
            return document(body);
        }
        List<String> lines = new ArrayList<>(List.of("---", "title: generated", "tags: [a, b]", "---"));
        lines.addAll(body);
        return document(lines, 5);
    }

    private static final String[] WORDS = {
        "the", "a", "of", "to", "and", "in", "is", "chunk", "token", "window", "overlap", "fence", "heading",
        "deterministic", "configuration", "implementation", "Java", "UTF-8", "3.14", "42", "e.g.", "i.e.", "`code`",
        "**bold**", "_em_", "[link](x.md)", "https://example.org/a/b?c=d", "naïve", "café", "Straße", "über",
        "ConcurrentHashMap", "IllegalArgumentException", "x", "(see", "below)", "—", "\"quoted\"", "it's"
    };

    private static final String CJK = "\u7684\u4e00\u662f\u5728\u4e0d\u4e86\u6709\u548c\u4eba\u8fd9\u4e2d\u5927"
            + "\u4e3a\u4e0a\u4e2a\u56fd\u6211\u4ee5\u8981\u4ed6\u65f6\u6765\u7528\u4eec\u751f\u5230\u4f5c\u5730"
            + "\u3053\u3093\u306b\u3061\u306f\u4e16\u754c\ud55c\uad6d\uc5b4";

    private static final String[] EMOJI = {
        "\uD83D\uDE00", "\uD83D\uDE80", "\uD83C\uDF08", "\uD83D\uDC4D\uD83C\uDFFD", "\u2764\uFE0F",
        "\uD83D\uDC68\u200D\uD83D\uDC69\u200D\uD83D\uDC67"
    };

    private static String words(Random random, int length) {
        StringBuilder sb = new StringBuilder();
        while (sb.length() < length) {
            if (sb.length() > 0) {
                sb.append(random.nextInt(8) == 0 ? ", " : " ");
            }
            sb.append(WORDS[random.nextInt(WORDS.length)]);
        }
        return sb.toString();
    }

    private static String sentences(Random random, int length) {
        StringBuilder sb = new StringBuilder();
        while (sb.length() < length) {
            if (sb.length() > 0) {
                sb.append(' ');
            }
            String sentence = words(random, 10 + random.nextInt(80));
            sb.append(Character.toUpperCase(sentence.charAt(0))).append(sentence, 1, sentence.length());
            sb.append(".!?".charAt(random.nextInt(10) == 0 ? 1 + random.nextInt(2) : 0));
        }
        return sb.toString();
    }

    private static String cjk(Random random, int length) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < length; i++) {
            sb.append(random.nextInt(15) == 0 ? '\u3002' : CJK.charAt(random.nextInt(CJK.length())));
        }
        return sb.toString();
    }

    private static String emoji(Random random, int count) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < count; i++) {
            sb.append(EMOJI[random.nextInt(EMOJI.length)]);
            if (random.nextBoolean()) {
                sb.append(' ');
            }
        }
        return sb.toString();
    }

    /** A markdown document of about {@code lineCount} lines mixing every shape the chunker must handle. */
    private static List<String> generate(Random random, int lineCount) {
        List<String> lines = new ArrayList<>();
        if (random.nextInt(30) == 0) {
            return lines; // empty
        }
        if (random.nextInt(30) == 0) {
            for (int i = 0; i < lineCount % 7; i++) {
                lines.add(random.nextBoolean() ? "" : " \t ");
            }
            return lines; // blank
        }
        while (lines.size() < lineCount) {
            switch (random.nextInt(16)) {
                case 0 -> lines.add("#".repeat(1 + random.nextInt(4)) + " " + words(random, 10 + random.nextInt(30)));
                case 1 -> {
                    lines.add(words(random, 10 + random.nextInt(30)));
                    lines.add(random.nextBoolean() ? "=====" : "---");
                }
                case 2, 3, 4 -> {
                    int count = 1 + random.nextInt(6);
                    for (int i = 0; i < count; i++) {
                        lines.add(sentences(random, 20 + random.nextInt(200)));
                    }
                }
                case 5 -> lines.add(sentences(random, 1000 + random.nextInt(8000)));
                case 6 -> lines.add(words(random, 1000 + random.nextInt(6000)));
                case 7 -> {
                    StringBuilder word = new StringBuilder();
                    int length = 200 + random.nextInt(5000);
                    while (word.length() < length) {
                        word.append((char) ('a' + random.nextInt(26))).append(random.nextInt(10));
                    }
                    lines.add(word.toString());
                }
                case 8 -> lines.add(cjk(random, 20 + random.nextInt(random.nextBoolean() ? 100 : 3000)));
                case 9 -> lines.add(emoji(random, 1 + random.nextInt(random.nextBoolean() ? 20 : 900)));
                case 10 -> {
                    int count = 2 + random.nextInt(10);
                    for (int i = 0; i < count; i++) {
                        lines.add((random.nextBoolean() ? "- " : (i + 1) + ". ") + sentences(random, 10 + random
                                .nextInt(120)));
                    }
                }
                case 11 -> {
                    int columns = 2 + random.nextInt(5);
                    int rows = 2 + random.nextInt(30);
                    for (int r = 0; r < rows; r++) {
                        StringBuilder row = new StringBuilder("|");
                        for (int c = 0; c < columns; c++) {
                            row.append(r == 1 ? "---|" : " " + words(random, 1 + random.nextInt(20)) + " |");
                        }
                        lines.add(row.toString());
                    }
                }
                case 12, 13 -> {
                    boolean huge = random.nextInt(5) == 0;
                    int count = huge ? 100 + random.nextInt(400) : random.nextInt(30);
                    String fence = random.nextBoolean() ? "```" : random.nextBoolean() ? "~~~" : "````";
                    String indent = random.nextInt(6) == 0 ? "  " : "";
                    lines.add(indent + fence + (random.nextBoolean() ? "rust" : ""));
                    for (int i = 0; i < count; i++) {
                        int kind = random.nextInt(12);
                        lines.add(kind == 0 ? "" : kind == 1 ? "# comment, not a heading"
                                : kind == 2 && fence.length() == 4 ? "```" : kind == 3 ? words(random, 2000)
                                : "    let v" + i + " = f(" + words(random, 10 + random.nextInt(60)) + ");");
                    }
                    if (random.nextInt(25) != 0 || lines.size() < lineCount) {
                        lines.add(indent + fence);
                    }
                }
                case 14 -> {
                    int count = 1 + random.nextInt(3);
                    for (int i = 0; i < count; i++) {
                        lines.add("> " + sentences(random, 20 + random.nextInt(150)));
                    }
                }
                default -> {
                    int count = 1 + random.nextInt(4);
                    for (int i = 0; i < count; i++) {
                        lines.add(random.nextInt(4) == 0 ? "   " : "");
                    }
                }
            }
            if (random.nextBoolean()) {
                lines.add("");
            }
        }
        return lines;
    }

    /** A block of ordinary documentation: headings, paragraphs, lists, tables, small code blocks. */
    private static List<String> generateRealistic(Random random) {
        List<String> lines = new ArrayList<>();
        lines.add("## " + words(random, 10 + random.nextInt(20)));
        lines.add("");
        for (int p = 0; p < 1 + random.nextInt(4); p++) {
            for (int l = 0; l < 1 + random.nextInt(4); l++) {
                lines.add(sentences(random, 40 + random.nextInt(random.nextInt(10) == 0 ? 1500 : 150)));
            }
            lines.add("");
        }
        if (random.nextBoolean()) {
            lines.add("```rust");
            for (int l = 0; l < 3 + random.nextInt(25); l++) {
                lines.add("    let v" + l + " = f(" + words(random, 10 + random.nextInt(40)) + ");");
            }
            lines.add("```");
            lines.add("");
        }
        if (random.nextInt(3) == 0) {
            for (int r = 0; r < 3 + random.nextInt(15); r++) {
                lines.add(r == 1 ? "|---|---|---|" : "| " + words(random, 8) + " | " + random.nextInt(1000) + " | "
                        + words(random, 12) + " |");
            }
            lines.add("");
        }
        return lines;
    }

    // ---------------------------------------------------------------------------------------------- counters

    /** Counts how many characters a counter is asked to look at. */
    private static final class CountingCounter implements TokenCounter {
        final AtomicLong chars = new AtomicLong();
        private final TokenCounter delegate;

        CountingCounter(TokenCounter delegate) {
            this.delegate = delegate;
        }

        @Override
        public int count(String text) {
            chars.addAndGet(text.length());
            return delegate.count(text);
        }

        @Override
        public int fittingPrefix(String text, int maxTokens) {
            chars.addAndGet(text.length());
            return delegate.fittingPrefix(text, maxTokens);
        }

        @Override
        public String name() {
            return "counting:" + delegate.name();
        }
    }

    /** One token per code point: far more tokens than the estimate expects. */
    private static final class CharCounter implements TokenCounter {
        @Override
        public int count(String text) {
            return text.codePointCount(0, text.length());
        }

        @Override
        public int fittingPrefix(String text, int maxTokens) {
            int codePoints = text.codePointCount(0, text.length());
            return codePoints <= maxTokens ? text.length() : text.offsetByCodePoints(0, maxTokens);
        }

        @Override
        public String name() {
            return "test:code-points";
        }
    }

    /** One token per run of non-whitespace: far fewer tokens than the estimate expects. */
    private static final class WordCounter implements TokenCounter {
        @Override
        public int count(String text) {
            int words = 0;
            boolean inWord = false;
            for (int i = 0; i < text.length(); i++) {
                boolean space = Character.isWhitespace(text.charAt(i));
                if (!space && !inWord) {
                    words++;
                }
                inWord = !space;
            }
            return words;
        }

        @Override
        public int fittingPrefix(String text, int maxTokens) {
            int words = 0;
            for (int i = 0; i < text.length(); i++) {
                if (!Character.isWhitespace(text.charAt(i)) && (i == 0 || Character.isWhitespace(text.charAt(i - 1)))) {
                    if (++words > maxTokens) {
                        return i;
                    }
                }
            }
            return text.length();
        }

        @Override
        public String name() {
            return "test:words";
        }
    }
}
