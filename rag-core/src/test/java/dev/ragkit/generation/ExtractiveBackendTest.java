package dev.ragkit.generation;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ragkit.RagPipeline;
import dev.ragkit.RagRequest;
import dev.ragkit.RagResponse;
import dev.ragkit.audit.AuditSink;
import dev.ragkit.embedding.Embedder;
import dev.ragkit.embedding.SimilarityScale;
import dev.ragkit.error.RagException;
import dev.ragkit.grounding.Citation;
import dev.ragkit.grounding.CitationExtractor;
import dev.ragkit.grounding.SelfRating;
import dev.ragkit.prompt.ContextBlock;
import dev.ragkit.prompt.PromptBuilder;
import dev.ragkit.retrieval.RelevanceModel;
import dev.ragkit.store.DocumentStore;
import dev.ragkit.store.PromotionLevel;
import dev.ragkit.store.Scope;
import dev.ragkit.store.StoredChunk;
import dev.ragkit.store.StoredDocument;
import dev.ragkit.store.inmemory.InMemoryDocumentStore;
import dev.ragkit.testing.HashedBagOfWordsEmbedder;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

final class ExtractiveBackendTest {
    private static final Pattern MARKER = Pattern.compile("\\[SourceId: ([a-f0-9-]{36}:\\d+)]");

    private static ContextBlock block(String path, String text) {
        StoredDocument d = StoredDocument.builder().tenant("t").path(path).title(path)
                .promotionLevel(PromotionLevel.STANDARD).charCount(text.length()).build();
        int lines = text.split("\n", -1).length;
        StoredChunk c = new StoredChunk(d.id(), 0, text, null, 10, 1, lines, null, null);
        return new ContextBlock(ContextBlock.Kind.RELEVANT, d, c, text, 1, lines, 0.8, 0.8, 0.8, null, false);
    }

    /** A document of tenant {@code t}. */
    private static StoredDocument document(String path, String title, int charCount) {
        return StoredDocument.builder().tenant("t").path(path).title(title).charCount(charCount).build();
    }

    /**
     * A chunk of document {@code d} on its lines, as retrieval hands it in: matched (with scores) or a neighbour of a
     * match (NaN scores).
     */
    private static ContextBlock chunkOf(StoredDocument d, int index, String text, int firstLine, int lastLine,
            String section, boolean matched) {
        double score = matched ? 0.8 : Double.NaN;
        return new ContextBlock(ContextBlock.Kind.RELEVANT, d, new StoredChunk(d.id(), index, text, null, 20,
                firstLine, lastLine, section, null), text, firstLine, lastLine, score, score, 0.8, null, false);
    }

    /** The answer's lines after its label, without the lines naming each document ({@code In a.md:}). */
    private static java.util.stream.Stream<String> quoteLines(String answer) {
        return answer.lines().skip(1).filter(line -> !line.startsWith("In "));
    }

    private static ChatRequest prompt(List<ContextBlock> blocks, String question) {
        return ChatRequest.of("extractive", PromptBuilder.standard().messages(blocks, List.of(), question));
    }

    private static List<String> markers(String text) {
        List<String> ids = new ArrayList<>();
        Matcher m = MARKER.matcher(text);
        while (m.find()) {
            ids.add(m.group(1));
        }
        return ids;
    }

    @Test
    void chat_sentenceFromAPagedDocument_isQuotedWithItsPage() {
        String text = "Annual leave is 25 days. Unused days expire in March.";
        StoredDocument d = document("hr-handbook.pdf", "Handbook", text.length());
        StoredChunk c = new StoredChunk(d.id(), 3, text, null, 12, 4, 4, "Leave", 12);
        ContextBlock paged = new ContextBlock(ContextBlock.Kind.RELEVANT, d, c, text, 4, 4, 0.8, 0.8, 0.8, null, false);

        ChatResult r = new ExtractiveBackend().chat(prompt(List.of(paged), "How many days of annual leave?"));

        assertThat(r.text()).contains("Annual leave is 25 days. (p. 12) [SourceId: " + paged.sourceId() + "]");
        Citation cited = CitationExtractor.standard().extract(r.text(), List.of(paged)).citations().get(0);
        assertThat(cited.page()).isEqualTo(12);
        assertThat(cited.location()).isEqualTo("hr-handbook.pdf p. 12, lines 4\u20134");
    }

    @Test
    void chat_sentenceFromASlide_isQuotedWithItsSlide() {
        String text = "Roadmap\nLeft column: finish the API\nBelow both: hire two engineers";
        ContextBlock slide = labelled("deck.pptx", "slide", text, "Roadmap", 2);

        ChatResult r = new ExtractiveBackend().chat(prompt(List.of(slide), "How many engineers do we hire?"));

        assertThat(r.text()).contains("- Below both: hire two engineers (slide 2) [SourceId: " + slide.sourceId() + "]")
                .doesNotContain("(p. ");
        Citation cited = CitationExtractor.standard().extract(r.text(), List.of(slide)).citations().get(0);
        assertThat(cited.location()).isEqualTo("deck.pptx slide 2, lines 3\u20133");
    }

    @Test
    void chat_rowOfASheet_isQuotedAloneAndCitedAsThatRow() {
        // Rows are not sentences that go on into the next row: the South row alone is quoted and cited.
        String text = "Region | Q3\nRegion: North | Q3: 1200\nRegion: South | Q3: 950\nRegion: East | Q3: 700";
        ContextBlock sheet = labelled("budget.xlsx", "sheet", text, "Q3", 1);

        ChatResult r = new ExtractiveBackend().chat(prompt(List.of(sheet), "How much did South make?"));

        assertThat(r.text()).contains("- Region: South | Q3: 950 (sheet Q3) [SourceId: " + sheet.sourceId() + "]")
                .doesNotContain("North").doesNotContain("East");
        Citation cited = CitationExtractor.standard().extract(r.text(), List.of(sheet)).citations().get(0);
        assertThat(cited.startLine()).isEqualTo(3);
        assertThat(cited.endLine()).isEqualTo(3);
        assertThat(cited.location()).isEqualTo("budget.xlsx > Q3, rows 3\u20133");
    }

    /** A block of the first lines of one page of a document whose pages are slides or sheets. */
    private static ContextBlock labelled(String path, String label, String text, String section, int page) {
        StoredDocument d = StoredDocument.builder().tenant("t").path(path).title(path).charCount(text.length())
                .metadata(java.util.Map.of(dev.ragkit.parse.ParsedDocument.PAGE_LABEL, label)).build();
        int lines = text.split("\n", -1).length;
        StoredChunk c = new StoredChunk(d.id(), 0, text, null, 10, 1, lines, section, page);
        return new ContextBlock(ContextBlock.Kind.RELEVANT, d, c, text, 1, lines, 0.8, 0.8, 0.8, null, false);
    }

    @Test
    void chat_quotesTheBestMatchingSentencesWithTheirSourceIds() {
        ContextBlock keys = block("keys.md", "Welcome to the guide. API keys rotate every ninety days.\n"
                + "The rotate command replaces a key early.");
        ContextBlock other = block("vacation.md", "Vacation requests go through the people portal.");
        ChatResult r = new ExtractiveBackend().chat(prompt(List.of(keys, other), "How often do API keys rotate?"));

        assertThat(r.text()).startsWith(ExtractiveBackend.LABEL);
        assertThat(r.model()).isEqualTo(ExtractiveBackend.MODEL);
        assertThat(r.text()).contains("API keys rotate every ninety days. [SourceId: " + keys.sourceId() + "]")
                .contains("The rotate command replaces a key early. [SourceId: " + keys.sourceId() + "]")
                .doesNotContain("Welcome").doesNotContain("Vacation");
        assertThat(markers(r.text())).containsOnly(keys.sourceId());
    }

    @Test
    void chat_aSentenceReferringBack_isQuotedWithTheSentenceBefore() {
        // "She played Talisa" alone does not say who; the sentence before it names her
        String text = "Oona Chaplin is a Spanish actress.\nShe played Talisa Maegyr in Game of Thrones.\n\n"
                + "It premiered in 2011. Tickets sold out.";
        ContextBlock bio = block("bio.md", text);

        ChatResult r = new ExtractiveBackend(1).chat(prompt(List.of(bio), "Who played Talisa in Game of Thrones?"));

        assertThat(r.text()).endsWith("\n- Oona Chaplin is a Spanish actress. She played Talisa Maegyr in Game of "
                + "Thrones. [SourceId: " + bio.sourceId() + "]");
        Citation cited = CitationExtractor.standard().extract(r.text(), List.of(bio)).citations().get(0);
        assertThat(cited.startLine()).isEqualTo(1);
        assertThat(cited.endLine()).isEqualTo(2);
        // across a blank line nothing is brought along: "It premiered" opens its own paragraph
        ChatResult premiere = new ExtractiveBackend(1).chat(prompt(List.of(bio), "When did it premiere in 2011?"));
        assertThat(premiere.text()).endsWith("\n- It premiered in 2011. [SourceId: " + bio.sourceId() + "]");
    }

    @Test
    void chat_twoSentencesHoldingTheQuestionAboutAsWell_theBetterMatchedDocumentsIsQuoted() {
        // the prompt lists the best-matched documents first; eight others stand between the two that hold the words
        ContextBlock first = block("first.md",
                "The harbour bridge opened to ferry traffic.\n\nIt was shut one winter.");
        ContextBlock last = block("last.md", "The harbour bridge opened to ferry traffic in winter.");
        List<ContextBlock> others = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            others.add(block("other-" + i + ".md", "Apples grow in orchard number " + i + "."));
        }
        String question = "When was the harbour bridge opened to ferry traffic in winter?";
        List<ContextBlock> ranked = new ArrayList<>(List.of(first));
        ranked.addAll(others);
        ranked.add(last);

        String answer = new ExtractiveBackend(1).chat(prompt(ranked, question)).text();

        // the last document's sentence holds one word more, not enough to pass the first document's
        assertThat(answer).endsWith("\n- The harbour bridge opened to ferry traffic. [SourceId: " + first.sourceId()
                + "]");
        // the same blocks in the other order: the place decides, not the text
        Collections.reverse(ranked);
        assertThat(new ExtractiveBackend(1).chat(prompt(ranked, question)).text())
                .endsWith("\n- The harbour bridge opened to ferry traffic in winter. [SourceId: " + last.sourceId()
                        + "]");
    }

    @Test
    void chat_quotesOfTwoDocuments_theDocumentOfTheBestQuoteComesFirst() {
        // the prompt's first document holds two of the question's words, the second all three: asked of the
        // repository's docs, a benchmark table's row came before the sentence that says the default chunk size
        ContextBlock first = block("benchmarks.md", "The default heap held every chunk of the run.");
        ContextBlock second = block("embedders.md", "The default chunk size is 126 word pieces.");

        String answer = new ExtractiveBackend(2).chat(prompt(List.of(first, second),
                "What is the default chunk size?")).text();

        // each document's quotes under its name
        assertThat(answer).endsWith("\nIn embedders.md:\n- The default chunk size is 126 word pieces. [SourceId: "
                + second.sourceId() + "]\nIn benchmarks.md:\n- The default heap held every chunk of the run. "
                + "[SourceId: " + first.sourceId() + "]");
    }

    @Test
    void chat_aQuestionTypedWithoutAccents_quotesTheSentenceThatHasThem() {
        // read as ASCII runs, "Beyoncé" was "beyonc": the question's rarest word met neither sentence, and the first
        // document's won by its place
        ContextBlock other = block("brooklyn.md", "Shawn Carter was born in Brooklyn.");
        ContextBlock singer = block("houston.md", "Beyoncé Knowles was born in Houston, Texas.");

        String answer = new ExtractiveBackend(1).chat(prompt(List.of(other, singer), "Where was Beyonce born?"))
                .text();

        assertThat(answer).endsWith("\n- Beyoncé Knowles was born in Houston, Texas. [SourceId: " + singer.sourceId()
                + "]");
    }

    @Test
    void chat_aTableRow_isQuotedAloneUnderItsHeader() {
        // read as one "sentence", the whole table held most of the question's words and was quoted whole
        String text = "Each client has its own limits.\n\n| option | default | setting |\n|---|---|---|\n"
                + "| connect timeout | 5 s | `connect-timeout-seconds` |\n| read timeout | 30 s | `timeout-seconds` |\n"
                + "| keep alive | server default | `keep-alive` |\n| base URL | `http://localhost:11434` | `base-url` |";
        ContextBlock config = block("configuration.md", text);

        ChatResult r = new ExtractiveBackend(1).chat(prompt(List.of(config), "What is the default read timeout?"));

        // each cell under its column's name, as a sheet's rows read (the header row and the row glued said less)
        assertThat(r.text()).endsWith("\n- option: read timeout | default: 30 s | setting: `timeout-seconds` "
                + "[SourceId: " + config.sourceId() + "]");
        Citation cited = CitationExtractor.standard().extract(r.text(), List.of(config)).citations().get(0);
        assertThat(cited.startLine()).isEqualTo(cited.endLine()).isEqualTo(6);   // the row's own line (1-based)
        String two = new ExtractiveBackend(2).chat(prompt(List.of(config), "What is the default read timeout?")).text();
        assertThat(two).contains("- option: connect timeout | default: 5 s", "- option: read timeout | default: 30 s")
                .doesNotContain("keep alive", "base URL", "| option |");
        // a row with more cells than its header: quoted under the header row, as written
        String ragged = "| option | default |\n|---|---|\n| read timeout | 30 s | per call |";
        String quoted = new ExtractiveBackend(1).chat(prompt(List.of(block("ragged.md", ragged)),
                "What is the default read timeout?")).text();
        assertThat(quoted).contains("- | option | default | | read timeout | 30 s | per call |");
    }

    @Test
    void chat_aSentenceIntroducingACodeBlock_isQuotedWithIt_citingTheBlocksLines() {
        // quoted alone, "then add the modules you use:" left the reader without the modules
        String text = "## Dependencies\n\nImport the BOM, then add the modules you use:\n\n```xml\n"
                + "<dependency>\n  <artifactId>rag-core</artifactId>\n</dependency>\n```\n\n"
                + "RagKit logs through SLF4J.";
        ContextBlock start = block("getting-started.md", text);
        ContextBlock other = block("faq.md", "Maven modules are added once per project.");

        ChatResult r = new ExtractiveBackend(2).chat(prompt(List.of(other, start),
                "Which modules do I add to use rag-core?"));

        // the better quote first, though its document comes second in the prompt
        assertThat(r.text()).startsWith(ExtractiveBackend.LABEL + "\nIn getting-started.md:\n- Import the BOM, "
                + "then add the modules you use:\n  ```xml\n  <dependency>\n    <artifactId>rag-core</artifactId>\n"
                + "  </dependency>\n  ```\n  [SourceId: " + start.sourceId() + "]\nIn faq.md:\n- Maven modules");
        assertThat(r.text().split("artifactId>rag-core", -1)).hasSize(2);       // the code line is not quoted again
        Citation cited = CitationExtractor.standard().extract(r.text(), List.of(other, start)).citations().stream()
                .filter(c -> c.sourceId().equals(start.sourceId())).findFirst().orElseThrow();
        assertThat(cited.startLine()).isEqualTo(3);                       // the sentence's line ...
        assertThat(cited.endLine()).isEqualTo(9);                         // ... to the closing fence
        // the first quote, after the answer's label line, too
        String alone = new ExtractiveBackend(1).chat(prompt(List.of(start), "Which modules do I add to use rag-core?"))
                .text();
        Citation first = CitationExtractor.standard().extract(alone, List.of(start)).citations().get(0);
        assertThat(new int[] {first.startLine(), first.endLine()}).containsExactly(3, 9);
        // a block that asks the question itself (a measured example command) neither answers nor lends its words
        ContextBlock bench = block("notes.md", "Timed seven runs each:\n\n```bash\nragkit ask \"Which modules do I add "
                + "to use rag-core?\"\n```");
        String echoed = new ExtractiveBackend(3).chat(prompt(List.of(bench, start),
                "Which modules do I add to use rag-core?")).text();
        assertThat(echoed).contains("- Import the BOM").doesNotContain("Timed seven runs", "ragkit ask");
        assertThat(new ExtractiveBackend(2, new HashedBagOfWordsEmbedder("toy", 64)).quoteSimilarity(
                "Which modules do I add to use rag-core?", r.text())).hasSize(2);
    }

    @Test
    void chat_aQuestionAskingForAFullName_quotesTheSentenceThatFirstNamesInFullWhomTheAnswerNamesByOneWord() {
        // the sentence that answers says "Gia"; the question asks for her full name, given two sentences before
        ContextBlock plot = block("plot.md", "Gia Matteo flirts with Christian at the party.\n"
                + "Kate meets Ana for a drink.\nAna threatens to fire Gia after the party.");

        ChatResult r = new ExtractiveBackend(1).chat(prompt(List.of(plot),
                "What is the full name of the person Ana threatens to fire?"));

        assertThat(quoteLines(r.text())).containsExactly("- Gia Matteo flirts with Christian at the party. … Ana "
                + "threatens to fire Gia after the party. [SourceId: " + plot.sourceId() + "]");
        Citation cited = CitationExtractor.standard().extract(r.text(), List.of(plot)).citations().get(0);
        assertThat(new int[] {cited.startLine(), cited.endLine()}).containsExactly(1, 3);
        // so does any question asking for someone; a question asking for something else quotes the sentence alone
        assertThat(new ExtractiveBackend(1).chat(prompt(List.of(plot), "Who does Ana threaten to fire?")).text())
                .contains("Gia Matteo flirts with Christian at the party. … Ana threatens to fire Gia");
        assertThat(new ExtractiveBackend(1).chat(prompt(List.of(plot), "When does Ana threaten to fire Gia?")).text())
                .doesNotContain("Matteo");
    }

    @Test
    void chat_aSentenceHoldingTheWholeQuestion_isNotQuoted() {
        // a FAQ line and an example command ask the question itself; quoting them back answers nothing
        ContextBlock faq = block("faq.md", "Q: How are tenants isolated? Read on.\n\n"
                + "Tenants are isolated from each other on every read path.");
        ContextBlock example = block("start.md", "bin/ragkit ask \"How are tenants isolated?\"\n\n"
                + "A scope always carries a non-blank tenant.");

        ChatResult r = new ExtractiveBackend().chat(prompt(List.of(example, faq), "How are tenants isolated?"));

        assertThat(r.text()).contains("- Tenants are isolated from each other on every read path. [SourceId: "
                + faq.sourceId() + "]").doesNotContain("Q: How").doesNotContain("bin/ragkit");
        assertThat(ExtractiveBackend.echoes("Are tenants isolated, and how?", "How are tenants isolated?")).isFalse();
        assertThat(ExtractiveBackend.echoes("Tenants are isolated.", "tenants are isolated")).isFalse();  // words
        assertThat(ExtractiveBackend.echoes("What is it? Nobody knows.", "What is?")).isFalse();   // too short
    }

    @Test
    void chat_aSentenceGoingOnFromOneHoldingTheWholeQuestion_isNotQuoted() {
        // "They now find" refers back to the sentence that asks the question, and would be quoted after it
        ContextBlock notes = block("notes.md", "Users asked \"How are tenants isolated?\" and the guide said nothing. "
                + "They now find the answer in the guide.\n\nTenants are isolated from each other on every read path.");

        String text = new ExtractiveBackend().chat(prompt(List.of(notes), "How are tenants isolated?")).text();

        assertThat(text).contains("- Tenants are isolated from each other on every read path.")
                .doesNotContain("Users asked").doesNotContain("They now find");
    }

    @Test
    void chat_sentenceHoldingTheKindOfAnswerAsked_isPreferredToOneHoldingMoreOfTheQuestionsWords() {
        // the first sentence holds three of the question's four words, the second two and the year a "when" asks for
        ContextBlock a = block("geico.md", "Geico ads feature a gecko mascot voiced by an actor.\n\n"
                + "The gecko was introduced in 2000.");

        String when = new ExtractiveBackend(1).chat(prompt(List.of(a), "When was the gecko introduced in Geico ads?"))
                .text();
        String what = new ExtractiveBackend(1).chat(prompt(List.of(a), "What is the gecko introduced in Geico ads?"))
                .text();

        assertThat(quoteLines(when)).containsExactly("- The gecko was introduced in 2000. [SourceId: "
                + a.sourceId() + "]");
        assertThat(quoteLines(what)).containsExactly("- Geico ads feature a gecko mascot voiced by an actor. "
                + "[SourceId: " + a.sourceId() + "]");
    }

    @Test
    void chat_questionAskingForAName_prefersTheSentenceThatNamesSomeoneTheQuestionDoesNot() {
        // the first sentence holds three of the question's four words (sheriff, Dodge, shot), the second two (man,
        // shot) and a name; "first name" only says what form the answer takes
        ContextBlock a = block("dodge.md", "The sheriff of Dodge was shot at noon.\n\n"
                + "The man who shot him was Walter Reed.");

        String name = new ExtractiveBackend(1).chat(prompt(List.of(a),
                "What is the first name of the man who shot the sheriff in Dodge?")).text();
        String where = new ExtractiveBackend(1).chat(prompt(List.of(a),
                "Where did the man who shot the sheriff in Dodge go?")).text();

        assertThat(quoteLines(name)).containsExactly("- The man who shot him was Walter Reed. [SourceId: "
                + a.sourceId() + "]");
        assertThat(quoteLines(where)).containsExactly("- The sheriff of Dodge was shot at noon. [SourceId: "
                + a.sourceId() + "]");
    }

    @Test
    void chat_questionAskingWhere_prefersTheSentenceThatPlacesItInANamedPlace() {
        // the first sentence holds three of the question's four words, the second two and "in Vancouver"
        ContextBlock a = block("apes.md", "The Apes sequel was filmed over five months.\n\n"
                + "Reeves filmed it in Vancouver.");

        String where = new ExtractiveBackend(1).chat(prompt(List.of(a), "Where was the Apes sequel filmed by Reeves?"))
                .text();
        String how = new ExtractiveBackend(1).chat(prompt(List.of(a), "How was the Apes sequel filmed by Reeves?"))
                .text();

        assertThat(quoteLines(where)).containsExactly("- Reeves filmed it in Vancouver. [SourceId: "
                + a.sourceId() + "]");
        assertThat(quoteLines(how)).containsExactly("- The Apes sequel was filmed over five months. [SourceId: "
                + a.sourceId() + "]");
    }

    @Test
    void chat_sentenceHoldingTheKindAsked_isQuotedBesideTheQuestionsWords_thoughTheEmbedderFindsItFar() {
        // "The story opens in late 1967" shares no word with the question, and the toy embedder (a bag of words)
        // finds it the least similar sentence; the year in another document's passage stays out
        ContextBlock film = block("deer-hunter.md", "The Deer Hunter follows three friends who hunt deer.\n\n"
                + "The Deer Hunter was praised for its acting.\n\nThe story opens in late 1967, in a steel town.");
        ContextBlock bridge = block("bridge.md", "The bridge was opened in 1932 by the governor.");

        ChatResult r = new ExtractiveBackend(3, new HashedBagOfWordsEmbedder("toy", 64)).chat(prompt(
                List.of(film, bridge), "What year is The Deer Hunter set in?"));

        assertThat(r.text()).contains("- The story opens in late 1967, in a steel town. [SourceId: "
                + film.sourceId() + "]").doesNotContain("1932");
    }

    @Test
    void chat_sentenceNamingWhomTheNextOneCallsHe_isQuotedWithIt() {
        ContextBlock a = block("lord.md", "Jack Lord was an American actor born in New York. He played Steve McGarrett "
                + "in Hawaii Five-O for twelve years.\n\nThe character Steve McGarrett returned in a remake.");

        ChatResult r = new ExtractiveBackend(2).chat(prompt(List.of(a),
                "Who played Steve McGarrett in Hawaii Five-O?"));

        assertThat(quoteLines(r.text())).containsExactly(
                "- Jack Lord was an American actor born in New York. [SourceId: " + a.sourceId() + "]",
                "- He played Steve McGarrett in Hawaii Five-O for twelve years. [SourceId: " + a.sourceId() + "]");
    }

    @Test
    void chat_sentenceRightAfterTheOneNamingTheSubject_isQuotedThoughItDoesNotNameIt() {
        ContextBlock a = block("galaxy.md", "The Milky Way is the galaxy that holds the Solar System. It spans "
                + "100,000 light-years.\n\nThe Milky Way galaxy is a barred spiral.\n\n"
                + "Nobody has seen it from outside.");

        ChatResult r = new ExtractiveBackend().chat(prompt(List.of(a), "How big is the Milky Way galaxy?"));

        assertThat(quoteLines(r.text())).containsExactly(
                "- The Milky Way is the galaxy that holds the Solar System. [SourceId: " + a.sourceId() + "]",
                "- It spans 100,000 light-years. [SourceId: " + a.sourceId() + "]",
                "- The Milky Way galaxy is a barred spiral. [SourceId: " + a.sourceId() + "]");
        // after a blank line a sentence starts a new passage: it goes on with nothing
        assertThat(r.text()).doesNotContain("Nobody");
    }

    @Test
    void chat_sentenceCutByAChunkBoundary_isQuotedWhole_citingBothChunksAtTheirLines() {
        // wrapped markdown: the 126-token window ended on line 3, in the middle of a sentence that goes on in line 4
        String first = "Keys rotate every ninety days.\nOld keys keep working for a grace\nperiod that";
        String second = "lasts one week after the rotation.\nOld keys keep working in the grace period of the portal.";
        StoredDocument d = document("keys.md", "keys.md", first.length() + second.length() + 1);
        ContextBlock a = chunkOf(d, 4, first, 1, 3, null, true);
        ContextBlock b = chunkOf(d, 5, second, 4, 5, null, false);

        ChatResult r = new ExtractiveBackend(1).chat(prompt(List.of(a, b),
                "How long do old keys keep working for a grace period?"));

        assertThat(quoteLines(r.text())).containsExactly("- Old keys keep working for a grace period that lasts "
                + "one week after the rotation. [SourceId: " + a.sourceId() + ", " + b.sourceId() + "]");
        List<Citation> cited = CitationExtractor.standard().extract(r.text(), List.of(a, b)).citations();
        assertThat(cited).extracting(Citation::sourceId).containsExactly(a.sourceId(), b.sourceId());
        assertThat(cited.get(0).startLine()).isEqualTo(2);
        assertThat(cited.get(0).endLine()).isEqualTo(3);
        // the second chunk's part of the quote, not its other sentence about the grace period
        assertThat(cited.get(1).startLine()).isEqualTo(4);
        assertThat(cited.get(1).endLine()).isEqualTo(4);
    }

    @Test
    void chat_consecutiveChunksWithABlankLineBetween_areTwoParagraphs_notOneGluedSentence() {
        // the chunker left out line 3, a blank line: "...the rotation." ends a paragraph, "old keys" opens one
        String first = "Keys rotate every ninety days.\nOld keys are revoked after the rotation.";
        String second = "old keys keep working for one week of grace.";
        StoredDocument d = document("keys.md", "keys.md", first.length() + second.length() + 2);
        ContextBlock a = chunkOf(d, 4, first, 1, 2, null, true);
        ContextBlock b = chunkOf(d, 5, second, 4, 5, null, false);

        ChatResult r = new ExtractiveBackend(1).chat(prompt(List.of(a, b), "How long do old keys keep working?"));

        assertThat(quoteLines(r.text())).containsExactly(
                "- old keys keep working for one week of grace. [SourceId: " + b.sourceId() + "]");
    }

    @Test
    void chat_aLongLineTheChunkerCut_isOneText_aSentenceAcrossTheCutIsQuotedWhole_withoutTheRepeatedOverlap() {
        // Wikipedia's cast paragraph, one line the chunker cut between "Stefanie" and "Scott"; the second part
        // ends in ";" after a "(", which read as a line of its own looked like code
        String first = "The cast also includes Edie McClurg as Mary, Katie Lowes as Candlehead; Stefanie";
        String second = "Scott as Moppet Girl, a young arcade-game player; Brian Kesinger as a Cyborg (based on Kano);";
        StoredDocument d = document("wreck-it-ralph.md", "Wreck-It Ralph", 300);
        ContextBlock a = chunkOf(d, 1, first, 3, 3, null, true);
        ContextBlock b = chunkOf(d, 2, second, 3, 3, null, false);
        // the same cut by a chunker that overlaps: the second part starts with the first's last words
        ContextBlock c = chunkOf(d, 2, "Candlehead; Stefanie " + second, 3, 3, null, false);

        for (ContextBlock next : List.of(b, c)) {
            ChatResult r = new ExtractiveBackend(1).chat(prompt(List.of(a, next), "Who plays Moppet Girl?"));

            assertThat(quoteLines(r.text())).containsExactly("- " + first + " " + second + " [SourceId: "
                    + a.sourceId() + ", " + b.sourceId() + "]");
        }
    }

    @Test
    void chat_ruleNamesAlertMarkersAndLinksAlone_areNeverQuoted_andAListAfterAColonComesWhole() {
        // the Rust reference's markdown: a rule name on its own line before each rule, notes as GitHub alerts
        String text = "r[lifetime-elision]\n# Lifetime elision\n\nr[lifetime-elision.function]\n"
                + "## Lifetime elision in functions\n\nr[lifetime-elision.function.intro]\nLifetime elision lets"
                + " lifetimes be left out of function signatures:\n\nr[lifetime-elision.function.in]\n* Each elided"
                + " lifetime in the parameters becomes a distinct parameter.\n\nr[lifetime-elision.function.out]\n"
                + "* A single input lifetime is given to every elided output lifetime.\n\n> [!NOTE]\n> Elision"
                + " of lifetimes is only a shorthand;\n> the lifetimes are still there.";
        StoredDocument d = document("lifetime-elision.md", "Lifetime elision", text.length());
        ContextBlock a = chunkOf(d, 0, text, 1, 17, null, true);
        // a table of contents' entry is a link that says nothing
        String contents = "- [Lifetime elision](lifetime-elision.md)\n- [Closures](closure.md)";
        ContextBlock toc = chunkOf(document("SUMMARY.md", "Summary", contents.length()), 0, contents, 1, 2, null,
                true);

        ChatResult r = new ExtractiveBackend(3).chat(prompt(List.of(a, toc), "What is lifetime elision?"));

        assertThat(r.text()).doesNotContain("r[", "[!NOTE]", ">");
        assertThat(quoteLines(r.text())).containsExactly(
                "- Lifetime elision lets lifetimes be left out of function signatures:",
                "  * Each elided lifetime in the parameters becomes a distinct parameter.",
                "",
                "  * A single input lifetime is given to every elided output lifetime.",
                "  [SourceId: " + a.sourceId() + "]",
                "- Elision of lifetimes is only a shorthand; the lifetimes are still there. [SourceId: " + a.sourceId()
                        + "]");
    }

    @Test
    void chat_sourceCode_quotesItsCommentsWithoutTheirMarkers_andNoCodeLineGluedToAnother() {
        String text = "#!/bin/bash\n# Copies the database to S3 every night,\n# keeping thirty days of copies.\n"
                + "set -e\npg_dump shop > /tmp/shop.sql\naws s3 cp /tmp/shop.sql s3://backups/shop.sql";
        StoredDocument d = document("ops/backup.sh", "backup.sh", text.length());
        ContextBlock a = chunkOf(d, 0, text, 1, 6, null, true);

        ChatResult r = new ExtractiveBackend(3).chat(prompt(List.of(a), "How many days of database copies are kept?"));

        // read as markdown, the comments were headings (never quoted) and the code lines one "sentence"
        assertThat(quoteLines(r.text()).findFirst()).contains("- Copies the database to S3 every night, keeping"
                + " thirty days of copies. [SourceId: " + a.sourceId() + "]");
        assertThat(r.text()).doesNotContain("# ", "set -e pg_dump");
    }

    @Test
    void chat_plainText_quotesAHashLine_whichMarkdownWouldReadAsAHeading() {
        String text = "Installing\n==========\n\nThe library goes to /usr/local/lib by default.\n"
                + "# set PREFIX=/opt/bzip2 to install the library somewhere else\nThen run ldconfig.";
        StoredDocument d = document("bzip2/README", "Installing", text.length());
        ContextBlock a = chunkOf(d, 0, text, 1, 6, "Installing", true);

        ChatResult r = new ExtractiveBackend(3).chat(prompt(List.of(a), "How do I install the library somewhere else?"));

        // read as markdown (a .md file's layout), the # line was a heading: never quoted
        assertThat(quoteLines(r.text())).contains("- # set PREFIX=/opt/bzip2 to install the library"
                + " somewhere else [SourceId: " + a.sourceId() + "]");
        assertThat(r.text()).doesNotContain("somewhere else Then run");
    }

    @Test
    void chat_aCodeLineSharingTheQuestionsWords_isWorthHalfASentence_andQuotedOnlyWhenNothingElseHoldsThem() {
        // Node's API reference: the example's line holds as many of the question's words as the sentence, and
        // stands first
        String text = "## Options\n\n```js\nconst child = spawn('grep', ['ssh'], { signal });\n```\n\n"
                + "The signal option aborts the child process when its AbortSignal fires.\n\n"
                + "The cwd option sets the working directory.\n";
        StoredDocument d = document("api/child_process.md", "child_process.md", text.length());
        ContextBlock a = chunkOf(d, 0, text, 1, 9, "Options", true);

        ChatResult r = new ExtractiveBackend(1).chat(prompt(List.of(a), "What does the signal option of spawn do?"));

        assertThat(quoteLines(r.text())).containsExactly("- The signal option aborts the child process when its"
                + " AbortSignal fires. [SourceId: " + a.sourceId() + "]");
        // where only code holds the question's words, code is quoted
        ChatResult only = new ExtractiveBackend(1).chat(prompt(List.of(a), "How is grep spawned?"));
        assertThat(quoteLines(only.text())).containsExactly("- const child = spawn('grep', ['ssh'], { signal });"
                + " [SourceId: " + a.sourceId() + "]");
    }

    @Test
    void chat_aHeadingThatHoldsTheQuestionsWords_quotesTheSentencesUnderIt() {
        // a Word file's text: "Conclusion" is a heading, the sentences under it share no word with the question
        String text = "Body\nThe essay compares two harbours and the way they handle their freight.\nConclusion\n"
                + "Both harbours move about the same tonnage each year.\nThe northern harbour does it with half the"
                + " cranes.\nEssay Memo\nThe memo is due to the tutor on the last Friday of term.";
        StoredDocument d = document("essay.docx", "essay.docx", text.length());
        ContextBlock a = chunkOf(d, 0, text, 1, 7, "Body", true);

        ChatResult r = new ExtractiveBackend(3).chat(prompt(List.of(a), "What is the conclusion of the essay?"));

        // "essay" and "conclusion" weigh alike here; without the heading's word only two sentences held either
        assertThat(quoteLines(r.text())).containsExactly(
                "- The essay compares two harbours and the way they handle their freight. [SourceId: " + a.sourceId()
                        + "]",
                "- Both harbours move about the same tonnage each year. [SourceId: " + a.sourceId() + "]",
                "- The northern harbour does it with half the cranes. [SourceId: " + a.sourceId() + "]");
    }

    @Test
    void chat_aPassageStartingInsideASection_readsTheSectionAsTheHeadingOfItsFirstSentences() {
        // the chunk starts under "Expiry of carried days" (its section), then a heading of its own follows, whose
        // sentences the section's words no longer reach
        String text = "They lapse on the first of April.\n\n## Requesting time off\n\n"
                + "Time off is requested two weeks ahead.";
        StoredDocument d = document("leave.md", "leave.md", text.length());
        ContextBlock a = chunkOf(d, 3, text, 9, 13, "Leave > Expiry of carried days", true);

        ChatResult r = new ExtractiveBackend(2).chat(prompt(List.of(a), "When do carried days expire?"));

        assertThat(quoteLines(r.text())).containsExactly(
                "- They lapse on the first of April. [SourceId: " + a.sourceId() + "]");
    }

    @Test
    void chat_eachDocumentsQuotes_comeUnderItsTitleAndFileName_whichSayWhomAHeIs() {
        // the sentence that answers says "He"; the article's title says who he is
        String text = "In 1935 he moved to the United States to study.\n\nHe was unhappy with the focus "
                + "on Beaux-Arts architecture at both schools.";
        StoredDocument d = document("people/i-m-pei.md", "I. M. Pei", text.length());
        ContextBlock a = chunkOf(d, 0, text, 3, 5, "I. M. Pei", true);
        ContextBlock untitled = block("notes.md", "Architecture schools taught Beaux-Arts design until the 1940s.");

        String answer = new ExtractiveBackend(2).chat(prompt(List.of(a, untitled),
                "Who was unhappy with the focus on Beaux-Arts architecture?")).text();

        assertThat(answer.lines()).containsExactly(ExtractiveBackend.LABEL, "In \"I. M. Pei\" (i-m-pei.md):",
                "- He was unhappy with the focus on Beaux-Arts architecture at both schools. [SourceId: "
                        + a.sourceId() + "]",
                "In notes.md:", "- Architecture schools taught Beaux-Arts design until the 1940s. [SourceId: "
                        + untitled.sourceId() + "]");
        // the naming lines are no quotes: the citations and the quotes' similarity read the quoted lines only
        assertThat(CitationExtractor.standard().extract(answer, List.of(a, untitled)).citations())
                .extracting(Citation::startLine).containsExactly(5, 1);
        assertThat(new ExtractiveBackend(2, new HashedBagOfWordsEmbedder("toy", 64)).quoteSimilarity(
                "Who was unhappy?", answer)).hasSize(2);
    }

    @Test
    void chat_theTitlesWordsAreHeldByEverySentenceOfTheDocument_soTheyTellNoSentenceOfItFromAnother() {
        // "the shared MIME database" names the specification; "default priority" names the sentence that answers
        StoredDocument d = document("spec/shared-mime-info.md", "Shared MIME-info Database", 200);
        ContextBlock intro = chunkOf(d, 0, "This is version 0.21 of the Shared MIME-info Database specification.",
                3, 3, "1. Introduction", true);
        ContextBlock rules = chunkOf(d, 1, "Magic elements hold match patterns. The default priority value is 50.",
                9, 9, "2.2. The source XML files", true);

        String answer = new ExtractiveBackend(1).chat(prompt(List.of(intro, rules),
                "What is the default priority of magic rules in the shared MIME database?")).text();

        assertThat(quoteLines(answer)).containsExactly(
                "- The default priority value is 50. [SourceId: " + rules.sourceId() + "]");
    }

    @Test
    void chat_atMostTheConfiguredSentences_inContextOrder() {
        ContextBlock a = block("a.md", "Keys rotate daily. Keys rotate weekly keys. Keys expire.");
        ChatResult r = new ExtractiveBackend(2).chat(prompt(List.of(a), "keys rotate weekly"));
        assertThat(quoteLines(r.text())).containsExactly(
                "- Keys rotate daily. [SourceId: " + a.sourceId() + "]",
                "- Keys rotate weekly keys. [SourceId: " + a.sourceId() + "]");
    }

    @Test
    void chat_overlappingChunks_quoteARepeatedSentenceOnce() {
        ContextBlock first = block("a.md", "Keys rotate every ninety days across all tenants.");
        ContextBlock overlap = block("b.md", "rotate every ninety days across all tenants. Old keys stop at once.");
        ChatResult r = new ExtractiveBackend().chat(prompt(List.of(first, overlap), "keys rotate ninety days tenants"));
        assertThat(r.text()).containsOnlyOnce("ninety days across all tenants");
    }

    @Test
    void chat_markdownRuleInsideADocument_keepsTheTextAfterIt() {
        ContextBlock a = block("a.md", "Intro text.\n---\nKeys rotate every ninety days.");
        ContextBlock b = block("b.md", "Vacation requests go to the portal.");
        ChatResult r = new ExtractiveBackend().chat(prompt(List.of(a, b), "keys rotate ninety days"));
        assertThat(r.text()).contains("\n- Keys rotate every ninety days. [SourceId: " + a.sourceId() + "]");
    }

    @Test
    void chat_nothingMatches_saysSoWithoutCiting() {
        ChatResult r = new ExtractiveBackend().chat(prompt(List.of(block("a.md", "Unrelated text here.")),
                "quantum chromodynamics"));
        assertThat(r.text()).startsWith(ExtractiveBackend.LABEL).contains("no sentence");
        assertThat(markers(r.text())).isEmpty();
    }

    @Test
    void chat_isDeterministic() {
        ChatRequest p = prompt(List.of(block("a.md", "Keys rotate. Keys expire. Tokens rotate.")), "keys rotate");
        ExtractiveBackend backend = new ExtractiveBackend();
        assertThat(backend.chat(p).text()).isEqualTo(backend.chat(p).text());
    }

    @Test
    void chat_selfRatingPrompt_getsNoNumber() {
        ContextBlock a = block("a.md", "Keys rotate every ninety days.");
        List<ChatMessage> rating = SelfRating.prompt("q", "a", List.of(a));
        String reply = new ExtractiveBackend().chat(ChatRequest.of("extractive", rating)).text();
        assertThat(SelfRating.parse(reply)).isNull();
    }

    @Test
    void stream_deliversTheSameTextThenCompletes() {
        ChatRequest p = prompt(List.of(block("a.md", "Keys rotate. Keys expire.")), "keys");
        StringBuilder streamed = new StringBuilder();
        ChatResult[] done = new ChatResult[1];
        new ExtractiveBackend().stream(p, new StreamHandler() {
            @Override
            public void onToken(String token) {
                streamed.append(token);
            }

            @Override
            public void onComplete(ChatResult result) {
                done[0] = result;
            }

            @Override
            public void onError(Throwable error) {
                throw new AssertionError(error);
            }
        });
        assertThat(done[0]).isNotNull();
        assertThat(streamed.toString()).isEqualTo(done[0].text());
    }

    /** The toy embedder, remembering every batch of texts it embeds as documents. */
    private static final class Recording extends HashedBagOfWordsEmbedder {
        final List<List<String>> batches = new CopyOnWriteArrayList<>();

        Recording() {
            super("toy", 64);
        }

        @Override
        public float[][] embed(List<String> texts) {
            batches.add(List.copyOf(texts));
            return super.embed(texts);
        }

        @Override
        public float[][] embedQueries(List<String> queries) {
            return super.embed(queries);
        }
    }

    @Test
    void chat_withAnEmbedder_embedsTheCandidateSentencesOnce_atMost64() {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < 100; i++) {
            text.append("Ferry number ").append(i).append(" leaves the pier at dawn.\n\n");
        }
        Recording embedder = new Recording();

        ChatResult r = new ExtractiveBackend(3, embedder).chat(prompt(List.of(block("a.md", text.toString())),
                "When does the ferry leave?"));

        assertThat(embedder.batches).hasSize(1);
        assertThat(embedder.batches.get(0)).hasSize(ExtractiveBackend.MAX_EMBEDDED)
                .startsWith("Ferry number 0 leaves the pier at dawn.");
        assertThat(markers(r.text())).hasSize(3);
    }

    @Test
    void quoteSimilarity_ratesEachQuotedSentence_nearerForTheOneThatAnswers_onTheStatedOrAMeasuredScale() {
        ContextBlock a = block("keys.md", "API keys rotate every ninety days.\n\nThe cafeteria opens at eight.");
        ChatRequest p = prompt(List.of(a), "How often do API keys rotate?");
        SimilarityScale stated = new SimilarityScale(0.29, 0.15);     // as measured for it on unrelated pairs
        ExtractiveBackend quoting = new ExtractiveBackend(3, new HashedBagOfWordsEmbedder("toy", 64) {
            @Override
            public SimilarityScale similarityScale() {
                return stated;
            }
        });
        String answer = quoting.chat(p).text() + "\n- The cafeteria opens at eight. [SourceId: " + a.sourceId() + "]";

        List<Double> similarity = quoting.quoteSimilarity("How often do API keys rotate?", answer);
        Embedder down = new HashedBagOfWordsEmbedder("down", 64) {
            @Override
            public float[][] embed(List<String> texts) {
                throw new RagException("the embedding server is down");
            }

            @Override
            public SimilarityScale similarityScale() {
                return stated;
            }
        };

        assertThat(answer).startsWith(ExtractiveBackend.LABEL + "\nIn keys.md:\n- API keys rotate every ninety "
                + "days.");
        assertThat(similarity).hasSize(answer.split("\n- ").length - 1);
        assertThat(similarity.get(0)).isGreaterThan(similarity.get(similarity.size() - 1));
        assertThat(new ExtractiveBackend().quoteSimilarity("How often do API keys rotate?", answer)).isEmpty();
        // an embedder that states no scale: one is measured for it, once, and the same values come out on it
        java.util.concurrent.atomic.AtomicInteger calls = new java.util.concurrent.atomic.AtomicInteger();
        Embedder unstated = new HashedBagOfWordsEmbedder("toy", 64) {
            @Override
            public float[][] embed(List<String> texts) {
                calls.incrementAndGet();
                return super.embed(texts);
            }
        };
        ExtractiveBackend measuring = new ExtractiveBackend(3, unstated);
        SimilarityScale measured = SimilarityScale.estimate(new HashedBagOfWordsEmbedder("toy", 64));
        List<Double> first = measuring.quoteSimilarity("How often do API keys rotate?", answer);
        List<Double> again = measuring.quoteSimilarity("How often do API keys rotate?", answer);
        assertThat(first).hasSameSizeAs(similarity).isEqualTo(again);
        assertThat(first.get(0)).isCloseTo(measured.standardise(stated.centre() + similarity.get(0) * stated.spread()),
                org.assertj.core.data.Offset.offset(1e-9));
        assertThat(calls.get()).isEqualTo(2 + 2 * 2);          // the scale's two calls, then two per answer
        assertThat(new ExtractiveBackend(3, down).quoteSimilarity("How often do API keys rotate?", answer)).isEmpty();
        assertThat(quoting.quoteSimilarity("How often do API keys rotate?", "Keys rotate.")).isEmpty();
    }

    @Test
    void chat_embedderThatFails_leavesTheChoiceToTheQuestionsWords() {
        Embedder down = new HashedBagOfWordsEmbedder("down", 64) {
            @Override
            public float[][] embed(List<String> texts) {
                throw new RagException("the embedding server is down");
            }
        };
        ChatRequest p = prompt(List.of(block("a.md", "Keys rotate weekly.\n\nThe cafeteria opens at eight.\n\n"
                + "Tokens expire.")), "How often do keys rotate?");

        String withWordsAlone = new ExtractiveBackend().chat(p).text();
        String withFailingEmbedder = new ExtractiveBackend(3, down).chat(p).text();

        assertThat(withFailingEmbedder).isEqualTo(withWordsAlone).contains("Keys rotate weekly.")
                .doesNotContain("cafeteria");
    }

    @Test
    void quotingWith_keepsTheSentenceLimit_andNamesTheEmbedder() {
        Recording embedder = new Recording();
        ExtractiveBackend quoting = new ExtractiveBackend(1).quotingWith(embedder);

        ChatResult r = quoting.chat(prompt(List.of(block("a.md", "Keys rotate weekly. Keys expire yearly.")),
                "keys"));

        assertThat(quoting.embedder()).isSameAs(embedder);
        assertThat(new ExtractiveBackend().embedder()).isNull();
        assertThat(markers(r.text())).hasSize(1);
        assertThat(embedder.batches).isNotEmpty();
    }

    @Test
    void pipeline_withTheExtractiveBackend_citesOnlyRealSourcesAndSaysWhatItIs() {
        DocumentStore store = InMemoryDocumentStore.builder().dimension(64).build();
        String text = "API keys rotate every ninety days. The rotate command replaces a key early.";
        StoredDocument d = StoredDocument.builder().tenant("acme").path("keys.md").title("Keys")
                .charCount(text.length()).build();
        store.upsert(d, List.of(new StoredChunk(d.id(), 0, text, HashedBagOfWordsEmbedder.vector(text, 64), 16, 1,
                1, null, null)));
        for (String other : List.of("Vacation requests go through the people portal.",
                "The cafeteria opens at eight and serves lunch until two.", "Printers are on every floor.")) {
            StoredDocument o = StoredDocument.builder().tenant("acme").path(other.substring(0, 8) + ".md")
                    .title(other).charCount(other.length()).build();
            store.upsert(o, List.of(new StoredChunk(o.id(), 0, other, HashedBagOfWordsEmbedder.vector(other, 64), 12,
                    1, 1, null, null)));
        }
        Recording embedder = new Recording();
        RagPipeline rag = RagPipeline.builder().store(store).embedder(embedder)
                .backend(new ExtractiveBackend()).model(ExtractiveBackend.MODEL).selfRating(false)
                .relevanceModel(RelevanceModel.fused()).auditSink(AuditSink.none()).build();

        RagResponse r = rag.ask(RagRequest.of("How often do API keys rotate, and what replaces a key early?",
                Scope.of("acme")));

        assertThat(r.modelUsed()).isEqualTo("extractive");
        assertThat(r.answer()).startsWith(ExtractiveBackend.LABEL);
        assertThat(r.grounded()).isTrue();
        assertThat(r.unknownSourceIds()).isEmpty();
        assertThat(r.citations()).extracting(Citation::sourceId).containsExactly(d.id() + ":0");
        // the pipeline lent the backend its embedder to choose the sentences
        assertThat(embedder.batches).anySatisfy(batch -> assertThat(batch)
                .contains("API keys rotate every ninety days.", "The rotate command replaces a key early."));
    }
}
