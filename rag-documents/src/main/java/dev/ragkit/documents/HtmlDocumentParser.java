package dev.ragkit.documents;

import dev.ragkit.error.IngestException;
import dev.ragkit.parse.ContentSniffer;
import dev.ragkit.parse.DocumentParser;
import dev.ragkit.parse.DocumentPaths;
import dev.ragkit.parse.DocumentSource;
import dev.ragkit.parse.ParsedDocument;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.jsoup.nodes.Node;
import org.jsoup.nodes.TextNode;
import org.jsoup.select.Elements;
import org.jsoup.select.NodeFilter;
import org.jsoup.select.NodeTraversor;
import org.jspecify.annotations.Nullable;

/**
 * HTML pages, on jsoup: the page's main text — {@code <main>} (or the one {@code <article>}) when the page has one,
 * else the body — without scripts, styles, navigation, tables of contents, headers and footers of the site, asides
 * and hidden elements (the {@code hidden} attribute, {@code aria-hidden="true"}, {@code <template>}, and an inline
 * {@code style} with {@code display: none} or {@code visibility: hidden}; stylesheet rules are not evaluated).
 * {@code <h1>}..{@code <h6>} open sections, each block element ({@code p}, {@code div}, list items,
 * table rows, {@code pre}, …) becomes its own line or lines, list items start with {@code - }, table rows join
 * their cells with {@code  | } (a row of {@code <th>} cells is followed by a {@code --- | ---} line, as a markdown
 * table's header is, so that its rows are quoted under it), and preformatted text keeps its line breaks in a fenced
 * block, as markdown writes code ({@code ```rust} when a {@code language-rust} class names its language; the
 * document's {@link ParsedDocument.Structure} is {@code FENCED}, so the chunker keeps the block whole). Local
 * {@code href}s become links, so link following works across an exported documentation site. The title is
 * {@code <title>}, else the first heading, else the file name; {@code <meta name="description">} becomes the summary
 * and {@code <meta name="author">} the metadata key {@code author}.
 *
 * <p>A page with no text outside those parts is an empty document (stored without chunks, like an empty markdown
 * file), so it replaces an older version of itself. The character set comes from the byte order mark (UTF-8,
 * UTF-16 big- or little-endian) or the page's {@code <meta charset>}, UTF-8 otherwise. The page is walked
 * without recursion, so deeply nested markup cannot overflow the stack; the extracted text counts against the
 * source's character limit. The {@link DocumentParser} with id {@code html}; stateless and thread-safe.
 */
public final class HtmlDocumentParser implements DocumentParser {
    /**
     * Elements that are not the page's text: scripts and styles, the site's navigation, header and footer, asides, and
     * a table of contents (DocBook's and Sphinx's {@code .toc} and {@code .toctree-wrapper}, AsciiDoc's {@code #toc},
     * Pandoc's {@code #TOC}, {@code role="doc-toc"}), whose entries only repeat the headings, and a Texinfo manual's
     * index of terms ({@code table.index-cp}, {@code table.cp-entries-printindex}) with its "Jump to: A C F" rows,
     * whose entries only point.
     */
    private static final String BOILERPLATE = "script, style, noscript, svg, iframe, object, nav, aside, "
            + "footer, [role=navigation], [role=banner], [role=contentinfo], .toc, #toc, #TOC, [role=doc-toc], "
            + ".toctree-wrapper, table[class~=(?:^|\\s)(?:index-[a-z]{2}|[a-z]{2}-entries-printindex)(?:\\s|$)], "
            + "table:has(a[class~=^summary-letter])";
    /**
     * A link to the page before, after or above this one, or to the manual's index or contents: the {@code rel} values
     * HTML defines for moving through a manual (Texinfo writes them on every page), or an access key
     * (DocBook's and Texinfo's {@code accesskey="n"}).
     */
    private static final String MOVE_LINK = "a[rel~=(?i)(?:^|\\s)(?:prev|previous|next|up|index|contents|start|first"
            + "|last)(?:\\s|$)], a[accesskey]";
    /** A word that names a move: a bar whose other links lack {@code rel} says what they are with it. */
    private static final Pattern MOVE_WORD = Pattern.compile("(?i)\\b(?:next|previous|prev|up)\\b");
    /** The labels a bar of such links carries beside them: "Next:", "Previous:", "Up:", "[Index]", "Prev | Home". */
    private static final Pattern MOVE_LABEL = Pattern.compile("(?i)\\b(?:next|previous|prev|up|home|top|index|contents)"
            + "\\b");
    private static final Pattern WORD = Pattern.compile("[\\p{L}\\p{N}]+");
    /** The most words of a manual's title a row of links to the next and previous page may hold beside them. */
    private static final int MAX_TITLE_WORDS = 6;
    /** Elements a reader never sees; {@code hidden="until-found"} is content the browser's find reveals. */
    private static final String HIDDEN = "template, [hidden]:not([hidden=until-found]), [aria-hidden=true]";
    /** An inline style that hides the element: {@code display: none}, {@code visibility: hidden|collapse}. */
    private static final Pattern HIDING_STYLE = Pattern.compile("(?i)(?:^|;)\\s*(?:display\\s*:\\s*none"
            + "|visibility\\s*:\\s*(?:hidden|collapse))\\s*(?:!\\s*important\\s*)?(?:;|$)");
    private static final Set<String> BLOCKS = Set.of("address", "article", "blockquote", "body", "dd", "details",
            "dialog", "div", "dl", "dt", "fieldset", "figcaption", "figure", "form", "header", "hr", "li", "main",
            "ol", "p", "section", "summary", "table", "tbody", "thead", "tfoot", "ul", "caption");
    private static final int MAX_TITLE = 120;
    /** A highlighter's class naming a code block's language: {@code language-rust}, {@code lang-java}. */
    private static final Pattern LANGUAGE_CLASS = Pattern.compile("(?:language|lang)-([A-Za-z0-9_+#.-]{1,30})");

    /** Creates the parser. */
    public HtmlDocumentParser() {
        // nothing to configure
    }

    @Override
    public String id() {
        return "html";
    }

    @Override
    public Set<String> extensions() {
        return Set.of("html", "htm", "xhtml");
    }

    @Override
    public Set<ContentSniffer.Kind> kinds() {
        return Set.of(ContentSniffer.Kind.HTML);
    }

    @Override
    public ParsedDocument parse(DocumentSource source) {
        Objects.requireNonNull(source, "source");
        Document page;
        try {
            page = Jsoup.parse(new ByteArrayInputStream(source.bytes()), null, "");
        } catch (IOException | RuntimeException e) {
            throw new IngestException(source.path(), 0, "not a readable HTML page (" + ParserMessages.reason(e) + ")", e);
        }
        // hidden parts go first, from the whole page: a hidden <main> or <article> must not become the content
        removeHidden(page);
        Element root = mainContent(page);
        root.select(BOILERPLATE).remove();
        page.select("body > header, body > div > header").remove();      // the site's banner, not the page's
        removeMoveBars(root);
        Walker walker = new Walker(source);
        NodeTraversor.filter(walker, root);
        walker.flush();
        SectionedLines out = walker.out;
        Map<String, String> metadata = new LinkedHashMap<>();
        String author = meta(page, "author");
        if (author != null) {
            metadata.put("author", author);
        }
        ParsedDocument.Builder builder = ParsedDocument.builder(source.path())
                .title(title(page.title(), out.firstHeading(), source.path())).docType("html")
                .metadata(metadata).links(walker.links).lines(out.lines()).sections(out.sections())
                .structure(ParsedDocument.Structure.FENCED);
        String description = meta(page, "description");
        if (description != null) {
            builder.summary(description);
        }
        return builder.build();
    }

    /** Removes what a browser does not show: templates, hidden and aria-hidden elements, inline-styled hiding. */
    private static void removeHidden(Document page) {
        for (Element element : page.select(HIDDEN + ", [style]")) {
            if (element.is(HIDDEN) || HIDING_STYLE.matcher(element.attr("style")).find()) {
                element.remove();
            }
        }
    }

    /**
     * Removes the bars of links that move through a manual, written without {@code <nav>}: Texinfo's "Next: Thread
     * Safety, Previous: The Closure API, Up: Using libffi [Index]" over every page, DocBook's Prev / Up / Next row. A
     * bar is the paragraph, table row or division nearest to such a link ({@link #MOVE_LINK}) whose text besides its
     * links' titles is only their labels, and whose links all move or are labelled so ("Previous: <a>Missing
     * Features</a>, Up: <a>libffi</a>", as Texinfo writes the bar at a page's foot); a sentence that links to the next
     * chapter is no bar.
     */
    private static void removeMoveBars(Element root) {
        for (Element link : root.select(MOVE_LINK)) {
            Element bar = link.parent();
            while (bar != null && bar != root && !bar.is("p, div, tr, td, th, li")) {
                bar = bar.parent();
            }
            if (bar == null || bar == root || bar.ownerDocument() == null) {
                continue;                                                   // removed with an earlier bar
            }
            Element row = bar.is("td, th") ? bar.closest("tr") : null;
            if (row != null && isBar(row, MAX_TITLE_WORDS)) {
                row.remove();                                               // the links and the manual's title
            } else if (isBar(bar, 0)) {
                bar.remove();
            }
        }
    }

    /**
     * Whether {@code bar}'s links all move (or are labelled as moves) and its text besides their titles and labels
     * holds at most {@code words} words: none for a bar of links, a few for a table row of at least two moving links
     * around the manual's title (DocBook's and gtk-doc's "Prev Up Home | Valgrind User Manual | Next").
     */
    private static boolean isBar(Element bar, int words) {
        Elements links = bar.select("a[href]");
        StringBuilder rest = new StringBuilder(bar.text());
        int moves = 0;
        for (Element a : links) {
            moves += a.is(MOVE_LINK) ? 1 : 0;
            int at = rest.indexOf(a.text());
            if (!a.text().isEmpty() && at >= 0) {
                rest.delete(at, at + a.text().length());
            }
        }
        int left = 0;
        for (Matcher word = WORD.matcher(MOVE_LABEL.matcher(rest).replaceAll(" ")); word.find(); ) {
            left++;
        }
        if (words > 0) {
            return moves == links.size() && moves >= 2 && left <= words;
        }
        return left == 0 && moves > 0 && (moves == links.size() || MOVE_WORD.matcher(rest).find());
    }

    private static Element mainContent(Document page) {
        Element main = page.selectFirst("main, [role=main]");
        if (main != null) {
            return main;
        }
        List<Element> articles = page.select("article");
        return articles.size() == 1 ? articles.get(0) : page.body();
    }

    /**
     * The language a {@code <pre>} block is written in, from a {@code language-…} or {@code lang-…} class on it or on
     * the {@code <code>} inside it (as highlighters and mdBook write it), or {@code null}.
     */
    static @Nullable String language(Element pre) {
        List<Element> marked = new ArrayList<>(List.of(pre));
        pre.children().stream().filter(child -> child.is("code")).forEach(marked::add);
        for (Element element : marked) {
            for (String name : element.classNames()) {
                Matcher m = LANGUAGE_CLASS.matcher(name);
                if (m.matches()) {
                    return m.group(1).toLowerCase(Locale.ROOT);
                }
            }
        }
        return null;
    }

    private static @Nullable String meta(Document page, String name) {
        Element meta = page.selectFirst("meta[name=" + name + "]");
        String content = meta == null ? "" : SectionedLines.oneLine(meta.attr("content"));
        return content.isEmpty() ? null : content;
    }

    private static String title(String title, @Nullable String heading, String path) {
        for (String candidate : new String[] {title, heading}) {
            String text = SectionedLines.oneLine(candidate);
            if (!text.isEmpty() && text.length() <= MAX_TITLE) {
                return text;
            }
        }
        return DocumentPaths.baseName(path);
    }

    /** Walks the page in document order, collecting inline text into the current block's line. */
    private static final class Walker implements NodeFilter {
        final SectionedLines out;
        final DocumentPaths.Links links;
        private final StringBuilder line = new StringBuilder();
        private int listDepth;
        /** What the current line starts with before its text: a list item's marker, a definition's term. */
        private String lead = "";
        /** A definition list's term ({@code <dt>}) waiting for its definition ({@code <dd>}), or empty. */
        private String term = "";

        Walker(DocumentSource source) {
            this.out = new SectionedLines(source);
            this.links = new DocumentPaths.Links(source.path());
        }

        @Override
        public FilterResult head(Node node, int depth) {
            if (node instanceof TextNode) {
                append(((TextNode) node).text());
                return FilterResult.CONTINUE;
            }
            if (!(node instanceof Element)) {
                return FilterResult.CONTINUE;
            }
            Element element = (Element) node;
            String tag = element.normalName();
            if (element.hasAttr("href")) {
                links.add(element.attr("href"));
            }
            switch (tag) {
                case "h1": case "h2": case "h3": case "h4": case "h5": case "h6":
                    flush();
                    out.heading(tag.charAt(1) - '0', element.text());
                    return FilterResult.SKIP_CHILDREN;
                case "pre":
                    flush();
                    out.fenced(element.wholeText(), language(element));
                    return FilterResult.SKIP_CHILDREN;
                case "tr":
                    flush();
                    List<String> cells = new ArrayList<>();
                    element.children().forEach(cell -> cells.add(SectionedLines.oneLine(cell.text())));
                    out.row(cells, element.children().stream().allMatch(cell -> cell.is("th")));
                    return FilterResult.SKIP_CHILDREN;
                case "br":
                    flush();
                    return FilterResult.CONTINUE;
                case "ul": case "ol":
                    flush();
                    listDepth++;
                    return FilterResult.CONTINUE;
                case "li":
                    endBlock();
                    lead("  ".repeat(Math.max(0, Math.min(8, listDepth - 1))) + "- ");
                    return FilterResult.CONTINUE;
                case "dt":
                    endBlock();
                    writeTerm();                            // a term without a definition: a line of its own
                    out.blank();
                    return FilterResult.CONTINUE;
                case "dd":
                    endBlock();
                    out.blank();
                    if (!term.isEmpty()) {
                        // "staff: Allows users to add local modifications", not "staff" alone and its definition
                        lead(term.endsWith(":") ? term + " " : term + ": ");
                        term = "";
                    }
                    return FilterResult.CONTINUE;
                default:
                    if (BLOCKS.contains(tag)) {
                        flush();
                        out.blank();
                    }
                    return FilterResult.CONTINUE;
            }
        }

        @Override
        public FilterResult tail(Node node, int depth) {
            if (node instanceof Element) {
                String tag = ((Element) node).normalName();
                if (tag.equals("ul") || tag.equals("ol")) {
                    flush();
                    listDepth--;
                    if (listDepth == 0) {
                        out.blank();
                    }
                } else if (tag.equals("li")) {
                    endBlock();
                } else if (tag.equals("dt")) {
                    term = SectionedLines.oneLine(line.toString());
                    line.setLength(0);
                    lead = "";
                } else if (tag.equals("dl")) {
                    writeTerm();
                    endBlock();
                    out.blank();
                } else if (BLOCKS.contains(tag) || tag.equals("table")) {
                    flush();
                    out.blank();
                }
            }
            return FilterResult.CONTINUE;
        }

        private void append(String text) {
            if (text.isBlank()) {
                if (line.length() > 0 && line.charAt(line.length() - 1) != ' ') {
                    line.append(' ');
                }
                return;
            }
            if (line.length() > 0 && line.charAt(line.length() - 1) != ' ' && Character.isWhitespace(text.charAt(0))) {
                line.append(' ');
            }
            line.append(SectionedLines.oneLine(text));
            if (Character.isWhitespace(text.charAt(text.length() - 1))) {
                line.append(' ');
            }
        }

        /**
         * Ends the current line: written when it holds text beyond its lead (keeping a list's indent); a line holding
         * only its lead keeps it for the text to come ({@code <li><p>text</p></li>} reads "- text").
         */
        void flush() {
            String text = line.toString().stripTrailing();
            String content = text.strip();
            if (!lead.isEmpty() && content.equals(lead.strip())) {
                return;
            }
            line.setLength(0);
            lead = "";
            if (!content.isEmpty()) {
                out.paragraph(text);
            }
        }

        /** Ends the current block: its line written, a lead without text dropped. */
        void endBlock() {
            flush();
            line.setLength(0);
            lead = "";
        }

        /** Starts a line with a lead: a list item's marker, a definition's term. */
        void lead(String text) {
            line.append(text);
            lead = text;
        }

        /** Writes a term still waiting for its definition as a line of its own. */
        void writeTerm() {
            if (!term.isEmpty()) {
                out.paragraph(term);
                term = "";
            }
        }
    }
}
