package dev.ragkit.chunk;

import dev.ragkit.internal.SentenceEnds;
import dev.ragkit.parse.MarkdownDocumentParser;
import dev.ragkit.parse.ParsedDocument;

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
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

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

    @ParameterizedTest
    @EnumSource(value = ParsedDocument.Structure.class, names = {"MARKDOWN", "FENCED"})
    void chunk_fencedBlockSmallerThanWindow_isKeptWhole(ParsedDocument.Structure structure) {
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
        ParsedDocument markdown = document(lines);
        // FENCED: an HTML page's <pre> as the HTML parser writes it
        ParsedDocument document = structure == ParsedDocument.Structure.MARKDOWN ? markdown
                : new ParsedDocument("page.html", "page", null, PromotionLevel.STANDARD, null, new TreeSet<>(), null,
                        null, Map.of(), List.of(), 0, lines, 1, markdown.sections(), List.of(), structure);
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
    void chunk_longLineWithSentences_isSplitAfterSentenceEndsWithOverlap() {
        Random random = new Random(11);
        String line = sentences(random, 6000);
        ParsedDocument document = document(List.of("Intro.", "", line, "", "Outro."));
        TokenWindowChunker chunker = chunker(CL100K, 200, 30);

        List<TextChunk> chunks = chunker.chunk(document);
        List<String> fresh = freshTexts(document, chunks);

        // The parts of line 3: the chunks that end inside it or at its end.
        List<Integer> parts = new ArrayList<>();
        for (int c = 0; c < chunks.size(); c++) {
            if (chunks.get(c).endLine() == 3) {
                parts.add(c);
            }
        }
        assertThat(parts).hasSizeGreaterThan(5);
        assertThat(parts.stream().map(fresh::get).collect(Collectors.joining()).replaceFirst("^\\n+", ""))
                .isEqualTo(line);
        for (int c : parts.subList(0, parts.size() - 1)) {
            assertThat(chunks.get(c).text()).matches("(?s).*[.!?]");
            assertThat(chunks.get(c).tokenCount()).isLessThanOrEqualTo(200).isGreaterThan(100);
        }
        // Each part after the first starts with the last sentence(s) of the one before.
        for (int k = 1; k < parts.size(); k++) {
            String previous = chunks.get(parts.get(k - 1)).text();
            String current = chunks.get(parts.get(k)).text();
            String repeated = current.substring(0, current.length() - fresh.get(parts.get(k)).length());
            assertThat(repeated).as("part %d repeats nothing", k).isNotEmpty();
            assertThat(previous).endsWith(repeated);
            assertThat(SentenceEnds.endsSentence(previous.substring(0, previous.length() - repeated.length())))
                    .as("part %d's overlap starts a sentence: %s", k, repeated).isTrue();
            assertThat(CL100K.count(repeated)).isLessThanOrEqualTo(30);
        }
        // The space after a sentence starts the next part's new text: cl100k attaches it to the next word, so no
        // token is cut in two and the new texts' counts add up to the line's.
        assertThat(parts.subList(1, parts.size())).allSatisfy(c -> assertThat(fresh.get(c)).startsWith(" "));
        assertThat(parts.stream().mapToInt(c -> CL100K.count(fresh.get(c))).sum()).isEqualTo(CL100K.count(line));
        assertValid(document, chunker, chunks);
    }

    @Test
    void chunk_longLineWithReferenceMarks_isSplitAfterTheMarks() {
        // encyclopaedia text: "over time.[1][2] It ..." ends its sentence after the marks, not before them
        Random random = new Random(13);
        String line = sentences(random, 6000).replaceAll("([.!?]) ", "$1[1][12] ");
        ParsedDocument document = document(List.of(line));
        TokenWindowChunker chunker = chunker(CL100K, 200, 0);

        List<TextChunk> chunks = chunker.chunk(document);

        assertThat(chunks).hasSizeGreaterThan(5);
        assertThat(String.join("", freshTexts(document, chunks))).isEqualTo(line);
        for (TextChunk c : chunks.subList(0, chunks.size() - 1)) {
            assertThat(c.text()).as("a part ends after its sentence's marks").matches("(?s).*[.!?]\\[1]\\[12]");
        }
        assertThat(chunks.subList(1, chunks.size())).allSatisfy(c -> assertThat(c.text()).doesNotStartWith("["));
    }

    @Test
    void chunk_longLineWithInitialsAndTitles_isNotCutInsideAName() {
        // "Janie (G. Hannelius)" was cut after "G.": the answer's quote ended there, the next chunk began "Hannelius)"
        Random random = new Random(17);
        StringBuilder line = new StringBuilder();
        for (int day = 1; day <= 80; day++) {
            line.append(sentences(random, 10 + random.nextInt(120)).replaceAll("[.!?]", ""))
                    .append(" with Janie (G. Hannelius) and Quinn (Kaitlyn T. Maher) as Ms. Stout and Dr. Jones")
                    .append(" wait until 4 p.m. UTC on day ").append(day).append(". ");
        }
        ParsedDocument document = document(List.of(line.toString().strip()));
        TokenWindowChunker chunker = chunker(CL100K, 200, 0);

        List<TextChunk> chunks = chunker.chunk(document);

        assertThat(chunks).hasSizeGreaterThan(10);
        assertThat(String.join("", freshTexts(document, chunks))).isEqualTo(line.toString().strip());
        assertThat(chunks.subList(0, chunks.size() - 1))
                .allSatisfy(c -> assertThat(c.text()).matches("(?s).* on day \\d+\\."));
    }

    @Test
    void chunk_longLineOfSentencesGluedWithoutSpaces_isCutBetweenThem() {
        // paragraphs joined without a space ("a heretic.By 1672"): cut there, not inside a sentence after some word
        Random random = new Random(23);
        StringBuilder line = new StringBuilder();
        for (int day = 1; day <= 80; day++) {
            line.append("By day ").append(day).append(' ')
                    .append(sentences(random, 10 + random.nextInt(120)).replaceAll("[.!?]", ""))
                    .append(" they rested.");
        }
        ParsedDocument document = document(List.of(line.toString()));
        TokenWindowChunker chunker = chunker(CL100K, 200, 0);

        List<TextChunk> chunks = chunker.chunk(document);

        assertThat(chunks).hasSizeGreaterThan(10);
        assertThat(String.join("", freshTexts(document, chunks))).isEqualTo(line.toString());
        assertThat(chunks.subList(0, chunks.size() - 1))
                .allSatisfy(c -> assertThat(c.text()).endsWith(" they rested."));
    }

    @Test
    void chunk_longLineWithoutSentenceEnds_isSplitAfterWordsWithWordOverlap() {
        Random random = new Random(12);
        String line = words(random, 4000).replace(".", "").replace("?", "");
        ParsedDocument document = document(List.of(line));
        TokenWindowChunker chunker = chunker(CL100K, 150, 30);

        List<TextChunk> parts = chunker.chunk(document);
        List<String> fresh = freshTexts(document, parts);

        assertThat(parts).hasSizeGreaterThan(3);
        assertThat(String.join("", fresh)).isEqualTo(line);
        // each part leaves room for its overlap: its new text fills the 120 tokens left of the window
        for (TextChunk part : parts.subList(1, parts.size() - 1)) {
            assertThat(part.text()).doesNotEndWith(" ");
            assertThat(part.tokenCount()).isLessThanOrEqualTo(150).isGreaterThan(100);
        }
        assertThat(parts.get(0).tokenCount()).isLessThanOrEqualTo(120).isGreaterThan(60);
        for (int k = 1; k < parts.size(); k++) {
            assertThat(parts.get(k).text()).as("part %d starts with a whole word", k).doesNotStartWith(" ")
                    .isNotEqualTo(fresh.get(k));
        }
        assertThat(fresh.subList(1, fresh.size())).allSatisfy(f -> assertThat(f).startsWith(" "));
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

        String text = String.join("\n", lines);
        int[][] spans = spans(document, chunks);
        int wholeLines = 0;
        for (int c = 1; c < chunks.size(); c++) {
            assertThat(spans[c][0]).as("chunk %d overlaps the one before", c).isLessThan(spans[c - 1][1]);
            String repeated = text.substring(spans[c][0], spans[c - 1][1]);
            assertThat(chunks.get(c - 1).text()).endsWith(repeated);
            assertThat(chunks.get(c).text()).startsWith(repeated);
            assertThat(CL100K.count(repeated)).isLessThanOrEqualTo(30);
            if (spans[c][0] == 0 || text.charAt(spans[c][0] - 1) == '\n') {
                wholeLines++;
            }
        }
        // The lines are short, so the overlap is mostly whole lines (a one-line chunk gives its last sentences).
        assertThat(wholeLines).isGreaterThan(chunks.size() / 2);
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

    @Test
    void chunk_paragraphsWrittenAsOneLongLine_overlapByTheirLastSentences() {
        // exported documentation often writes a paragraph as one line: 120-250 tokens each, so whole-line overlap
        // (50 tokens at most) could never apply
        Random random = new Random(31);
        List<String> lines = new ArrayList<>();
        for (int p = 0; p < 30; p++) {
            lines.add(sentences(random, 600 + random.nextInt(500)));
            lines.add("");
        }
        ParsedDocument document = document(lines);
        TokenWindowChunker chunker = chunker(CL100K, 500, 50);

        List<TextChunk> chunks = chunker.chunk(document);

        String text = String.join("\n", lines);
        int[][] spans = spans(document, chunks);
        for (int c = 1; c < chunks.size(); c++) {
            assertThat(spans[c][0]).as("chunk %d overlaps the one before", c).isLessThan(spans[c - 1][1]);
            String repeated = text.substring(spans[c][0], spans[c - 1][1]);
            assertThat(CL100K.count(repeated)).isBetween(1, 50);
            String before = text.substring(0, spans[c][0]);
            assertThat(SentenceEnds.endsSentence(before)).as("chunk %d's overlap starts a sentence", c).isTrue();
        }
        assertValid(document, chunker, chunks);
    }

    @Test
    void chunk_rustReferenceCorpus_everySameSectionPairOverlaps() throws IOException {
        Assumptions.assumeThat(Files.isDirectory(RUST_REFERENCE)).isTrue();
        List<Path> files;
        try (Stream<Path> walk = Files.walk(RUST_REFERENCE)) {
            files = walk.filter(p -> p.toString().endsWith(".md")).sorted().collect(Collectors.toList());
        }
        MarkdownDocumentParser parser = new MarkdownDocumentParser();
        TokenWindowChunker chunker = chunker(CL100K, 500, 50);
        int pairs = 0;
        List<String> without = new ArrayList<>();
        for (Path file : files) {
            ParsedDocument document = parser.parse(RUST_REFERENCE, file);
            List<TextChunk> chunks = chunker.chunk(document);
            int[][] spans = spans(document, chunks);
            for (int c = 1; c < chunks.size(); c++) {
                if (!Objects.equals(chunks.get(c).section(), chunks.get(c - 1).section())) {
                    continue;
                }
                pairs++;
                if (spans[c][0] >= spans[c - 1][1] && !fencedBlockBetween(document, spans[c - 1][3], spans[c][2])) {
                    without.add(file.getFileName() + " chunks " + (c - 1) + "/" + c);
                }
            }
        }
        // Before overlap could come from inside a line, many such pairs had none (see the design notes for the
        // numbers). Only a pair that meets at a fenced code block (never cut for overlap) may still have none.
        assertThat(pairs).isGreaterThan(200);
        assertThat(without).isEmpty();
    }

    /** Whether the chunk boundary between lines {@code end} and {@code start} runs along a fenced block. */
    private static boolean fencedBlockBetween(ParsedDocument document, int end, int start) {
        for (int[] block : fencedBlocks(document.lines(), document.firstBodyLine())) {
            if (block[1] == end || block[0] == start || block[0] <= end && block[1] >= end) {
                return true;
            }
        }
        return false;
    }

    @Test
    void chunk_pagedDocument_neverSpansAPageAndCountsLinesWithinIt() {
        Random random = new Random(32);
        List<String> lines = new ArrayList<>();
        List<Integer> pages = new ArrayList<>();
        for (int page = 1; page <= 6; page++) {
            int count = 5 + random.nextInt(30);
            for (int l = 0; l < count; l++) {
                lines.add(sentences(random, 40 + random.nextInt(200)));
                pages.add(page);
            }
        }
        ParsedDocument document = paged(lines, pages);
        TokenWindowChunker chunker = chunker(CL100K, 200, 40);

        List<TextChunk> chunks = chunker.chunk(document);

        assertThat(chunks).extracting(TextChunk::page).contains(1, 2, 3, 4, 5, 6).doesNotContainNull();
        for (TextChunk chunk : chunks) {
            int first = pages.indexOf(chunk.page());
            int lastOnPage = pages.lastIndexOf(chunk.page()) - first + 1;
            assertThat(chunk.endLine()).as("chunk %d", chunk.index()).isLessThanOrEqualTo(lastOnPage);
            // its text really is on that page, at those page lines
            assertThat(String.join("\n", lines.subList(first + chunk.startLine() - 1, first + chunk.endLine())))
                    .contains(chunk.text().split("\n", -1)[chunk.text().split("\n", -1).length - 1]);
        }
        assertValid(document, chunker, chunks);
    }

    @Test
    void chunk_plainText_readsNoMarkdownFromItsLines() {
        // "# note 7." opens a heading in markdown (never a chunk's end) but is a sentence in a text file (a good end)
        List<String> lines = new ArrayList<>();
        Random random = new Random(33);
        for (int l = 0; l < 60; l++) {
            String line = sentences(random, 60 + random.nextInt(60));
            lines.add(l % 5 == 4 ? "# note " + l + "." : line.substring(0, line.length() - 1) + ",");
        }
        TokenWindowChunker chunker = chunker(CL100K, 120, 0);

        List<TextChunk> asMarkdown = chunker.chunk(document(lines));
        List<TextChunk> asPlain = chunker.chunk(plain(lines));

        assertThat(asMarkdown.subList(0, asMarkdown.size() - 1))
                .noneSatisfy(c -> assertThat(lines.get(c.endLine() - 1)).startsWith("# note"));
        long atNotes = asPlain.subList(0, asPlain.size() - 1).stream()
                .filter(c -> lines.get(c.endLine() - 1).startsWith("# note")).count();
        assertThat(atNotes).as("plain chunks ending at a '# note' sentence").isGreaterThanOrEqualTo(asPlain.size() / 2);
        assertValid(plain(lines), chunker, asPlain);
    }

    @Test
    void chunk_codeWithSectionsPerDeclaration_endsChunksBetweenDeclarations() {
        // the code parser gives each top-level declaration its own section; chunks prefer to end where it changes
        List<String> lines = new ArrayList<>();
        List<@Nullable String> sections = new ArrayList<>();
        for (int f = 0; f < 12; f++) {
            lines.add("int function" + f + "(int value) {");
            sections.add("function" + f);
            for (int l = 0; l < 6; l++) {
                lines.add("    value = value * " + (l + 3) + " + compute(value, " + l + ");");
                sections.add("function" + f);
            }
            lines.add("}");
            sections.add("function" + f);
        }
        ParsedDocument document = new ParsedDocument("Code.java", "Code", null, PromotionLevel.STANDARD, null,
                new TreeSet<>(), null, null, Map.of(), List.of(), 0, lines, 1, sections, List.of(),
                ParsedDocument.Structure.PLAIN);
        TokenWindowChunker chunker = chunker(CL100K, 150, 0);

        List<TextChunk> chunks = chunker.chunk(document);

        assertThat(chunks).hasSizeGreaterThan(2);
        for (TextChunk chunk : chunks) {
            assertThat(lines.get(chunk.endLine() - 1)).as("chunk %d ends between declarations", chunk.index())
                    .isEqualTo("}");
            assertThat(chunk.section()).isEqualTo(sections.get(chunk.startLine() - 1));
        }
        assertValid(document, chunker, chunks);
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
     * Every property a chunking must have. Each chunk is a contiguous piece {@code [start, end)} of the document's
     * text (its lines joined with {@code \n}): it starts inside {@code startLine} and ends inside {@code endLine}.
     * It starts inside a line only where it overlaps the chunk before, and ends inside a line only where that line
     * alone is over the window (a part of a long line).
     */
    private static void assertValid(ParsedDocument document, TokenWindowChunker chunker, List<TextChunk> chunks) {
        List<String> lines = document.lines();
        TokenCounter counter = chunker.counter();
        int max = chunker.maxTokens();
        int overlapMax = chunker.overlapTokens();
        int first = document.firstBodyLine();
        boolean blankBody = lines.subList(first - 1, lines.size()).stream().allMatch(String::isBlank);
        assertThat(chunks.isEmpty()).as("no chunks exactly when the body is blank").isEqualTo(blankBody);

        String text = String.join("\n", lines);
        int[] offset = lineOffsets(lines);
        int[][] spans = spans(document, chunks);
        java.util.Set<Integer> cutLines = new java.util.TreeSet<>();
        for (int c = 0; c < chunks.size(); c++) {
            TextChunk chunk = chunks.get(c);
            int start = spans[c][0];
            int end = spans[c][1];
            int startLine = spans[c][2];
            int endLine = spans[c][3];
            String label = "chunk " + c + " (lines " + startLine + "-" + endLine + ")";
            assertThat(chunk.index()).as(label).isEqualTo(c);
            assertThat(startLine).as(label).isGreaterThanOrEqualTo(first);
            assertThat(chunk.tokenCount()).as(label + " count").isEqualTo(counter.count(chunk.text()));
            assertThat(chunk.tokenCount()).as(label + " over the window").isLessThanOrEqualTo(max);
            assertThat(chunk.section()).as(label + " section").isEqualTo(document.section(startLine));
            assertThat(chunk.page()).as(label + " page").isEqualTo(document.page(startLine));
            assertThat(document.page(endLine)).as(label + " spans pages").isEqualTo(document.page(startLine));
            for (int line = startLine; line <= endLine; line++) {
                int at = line;
                // a fenced block is one unit: kept whole even where a heading path changes inside it
                boolean fenced = document.structure() == ParsedDocument.Structure.MARKDOWN && fencedBlocks(lines,
                        first).stream().anyMatch(b -> b[0] <= at && at <= b[1]);
                if (!lines.get(line - 1).isBlank() && !fenced) {
                    assertThat(document.section(line)).as(label + " spans sections at line " + line)
                            .isEqualTo(chunk.section());
                }
            }
            assertThat(chunk.text()).as(label).isNotBlank();
            String[] own = chunk.text().split("\n", -1);
            assertThat(own[0]).as(label + " starts with a blank line").isNotBlank();
            assertThat(own[own.length - 1]).as(label + " ends with a blank line").isNotBlank();
            boolean partialStart = start > offset[startLine - 1];
            if (partialStart) {
                // inside a line only where it repeats the chunk before, or goes on where that one (a part) stopped
                assertThat(c > 0 && start <= spans[c - 1][1]).as(label + " starts inside a line, after a gap")
                        .isTrue();
            }
            int lineEnd = offset[endLine - 1] + lines.get(endLine - 1).length();
            if (end < lineEnd && !text.substring(end, lineEnd).isBlank()) {
                cutLines.add(endLine);
            }
        }
        for (int line : cutLines) {
            assertThat(counter.count(lines.get(line - 1))).as("line %d is cut although it fits", line)
                    .isGreaterThan(max);
        }
        // Coverage: every non-blank character of the body is in some chunk.
        boolean[] covered = new boolean[text.length() + 1];
        for (int[] span : spans) {
            Arrays.fill(covered, span[0], span[1], true);
        }
        for (int i = offset[first - 1]; i < text.length(); i++) {
            if (!Character.isWhitespace(text.charAt(i)) && !covered[i]) {
                int line = lineOf(offset, i);
                throw new AssertionError("line " + line + " is not covered at column " + (i - offset[line - 1])
                        + ": " + lines.get(line - 1));
            }
        }
        // Order, progress and overlap.
        for (int c = 1; c < chunks.size(); c++) {
            String label = "chunks " + (c - 1) + " and " + c;
            int[] previous = spans[c - 1];
            int[] current = spans[c];
            assertThat(current[0]).as(label + " progress").isGreaterThan(previous[0]);
            assertThat(current[1]).as(label + " progress").isGreaterThan(previous[1]);
            if (current[0] < previous[1]) {
                String repeated = text.substring(current[0], previous[1]);
                assertThat(counter.count(repeated)).as(label + " overlap").isLessThanOrEqualTo(overlapMax);
                assertThat(document.page(current[2])).as(label + " overlap across pages")
                        .isEqualTo(document.page(previous[3]));
            }
        }
        // Fenced blocks that fit are never split.
        if (document.structure() == ParsedDocument.Structure.MARKDOWN) {
            for (int[] block : fencedBlocks(lines, first)) {
                String blockText = String.join("\n", lines.subList(block[0] - 1, block[1]));
                if (counter.count(blockText) > max) {
                    continue;
                }
                for (int[] span : spans) {
                    boolean disjoint = span[3] < block[0] || span[2] > block[1];
                    boolean whole = span[2] <= block[0] && span[3] >= block[1];
                    assertThat(disjoint || whole).as("a chunk (lines %d-%d) splits the block at lines %d-%d",
                            span[2], span[3], block[0], block[1]).isTrue();
                }
            }
        }
    }

    /**
     * Where each chunk lies in the document's text: {start, end, startLine, endLine} with document line numbers
     * (page-relative line numbers are turned back into document lines). Asserts that each chunk is a contiguous
     * piece of the text within its line range, found at or after the previous chunk's start.
     */
    private static int[][] spans(ParsedDocument document, List<TextChunk> chunks) {
        List<String> lines = document.lines();
        String text = String.join("\n", lines);
        int[] offset = lineOffsets(lines);
        int[][] spans = new int[chunks.size()][];
        int from = 0;
        for (int c = 0; c < chunks.size(); c++) {
            TextChunk chunk = chunks.get(c);
            int startLine = documentLine(document, chunk.page(), chunk.startLine());
            int endLine = startLine + chunk.endLine() - chunk.startLine();
            String label = "chunk " + c + " (lines " + startLine + "-" + endLine + ")";
            assertThat(endLine).as(label).isLessThanOrEqualTo(lines.size());
            int lineStart = offset[startLine - 1];
            int start = place(text, chunk.text(), Math.max(from, lineStart),
                    lineStart + lines.get(startLine - 1).length(), c == 0 ? -1 : spans[c - 1][1]);
            assertThat(start).as(label + " is not a piece of the document at its lines: " + chunk.text())
                    .isGreaterThanOrEqualTo(0).isLessThanOrEqualTo(lineStart + lines.get(startLine - 1).length());
            int end = start + chunk.text().length();
            assertThat(lineOf(offset, Math.max(start, end - 1))).as(label + " ends on another line").isEqualTo(endLine);
            spans[c] = new int[] {start, end, startLine, endLine};
            from = start + 1;
        }
        return spans;
    }

    /**
     * Where {@code piece} lies in {@code text} at or after {@code from}. Generated text repeats itself, so where the
     * piece can go on from the previous chunk's end — repeating its last {@code k} characters, the fewest that work,
     * or none — that place is taken; else its first place after {@code from} (a chunk that starts on a new line).
     */
    private static int place(String text, String piece, int from, int lineEnd, int previousEnd) {
        if (previousEnd >= 0) {
            for (int k = 0; k <= Math.min(piece.length(), previousEnd - from); k++) {
                int at = previousEnd - k;
                if (at <= lineEnd && text.charAt(at) == piece.charAt(0) && text.startsWith(piece, at)
                        && piece.length() > k) {
                    return at;
                }
            }
        }
        return text.indexOf(piece, from);
    }

    /** The document line of a chunk's (page-relative) line. */
    private static int documentLine(ParsedDocument document, @Nullable Integer page, int line) {
        if (page == null) {
            return line;
        }
        int firstOfPage = document.pages().indexOf(page) + 1;
        return firstOfPage + line - 1;
    }

    private static int[] lineOffsets(List<String> lines) {
        int[] offset = new int[lines.size() + 1];
        for (int i = 0; i < lines.size(); i++) {
            offset[i + 1] = offset[i] + lines.get(i).length() + 1;
        }
        return offset;
    }

    /** The 1-based line holding text offset {@code at}. */
    private static int lineOf(int[] offset, int at) {
        int i = Arrays.binarySearch(offset, at);
        return i >= 0 ? i + 1 : -i - 1;
    }

    /** The new text of each chunk, without what it repeats from the one before (its overlap). */
    private static List<String> freshTexts(ParsedDocument document, List<TextChunk> chunks) {
        String text = String.join("\n", document.lines());
        int[][] spans = spans(document, chunks);
        List<String> fresh = new ArrayList<>();
        for (int c = 0; c < chunks.size(); c++) {
            int start = c == 0 ? spans[c][0] : Math.max(spans[c][0], spans[c - 1][1]);
            fresh.add(text.substring(start, spans[c][1]));
        }
        return fresh;
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

    /** An embedder that reads 20 tokens, counting words plus its two special tokens. */
    private static final class TwentyWordEmbedder extends dev.ragkit.testing.HashedBagOfWordsEmbedder {
        TwentyWordEmbedder() {
            super("twenty-words", 16);
        }

        @Override
        public int maxInputTokens() {
            return 20;
        }

        @Override
        public int inputTokens(String text) {
            String t = text.strip();
            return 2 + (t.isEmpty() ? 0 : t.split("\\s+").length);
        }
    }

    @Test
    void forEmbedder_countingEmbedder_everyChunkFitsWhatItReads() {
        TwentyWordEmbedder embedder = new TwentyWordEmbedder();
        TokenWindowChunker chunker = TokenWindowChunker.forEmbedder(embedder);
        List<String> lines = new ArrayList<>();
        lines.add("# Guide");
        for (int i = 0; i < 12; i++) {
            lines.add("Sentence " + i + " has exactly seven words in it.");
        }
        lines.add("One very long line " + "with many words ".repeat(30) + "ends here.");
        List<TextChunk> chunks = chunker.chunk(document(lines));

        assertThat(chunker.maxTokens()).isEqualTo(18);                  // the limit less the two special tokens
        assertThat(chunker.overlapTokens()).isZero();
        assertThat(chunker.counter().name()).isEqualTo("embedder:twenty-words");
        assertThat(chunks).hasSizeGreaterThan(6).allSatisfy(c -> assertThat(embedder.inputTokens(c.text()))
                .as(c.text()).isLessThanOrEqualTo(20));
    }

    @Test
    void forEmbedder_embedderThatCannotCount_chunksByCl100kInWindowsAboutAsLongAsTheCountedOnes() {
        TokenWindowChunker chunker = TokenWindowChunker.forEmbedder(
                new dev.ragkit.testing.HashedBagOfWordsEmbedder("no-limit", 16));
        TokenWindowChunker limited = TokenWindowChunker.forEmbedder(
                new dev.ragkit.testing.HashedBagOfWordsEmbedder("limit-64", 16) {
                    @Override
                    public int maxInputTokens() {
                        return 64;
                    }
                });

        assertThat(chunker.maxTokens()).isEqualTo(TokenWindowChunker.UNCOUNTED_WINDOW).isEqualTo(120);
        assertThat(chunker.overlapTokens()).isZero();
        assertThat(chunker.counter().name()).isEqualTo(CL100K.name());
        // a stated limit below the window, without a count of its own tokens: under the limit, room for two
        // special tokens
        assertThat(limited.maxTokens()).isEqualTo(62);
        assertThat(limited.counter().name()).isEqualTo(CL100K.name());
    }

    @Test
    void chunk_sectionChange_endsTheChunkSoEachChunkNamesTheSectionOfAllItsLines() {
        ParsedDocument doc = document(List.of("# Body", "", "## Conclusion", "The essay ends well.", "",
                "## Essay Memo", "The memo is due on Friday."));

        List<TextChunk> chunks = chunker(CL100K, 500, 50).chunk(doc);

        assertThat(chunks).extracting(TextChunk::section).containsExactly("Body", "Body > Conclusion",
                "Body > Essay Memo");
        assertThat(chunks.get(2).text()).isEqualTo("## Essay Memo\nThe memo is due on Friday.");
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

    private static ParsedDocument paged(List<String> lines, List<Integer> pages) {
        ParsedDocument d = document(lines);
        return new ParsedDocument("doc.pdf", "doc", null, PromotionLevel.STANDARD, null, new TreeSet<>(), null, null,
                Map.of(), List.of(), 0, lines, 1, d.sections(), pages, ParsedDocument.Structure.PLAIN);
    }

    private static ParsedDocument plain(List<String> lines) {
        List<@Nullable String> sections = new ArrayList<>();
        lines.forEach(l -> sections.add(null));
        return new ParsedDocument("doc.txt", "doc", null, PromotionLevel.STANDARD, null, new TreeSet<>(), null, null,
                Map.of(), List.of(), 0, lines, 1, sections, List.of(), ParsedDocument.Structure.PLAIN);
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
