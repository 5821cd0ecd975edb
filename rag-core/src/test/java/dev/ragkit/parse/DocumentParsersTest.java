package dev.ragkit.parse;

import dev.ragkit.ingest.IndexReport;
import dev.ragkit.ingest.Indexer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ragkit.error.IngestException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The parser registry, content sniffing, and the text and code parsers of rag-core. */
final class DocumentParsersTest {

    private static DocumentSource source(String path, String text) {
        return DocumentSource.of(path, text.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void standard_holdsTheCoreParsersAndChoosesByExtension() {
        DocumentParsers parsers = DocumentParsers.standard();

        assertThat(parsers.byId("markdown")).isPresent();
        assertThat(parsers.forPath("docs/a.md").map(DocumentParser::id)).hasValue("markdown");
        assertThat(parsers.forPath("notes/run.LOG").map(DocumentParser::id)).hasValue("text");
        assertThat(parsers.forPath("README").map(DocumentParser::id)).hasValue("text");
        assertThat(parsers.forPath("src/Main.java").map(DocumentParser::id)).hasValue("code");
        assertThat(parsers.forPath("logo.png")).isEmpty();
        assertThat(parsers.extensions()).contains("md", "txt", "java", "py", "yaml", "");
    }

    @Test
    void of_twoParsersForOneExtension_failsNamingBoth() {
        DocumentParser other = new DocumentParser() {
            @Override
            public String id() {
                return "my-markdown";
            }

            @Override
            public Set<String> extensions() {
                return Set.of("md");
            }

            @Override
            public ParsedDocument parse(DocumentSource source) {
                throw new UnsupportedOperationException();
            }
        };

        assertThatThrownBy(() -> DocumentParsers.of(List.of(new MarkdownDocumentParser(), other)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("'markdown' and 'my-markdown' both read .md");
    }

    @Test
    void sniff_magicNumbersAndText_areTold() {
        assertThat(ContentSniffer.sniff("%PDF-1.7\n...".getBytes(StandardCharsets.US_ASCII)))
                .isEqualTo(ContentSniffer.Kind.PDF);
        assertThat(ContentSniffer.sniff("  <!DOCTYPE html><html></html>".getBytes(StandardCharsets.US_ASCII)))
                .isEqualTo(ContentSniffer.Kind.HTML);
        assertThat(ContentSniffer.sniff(new byte[] {(byte) 0xD0, (byte) 0xCF, 0x11, (byte) 0xE0, (byte) 0xA1,
                (byte) 0xB1, 0x1A, (byte) 0xE1})).isEqualTo(ContentSniffer.Kind.OLE2);
        assertThat(ContentSniffer.sniff(new byte[] {(byte) 0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A, 0, 0}))
                .isEqualTo(ContentSniffer.Kind.BINARY);
        assertThat(ContentSniffer.sniff("# Title\n\ncaf\u00e9".getBytes(StandardCharsets.UTF_8)))
                .isEqualTo(ContentSniffer.Kind.TEXT);
        assertThat(ContentSniffer.sniff(new byte[0])).isEqualTo(ContentSniffer.Kind.TEXT);
    }

    @Test
    void text_commentLineIsTextNotAHeading() {
        ParsedDocument doc = new TextDocumentParser().parse(source("notes/todo.txt",
                "Shopping list\n# not a heading\n```\nnot code either\n"));

        assertThat(doc.title()).isEqualTo("Shopping list");
        assertThat(doc.lines()).containsExactly("Shopping list", "# not a heading", "```", "not code either");
        assertThat(doc.sections()).containsOnlyNulls();
        assertThat(doc.structure()).isEqualTo(ParsedDocument.Structure.PLAIN);
        assertThat(doc.links()).isEmpty();
    }

    @Test
    void text_anEditorsModeLineOrAnUnderline_isNoTitle() {
        // GNU Wget's README, as Debian ships it
        assertThat(new TextDocumentParser().parse(source("wget/README", "                     -*- text -*-\n"
                + "GNU Wget\n========\n")).title()).isEqualTo("GNU Wget");
        assertThat(new TextDocumentParser().parse(source("a.txt", "vim: set tw=72:\n=====\nRelease notes\n"))
                .title()).isEqualTo("Release notes");
    }

    @Test
    void text_underlinedTitles_areSections_levelsInTheOrderTheirUnderlinesAppear() {
        // man-db's FAQ as Debian ships it: a title over dashes, each question over equals signs
        ParsedDocument doc = new TextDocumentParser().parse(source("man-db/FAQ", "Frequently Asked Questions\n"
                + "--------------------------\n\nWhy use man-db?\n===============\n\nIt caches.\n\n"
                + "Is it fast?\n===========\nYes.\n\nAppendix\n--------\nsee also\n---\n\nshort\n"
                + "------------------------------\n\nA long title that a short line underlines\n===\n"));

        assertThat(doc.sections()).containsExactly(
                "Frequently Asked Questions", "Frequently Asked Questions", "Frequently Asked Questions",
                "Frequently Asked Questions > Why use man-db?", "Frequently Asked Questions > Why use man-db?",
                "Frequently Asked Questions > Why use man-db?", "Frequently Asked Questions > Why use man-db?",
                "Frequently Asked Questions > Why use man-db?",
                "Frequently Asked Questions > Is it fast?", "Frequently Asked Questions > Is it fast?",
                "Frequently Asked Questions > Is it fast?", "Frequently Asked Questions > Is it fast?",
                // a new title of the top level closes the levels under it
                "Appendix", "Appendix",
                // a line right after text is no title, though a rule follows it
                "Appendix", "Appendix", "Appendix",
                "short", "short", "short",
                // an underline shorter than half its line is a rule, not a title's
                "short", "short");
        assertThat(new TextDocumentParser().parse(source("notes.txt", "plain\nlines\n")).sections())
                .containsOnlyNulls();
    }

    @Test
    void text_longFirstLine_titleIsTheFileName() {
        assertThat(new TextDocumentParser().parse(source("logs/server.log", "x".repeat(300) + "\n")).title())
                .isEqualTo("server");
    }

    @Test
    void text_notUtf8_failsWithTheLineAndTheFix() {
        byte[] latin1 = "one\ncaf\u00e9\n".getBytes(StandardCharsets.ISO_8859_1);

        assertThatThrownBy(() -> new TextDocumentParser().parse(DocumentSource.of("a.txt", latin1)))
                .isInstanceOf(IngestException.class).hasMessage("a.txt:2: the file is not valid UTF-8 (byte offset 7);"
                        + " save it as UTF-8");
    }

    @Test
    void code_javaMethodsAndTypes_areSections() {
        String java = String.join("\n",
                "package x;",
                "",
                "/** A class. */",
                "public final class Indexer {",
                "    private final int size = 3;",
                "",
                "    public IndexReport index(Path root) {",
                "        if (root == null) {",
                "            throw new IllegalArgumentException(\"{\");",
                "        }",
                "        return run(root);",
                "    }",
                "",
                "    static final class Run",
                "    {",
                "        void count() { total++; }",
                "    }",
                "}",
                "");

        ParsedDocument doc = new CodeDocumentParser().parse(source("src/Indexer.java", java));

        assertThat(doc.title()).isEqualTo("Indexer.java");
        assertThat(doc.docType()).isEqualTo("code");
        assertThat(doc.metadata()).containsEntry("language", "java");
        assertThat(doc.section(1)).isNull();
        assertThat(doc.section(5)).isEqualTo("Indexer");
        assertThat(doc.section(7)).isEqualTo("Indexer > index");
        assertThat(doc.section(9)).isEqualTo("Indexer > index");      // the brace in the string does not count
        assertThat(doc.section(11)).isEqualTo("Indexer > index");
        assertThat(doc.section(16)).isEqualTo("Indexer > Run > count");
        assertThat(doc.section(17)).isEqualTo("Indexer > Run");
    }

    @Test
    void code_aDeclarationsDocCommentAndAnnotations_areInItsSection() {
        // a class's javadoc was cited under no section, and a chunk preferred to end between it and its class
        String java = String.join("\n",
                "package x;",
                "",
                "/**",
                " * Counts tokens.",
                " */",
                "@Deprecated",
                "public final class Counter {",
                "    private int total;",
                "",
                "    /** Adds one. */",
                "    @Override",
                "    public void add(",
                "            int n) {",
                "        total += n;",
                "    }",
                "    // a note on the field below",
                "",
                "    private int spare;",
                "}",
                "");
        ParsedDocument doc = new CodeDocumentParser().parse(source("src/Counter.java", java));
        assertThat(doc.section(2)).isNull();
        assertThat(Arrays.asList(doc.section(3), doc.section(4), doc.section(5), doc.section(6), doc.section(7)))
                .containsOnly("Counter");
        assertThat(Arrays.asList(doc.section(10), doc.section(11), doc.section(12), doc.section(13)))
                .containsOnly("Counter > add");
        assertThat(doc.section(9)).isEqualTo("Counter");
        assertThat(doc.section(16)).isEqualTo("Counter");         // a comment above a blank line is no doc comment

        String python = String.join("\n",
                "import os",
                "",
                "def first():",
                "    return 1",
                "",
                "# Reads the store.",
                "@cached",
                "def second():",
                "    return 2",
                "");
        ParsedDocument py = new CodeDocumentParser().parse(source("store.py", python));
        assertThat(Arrays.asList(py.section(6), py.section(7), py.section(8))).containsOnly("second");
        assertThat(py.section(4)).isEqualTo("first");
    }

    @Test
    void code_pythonByIndentation() {
        String python = String.join("\n",
                "import os",
                "",
                "class Store:",
                "    def put(self, key):",
                "        return key",
                "",
                "    def get(self, key):",
                "        return None",
                "",
                "def main():",
                "    Store().put(1)",
                "");

        ParsedDocument doc = new CodeDocumentParser().parse(source("store.py", python));

        assertThat(doc.section(1)).isNull();
        assertThat(doc.section(5)).isEqualTo("Store > put");
        assertThat(doc.section(8)).isEqualTo("Store > get");
        assertThat(doc.section(11)).isEqualTo("main");
    }

    @Test
    void code_yamlAndJsonTopLevelKeysAndSqlStatements() {
        ParsedDocument yaml = new CodeDocumentParser().parse(source("ci.yml", "name: build\non:\n  push: {}\n"
                + "jobs:\n  test:\n    runs-on: ubuntu\n"));
        ParsedDocument json = new CodeDocumentParser().parse(source("package.json", "{\n  \"name\": \"x\",\n"
                + "  \"scripts\": {\n    \"test\": \"jest\"\n  }\n}\n"));
        ParsedDocument sql = new CodeDocumentParser().parse(source("schema.sql", "CREATE TABLE users (\n  id int\n);"
                + "\nCREATE INDEX users_id ON users (id);\n"));

        assertThat(yaml.section(3)).isEqualTo("on");
        assertThat(yaml.section(6)).isEqualTo("jobs");
        assertThat(json.section(4)).isEqualTo("scripts");
        assertThat(sql.section(2)).isEqualTo("table users");
        assertThat(sql.section(4)).isEqualTo("index users_id");
    }

    @Test
    void source_pathIsNormalisedAndHostileOnesRefused() {
        assertThat(DocumentSource.of("./a/../b.md", new byte[0]).path()).isEqualTo("b.md");
        assertThatThrownBy(() -> DocumentSource.of("../etc/passwd", new byte[0]))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("climbs above");
        assertThatThrownBy(() -> new DocumentSource("a.txt", new byte[0], 0))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void source_textOverTheCharacterLimit_fails() {
        DocumentSource big = new DocumentSource("a.txt", "x".repeat(101).getBytes(StandardCharsets.UTF_8), 100);

        assertThatThrownBy(big::text).isInstanceOf(IngestException.class)
                .hasMessageContaining("more than 100 characters");
    }

    @Test
    void links_resolvedNormalisedAndCountedWhenLeavingTheRoot() {
        DocumentPaths.Links links = new DocumentPaths.Links("guide/install.md");
        for (String href : List.of("linux.md#top", "../faq.md?x=1", "/root.md", "https://x.org", "#here",
                "../../out.md", "install.md", "caf%C3%A9.md")) {
            links.add(href);
        }

        assertThat(links.links()).containsExactly("guide/linux.md", "faq.md", "root.md", "guide/café.md");
        assertThat(links.dropped()).isEqualTo(1);
    }
}
