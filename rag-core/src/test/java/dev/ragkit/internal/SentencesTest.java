package dev.ragkit.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

final class SentencesTest {

    private static List<String> texts(String passage, String section) {
        return Sentences.of(passage, section).stream().filter(s -> !s.heading())
                .map(s -> s.text().replaceAll("\\s+", " ")).toList();
    }

    private static List<String> headings(String passage, String section) {
        return Sentences.of(passage, section).stream().filter(Sentences.Sentence::heading).map(Sentences.Sentence::text)
                .toList();
    }

    @Test
    void of_wrappedLinesJoinAndMarkdownHeadingsStandApart() {
        String passage = "# Title\n\nTenants are kept apart\non every read. Tags too!\n\n## Next\nShort one";

        assertThat(texts(passage, null)).containsExactly("Tenants are kept apart on every read.", "Tags too!",
                "Short one");
        assertThat(headings(passage, null)).containsExactly("# Title", "## Next");
    }

    @Test
    void of_markdownLinkReferenceDefinitions_renderAsNothingAndAreNoSentence() {
        String passage = "See the [scopes chapter] for details.\n\n[scopes chapter]: ../names/scopes.md\n"
                + "  [`get_unchecked`]: slice::get_unchecked \"Unchecked\"\n[RFC]: <https://example.org/rfc> (the RFC)\n"
                + "[Note]: this line is prose, not a definition.";

        assertThat(texts(passage, null)).containsExactly("See the [scopes chapter] for details.",
                "[Note]: this line is prose, not a definition.");
        assertThat(Sentences.of(passage, null).get(1).firstLine()).isEqualTo(5);
    }

    @Test
    void of_ruleNamesAnchorsAndAlertMarkers_renderAsNothing_andAreGluedToNoSentence() {
        // the Rust reference's layout: each rule's name on its own line before its text
        String passage = "r[items.union]\n# Unions\n\nr[items.union.intro]\nA union declaration uses the same syntax as"
                + " a struct declaration.\n\n## Install {#install}\n{#setup}\nRun it.\n\n> [!NOTE]\n> Unions are unsafe"
                + " to read.\n> Writes are safe.\n\n> [!EDITION-2021]\n> Since 2021.\n\nv[i]";

        assertThat(texts(passage, null)).containsExactly(
                "A union declaration uses the same syntax as a struct declaration.", "Run it.",
                "Unions are unsafe to read. Writes are safe.", "Since 2021.");
        assertThat(headings(passage, null)).containsExactly("# Unions", "## Install {#install}");
        assertThat(Sentences.of(passage, null).get(1).firstLine()).isEqualTo(4);
    }

    @Test
    void of_anUnderlinedTitle_isAHeading_andAModeLineAndTheUnderlineRenderAsNothing() {
        // GNU's plain-text READMEs: "-*- text -*- GNU Wget ======== Current Web home: …" was quoted as one sentence
        String passage = "                 -*- text -*-\nGNU Wget\n========\n      Current Web home: https://example.org/\n\n"
                + "GNU Wget is a free utility for\nnon-interactive download.\n\nWhy use man-db?\n---------------\n\n"
                + "It caches pages.\n\n----\n\nThe end.";

        assertThat(headings(passage, null)).containsExactly("GNU Wget", "Why use man-db?");
        // valgrind's README underlines with tildes, which also open a code fence in markdown: a run at least as long
        // as the title alone on its line above is an underline, a shorter one (or one after code) a fence
        String tildes = "Executive Summary\n~~~~~~~~~~~~~~~~~\nValgrind is a framework.\nIt has tools.\n\n"
                + "Run:\n~~~\nvalgrind ls -l\n~~~\n\nls\n~~~~\nDone here.";
        assertThat(headings(tildes, null)).containsExactly("Executive Summary", "ls");
        assertThat(texts(tildes, null)).containsExactly("Valgrind is a framework.", "It has tools.", "Run:",
                "valgrind ls -l", "Done here.");
        assertThat(texts(passage, null)).containsExactly("Current Web home: https://example.org/",
                "GNU Wget is a free utility for non-interactive download.", "It caches pages.", "The end.");
    }

    @Test
    void of_htmlComments_renderAsNothing_alsoWhenAChunkStartsInsideOne() {
        // Node's API reference: each function's history as YAML in an HTML comment under its heading
        String passage = "### `subprocess.kill([signal])`\n\n<!-- YAML\nadded: v0.1.90\nchanges:\n"
                + "  - version: v15.4.0\n"
                + "    description: add support for `signal` option.\n-->\n\nSends a signal to the child.\n"
                + "<!-- lint disable -->\nIt returns true.\n\n```mermaid\nA --> B\n```";
        assertThat(texts(passage, null)).containsExactly("Sends a signal to the child.", "It returns true.",
                "A --> B");
        String cut = "  - version: v15.4.0\n    description: add support for `signal` option.\n-->\n\nSends a signal.";
        assertThat(texts(cut, null)).containsExactly("Sends a signal.");
        // a diagram's arrow is no comment's end
        assertThat(texts("```mermaid\nA -->\n```\nRuns.", null)).containsExactly("A -->", "Runs.");
    }

    @Test
    void of_aBlockquotesLines_areReadWithoutTheirMarkers() {
        String passage = "> # Note\n> - first item\n> - second item\n>\n> ```rust\n> let x = 1;\n> ```\n"
                + "> > Nested text.";
        List<Sentences.Sentence> sentences = Sentences.of(passage, null);

        assertThat(sentences).extracting(Sentences.Sentence::text).containsExactly("# Note", "- first item",
                "- second item", "let x = 1;", "Nested text.");
        assertThat(sentences.get(0).heading()).isTrue();
        // its place in the passage: from its first character that reads, after the markers
        assertThat(passage.substring(sentences.get(4).start(), sentences.get(4).end())).isEqualTo("Nested text.");
        assertThat(sentences.get(4).firstLine()).isEqualTo(7);
        assertThat(texts("Prose quoting 3 > 2\nand more.", null)).containsExactly("Prose quoting 3 > 2 and more.");
    }

    @Test
    void of_aCommentsDecoration_isNoPartOfItsSentences() {
        String code = "/**\n * Counts tokens fast: one lookup\n * per character. It never counts twice.\n */\n"
                + "int count(String s) {\n    // Scale by the ratio seen\n    // so far.\n    return n; /* cheap */\n}";
        List<Sentences.Sentence> sentences = Sentences.of(code, null);

        assertThat(texts(code, null)).containsExactly("Counts tokens fast: one lookup per character.",
                "It never counts twice.", "int count(String s) {", "Scale by the ratio seen so far.",
                "return n; /* cheap */", "}");
        assertThat(sentences.get(0).firstLine()).isEqualTo(1);                  // not the "/**" line
        assertThat(sentences.get(1).lastLine()).isEqualTo(2);
        // a chunk that starts inside a block comment
        assertThat(texts(" * guess only needs\n * to be consistent.\n */\nint x;", null))
                .containsExactly("guess only needs to be consistent.", "int x;");
        // a markdown list's "* " is no comment's decoration: its items stand alone, as "- " items do
        assertThat(texts("* first item\n* second item.", null)).containsExactly("* first item", "* second item.");
    }

    @Test
    void of_pythonCode_readsCommentsWithoutTheirMarkers_docstringsAsProse_andEachCodeLineApart() {
        String py = "import os\n\n# Retry settings\nMAX_RETRIES = 5\n\ndef fetch(url):\n    \"\"\"Download a page.\n\n"
                + "    Retries on timeouts, and gives up after\n    MAX_RETRIES attempts.\n    \"\"\"\n"
                + "    # Sleeps a second between tries,\n    # as the server asks.\n    for i in range(MAX_RETRIES):\n"
                + "        return get(url)\n#--------\n#   The cache\n#--------\n";
        List<Sentences.Sentence> sentences = Sentences.of(py, "fetch", Sentences.Layout.of("tools/fetch.py", false));

        assertThat(sentences.stream().filter(s -> !s.heading()).map(Sentences.Sentence::text)).containsExactly(
                "import os", "MAX_RETRIES = 5", "def fetch(url):", "Download a page.",
                "Retries on timeouts, and gives up after\nMAX_RETRIES attempts.",
                "Sleeps a second between tries,\nas the server asks.", "for i in range(MAX_RETRIES):",
                "return get(url)");
        // a comment alone that labels what follows is a heading, as markdown's "#" line is in text
        assertThat(sentences.stream().filter(Sentences.Sentence::heading).map(Sentences.Sentence::text))
                .containsExactly("Retry settings", "The cache");
        Sentences.Sentence comment = sentences.get(6);
        assertThat(py.substring(comment.start(), comment.end())).startsWith("Sleeps").endsWith("asks.");
        assertThat(new int[] {comment.firstLine(), comment.lastLine()}).containsExactly(11, 12);
        // the same file read as text: its comments were headings, its code lines prose
        assertThat(headings(py, "fetch")).contains("# Sleeps a second between tries,");
    }

    @Test
    void of_javadoc_readsItsInlineTagsAndHtmlAsText_eachBlockTagApart_andEmptyCommentLinesPartParagraphs() {
        String java = "    /**\n"
                + "     * The embedder's scale, or one measured with {@link #estimate} when it states\n"
                + "     * none, kept in a {@code Map<Embedder, SimilarityScale>}.\n"
                + "     *\n"
                + "     * <p>Retrieval shares it with {@linkplain Embedder#embed(List, int) the\n"
                + "     * embedder}; a <em>stated</em> scale wins and {@code <p>} stays.\n"
                + "     *\n"
                + "     * @param embedder the embedder\n"
                + "     * @return its scale, from {@link SimilarityScale#estimate(Embedder)}\n"
                + "     * @throws RagException when the embedder fails\n"
                + "     */\n"
                + "    public static SimilarityScale of(Embedder embedder) {\n";

        List<Sentences.Sentence> sentences = Sentences.of(java, null, Sentences.Layout.of("src/Scale.java", false));

        assertThat(sentences.stream().map(Sentences.Sentence::text)).containsExactly(
                "The embedder's scale, or one measured with estimate when it states\nnone, kept in a "
                        + "Map<Embedder, SimilarityScale>.",
                "Retrieval shares it with the\nembedder; a stated scale wins and <p> stays.",
                "@param embedder the embedder", "@return its scale, from SimilarityScale#estimate(Embedder)",
                "@throws RagException when the embedder fails",
                "public static SimilarityScale of(Embedder embedder) {");
        // the empty comment line ends the paragraph: the next sentence starts on its own line, after a gap
        assertThat(new int[] {sentences.get(0).lastLine(), sentences.get(1).firstLine()}).containsExactly(2, 4);
        // the sentence's place in the file is still that of the written text
        assertThat(java.substring(sentences.get(1).start(), sentences.get(1).end())).startsWith("<p>Retrieval")
                .endsWith("stays.");
        // markdown and other languages keep such text as written
        assertThat(Sentences.of("Use {@code x} <p>here.", null).get(0).text()).isEqualTo("Use {@code x} <p>here.");
        assertThat(Sentences.of("# Use {@code x} <p>here.", null, Sentences.Layout.HASH).get(0).text())
                .isEqualTo("Use {@code x} <p>here.");
    }

    @Test
    void of_codeThatStartsInsideADocstringOrALongComment_readsItsFirstLinesAsTheComment() {
        String py = "    If the file exists, it is\n    overwritten.\n    \"\"\"\n    audit(\"copy\", src)\n"
                + "    with open(src) as f:\n        return f.read()";
        assertThat(Sentences.of(py, null, Sentences.Layout.PYTHON).stream().map(Sentences.Sentence::text))
                .containsExactly("If the file exists, it is\noverwritten.", "audit(\"copy\", src)",
                        "with open(src) as f:", "return f.read()");
        // a docstring right after a def opens there
        assertThat(Sentences.of("def f():\n    \"\"\"Reads it.\"\"\"\n    return 1", null, Sentences.Layout.PYTHON)
                .stream().map(Sentences.Sentence::text)).containsExactly("def f():", "Reads it.", "return 1");
        // the middle of a long Java comment: no opening or end in the passage
        String java = " * one long line overlaps too. Never all of the\n * previous chunk.\n *\n * Every chunk holds"
                + " new text.";
        assertThat(Sentences.of(java, null, Sentences.Layout.of("a/Chunker.java", false)).stream()
                .map(Sentences.Sentence::text)).containsExactly("one long line overlaps too.",
                        "Never all of the\nprevious chunk.", "Every chunk holds new text.");
    }

    @Test
    void of_aPassageThatStartsInsideAFencedBlock_readsItsFirstLinesAsCode_andTheProseAfterAsSentences() {
        // a chunk cut a code block too long for it: the passage starts in the block and holds its closing fence
        String inside = "    for x in items {\n        total += x\n    }\n```\n\nThe loop above adds every item."
                + " It stops at the end.";
        assertThat(texts(inside, null)).containsExactly("for x in items {", "total += x", "}",
                "The loop above adds every item.", "It stops at the end.");
        // one that ends inside a block: its prose stays prose, the code after the fence code
        String ends = "Add this to main. Then run it:\n```\nlet x = 1;\nprint(x)";
        assertThat(texts(ends, null)).containsExactly("Add this to main.", "Then run it:", "let x = 1;",
                "print(x)");
    }

    @Test
    void of_numberedSectionTitlesOfAPdf_areHeadings_notGluedToTheTextAfterThem() {
        // lines as PDFBox extracts them from two real specifications (shared-mime-info, libtasn1)
        String pdf = "2.14. Content types for volumes\nTraditional MIME types apply to individual files or bytestreams."
                + " It is often useful.\n• [asn1 encode simple der], page 16,\n2.4 Library Notes\nThe header file of"
                + " this library is libtasn1.h.\n3.1 Invoking asn1Parser\nasn1Parser reads a single file.\n"
                + "Header file libtasn1.h . . . . . . . . . . . . 4\nasn1_read_value . . . . . . 12";

        assertThat(headings(pdf, null)).containsExactly("2.14. Content types for volumes", "2.4 Library Notes",
                "3.1 Invoking asn1Parser");
        // an index's entries, dots leading to a page, say nothing of their own
        assertThat(texts(pdf, null)).containsExactly("Traditional MIME types apply to individual files or bytestreams.",
                "It is often useful.", "• [asn1 encode simple der], page 16,",
                "The header file of this library is libtasn1.h.", "asn1Parser reads a single file.");
        // a numbered list item and a number in a sentence are no section's number
        assertThat(headings("1. Install the package\n2.5 million people live there. They like it.", null)).isEmpty();
    }

    @Test
    void of_referenceLinks_readAsTheirText_inlineLinksCodeSpansAndReferenceMarksStay() {
        // Node.js's API docs link by reference: [`fs.readFile()`][] renders as `fs.readFile()`
        String md = "Similar to [`fs.readFile()`][], the path may be a [directory][dirs]. See [the guide](guide.md).\n"
                + "Use `matrix[i][j]` here, as [1][2] say.";

        assertThat(texts(md, null)).containsExactly("Similar to `fs.readFile()`, the path may be a directory.",
                "See [the guide](guide.md).", "Use `matrix[i][j]` here, as [1][2] say.");
        assertThat(Sentences.of(md, null).get(0).end()).isEqualTo(md.indexOf("[dirs].") + 7);
        // code is code
        assertThat(Sentences.of("x = a[i][j];", null, Sentences.Layout.C_LIKE).get(0).text()).isEqualTo("x = a[i][j];");
    }

    @Test
    void layout_comesFromThePathsLanguage_orThePagesKind() {
        assertThat(Sentences.Layout.of("src/fetch.py", false)).isEqualTo(Sentences.Layout.PYTHON);
        assertThat(Sentences.Layout.of("bin/backup.sh", false)).isEqualTo(Sentences.Layout.HASH);
        assertThat(Sentences.Layout.of("config/app.yaml", false)).isEqualTo(Sentences.Layout.HASH);
        assertThat(Sentences.Layout.of("src/Main.java", false)).isEqualTo(Sentences.Layout.C_LIKE);
        assertThat(Sentences.Layout.of("db/schema.sql", false)).isEqualTo(Sentences.Layout.SQL);
        assertThat(Sentences.Layout.of("docs/guide.md", false)).isEqualTo(Sentences.Layout.TEXT);
        assertThat(Sentences.Layout.of(null, false)).isEqualTo(Sentences.Layout.TEXT);
        assertThat(Sentences.Layout.of("deck.pptx", true)).isEqualTo(Sentences.Layout.LINES);
        assertThat(Sentences.Layout.of("notes/INSTALL.TXT", false)).isEqualTo(Sentences.Layout.PLAIN);
        assertThat(Sentences.Layout.of("bzip2/README", false)).isEqualTo(Sentences.Layout.PLAIN);
        assertThat(Sentences.Layout.of("logs/app.log", false)).isEqualTo(Sentences.Layout.PLAIN);
        // the parsers' extension: Apple Mail's Inbox.mbox/mbox is mail, not a text file without an extension
        assertThat(Sentences.Layout.of("mail/Inbox.mbox/mbox", false)).isEqualTo(Sentences.Layout.TEXT);
        assertThat(Sentences.Layout.of("home/.bashrc", false)).isEqualTo(Sentences.Layout.PLAIN);   // no extension
        String sh = "#!/bin/bash\n# Copies the database to S3\n# every night.\nset -e\n-- not sql here";
        assertThat(Sentences.of(sh, null, Sentences.Layout.HASH).stream().map(Sentences.Sentence::text))
                .containsExactly("#!/bin/bash", "Copies the database to S3\nevery night.", "set -e",
                        "-- not sql here");
    }

    @Test
    void of_plainText_readsAHashLineAsText_notAsAHeading_apartFromTheProseAroundIt() {
        String txt = "Building\n========\n\nAs root, install it:\n# make install\n# ldconfig\n"
                + "Then run the tests.\n<!-- kept as written -->";
        List<Sentences.Sentence> plain = Sentences.of(txt, "Building", Sentences.Layout.PLAIN);
        assertThat(plain.stream().map(Sentences.Sentence::text)).containsExactly("Building",
                "As root, install it:", "# make install\n# ldconfig", "Then run the tests.",
                "<!-- kept as written -->");
        assertThat(plain.stream().filter(Sentences.Sentence::heading).map(Sentences.Sentence::text))
                .containsExactly("Building");
        // the same lines as markdown: the # lines are headings and the HTML comment renders as nothing
        List<Sentences.Sentence> markdown = Sentences.of(txt, "Building", Sentences.Layout.TEXT);
        assertThat(markdown.stream().filter(Sentences.Sentence::heading).map(Sentences.Sentence::text))
                .containsExactly("Building", "# make install", "# ldconfig");
        assertThat(markdown.stream().map(Sentences.Sentence::text)).doesNotContain("<!-- kept as written -->");
    }

    @Test
    void introduced_aLooseListWithRuleNamesBetweenItsItems_orATable_isHandedBackWhole_andRendersWithoutThem() {
        String passage = "Some closures implement more specific call traits:\n\nr[type.closure.call.fn-mut]\n"
                + "* A closure that does not move implements `FnMut`.\n\nr[type.closure.call.fn]\n"
                + "* A closure that does not mutate implements `Fn`.\n\nAfter the list.";
        Sentences.Sentence colon = Sentences.of(passage, null).get(0);

        int[] at = Sentences.introduced(passage, colon);

        assertThat(at).isNotNull();
        assertThat(Sentences.rendered(passage.substring(at[0], at[1]))).isEqualTo(
                "* A closure that does not move implements `FnMut`.\n\n"
                        + "* A closure that does not mutate implements `Fn`.");
        // a table, up to its last row
        String table = "The unsigned integer types consist of:\n\nType | Maximum\n-----|--------\n`u8` | 255\n"
                + "`u16` | 65535\n\nr[type.numeric.int.signed]\nThe signed ones consist of:";
        int[] rows = Sentences.introduced(table, Sentences.of(table, null).get(0));
        assertThat(rows).isNotNull();
        assertThat(table.substring(rows[0], rows[1])).isEqualTo("Type | Maximum\n-----|--------\n`u8` | 255\n"
                + "`u16` | 65535");
        // inside a fenced code block, a line like a rule name is code and stays
        assertThat(Sentences.rendered("```\nv[i]\n```\n[x]: https://example.org")).isEqualTo("```\nv[i]\n```");
    }

    @Test
    void of_sentencesGluedWithoutASpace_areTwo_butDottedNamesCallsAndAbbreviationsAreNot() {
        // paragraphs joined without a space, as scraped and extracted text often reads
        assertThat(texts("He was called a heretic.By 1672 he kept notebooks. It ended in 1965.\"The strike was over.",
                null)).containsExactly("He was called a heretic.", "By 1672 he kept notebooks.", "It ended in 1965.\"",
                "The strike was over.");
        assertThat(texts("Use java.util.List here. Call list.Add(x) or see e.g.The manual, or notes.Txt.md today.",
                null)).containsExactly("Use java.util.List here.",
                "Call list.Add(x) or see e.g.The manual, or notes.Txt.md today.");
        assertThat(SentenceEnds.gluedAt("a heretic.By 1672", 10)).isTrue();
        assertThat(SentenceEnds.gluedAt("a heretic.By 1672", 9)).isFalse();   // not after the full stop
        assertThat(SentenceEnds.gluedAt("the U.S.Army base", 8)).isFalse();    // one letter before the stop
        assertThat(SentenceEnds.gluedAt("ends here.Nowhere", 10)).isTrue();    // the text's end after the word
        // a word in quotes or brackets before the stop, and "A" or "I" as the next sentence's first word
        assertThat(texts("Girls exchange tomo-choko, from tomo meaning \"friend\".In the 1980s it grew (in Japan)."
                + "Diabetes is rare. It was about lion preservation.A man-eating lion was killed.", null))
                .containsExactly("Girls exchange tomo-choko, from tomo meaning \"friend\".", "In the 1980s it grew (in "
                        + "Japan).", "Diabetes is rare.", "It was about lion preservation.", "A man-eating lion was "
                        + "killed.");
        assertThat(SentenceEnds.gluedAt("made in the U.S.A and sold", 16, true)).isFalse();  // a letter before the stop
        assertThat(SentenceEnds.gluedAt("see e.g.\"The manual\"", 9, true)).isFalse();
        // the chunker's windows keep the narrower rule, so that no index is chunked anew for these two
        assertThat(SentenceEnds.gluedAt("meaning \"friend\".In the", 17, true)).isTrue();
        assertThat(SentenceEnds.gluedAt("meaning \"friend\".In the", 17)).isFalse();
        assertThat(SentenceEnds.gluedAt("lion preservation.A man", 18, true)).isTrue();
        assertThat(SentenceEnds.gluedAt("lion preservation.A man", 18)).isFalse();
    }

    @Test
    void of_rowsOfASheet_areEachAUnitOfTheirOwn() {
        String sheet = "Region | Q3\nRegion: North | Q3: 1200\nRegion: South | Q3: 950\nRegion: East | Q3: 700";

        // the " | " a parser joins cells with makes each line a table row, read as prose too
        assertThat(Sentences.of(sheet, "Q3")).extracting(Sentences.Sentence::row).containsExactly(true, true, true,
                true);
        List<Sentences.Sentence> rows = Sentences.of(sheet, "Q3", Sentences.Layout.LINES);
        assertThat(rows).extracting(Sentences.Sentence::text).containsExactly("Region | Q3",
                "Region: North | Q3: 1200", "Region: South | Q3: 950", "Region: East | Q3: 700");
        assertThat(rows.get(2).firstLine()).isEqualTo(2);
        assertThat(rows.get(2).lastLine()).isEqualTo(2);
    }

    @Test
    void of_plainHeadingFromWord_isNeverGluedToTheSentenceAfterIt() {
        // Word and HTML text has no markup: a heading is a short title line followed by its paragraph.
        String passage = "Essay Memo\nThe memo is due on Friday. Late memos lose a grade.";

        assertThat(texts(passage, "Body > Conclusion")).containsExactly("The memo is due on Friday.",
                "Late memos lose a grade.");
        assertThat(headings(passage, "Body > Conclusion")).containsExactly("Essay Memo");
    }

    @Test
    void of_firstLineNamingTheSection_isAHeadingEvenWhenLong() {
        String passage = "Payment of the annual membership fee in two parts\nThe fee is paid in March and in June.";

        assertThat(headings(passage, "Fees > Payment of the annual membership fee in two parts")).hasSize(1);
        assertThat(texts(passage, "Fees > Payment of the annual membership fee in two parts"))
                .containsExactly("The fee is paid in March and in June.");
    }

    @Test
    void of_shortAnswersAndCommandsAreNotHeadings() {
        String passage = "Install\n\nOn Linux use apt.\n\nParental leave\n\nRun ./install.sh\n\n"
                + "Port 8080 is the default port\n\n- Debian 12";

        assertThat(texts(passage, null)).containsExactly("On Linux use apt.", "Run ./install.sh",
                "Port 8080 is the default port", "- Debian 12");
        assertThat(headings(passage, null)).containsExactly("Install", "Parental leave");
    }

    @Test
    void of_wrappedLineBeforeAProperNoun_staysInItsSentence() {
        assertThat(texts("The tool was developed by\nMicrosoft in 1990 and sold widely.", null))
                .containsExactly("The tool was developed by Microsoft in 1990 and sold widely.");
    }

    @Test
    void of_listItemsStandAlone() {
        assertThat(texts("The filter applies to:\n- vector search\n- keyword\n  search\n1. deletes", null))
                .containsExactly("The filter applies to:", "- vector search", "- keyword search", "1. deletes");
        // items marked "*", nested, their lines going on indented (Node's API reference); "**" opens bold text
        assertThat(texts("* `options` {Object}\n  * `signal` {AbortSignal} allows destroying the stream if the"
                + " signal is\n    aborted.\n* Returns: {Duplex} a stream.\n**Stability:** stable and\nsupported.",
                null))
                .containsExactly("* `options` {Object}", "* `signal` {AbortSignal} allows destroying the stream if the"
                        + " signal is aborted.", "* Returns: {Duplex} a stream.",
                        "**Stability:** stable and supported.");
    }

    @Test
    void of_linesNamingTermsOneAfterAnother_areItems_butALoneOneIsProse() {
        // libtasn1's manual as PDFBox reads it: a function's parameters, one wrapped onto a second line
        String pdf = "int asn1_create_element (asn1_node definitions, const char * source_name)\n"
                + "definitions: pointer to the structure returned by \"parser asn1\" function\n"
                + "source name: the name of the type of the new structure (must be inside p\nstructure).\n"
                + "Returns: ASN1_SUCCESS if creation OK.\n\nNote: the element is\ncreated empty.";
        assertThat(texts(pdf, null)).containsExactly(
                "int asn1_create_element (asn1_node definitions, const char * source_name)",
                "definitions: pointer to the structure returned by \"parser asn1\" function",
                "source name: the name of the type of the new structure (must be inside p structure).",
                "Returns: ASN1_SUCCESS if creation OK.", "Note: the element is created empty.");
    }

    @Test
    void of_aLineEndingASentence_endsIt_thoughTheNextLineStartsInLowerCase() {
        // libtasn1's manual as PDFBox reads it: a paragraph's last line, then the next function's name
        String pdf = "Example using the definitions: rc = create(def, \"PKIX1\");\n"
                + "Returns: ASN1_SUCCESS if creation OK, ASN1_ELEMENT_NOT_FOUND if source_name is\nnot known.\n"
                + "asn1 print structure\n[Function]void asn1_print_structure (FILE * out)\n\n"
                + "Wrapped after an abbreviation, e.g.\nthis one, or etc.\nand this one, goes on.\n\n"
                + "Asked \"How are tenants isolated?\"\nit quoted the timing block.";

        assertThat(texts(pdf, null)).containsExactly(
                "Example using the definitions: rc = create(def, \"PKIX1\"); Returns: ASN1_SUCCESS if creation OK, "
                        + "ASN1_ELEMENT_NOT_FOUND if source_name is not known.",
                "asn1 print structure [Function]void asn1_print_structure (FILE * out)",
                "Wrapped after an abbreviation, e.g. this one, or etc. and this one, goes on.",
                "Asked \"How are tenants isolated?\" it quoted the timing block.");
    }

    @Test
    void of_codeCommentsAreNotGluedToCode() {
        String passage = "```java\n// Rotates the key every ninety days.\nkey.rotate(Duration.ofDays(90));\n```";

        assertThat(texts(passage, null)).containsExactly("// Rotates the key every ninety days.",
                "key.rotate(Duration.ofDays(90));");
    }

    @Test
    void of_commentLinesOutsideFences_joinEachOtherButNotTheCode() {
        String passage = "// Rotates the key\n// every ninety days.\nint days = 90;\nreturn days;";

        // read without the comment's "//" (inside a fence, above, a comment line is code as written)
        assertThat(texts(passage, null)).containsExactly("Rotates the key every ninety days.", "int days = 90;",
                "return days;");
    }

    @Test
    void of_linesAndOffsets_pointAtThePassage() {
        String passage = "First line here.\n\nSecond sentence starts\nand ends here. Third.";

        List<Sentences.Sentence> all = Sentences.of(passage, null);

        assertThat(all).hasSize(3);
        assertThat(all.get(1).firstLine()).isEqualTo(2);
        assertThat(all.get(1).lastLine()).isEqualTo(3);
        assertThat(passage.substring(all.get(1).start(), all.get(1).end()))
                .isEqualTo("Second sentence starts\nand ends here.");
        assertThat(all.get(2).firstLine()).isEqualTo(3);
        assertThat(all.get(2).text()).isEqualTo("Third.");
    }

    @Test
    void of_referenceMarksAfterAFullStop_endTheSentenceAfterThem() {
        // Encyclopaedia text: the JDK's rules see no sentence end when "[1]" follows the full stop.
        String passage = "It worsens over time.[1][2] It causes 60% of dementia.[note 3] The cause is unclear.[^4] "
                + "Status,[5] fame and wealth[citation needed] go together.";

        assertThat(texts(passage, null)).containsExactly("It worsens over time.[1][2]",
                "It causes 60% of dementia.[note 3]", "The cause is unclear.[^4]",
                "Status,[5] fame and wealth[citation needed] go together.");
        assertThat(texts("Arrays start at a[0]. Lists too.", null))
                .containsExactly("Arrays start at a[0].", "Lists too.");
    }

    @Test
    void of_abbreviationsDoNotEndSentences() {
        assertThat(texts("Use a tool, e.g. the CLI, to index. Then ask.", null))
                .containsExactly("Use a tool, e.g. the CLI, to index.", "Then ask.");
    }

    @Test
    void of_initialsAndTitlesBeforeNames_doNotEndSentences() {
        // the JDK's rules alone cut after "M.V.", "Dr." and each initial of "J. R. R."
        assertThat(texts("It came out under her married name, M.V. Hughes, in 1934. Dr. Jones met J. R. R. Tolkien "
                + "at St. Paul's. He lived in the U.S. for years.", null))
                .containsExactly("It came out under her married name, M.V. Hughes, in 1934.",
                        "Dr. Jones met J. R. R. Tolkien at St. Paul's.", "He lived in the U.S. for years.");
    }

    @Test
    void of_titlesAfterADash_andAbbreviationsBeforeACapitalOrDigit_doNotEndSentences() {
        // the JDK's rules cut after "Wrangell–St.", "Maj.", "(e.g." and "(c." when a capital or a digit follows
        assertThat(texts("The largest national park is Wrangell–St. Elias in Alaska. The flight had Air Force Maj. "
                + "Jerauld Gentry at the controls. Any format at least 100 mm high (e.g. A5) will do. It began in "
                + "Rome (c. 30 AD) with his teachings. The film came out from Warner Bros. Critics liked it.", null))
                .containsExactly("The largest national park is Wrangell–St. Elias in Alaska.",
                        "The flight had Air Force Maj. Jerauld Gentry at the controls.",
                        "Any format at least 100 mm high (e.g. A5) will do.",
                        "It began in Rome (c. 30 AD) with his teachings.", "The film came out from Warner Bros.",
                        "Critics liked it.");
    }

    @Test
    void of_exclamationOrQuestionMarkBeforeALowerCaseWord_doesNotEndTheSentence() {
        // the JDK's rules cut after every "!" and "?", also inside a title or a quoted question
        assertThat(texts("A long-form \"The Way You Move/Hey Ya!\" video combines both clips. \"Why not?\" she asked. "
                + "It won! Critics agreed? Yes.", null))
                .containsExactly("A long-form \"The Way You Move/Hey Ya!\" video combines both clips.",
                        "\"Why not?\" she asked.", "It won!", "Critics agreed?", "Yes.");
    }

    @Test
    void of_aTimeOfDayBeforeItsZone_doesNotEndTheSentence() {
        // the JDK's rules cut after "p.m." before a capital; the time's zone and its bracket belong to the sentence
        assertThat(texts("It reached Oregon at 4:05\u00a0p.m. UTC (9:05 a.m. PDT), and ended at 2:44 P.M. EDT. "
                + "Doors open at 9 a.m. The talk starts later.", null))
                .containsExactly("It reached Oregon at 4:05\u00a0p.m. UTC (9:05 a.m. PDT), and ended at 2:44 P.M. EDT.",
                        "Doors open at 9 a.m.", "The talk starts later.");
    }

    @Test
    void of_aMarkdownTable_isCutIntoRowsThatNameTheirHeader() {
        String passage = "Timeouts are set per client.\n\n| option | default |\n|---|:---:|\n| `readTimeout` | 30 s |\n"
                + "| `connectTimeout` | 5 s |\nA closing line.\n\n| a | b |\n| c | d |";

        List<Sentences.Sentence> all = Sentences.of(passage, null);

        assertThat(all).extracting(Sentences.Sentence::text).containsExactly("Timeouts are set per client.",
                "| option | default |", "| `readTimeout` | 30 s |", "| `connectTimeout` | 5 s |", "A closing line.",
                "| a | b |", "| c | d |");
        Sentences.Sentence header = all.get(1);
        assertThat(header.heading()).isTrue();
        assertThat(header.row()).isTrue();
        assertThat(all.get(2).header()).isSameAs(header);
        assertThat(all.get(3).header()).isSameAs(header);
        assertThat(all.get(3).read()).isEqualTo("| option | default |\n| `connectTimeout` | 5 s |");
        assertThat(all.get(3).firstLine()).isEqualTo(5);
        assertThat(all.get(4).row()).isFalse();
        // a table without a |---| line has no header row: none of its rows is taken for one
        assertThat(all.subList(5, 7)).allMatch(s -> s.row() && !s.heading() && s.header() == null);
        assertThat(all.get(5).read()).isEqualTo("| a | b |");
    }

    @Test
    void of_cellsAParserJoined_areRowsButProseQuotingAPipeIsNot() {
        String word = "Limits\n\nName | Value\nTimeout | 30 s\nRetries | 3";
        String prose = "Count them with `grep x | wc -l` on each\nfile of the folder.";

        assertThat(Sentences.of(word, null)).extracting(Sentences.Sentence::text).containsExactly("Limits",
                "Name | Value", "Timeout | 30 s", "Retries | 3");
        assertThat(texts(prose, null)).containsExactly("Count them with `grep x | wc -l` on each file of the folder.");
    }

    @Test
    void introduced_aSentenceEndingInAColon_handsBackTheCodeBlockOrListAfterIt_whole() {
        String passage = "Add the modules you use:\n\n```xml\n<dependency>\n  <artifactId>rag-core</artifactId>\n"
                + "</dependency>\n```\nIt reads:\n- markdown files\n  and their front matter\n- PDF files\n\n"
                + "Then run it: the index is made.\nSee below:\n\nAn ordinary paragraph.\nA cut block:\n```bash\nrun";
        List<Sentences.Sentence> all = Sentences.of(passage, null);
        Sentences.Sentence add = all.get(0);
        Sentences.Sentence reads = all.stream().filter(s -> s.text().equals("It reads:")).findFirst().orElseThrow();

        int[] code = Sentences.introduced(passage, add);
        int[] list = Sentences.introduced(passage, reads);

        assertThat(code).isNotNull();
        assertThat(passage.substring(code[0], code[1])).isEqualTo("```xml\n<dependency>\n  <artifactId>rag-core"
                + "</artifactId>\n</dependency>\n```");
        assertThat(list).isNotNull();
        assertThat(passage.substring(list[0], list[1])).isEqualTo("- markdown files\n  and their front matter\n"
                + "- PDF files");
        // a colon inside a line, a paragraph after it, a block the passage cuts off: nothing
        assertThat(all).filteredOn(s -> !s.equals(add) && !s.equals(reads))
                .allMatch(s -> Sentences.introduced(passage, s) == null);
        // a block longer than the bound is not handed back
        String longBlock = "Run these:\n```\n" + "step\n".repeat(Sentences.INTRODUCED_LINES) + "```";
        assertThat(Sentences.introduced(longBlock, Sentences.of(longBlock, null).get(0))).isNull();
        String fits = "Run these:\n```\n" + "step\n".repeat(Sentences.INTRODUCED_LINES - 2) + "```";
        assertThat(Sentences.introduced(fits, Sentences.of(fits, null).get(0))).isNotNull();
    }
}
