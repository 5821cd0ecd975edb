package dev.ragkit.parse;

import dev.ragkit.internal.DocumentFiles;
import dev.ragkit.error.IngestException;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;
import org.commonmark.node.AbstractVisitor;
import org.commonmark.node.Code;
import org.commonmark.node.Document;
import org.commonmark.node.HardLineBreak;
import org.commonmark.node.Heading;
import org.commonmark.node.HtmlInline;
import org.commonmark.node.Image;
import org.commonmark.node.Link;
import org.commonmark.node.Node;
import org.commonmark.node.SoftLineBreak;
import org.commonmark.node.SourceSpan;
import org.commonmark.node.Text;
import org.commonmark.parser.IncludeSourceSpans;
import org.commonmark.parser.Parser;
import org.jspecify.annotations.Nullable;

/**
 * Reads a markdown document into a {@link ParsedDocument}: YAML front matter, title, local links and the heading
 * path of every line. The {@link DocumentParser} with id {@code markdown} ({@code .md}, {@code .markdown}).
 * Thread-safe and stateless; one instance can serve any number of threads.
 *
 * <h2>Lines</h2>
 * A leading byte order mark (U+FEFF) is removed. Lines end at {@code \n}, {@code \r\n} or {@code \r}; terminators
 * are not kept, and a terminator at the very end of the file does not start another line ({@code "a\n"} is one
 * line, {@code "a\n\n"} two, the empty string none).
 *
 * <h2>Front matter</h2>
 * When the first line is {@code ---} (trailing blanks allowed), the lines up to the next {@code ---} or
 * {@code ...} line are YAML, read with a real YAML parser. It must be a mapping (or empty). Known keys:
 * <ul>
 *   <li>{@code title}, {@code doc_type}, {@code owner}, {@code summary}: scalars, kept as written and stripped; a
 *       blank value counts as absent;</li>
 *   <li>{@code promotion_level}: {@code standard}, {@code important} or {@code critical}, any letter case
 *       (default standard);</li>
 *   <li>{@code date}: {@code YYYY-MM-DD} (plain or quoted);</li>
 *   <li>{@code tags}: the access tags, as a list of scalars or one comma-separated string.</li>
 * </ul>
 * Every other key goes to {@link ParsedDocument#metadata()}: a scalar as the text written in the file (no YAML 1.1
 * guessing: {@code 0012} stays {@code 0012}, {@code yes} stays {@code yes}), a list or mapping as compact JSON in
 * which JSON-compatible numbers and {@code true}/{@code false} keep their type and every other scalar is a string.
 * Keys with a null value ({@code key:} or {@code key: ~}) are left out. Keys are case-sensitive and duplicates are
 * an error.
 *
 * <h2>Title</h2>
 * The front matter's {@code title}, else the text of the first level-1 heading ({@code # Title} or a setext
 * {@code ===} heading), else the file name without its extension.
 *
 * <h2>Links</h2>
 * Inline links and used reference links found by a CommonMark parse of the body, resolved as
 * {@link DocumentPaths.Links} says (local documents only, normalised, never leaving the root). Also ignored: images,
 * links in code spans and code blocks (CommonMark does not parse them), links inside raw HTML and autolinks. The
 * target need not exist or be markdown: the indexer decides what it can follow.
 *
 * <h2>Sections</h2>
 * Headings found by the CommonMark parse (so {@code # x} inside a code block is no heading) set the heading path:
 * a heading of level {@code n} replaces the level-{@code n} entry and clears deeper ones; the path joins the
 * remaining texts with {@code " > "}. Only top-level headings count (not those inside block quotes or list items),
 * and headings whose plain text is empty are ignored. A heading's text is its plain text: emphasis and code
 * markers removed, line breaks and runs of white space as one space.
 *
 * <h2>Errors</h2>
 * Malformed markdown never fails. Invalid front matter fails with an {@link IngestException} naming the file and
 * the line in the file (YAML positions are translated: the front matter's first line is the file's line 2).
 */
public final class MarkdownDocumentParser implements DocumentParser {

    private static final Pattern WHITE_SPACE = Pattern.compile("\\s+");

    private final Parser markdown = Parser.builder().includeSourceSpans(IncludeSourceSpans.BLOCKS).build();

    /** Creates a parser. It has no options. */
    public MarkdownDocumentParser() {
        // nothing to configure
    }

    @Override
    public String id() {
        return "markdown";
    }

    @Override
    public Set<String> extensions() {
        return Set.of("md", "markdown");
    }

    @Override
    public ParsedDocument parse(DocumentSource source) {
        Objects.requireNonNull(source, "source");
        return parseNormalised(source.path(), source.text());
    }

    /**
     * Parses a document held in memory.
     *
     * @param path    the document's path relative to the document root, with {@code /} separators; {@code ./}
     *                and {@code a/../} parts are normalised away
     * @param content the document's text
     * @return the parsed document, whose {@code path} is the normalised path
     * @throws IllegalArgumentException when {@code path} is blank, absolute, contains {@code \}, names the root
     *                                  itself or climbs above it
     * @throws IngestException          when the front matter is invalid; the message names the path and line
     */
    public ParsedDocument parse(String path, String content) {
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(content, "content");
        return parseNormalised(DocumentPaths.normalise(path), content);
    }

    /**
     * Reads a file as UTF-8 and parses it. The document's path is the file's path relative to {@code root}.
     * A relative {@code file} is taken relative to the working directory, like any {@link Path} (so the paths
     * that {@code Files.walk(root)} returns can be passed as they are).
     *
     * @param root the document root
     * @param file a file under {@code root}
     * @return the parsed document
     * @throws IngestException when the file is not under {@code root} (also after following symbolic links),
     *                         cannot be read, is larger than {@link #maxBytes()}, is not valid UTF-8, or has invalid
     *                         front matter
     */
    public ParsedDocument parse(Path root, Path file) {
        Objects.requireNonNull(root, "root");
        Objects.requireNonNull(file, "file");
        Path absoluteRoot = root.toAbsolutePath().normalize();
        Path absoluteFile = file.toAbsolutePath().normalize();
        if (!absoluteFile.startsWith(absoluteRoot) || absoluteFile.equals(absoluteRoot)) {
            throw new IngestException(file.toString(), 0,
                    "the file is not inside the document root " + root + "; pass a file under the root", null);
        }
        StringBuilder relative = new StringBuilder();
        for (Path name : absoluteRoot.relativize(absoluteFile)) {
            relative.append(relative.length() == 0 ? "" : "/").append(name);
        }
        String path;
        try {
            path = DocumentPaths.normalise(relative.toString());
        } catch (IllegalArgumentException e) {
            throw new IngestException(file.toString(), 0, e.getMessage(), e);
        }
        byte[] bytes;
        try {
            Path realRoot = absoluteRoot.toRealPath();
            Path realFile = absoluteFile.toRealPath();
            if (!realFile.startsWith(realRoot)) {
                throw new IngestException(path, 0, "the file resolves to " + realFile
                        + ", outside the document root " + realRoot + "; remove the symbolic link or move the file",
                        null);
            }
            bytes = DocumentFiles.read(realFile, maxBytes());
        } catch (NoSuchFileException e) {
            throw new IngestException(path, 0, "the file does not exist: " + e.getFile(), e);
        } catch (IOException e) {
            throw new IngestException(path, 0, "the file cannot be read: " + e, e);
        }
        if (bytes == null) {
            throw new IngestException(path, 0, "the file is larger than " + maxBytes() + " bytes", null);
        }
        return parse(DocumentSource.of(path, bytes));
    }

    // ---------------------------------------------------------------------------------------------------------
    // The document

    private ParsedDocument parseNormalised(String path, String content) {
        String text = !content.isEmpty() && content.charAt(0) == '\uFEFF' ? content.substring(1) : content;
        List<String> lines = DocumentSource.lines(text);

        FrontMatter frontMatter = new FrontMatter();
        int firstBodyLine = 1;
        if (!lines.isEmpty() && isFence(lines.get(0), "---")) {
            int closing = -1;
            for (int i = 1; i < lines.size(); i++) {
                if (isFence(lines.get(i), "---") || isFence(lines.get(i), "...")) {
                    closing = i;
                    break;
                }
            }
            if (closing < 0) {
                throw new IngestException(path, 1, "the front matter opened by '---' is never closed; add a line"
                        + " '---' after it (or, if this is not front matter, start the file with something else)",
                        null);
            }
            frontMatter = FrontMatter.read(path, String.join("\n", lines.subList(1, closing)), closing + 1);
            firstBodyLine = closing + 2;
        }
        String body = firstBodyLine > lines.size() ? "" : String.join("\n",
                lines.subList(firstBodyLine - 1, lines.size()));

        Node root = markdown.parse(body);
        BodyVisitor visitor = new BodyVisitor(path);
        root.accept(visitor);

        List<@Nullable String> sections = new ArrayList<>(Arrays.asList(new String[lines.size()]));
        List<HeadingMark> headings = visitor.headings;
        for (int h = 0; h < headings.size(); h++) {
            int from = firstBodyLine - 1 + headings.get(h).bodyLine;
            int to = h + 1 < headings.size() ? firstBodyLine - 1 + headings.get(h + 1).bodyLine : lines.size();
            for (int i = Math.max(from, 0); i < Math.min(to, lines.size()); i++) {
                sections.set(i, headings.get(h).path);
            }
        }

        String title = frontMatter.title != null ? frontMatter.title
                : visitor.firstTitle != null ? visitor.firstTitle
                : DocumentPaths.baseName(path);
        return new ParsedDocument(path, title, frontMatter.docType, frontMatter.promotionLevel, frontMatter.date,
                frontMatter.tags, frontMatter.owner, frontMatter.summary, frontMatter.metadata,
                visitor.links.links(), visitor.links.dropped(), lines, firstBodyLine, sections);
    }

    private static boolean isFence(String line, String fence) {
        return line.startsWith(fence) && line.substring(fence.length()).isBlank();
    }

    // ---------------------------------------------------------------------------------------------------------
    // Body: headings and links

    private static final class HeadingMark {
        final int bodyLine;
        final String path;

        HeadingMark(int bodyLine, String path) {
            this.bodyLine = bodyLine;
            this.path = path;
        }
    }

    private static final class BodyVisitor extends AbstractVisitor {
        private final String[] levels = new String[7];
        final List<HeadingMark> headings = new ArrayList<>();
        final DocumentPaths.Links links;
        @Nullable String firstTitle;

        BodyVisitor(String documentPath) {
            this.links = new DocumentPaths.Links(documentPath);
        }

        @Override
        public void visit(Heading heading) {
            List<SourceSpan> spans = heading.getSourceSpans();
            String text = WHITE_SPACE.matcher(plainText(heading)).replaceAll(" ").strip();
            if (heading.getParent() instanceof Document) {
                if (!text.isEmpty() && !spans.isEmpty()) {
                    int level = Math.max(1, Math.min(6, heading.getLevel()));
                    levels[level] = text;
                    Arrays.fill(levels, level + 1, levels.length, null);
                    StringBuilder path = new StringBuilder();
                    for (int i = 1; i < levels.length; i++) {
                        if (levels[i] != null) {
                            path.append(path.length() == 0 ? "" : " > ").append(levels[i]);
                        }
                    }
                    headings.add(new HeadingMark(spans.get(0).getLineIndex(), path.toString()));
                    if (level == 1 && firstTitle == null) {
                        firstTitle = text;
                    }
                }
            }
            visitChildren(heading); // headings may hold links
        }

        @Override
        public void visit(Image image) {
            // an image is not a link, and links inside its description are only alt text
        }

        @Override
        public void visit(Link link) {
            links.add(link.getDestination());
            visitChildren(link);
        }
    }

    /** The heading's plain text: literal text and code, line breaks as spaces, no HTML. */
    private static String plainText(Node node) {
        StringBuilder text = new StringBuilder();
        Deque<Node> stack = new ArrayDeque<>();
        for (Node child = node.getLastChild(); child != null; child = child.getPrevious()) {
            stack.push(child);
        }
        while (!stack.isEmpty()) {
            Node current = stack.pop();
            if (current instanceof Text) {
                text.append(((Text) current).getLiteral());
            } else if (current instanceof Code) {
                text.append(((Code) current).getLiteral());
            } else if (current instanceof SoftLineBreak || current instanceof HardLineBreak) {
                text.append(' ');
            } else if (!(current instanceof HtmlInline)) {
                for (Node child = current.getLastChild(); child != null; child = child.getPrevious()) {
                    stack.push(child);
                }
            }
        }
        return text.toString();
    }
}
