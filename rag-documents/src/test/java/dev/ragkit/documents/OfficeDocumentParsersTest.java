package dev.ragkit.documents;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ragkit.generation.ChatRequest;
import dev.ragkit.generation.ExtractiveBackend;
import dev.ragkit.grounding.Citation;
import dev.ragkit.grounding.CitationExtractor;
import dev.ragkit.parse.DocumentParser;
import dev.ragkit.parse.ParsedDocument;
import dev.ragkit.chunk.TextChunk;
import dev.ragkit.chunk.TokenWindowChunker;
import dev.ragkit.prompt.ContextBlock;
import dev.ragkit.prompt.PromptBuilder;
import dev.ragkit.store.StoredChunk;
import dev.ragkit.store.StoredDocument;
import dev.ragkit.tokens.TokenCounters;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 27: slides, spreadsheets, Word 97–2003 and OpenDocument files, made by POI and LibreOffice
 * ({@link OfficeFixtures}), read with the place a citation names — the slide, the sheet and its rows, the heading.
 */
final class OfficeDocumentParsersTest {

    private static ParsedDocument parse(DocumentParser parser, String name) {
        return parser.parse(Fixtures.source(name));
    }

    /** The page and section of the line holding {@code text}, and its line number within its page. */
    private static String place(ParsedDocument doc, String text) {
        for (int i = 1; i <= doc.lines().size(); i++) {
            if (doc.line(i).contains(text)) {
                int first = i;
                while (first > 1 && doc.paged() && doc.page(first - 1).equals(doc.page(i))) {
                    first--;
                }
                return "page " + doc.page(i) + " [" + doc.section(i) + "] line " + (i - first + 1);
            }
        }
        throw new AssertionError("no line holds '" + text + "': " + doc.lines());
    }

    @ParameterizedTest
    @ValueSource(strings = {"deck.pptx", "deck.odp"})
    void aDeck_isAPagePerSlide_titledSections_boxesInReadingOrder_tableRows_andMarkedNotes(String name) {
        DocumentParser parser = name.endsWith("odp") ? new OpenDocumentParser() : new SlidesDocumentParser();
        ParsedDocument deck = parse(parser, name);

        assertThat(deck.metadata()).containsEntry(ParsedDocument.PAGE_LABEL, "slide").containsEntry("slides", "3");
        assertThat(deck.title()).isEqualTo("Quarterly Review");
        assertThat(deck.docType()).isEqualTo(name.substring(name.indexOf('.') + 1));
        assertThat(place(deck, "Planning Team, autumn")).startsWith("page 1 [Quarterly Review]");
        // written right, left, below: read left, right, below (top to bottom, then left to right)
        assertThat(deck.lines()).containsSubsequence("Roadmap", "Left column: finish the API",
                "Right column: ship the mobile app", "Below both: hire two engineers",
                "Notes: Mention the hiring freeze ends in March");
        assertThat(place(deck, "Notes: Mention the hiring freeze")).startsWith("page 2 [Roadmap]");
        assertThat(deck.lines()).containsSubsequence("Team | Amount", "Mobile | 120000", "API | 80000");
        assertThat(place(deck, "Mobile | 120000")).startsWith("page 3 [Budget]");
        assertThat(deck.lines()).containsOnlyOnce("Roadmap");                  // the title is not read twice
    }

    @ParameterizedTest
    @ValueSource(strings = {"deck.ppt"})
    void aPowerPoint97Deck_readsLikeAPptx(String name) {
        ParsedDocument deck = parse(new SlidesDocumentParser(), name);

        assertThat(deck.docType()).isEqualTo("ppt");
        assertThat(deck.metadata()).containsEntry(ParsedDocument.PAGE_LABEL, "slide").containsEntry("slides", "2");
        assertThat(place(deck, "Exits are at both ends")).startsWith("page 1 [Safety Briefing]");
        assertThat(deck.lines()).containsSubsequence("First Aid", "First aiders wear green vests",
                "The defibrillator hangs by the lift").containsOnlyOnce("First Aid");
        assertThat(place(deck, "defibrillator")).startsWith("page 2 [First Aid]");
    }

    @ParameterizedTest
    @ValueSource(strings = {"budget.xlsx", "budget.xls", "budget.ods"})
    void aWorkbook_isASectionPerSheet_rowsAsLinesWithTheirHeaders_cachedFormulaValues_hiddenSheetsCounted(
            String name) {
        DocumentParser parser = name.endsWith("ods") ? new OpenDocumentParser() : new SpreadsheetDocumentParser();
        ParsedDocument book = parse(parser, name);

        assertThat(book.metadata()).containsEntry(ParsedDocument.PAGE_LABEL, "sheet")
                .containsEntry(SpreadsheetDocumentParser.HIDDEN_SHEETS, "1")
                .doesNotContainKey(SpreadsheetDocumentParser.CUT);
        assertThat(book.warnings()).containsExactly("1 hidden sheet skipped (hidden sheets are not indexed; unhide a "
                + "sheet to index it)");
        assertThat(book.lines()).noneMatch(line -> line.contains("Alice") || line.contains("99999"));
        // line n of a sheet is its row n: the header is row 1, South row 3, the total (a formula) row 6
        assertThat(place(book, "Region | Q3")).isEqualTo("page 1 [Q3] line 1");
        assertThat(place(book, "Region: South | Q3: 950")).isEqualTo("page 1 [Q3] line 3");
        assertThat(place(book, "Region: Total | Q3: 2850")).isEqualTo("page 1 [Q3] line 6");
        // no header row (a number in the first row with values): cells as they are, from row 3
        assertThat(place(book, "42 | the answer")).isEqualTo("page 3 [Notes] line 3");
        assertThat(book.docType()).isEqualTo(name.substring(name.indexOf('.') + 1));
    }

    @ParameterizedTest
    @ValueSource(strings = {"memo.doc", "memo.odt"})
    void aWord97OrOpenDocumentText_hasHeadingsAsSections_andTablesAsRows(String name) {
        DocumentParser parser = name.endsWith("odt") ? new OpenDocumentParser() : new DocDocumentParser();
        ParsedDocument memo = parse(parser, name);

        assertThat(memo.title()).isEqualTo("Budget Memo");
        assertThat(memo.paged()).isFalse();
        assertThat(memo.docType()).isEqualTo(name.substring(name.indexOf('.') + 1));
        assertThat(section(memo, "This memo sets the budget rules")).isNull();
        assertThat(section(memo, "Every team keeps within")).isEqualTo("Budget");
        assertThat(section(memo, "Trains are booked")).isEqualTo("Budget > Travel");
        assertThat(memo.lines()).containsSubsequence("Trip | Limit", "Berlin | 400 EUR");
        assertThat(section(memo, "Berlin | 400 EUR")).isEqualTo("Budget > Travel");
        assertThat(section(memo, "head of finance approves")).isEqualTo("Approvals");
    }

    @ParameterizedTest
    @ValueSource(strings = {"deck.pptx", "budget.xlsx"})
    void anExtractiveAnswer_isCitedWithItsSlideOrItsSheetAndRows(String name) {
        boolean deck = name.startsWith("deck");
        ParsedDocument parsed = parse(deck ? new SlidesDocumentParser() : new SpreadsheetDocumentParser(), name);
        List<TextChunk> chunks = TokenWindowChunker.builder().counter(TokenCounters.jtokkit()).build().chunk(parsed);
        StoredDocument doc = StoredDocument.builder().tenant("t").path(parsed.path()).title(parsed.title())
                .metadata(parsed.metadata()).build();
        List<ContextBlock> blocks = new ArrayList<>();
        for (TextChunk c : chunks) {
            StoredChunk stored = new StoredChunk(doc.id(), c.index(), c.text(), null, c.tokenCount(), c.startLine(),
                    c.endLine(), c.section(), c.page());
            blocks.add(new ContextBlock(ContextBlock.Kind.RELEVANT, doc, stored, c.text(), c.startLine(), c.endLine(),
                    0.8, 0.8, 0.8, null, false));
        }
        String question = deck ? "When does the hiring freeze end?" : "What did the South region make in Q3?";

        String answer = new ExtractiveBackend(1).chat(ChatRequest.of(ExtractiveBackend.MODEL,
                PromptBuilder.standard().messages(blocks, List.of(), question))).text();
        Citation cited = CitationExtractor.standard().extract(answer, blocks).citations().get(0);

        if (deck) {
            assertThat(answer).contains("hiring freeze ends in March");
            assertThat(cited.location()).matches("docs/deck\\.pptx slide 2, lines \\d+\u2013\\d+");
            assertThat(cited.pageLabel()).isEqualTo("slide");
        } else {
            assertThat(answer).contains("Region: South | Q3: 950");
            // the rows are cited by the sheet's name and row numbers; rows without sentence punctuation read as one
            // run of text to the supporting-lines finder, so the range covers the South row rather than only it
            assertThat(cited.location()).isEqualTo("docs/budget.xlsx > Q3, rows " + cited.startLine() + "\u2013"
                    + cited.endLine());
            assertThat(cited.startLine()).isLessThanOrEqualTo(3);
            assertThat(cited.endLine()).isGreaterThanOrEqualTo(3).isLessThanOrEqualTo(6);
        }
    }

    private static @Nullable String section(ParsedDocument doc, String text) {
        for (int i = 1; i <= doc.lines().size(); i++) {
            if (doc.line(i).contains(text)) {
                return doc.section(i);
            }
        }
        throw new AssertionError("no line holds '" + text + "': " + doc.lines());
    }
}
