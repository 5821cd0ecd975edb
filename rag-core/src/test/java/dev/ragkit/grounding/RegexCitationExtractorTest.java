package dev.ragkit.grounding;

import static dev.ragkit.grounding.Blocks.block;
import static dev.ragkit.grounding.Blocks.critical;
import static dev.ragkit.grounding.Blocks.document;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatNullPointerException;

import dev.ragkit.prompt.ContextBlock;
import dev.ragkit.store.StoredDocument;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

final class RegexCitationExtractorTest {

    private static final String FORGED = "0123abcd-0000-4000-8000-00000000beef";

    private final CitationExtractor extractor = CitationExtractor.standard();

    private final StoredDocument handbook = document("hr/handbook.md", "hr");
    private final StoredDocument policy = document("it/policy.md", "it");
    private final ContextBlock h0 = block(handbook, 0, "Vacation needs approval.");
    private final ContextBlock h3 = block(handbook, 3, "Sick leave is reported to the manager.");
    private final ContextBlock p1 = block(policy, 1, "Passwords rotate every 90 days.");
    private final List<ContextBlock> blocks = List.of(h0, h3, p1);

    private static String marker(ContextBlock block) {
        return "[SourceId: " + block.sourceId() + "]";
    }

    private List<String> citedIds(String answer) {
        return extractor.extract(answer, blocks).citations().stream().map(Citation::sourceId).toList();
    }

    // ------------------------------------------------------------------------------------------------ valid markers

    @Test
    void extract_quotedSentence_citesTheLinesOfTheQuoteNotTheWholeChunk() {
        StoredDocument doc = document("handbook.md");
        ContextBlock chunk = block(doc, 0, "Leave\nAnnual leave is 25 days a year.\n\nSick leave\nReport sick "
                + "leave to your manager\nbefore nine in the morning.\n\nParking is free.", 40, 48, "Leave", null);

        Citation c = extractor.extract("- Report sick leave to your manager before nine in the morning. "
                + marker(chunk), List.of(chunk)).citations().get(0);

        assertThat(c.startLine()).isEqualTo(44);
        assertThat(c.endLine()).isEqualTo(45);
        assertThat(c.location()).isEqualTo("handbook.md:44-45");
    }

    @Test
    void extract_quoteOfABlockquoteACommentOrAListWithRuleNames_citesItsLines_asTheQuoteReadsThem() {
        // the Rust reference: a note as a GitHub alert, a rule name on its own line before each list item
        StoredDocument doc = document("closure.md");
        ContextBlock chunk = block(doc, 0, "Some closures implement more call traits:\n\nr[closure.fn-mut]\n"
                + "* A closure that does not move implements `FnMut`.\n\nr[closure.fn]\n"
                + "* A closure that does not mutate implements `Fn`.\n\n> [!NOTE]\n> Move closures may implement"
                + " `Fn`,\n> even though they capture by move.\n\nThe end.", 30, 42, "Closures", null);

        Citation note = extractor.extract("- Move closures may implement `Fn`, even though they capture by move. "
                + marker(chunk), List.of(chunk)).citations().get(0);
        Citation list = extractor.extract("- Some closures implement more call traits:\n  * A closure that does not"
                + " move implements `FnMut`.\n\n  * A closure that does not mutate implements `Fn`.\n  "
                + marker(chunk), List.of(chunk)).citations().get(0);

        assertThat(note.location()).isEqualTo("closure.md:39-40");
        assertThat(list.location()).isEqualTo("closure.md:30-36");
        // a comment's decoration is not in the quote either
        ContextBlock code = block(document("Counter.java"), 0, "/**\n * Counts tokens fast: one lookup\n"
                + " * per character. It never counts twice.\n */\nint count(String s) {", 10, 14, "Counter", null);
        Citation comment = extractor.extract("- Counts tokens fast: one lookup per character. " + marker(code),
                List.of(code)).citations().get(0);
        assertThat(comment.location()).isEqualTo("Counter.java:11-12");
        // nor a Python comment's "#": the quote of two comment lines cites those two lines
        ContextBlock py = block(document("backup.py"), 0, "import boto3\n\n# Copies the database to S3\n"
                + "# every night at two.\nupload(dump())", 1, 5, "backup", null);
        Citation hash = extractor.extract("- Copies the database to S3 every night at two. " + marker(py),
                List.of(py)).citations().get(0);
        assertThat(hash.location()).isEqualTo("backup.py:3-4");
        // nor a reference link's brackets: the quote reads the link's text, as the extractive answer writes it
        // (the first sentence shares as many of its words: without the quote found, the citation would point there)
        ContextBlock node = block(document("fs.md"), 0, "## Reading\n\nOn some systems the path of a directory may be"
                + " similar to the path fs.readFile() reads.\n\nSimilar to [`fs.readFile()`][], the path may be a\n"
                + "[directory][dirs] on some systems.", 40, 45, "Reading", null);
        Citation link = extractor.extract("- Similar to `fs.readFile()`, the path may be a directory on some"
                + " systems. " + marker(node), List.of(node)).citations().get(0);
        assertThat(link.location()).isEqualTo("fs.md:44-45");
        // nor a Javadoc's inline tags and HTML: the quote reads them as text, as the extractive answer writes it
        // (the first sentence shares all its words: without the quote found, the citation would point there)
        ContextBlock javaDoc = block(document("Scale.java"), 0, "/**\n * The object lives while the Embedder scale is"
                + " kept.\n *\n"
                + " * <p>The scale is kept while the {@link Embedder}\n * object lives.\n */", 20, 25, "Scale", null);
        Citation javadoc = extractor.extract("- The scale is kept while the Embedder object lives. " + marker(javaDoc),
                List.of(javaDoc)).citations().get(0);
        assertThat(javadoc.location()).isEqualTo("Scale.java:23-24");
    }

    @Test
    void extract_paraphrasingStatement_citesTheSentenceSharingTheMostWords() {
        StoredDocument doc = document("keys.md");
        ContextBlock chunk = block(doc, 1, "Keys are created in the console.\nThey rotate every ninety days.\n"
                + "Old keys stop working a week later.", 10, 12, "Keys", null);

        Citation c = extractor.extract("The keys rotate each ninety days " + marker(chunk) + ".", List.of(chunk))
                .citations().get(0);

        assertThat(c.startLine()).isEqualTo(11);
        assertThat(c.endLine()).isEqualTo(11);
    }

    @Test
    void extract_statementSharingNothing_citesTheWholeBlock() {
        StoredDocument doc = document("keys.md");
        ContextBlock chunk = block(doc, 1, "Keys are created in the console.\nThey rotate.", 10, 11, "Keys", null);

        Citation c = extractor.extract("Yes " + marker(chunk), List.of(chunk)).citations().get(0);

        assertThat(c.startLine()).isEqualTo(10);
        assertThat(c.endLine()).isEqualTo(11);
    }

    @Test
    void extract_sameBlockCitedTwice_spansFromTheFirstToTheLastSupportingLine() {
        StoredDocument doc = document("keys.md");
        ContextBlock chunk = block(doc, 1, "Keys are created in the console.\nNothing else.\nThey rotate every "
                + "ninety days.", 10, 12, "Keys", null);

        Citation c = extractor.extract("Keys are created in the console. " + marker(chunk) + " They rotate every "
                + "ninety days. " + marker(chunk), List.of(chunk)).citations().get(0);

        assertThat(c.startLine()).isEqualTo(10);
        assertThat(c.endLine()).isEqualTo(12);
    }

    @Test
    void extract_singleMarker_mapsBlockToCitationFields() {
        StoredDocument doc = document("guides/install.md", "ops");
        ContextBlock shown = block(doc, 2, "Run the installer.\nThen reboot.", 12, 13, "Install > Linux", 4);

        Citations result = extractor.extract("Run the installer. Then reboot. " + marker(shown), List.of(shown));

        assertThat(result.grounded()).isTrue();
        assertThat(result.unknownSourceIds()).isEmpty();
        assertThat(result.citations()).singleElement().satisfies(c -> {
            assertThat(c.sourceId()).isEqualTo(doc.id() + ":2");
            assertThat(c.documentId()).isEqualTo(doc.id());
            assertThat(c.documentName()).isEqualTo("Title of guides/install.md");
            assertThat(c.path()).isEqualTo("guides/install.md");
            assertThat(c.chunkIndex()).isEqualTo(2);
            assertThat(c.startLine()).isEqualTo(12);
            assertThat(c.endLine()).isEqualTo(13);
            assertThat(c.location()).isEqualTo("guides/install.md p. 4, lines 12–13");   // a paged chunk
            assertThat(c.section()).isEqualTo("Install > Linux");
            assertThat(c.sectionOrNa()).isEqualTo("Install > Linux");
            assertThat(c.page()).isEqualTo(4);
            assertThat(c.pageOrNa()).isEqualTo("4");
            assertThat(c.relevance()).isEqualTo(0.7);
            assertThat(c.snippet()).isEqualTo("Run the installer.\nThen reboot.");
            assertThat(c.snippetFull()).isEqualTo("Run the installer.\nThen reboot.");
        });
    }

    @Test
    void extract_linesNarrowerThanChunk_usesTheBlockLinesNotTheChunkLines() {
        ContextBlock shown = block(handbook, 5, "line 30\nline 31", 30, 31, null, null);

        Citation citation = extractor.extract(marker(shown), List.of(shown)).citations().get(0);

        assertThat(shown.chunk().startLine()).isEqualTo(1);
        assertThat(citation.startLine()).isEqualTo(30);
        assertThat(citation.endLine()).isEqualTo(31);
    }

    @Test
    void extract_noSectionOrPage_displaysNa() {
        Citation citation = extractor.extract(marker(h0), blocks).citations().get(0);

        assertThat(citation.section()).isNull();
        assertThat(citation.page()).isNull();
        assertThat(citation.sectionOrNa()).isEqualTo("N/A");
        assertThat(citation.pageOrNa()).isEqualTo("N/A");
    }

    @Test
    void extract_criticalBlockWithNaNRelevance_hasNullRelevance() {
        ContextBlock rules = critical(handbook, 7, "Always lock your screen.");

        Citation citation = extractor.extract("Lock it " + marker(rules), List.of(rules)).citations().get(0);

        assertThat(citation.relevance()).isNull();
    }

    @Test
    void extract_commaSeparatedIdsInOneBracket_citesEach() {
        assertThat(citedIds("Both apply [SourceId: " + h0.sourceId() + ", " + p1.sourceId() + "]."))
                .containsExactly(h0.sourceId(), p1.sourceId());
    }

    @Test
    void extract_semicolonSeparatedIdsWithRepeatedKeyword_citesEach() {
        assertThat(citedIds("Both [SourceId: " + h3.sourceId() + "; SourceId: " + h0.sourceId() + "]"))
                .containsExactly(h3.sourceId(), h0.sourceId());
    }

    @Test
    void extract_semicolonWithoutRepeatedKeywordAndNoSpaces_citesEach() {
        assertThat(citedIds("[SourceId:" + h3.sourceId() + ";" + p1.sourceId() + "]"))
                .containsExactly(h3.sourceId(), p1.sourceId());
    }

    @Test
    void extract_whitespaceAndLineBreaksInsideBracket_tolerated() {
        assertThat(citedIds("See [ SourceId :\n  " + h0.sourceId() + " ,\n " + p1.sourceId() + "\n]"))
                .containsExactly(h0.sourceId(), p1.sourceId());
    }

    @Test
    void extract_severalMarkers_citedInOrderOfFirstAppearanceOnce() {
        String answer = marker(p1) + " and " + marker(h0) + " again " + marker(p1)
                + " [SourceId: " + h0.sourceId() + ", " + h3.sourceId() + "]";

        assertThat(citedIds(answer)).containsExactly(p1.sourceId(), h0.sourceId(), h3.sourceId());
    }

    @Test
    void extract_blocksSharingASourceId_firstBlockWins() {
        ContextBlock first = block(handbook, 0, "first text");
        ContextBlock second = block(handbook, 0, "second text");

        Citations result = extractor.extract(marker(first), List.of(first, second));

        assertThat(result.citations()).singleElement()
                .satisfies(c -> assertThat(c.snippet()).isEqualTo("first text"));
    }

    // ------------------------------------------------------------------------------------- unknown and malformed

    @Test
    void extract_wellFormedIdNotInPrompt_reportedAsUnknownNotCited() {
        Citations result = extractor.extract("Trust me [SourceId: " + FORGED + ":2]", blocks);

        assertThat(result.citations()).isEmpty();
        assertThat(result.grounded()).isFalse();
        assertThat(result.unknownSourceIds()).containsExactly(FORGED + ":2");
    }

    @Test
    void extract_knownAndUnknownMixed_separatedDeduplicatedInOrder() {
        String answer = "[SourceId: " + FORGED + ":9, " + h3.sourceId() + "] " + marker(h0)
                + " [SourceId: " + FORGED + ":1] [SourceId: " + FORGED + ":9] " + marker(h3);

        Citations result = extractor.extract(answer, blocks);

        assertThat(result.citations()).extracting(Citation::sourceId).containsExactly(h3.sourceId(), h0.sourceId());
        assertThat(result.unknownSourceIds()).containsExactly(FORGED + ":9", FORGED + ":1");
        assertThat(result.grounded()).isTrue();
    }

    @Test
    void extract_chunkIndexWrittenWithLeadingZero_isNotTheSameId() {
        String padded = handbook.id() + ":03";

        Citations result = extractor.extract("[SourceId: " + padded + "]", blocks);

        assertThat(result.citations()).isEmpty();
        assertThat(result.unknownSourceIds()).containsExactly(padded);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {
        "[SourceId: 0123ABCD-0000-4000-8000-00000000BEEF:0]",   // upper-case hex
        "[SourceId: 0123abcd-0000-4000-8000-00000000bee:0]",    // 35 characters
        "[SourceId: 0123abcd-0000-4000-8000-00000000beef0:0]",  // 37 characters
        "[SourceId: 0123abcd-0000-4000-8000-00000000beef]",     // no chunk index
        "[SourceId: 0123abcd-0000-4000-8000-00000000beef:]",    // colon, no index
        "[SourceId: 0123abcd-0000-4000-8000-00000000beef:x]",   // index not a number
        "[SourceId 0123abcd-0000-4000-8000-00000000beef:0]",    // no colon after the keyword
        "[sourceid: 0123abcd-0000-4000-8000-00000000beef:0]",   // keyword in the wrong case
        "[Source: 0123abcd-0000-4000-8000-00000000beef:0]",     // another keyword
        "SourceId: 0123abcd-0000-4000-8000-00000000beef:0",     // no brackets
        "[SourceId: 0123abcd-0000-4000-8000-00000000beef:0",    // unclosed
        "[SourceId: 0123abcd-0000-4000-8000-00000000beef:0 and more]", // stray text
        "[SourceId: 0123abcd-0000-4000-8000-00000000beef:0 | 0123abcd-0000-4000-8000-00000000beef:1]",
        "[SourceId: 0123abcd-0000-4000-8000-00000000beef:0, 0123ABCD-0000-4000-8000-00000000BEEF:1]",
        "[SourceId: 0123abcd-0000-4000-8000-00000000beef:0,]",  // dangling separator
    })
    void extract_malformedMarker_ignoredEntirely(String answer) {
        Citations result = extractor.extract("Text " + answer + " text", blocks);

        assertThat(result.citations()).isEmpty();
        assertThat(result.unknownSourceIds()).isEmpty();
        assertThat(result.grounded()).isFalse();
    }

    @Test
    void extract_malformedIdOfAKnownDocument_notCited() {
        String upper = h0.sourceId().toUpperCase(Locale.ROOT);

        assertThat(citedIds("[SourceId: " + upper + "] [SourceId: " + handbook.id() + "]")).isEmpty();
    }

    @Test
    void extract_noMarkers_notGrounded() {
        Citations result = extractor.extract("Vacation needs approval.", blocks);

        assertThat(result.grounded()).isFalse();
        assertThat(result.citations()).isEmpty();
        assertThat(result.unknownSourceIds()).isEmpty();
    }

    @Test
    void extract_noBlocks_everyWellFormedIdUnknown() {
        Citations result = extractor.extract(marker(h0), List.of());

        assertThat(result.grounded()).isFalse();
        assertThat(result.unknownSourceIds()).containsExactly(h0.sourceId());
    }

    // --------------------------------------------------------------------------------------------------- snippets

    private Citation citeText(String text) {
        ContextBlock shown = block(handbook, 0, text);
        return extractor.extract(marker(shown), List.of(shown)).citations().get(0);
    }

    @Test
    void extract_textOfExactly200Chars_snippetNotSuffixed() {
        String text = "a".repeat(200);

        Citation citation = citeText(text);

        assertThat(citation.snippet()).isEqualTo(text);
        assertThat(citation.snippetFull()).isEqualTo(text);
    }

    @Test
    void extract_textOf201Chars_snippetCutTo200PlusEllipsis() {
        String text = "b".repeat(200) + "c";

        Citation citation = citeText(text);

        assertThat(citation.snippet()).isEqualTo("b".repeat(200) + "...");
        assertThat(citation.snippetFull()).isEqualTo(text);
    }

    @Test
    void extract_textLongerThan1000Chars_snippetFullCutTo1000WithoutSuffix() {
        String text = "x".repeat(999) + "yz" + "w".repeat(100);

        Citation citation = citeText(text);

        assertThat(citation.snippet()).hasSize(203).endsWith("x...");
        assertThat(citation.snippetFull()).isEqualTo("x".repeat(999) + "y");
    }

    @Test
    void extract_surrogatePairAtTheCut_notSplit() {
        String emoji = "\uD83D\uDE00"; // one code point, two chars
        String text = "a".repeat(199) + emoji + "b".repeat(798) + emoji + "tail";

        Citation citation = citeText(text);

        assertThat(citation.snippet()).isEqualTo("a".repeat(199) + "...");
        assertThat(citation.snippetFull()).isEqualTo("a".repeat(199) + emoji + "b".repeat(798));
        assertThat(citation.snippetFull()).hasSize(999);
    }

    @Test
    void extract_surrogatePairEndingExactlyAtTheCut_kept() {
        String emoji = "\uD83D\uDE00";
        String text = "a".repeat(198) + emoji + "rest";

        assertThat(citeText(text).snippet()).isEqualTo("a".repeat(198) + emoji + "...");
    }

    @Test
    void extract_nullArguments_rejectedWithTheirNames() {
        assertThatNullPointerException().isThrownBy(() -> extractor.extract(null, blocks)).withMessage("answer");
        assertThatNullPointerException().isThrownBy(() -> extractor.extract("a", null)).withMessage("blocks");
    }
}
