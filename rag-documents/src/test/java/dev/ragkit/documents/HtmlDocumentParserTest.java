package dev.ragkit.documents;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ragkit.internal.Sentences;
import dev.ragkit.parse.DocumentSource;
import dev.ragkit.parse.ParsedDocument;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class HtmlDocumentParserTest {
    private final HtmlDocumentParser parser = new HtmlDocumentParser();

    @Test
    void onlyTheMainTextIsRead() {
        ParsedDocument doc = parser.parse(Fixtures.source("handbook.html"));
        String text = String.join("\n", doc.lines());

        assertThat(text).contains("Tickets are answered within one business day. Urgent tickets go to the "
                + "on-call engineer.");
        assertThat(text).doesNotContain("tracking", "font-family", "site banner", "Navigation link",
                "footer text", "hidden text", "aside text");
        assertThat(doc.title()).isEqualTo("Support Handbook");
        assertThat(doc.summary()).isEqualTo("How the support team works.");
        assertThat(doc.metadata()).containsEntry("author", "Support Team");
        assertThat(doc.docType()).isEqualTo("html");
    }

    @Test
    void headingsListsTablesAndPreformattedText() {
        ParsedDocument doc = parser.parse(Fixtures.source("handbook.html"));

        assertThat(doc.lines()).containsSubsequence("- Level 1: support engineer", "- Level 2: product team",
                "  - Level 2a: the component owner");
        assertThat(doc.lines()).containsSubsequence("Team | Channel", "--- | ---", "Billing | #billing-help");
        // read as a table: the row under its header row
        String table = String.join("\n", doc.lines());
        Sentences.Sentence billing = Sentences.of(table, null).stream()
                .filter(s -> s.text().equals("Billing | #billing-help")).findFirst().orElseThrow();
        assertThat(billing.header()).isNotNull().extracting(Sentences.Sentence::text).isEqualTo("Team | Channel");
        assertThat(doc.lines()).containsSubsequence("```", "ssh support@gateway", "tail -f /var/log/app.log", "```");
        assertThat(section(doc, "Escalate when")).isEqualTo("Support Handbook > Escalation");
        assertThat(section(doc, "Billing | #billing-help")).isEqualTo("Support Handbook > Escalation > Contacts");
        assertThat(section(doc, "Tickets are answered")).isEqualTo("Support Handbook");
    }

    /** The lines of a page that say something. */
    private List<String> textLines(String html) {
        return parser.parse(DocumentSource.of("page.html", html.getBytes(StandardCharsets.UTF_8))).lines().stream()
                .filter(l -> !l.isBlank()).toList();
    }

    @Test
    void aDefinitionListsTermLeadsItsDefinition_andAListItemsMarkerItsParagraph() {
        // Debian's users-and-groups.html (DocBook): each group a term, its use the definition, in paragraphs
        String html = "<html><body><dl><dt>staff</dt><dd><p>Allows users to add local modifications to the system"
                + " (<tt>/usr/local</tt>) without needing root privileges.</p><p>Compare with group adm.</p></dd>"
                + "<dt>Parameters:</dt><dd><code>count</code> - how many</dd><dt>orphan</dt></dl>"
                + "<ul><li><p>Rotate the keys.</p></li><li></li><li>Renew the lease.</li></ul></body></html>";

        assertThat(textLines(html)).containsExactly(
                "staff: Allows users to add local modifications to the system (/usr/local) without needing root"
                        + " privileges.", "Compare with group adm.", "Parameters: count - how many", "orphan",
                "- Rotate the keys.", "- Renew the lease.");
    }

    @Test
    void aTableOfContents_isNoText() {
        // DocBook's (Debian's ninja and bzip2 manuals), AsciiDoc's and Pandoc's tables of contents
        String html = "<html><body><div class=\"toc\"><ul class=\"toc\"><li><a href=\"#_phony\">The phony rule</a>"
                + "</li></ul></div><div id=\"toc\"><ul><li><a href=\"#_pools\">Pools</a></li></ul></div>"
                + "<nav id=\"TOC\"><ul><li><a href=\"#_logs\">The log</a></li></ul></nav>"
                + "<h2>The phony rule</h2><p>The special rule name phony creates aliases.</p></body></html>";

        assertThat(textLines(html)).containsExactly("The phony rule",
                "The special rule name phony creates aliases.");
    }

    @Test
    void aBarOfLinksToTheNextAndPreviousPage_isNoText_butASentenceLinkingToTheNextPageIs() {
        // as Texinfo writes every page of a GNU manual (libffi's), and a DocBook navigation row
        String html = "<html><body><div class=\"section\"><div class=\"header\"><p>Next: <a href=\"Closure-API.html\" "
                + "accesskey=\"n\" rel=\"next\">The Closure API</a>, Previous: <a href=\"Types.html\" "
                + "rel=\"prev nofollow\">Types</a>, Up: <a href=\"Using.html\" rel=\"up\">Using libffi</a> &nbsp; "
                + "[<a href=\"Index.html\" rel=\"index\">Index</a>]</p></div><hr><h3>2.7 Thread Safety</h3><p>libffi "
                + "is not completely thread-safe.</p><table><tr><td><a accesskey=\"p\" href=\"a.html\">Prev</a> | "
                + "<a accesskey=\"u\" href=\"b.html\">Up</a></td></tr></table><p>See <a href=\"Closure-API.html\" "
                + "rel=\"next\">the next section</a> for closures.</p><p><a href=\"p1.html\" rel=\"prev nofollow\">"
                + "« Older</a> | <a href=\"p3.html\" rel=\"next nofollow\">Newer »</a></p><div class=\"header\"><p>"
                + "Previous: <a href=\"Types.html\">Types</a>, Up: <a href=\"Using.html\">Using libffi</a> [<a "
                + "href=\"Index.html\" rel=\"index\">Index</a>]</p></div><table class=\"nav\"><tr><td><a "
                + "accesskey=\"p\" href=\"a.html\"><img alt=\"Prev\"></a></td><td><a accesskey=\"u\" href=\"b.html\">"
                + "<img alt=\"Up\"></a></td><th>Valgrind User Manual</th><td><a accesskey=\"n\" href=\"c.html\"><img "
                + "alt=\"Next\"></a></td></tr></table></div></body></html>";

        assertThat(textLines(html)).containsExactly("2.7 Thread Safety", "libffi is not completely thread-safe.",
                "See the next section for closures.");
    }

    @Test
    void aManualsIndexOfTerms_isNoText() {
        // Texinfo's index page: a "Jump to" row of letters, then the entries, each pointing at a section
        String html = "<html><body><h2>Index</h2><p>Terms by section.</p><table><tr><th>Jump to:</th><td>"
                + "<a class=\"summary-letter\" href=\"#A\"><b>A</b></a></td></tr></table>"
                + "<table class=\"index-cp\" border=\"0\"><tr><th>Index Entry</th><th>Section</th></tr><tr><td>"
                + "<a href=\"Intro.html#index-ABI\">ABI</a>:</td><td><a href=\"Intro.html\">Introduction</a></td></tr>"
                + "</table><table class=\"fn-entries-printindex\"><tr><td><a href=\"a.html\">ffi_call</a></td></tr>"
                + "</table><table class=\"versions\"><tr><td>3.4</td><td>current</td></tr></table></body></html>";

        assertThat(textLines(html)).containsExactly("Index", "Terms by section.", "3.4 | current");
    }

    @Test
    void preformattedTextIsAFencedBlock_namedByItsLanguageClass_readAsCodeAfterTheSentenceIntroducingIt() {
        // as mdBook writes the Rust book: a sentence ending in a colon, then the command and its output in a <pre>
        String html = "<html><body><main><p>To check whether Rust is installed, enter this line:</p>"
                + "<pre><code class=\"language-console hljs\">$ rustc --version\nrustc 1.95.0</code></pre>"
                + "<pre>a ```quoted``` fence\n```\n</pre><p>If you see this, it worked.</p></main></body></html>";

        ParsedDocument doc = parser.parse(DocumentSource.of("book/install.html",
                html.getBytes(StandardCharsets.UTF_8)));

        assertThat(doc.structure()).isEqualTo(ParsedDocument.Structure.FENCED);
        assertThat(doc.lines()).containsExactly("To check whether Rust is installed, enter this line:", "",
                "```console", "$ rustc --version", "rustc 1.95.0", "```", "", "````", "a ```quoted``` fence", "```",
                "````", "", "If you see this, it worked.");
        String text = String.join("\n", doc.lines());
        Sentences.Sentence colon = Sentences.of(text, null).get(0);
        int[] block = Sentences.introduced(text, colon);
        assertThat(block).isNotNull();
        assertThat(text.substring(block[0], block[1])).isEqualTo("```console\n$ rustc --version\nrustc 1.95.0\n```");
        // the output line is code, not a sentence glued to the command
        assertThat(Sentences.of(text, null)).extracting(Sentences.Sentence::text).contains("$ rustc --version",
                "rustc 1.95.0", "If you see this, it worked.");
    }

    @Test
    void localHrefsAreResolvedAgainstThePage() {
        ParsedDocument doc = parser.parse(Fixtures.source("handbook.html"));

        assertThat(doc.links()).containsExactly("docs/escalation/matrix.html");
    }

    @Test
    void deeplyNestedMarkupDoesNotOverflowTheStack() {
        String page = "<html><body>" + "<div>".repeat(10_000) + "deep text" + "</div>".repeat(10_000)
                + "</body></html>";

        ParsedDocument doc = parser.parse(DocumentSource.of("deep.html", page.getBytes(StandardCharsets.UTF_8)));

        assertThat(doc.lines()).contains("deep text");
    }

    @Test
    void theCharsetComesFromThePage() {
        String page = "<html><head><meta charset=\"ISO-8859-1\"><title>Caf\u00e9</title></head>"
                + "<body><p>cr\u00e8me br\u00fbl\u00e9e</p></body></html>";

        ParsedDocument doc = parser.parse(DocumentSource.of("menu.html", page.getBytes(StandardCharsets.ISO_8859_1)));

        assertThat(doc.title()).isEqualTo("Caf\u00e9");
        assertThat(doc.lines()).contains("cr\u00e8me br\u00fbl\u00e9e");
    }

    @Test
    void aPageWithoutTextIsAnEmptyDocument() {
        for (String page : new String[] {"", "<html><body><script>x()</script><nav>menu</nav></body></html>"}) {
            ParsedDocument doc = parser.parse(DocumentSource.of("e.html", page.getBytes(StandardCharsets.UTF_8)));

            assertThat(doc.lines()).isEmpty();
            assertThat(doc.title()).isEqualTo("e");
        }
    }

    private static String section(ParsedDocument doc, String text) {
        for (int i = 0; i < doc.lines().size(); i++) {
            if (doc.lines().get(i).contains(text)) {
                return doc.sections().get(i);
            }
        }
        throw new AssertionError("no line with " + text + " in " + doc.lines());
    }
}
