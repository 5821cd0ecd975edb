package dev.ragkit.ingest;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.POJONode;
import com.fasterxml.jackson.databind.util.RawValue;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLParser;
import dev.ragkit.error.IngestException;
import dev.ragkit.store.PromotionLevel;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.regex.Matcher;
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
 * path of every line. Thread-safe and stateless; one instance can serve any number of threads.
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
 * Inline links and used reference links found by a CommonMark parse of the body. Ignored: images, links in code
 * spans and code blocks (CommonMark does not parse them), links inside raw HTML, empty destinations, pure
 * {@code #anchor} links, anything with a URL scheme ({@code https:}, {@code mailto:}, …) or starting with
 * {@code //}, and autolinks. From a local link the {@code #fragment} and {@code ?query} are cut, the rest is
 * percent-decoded (as UTF-8; left as it is if that is not valid), then resolved against the linking document's
 * folder (or against the root when it starts with {@code /}) and normalised. A link that would climb above the
 * root is dropped and counted in {@link ParsedDocument#droppedLinks()}. A link to the document itself and a link
 * to the root folder are left out without being counted. The target need not exist or be markdown: the indexer
 * decides what it can follow.
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
public final class MarkdownDocumentParser {

    private static final Pattern URL_SCHEME = Pattern.compile("^[A-Za-z][A-Za-z0-9+.-]*:");
    private static final Pattern WINDOWS_DRIVE = Pattern.compile("^[A-Za-z]:");
    private static final Pattern JSON_NUMBER = Pattern.compile("-?(0|[1-9][0-9]*)(\\.[0-9]+)?([eE][+-]?[0-9]+)?");
    private static final Pattern YAML_MARK = Pattern.compile("in 'reader', line (\\d+), column \\d+");
    private static final Pattern WHITE_SPACE = Pattern.compile("\\s+");
    private static final Set<String> KNOWN_KEYS =
            Set.of("title", "doc_type", "promotion_level", "date", "tags", "owner", "summary");

    private final YAMLFactory yaml = YAMLFactory.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .enable(YAMLParser.Feature.EMPTY_STRING_AS_NULL) // "key:" is null; "key: ''" stays an empty string
            .build();
    private final ObjectMapper json = new ObjectMapper();
    private final Parser markdown = Parser.builder().includeSourceSpans(IncludeSourceSpans.BLOCKS).build();

    /** Creates a parser. It has no options. */
    public MarkdownDocumentParser() {
        // nothing to configure
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
        return parseNormalised(normaliseDocumentPath(path), content);
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
     *                         cannot be read, is not valid UTF-8, or has invalid front matter
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
            path = normaliseDocumentPath(relative.toString());
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
            bytes = Files.readAllBytes(realFile);
        } catch (NoSuchFileException e) {
            throw new IngestException(path, 0, "the file does not exist: " + e.getFile(), e);
        } catch (IOException e) {
            throw new IngestException(path, 0, "the file cannot be read: " + e, e);
        }
        return parseNormalised(path, decodeUtf8(path, bytes));
    }

    // ---------------------------------------------------------------------------------------------------------
    // Paths

    /** Normalises a root-relative document path, or throws IllegalArgumentException saying what is wrong. */
    static String normaliseDocumentPath(String path) {
        if (path.isBlank()) {
            throw new IllegalArgumentException("path must not be blank");
        }
        if (path.indexOf('\\') >= 0) {
            throw new IllegalArgumentException("path '" + path + "' contains '\\'; use '/' as the separator");
        }
        if (path.startsWith("/") || WINDOWS_DRIVE.matcher(path).find()) {
            throw new IllegalArgumentException(
                    "path '" + path + "' is absolute; pass it relative to the document root");
        }
        List<String> segments = new ArrayList<>();
        if (!resolveSegments(segments, path)) {
            throw new IllegalArgumentException("path '" + path + "' climbs above the document root");
        }
        if (segments.isEmpty()) {
            throw new IllegalArgumentException("path '" + path + "' names the document root, not a file");
        }
        return String.join("/", segments);
    }

    /**
     * Applies the segments of {@code path} to {@code segments}: empty and {@code .} segments are skipped and
     * {@code ..} removes the last one.
     *
     * @return false when a {@code ..} has nothing left to remove
     */
    private static boolean resolveSegments(List<String> segments, String path) {
        int start = 0;
        int length = path.length();
        while (start <= length) {
            int end = path.indexOf('/', start);
            if (end < 0) {
                end = length;
            }
            String segment = path.substring(start, end);
            if (segment.equals("..")) {
                if (segments.isEmpty()) {
                    return false;
                }
                segments.remove(segments.size() - 1);
            } else if (!segment.isEmpty() && !segment.equals(".")) {
                segments.add(segment);
            }
            start = end + 1;
        }
        return true;
    }

    // ---------------------------------------------------------------------------------------------------------
    // Reading

    /** Decodes strict UTF-8, naming the line of the first bad byte. Shared with {@link Indexer}. */
    static String decodeUtf8(String path, byte[] bytes) {
        CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        ByteBuffer in = ByteBuffer.wrap(bytes);
        CharBuffer out = CharBuffer.allocate(bytes.length);
        CoderResult result = decoder.decode(in, out, true);
        if (!result.isError()) {
            result = decoder.flush(out);
        }
        if (result.isError()) {
            int offset = in.position();
            throw new IngestException(path, lineAtByte(bytes, offset),
                    "the file is not valid UTF-8 (byte offset " + offset + "); save it as UTF-8", null);
        }
        out.flip();
        return out.toString();
    }

    /** The 1-based line of a byte offset. Shared with {@link Indexer}. */
    static int lineAtByte(byte[] bytes, int offset) {
        int line = 1;
        for (int i = 0; i < offset && i < bytes.length; i++) {
            if (bytes[i] == '\n' || (bytes[i] == '\r' && (i + 1 >= bytes.length || bytes[i + 1] != '\n'))) {
                line++;
            }
        }
        return line;
    }

    // ---------------------------------------------------------------------------------------------------------
    // The document

    private ParsedDocument parseNormalised(String path, String content) {
        String text = !content.isEmpty() && content.charAt(0) == '\uFEFF' ? content.substring(1) : content;
        List<String> lines = new ArrayList<>();
        int[] starts = splitLines(text, lines);

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
            frontMatter = readFrontMatter(path, String.join("\n", lines.subList(1, closing)), closing + 1);
            firstBodyLine = closing + 2;
        }
        String body = firstBodyLine > lines.size() ? "" : text.substring(starts[firstBodyLine - 1]);

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
                : fileNameWithoutExtension(path);
        return new ParsedDocument(path, title, frontMatter.docType, frontMatter.promotionLevel, frontMatter.date,
                frontMatter.tags, frontMatter.owner, frontMatter.summary, frontMatter.metadata,
                new ArrayList<>(visitor.links), visitor.dropped, lines, firstBodyLine, sections);
    }

    /** Splits on \n, \r\n and \r, filling {@code lines}; returns each line's start offset. */
    private static int[] splitLines(String text, List<String> lines) {
        int[] starts = new int[16];
        int count = 0;
        int start = 0;
        int length = text.length();
        for (int i = 0; i < length; i++) {
            char c = text.charAt(i);
            if (c == '\n' || c == '\r') {
                if (count == starts.length) {
                    starts = Arrays.copyOf(starts, count * 2);
                }
                starts[count++] = start;
                lines.add(text.substring(start, i));
                if (c == '\r' && i + 1 < length && text.charAt(i + 1) == '\n') {
                    i++;
                }
                start = i + 1;
            }
        }
        if (start < length) {
            if (count == starts.length) {
                starts = Arrays.copyOf(starts, count + 1);
            }
            starts[count++] = start;
            lines.add(text.substring(start));
        }
        return starts;
    }

    private static boolean isFence(String line, String fence) {
        return line.startsWith(fence) && line.substring(fence.length()).isBlank();
    }

    private static String fileNameWithoutExtension(String path) {
        String name = path.substring(path.lastIndexOf('/') + 1);
        int dot = name.lastIndexOf('.');
        return dot > 0 ? name.substring(0, dot) : name;
    }

    // ---------------------------------------------------------------------------------------------------------
    // Front matter

    private static final class FrontMatter {
        @Nullable String title;
        @Nullable String docType;
        PromotionLevel promotionLevel = PromotionLevel.STANDARD;
        @Nullable LocalDate date;
        SortedSet<String> tags = new TreeSet<>();
        @Nullable String owner;
        @Nullable String summary;
        Map<String, String> metadata = new LinkedHashMap<>();
    }

    /**
     * Reads the YAML between the fences.
     *
     * @param closingLine the file line (1-based) of the closing fence; YAML line {@code n} is file line
     *                    {@code n + 1}
     */
    private FrontMatter readFrontMatter(String path, String yamlText, int closingLine) {
        ObjectNode fields = JsonNodeFactory.instance.objectNode();
        Map<String, Integer> keyLines = new HashMap<>();
        try (JsonParser parser = yaml.createParser(yamlText)) {
            JsonToken first = parser.nextToken();
            if (first == null || first == JsonToken.VALUE_NULL) {
                return new FrontMatter();
            }
            if (first != JsonToken.START_OBJECT) {
                throw new IngestException(path, fileLine(parser.currentTokenLocation(), closingLine),
                        "the front matter must be a mapping of 'key: value' lines, found "
                        + describe(first), null);
            }
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                String key = parser.currentName();
                keyLines.put(key, fileLine(parser.currentTokenLocation(), closingLine));
                parser.nextToken();
                fields.set(key, readValue(parser));
            }
        } catch (AliasException e) {
            throw new IngestException(path, fileLine(e.location, closingLine), "the front matter uses the YAML alias '*"
                    + e.name + "', which is not supported; write the value out in full instead of an anchor (&"
                    + e.name + ") and an alias", null);
        } catch (JsonProcessingException e) {
            throw new IngestException(path, yamlErrorLine(e, closingLine),
                    "invalid YAML in the front matter: " + yamlProblem(e.getOriginalMessage()), e);
        } catch (IOException | RuntimeException e) {
            if (e instanceof IngestException) {
                throw (IngestException) e;
            }
            throw new IngestException(path, 1, "the front matter cannot be read as YAML: " + e.getMessage(), e);
        }

        FrontMatter result = new FrontMatter();
        result.title = text(path, fields, keyLines, "title");
        result.docType = text(path, fields, keyLines, "doc_type");
        result.owner = text(path, fields, keyLines, "owner");
        result.summary = text(path, fields, keyLines, "summary");
        String level = text(path, fields, keyLines, "promotion_level");
        if (level != null) {
            try {
                result.promotionLevel = PromotionLevel.parse(level);
            } catch (IllegalArgumentException e) {
                throw new IngestException(path, keyLine(keyLines, "promotion_level"),
                        "front matter promotion_level: " + e.getMessage(), e);
            }
        }
        String date = text(path, fields, keyLines, "date");
        if (date != null) {
            try {
                result.date = LocalDate.parse(date);
            } catch (DateTimeParseException e) {
                throw new IngestException(path, keyLine(keyLines, "date"), "front matter date '" + date
                        + "' is not a valid date; write it as YYYY-MM-DD, e.g. 2024-05-31", e);
            }
        }
        result.tags = tags(path, fields, keyLines);
        for (Map.Entry<String, JsonNode> field : fields.properties()) {
            JsonNode value = field.getValue();
            if (KNOWN_KEYS.contains(field.getKey()) || value.isNull()) {
                continue;
            }
            result.metadata.put(field.getKey(), value.isContainerNode() ? writeJson(value) : scalarText(value));
        }
        return result;
    }

    /**
     * Reads the value at the parser's current token. Scalars become text nodes holding the text as written,
     * except JSON-compatible numbers (raw JSON, unchanged) and {@code true}/{@code false}.
     */
    private static JsonNode readValue(JsonParser parser) throws IOException {
        JsonNodeFactory nodes = JsonNodeFactory.instance;
        JsonToken token = parser.currentToken();
        if (parser instanceof YAMLParser && ((YAMLParser) parser).isCurrentAlias()) {
            // Jackson reports an alias (*name) as a scalar holding the anchor's name: never let that be a value
            throw new AliasException(parser.currentTokenLocation(), parser.getText());
        }
        if (token == JsonToken.START_OBJECT) {
            ObjectNode object = nodes.objectNode();
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                String key = parser.currentName();
                parser.nextToken();
                object.set(key, readValue(parser));
            }
            return object;
        }
        if (token == JsonToken.START_ARRAY) {
            ArrayNode array = nodes.arrayNode();
            while (parser.nextToken() != JsonToken.END_ARRAY) {
                array.add(readValue(parser));
            }
            return array;
        }
        if (token == JsonToken.VALUE_NULL) {
            return nodes.nullNode();
        }
        String text = parser.getText();
        if ((token == JsonToken.VALUE_NUMBER_INT || token == JsonToken.VALUE_NUMBER_FLOAT)
                && JSON_NUMBER.matcher(text).matches()) {
            return nodes.rawValueNode(new RawValue(text));
        }
        if ((token == JsonToken.VALUE_TRUE && text.equals("true"))
                || (token == JsonToken.VALUE_FALSE && text.equals("false"))) {
            return nodes.booleanNode(token == JsonToken.VALUE_TRUE);
        }
        return nodes.textNode(text);
    }

    /** A YAML alias in the front matter, with where it is and the anchor it names. */
    private static final class AliasException extends RuntimeException {
        private static final long serialVersionUID = 1L;
        final transient JsonLocation location;
        final String name;

        AliasException(JsonLocation location, String name) {
            super("YAML alias *" + name, null, false, false);
            this.location = location;
            this.name = name;
        }
    }

    /** A scalar field as stripped text, or null when absent, null or blank. */
    private static @Nullable String text(String path, ObjectNode fields, Map<String, Integer> keyLines,
            String key) {
        JsonNode value = fields.get(key);
        if (value == null || value.isNull()) {
            return null;
        }
        if (value.isContainerNode()) {
            throw new IngestException(path, keyLine(keyLines, key), "front matter " + key
                    + " must be a single value, found " + (value.isArray() ? "a list" : "a mapping")
                    + "; write it as '" + key + ": <value>'", null);
        }
        String text = scalarText(value).strip();
        return text.isEmpty() ? null : text;
    }

    private static SortedSet<String> tags(String path, ObjectNode fields, Map<String, Integer> keyLines) {
        SortedSet<String> tags = new TreeSet<>();
        JsonNode value = fields.get("tags");
        if (value == null || value.isNull()) {
            return tags;
        }
        if (value.isObject()) {
            throw new IngestException(path, keyLine(keyLines, "tags"), "front matter tags must be a list of"
                    + " tags or a comma-separated string, found a mapping; write e.g. 'tags: [hr, finance]'", null);
        }
        if (value.isArray()) {
            for (JsonNode element : value) {
                if (element.isContainerNode()) {
                    throw new IngestException(path, keyLine(keyLines, "tags"),
                            "front matter tags must be a list of plain tags, found a nested list or mapping;"
                                    + " write e.g. 'tags: [hr, finance]'", null);
                }
                if (!element.isNull()) {
                    addTags(tags, scalarText(element));
                }
            }
        } else {
            addTags(tags, scalarText(value));
        }
        return tags;
    }

    /** Adds the comma-separated, stripped, non-empty parts of {@code text}. */
    private static void addTags(Set<String> tags, String text) {
        for (String tag : text.split(",")) {
            String stripped = tag.strip();
            if (!stripped.isEmpty()) {
                tags.add(stripped);
            }
        }
    }

    /** The text of a scalar node as {@link #readValue} made it. */
    private static String scalarText(JsonNode value) {
        if (value.isPojo() && ((POJONode) value).getPojo() instanceof RawValue) {
            return String.valueOf(((RawValue) ((POJONode) value).getPojo()).rawValue());
        }
        return value.asText();
    }

    private static int keyLine(Map<String, Integer> keyLines, String key) {
        return keyLines.getOrDefault(key, 1);
    }

    private String writeJson(JsonNode value) {
        try {
            return json.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a YAML value could not be written as JSON", e);
        }
    }

    /** The file line of a YAML location (front matter starts at file line 2), kept within the front matter. */
    private static int fileLine(@Nullable JsonLocation location, int closingLine) {
        if (location == null || location.getLineNr() < 1) {
            return 1;
        }
        return Math.min(location.getLineNr() + 1, closingLine);
    }

    /**
     * The file line of a YAML error: the YAML parser's problem position (the last position its message gives),
     * which is more exact than the location of the last token read, which Jackson reports.
     */
    private static int yamlErrorLine(JsonProcessingException e, int closingLine) {
        Matcher mark = YAML_MARK.matcher(e.getOriginalMessage());
        int yamlLine = 0;
        while (mark.find()) {
            yamlLine = Integer.parseInt(mark.group(1));
        }
        if (yamlLine < 1) {
            return fileLine(e.getLocation(), closingLine);
        }
        return Math.min(yamlLine + 1, closingLine);
    }

    private static String describe(JsonToken token) {
        switch (token) {
            case START_ARRAY:
                return "a list";
            default:
                return "a single value";
        }
    }

    /**
     * The YAML parser's message without its position notes ("in 'reader', line 2, column 4:" and the quoted line
     * with a caret below it), which count lines from the start of the front matter, not of the file.
     */
    private static String yamlProblem(String message) {
        List<String> kept = new ArrayList<>();
        String[] parts = message.split("\\R");
        for (int i = 0; i < parts.length; i++) {
            String part = parts[i].strip();
            if (part.startsWith("in 'reader'")) {
                i += 2; // skip the quoted line and the caret
            } else if (!part.isEmpty()) {
                kept.add(part);
            }
        }
        return kept.isEmpty() ? message.strip() : String.join("; ", kept);
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
        private final String documentPath;
        private final List<String> folder;
        private final String[] levels = new String[7];
        final List<HeadingMark> headings = new ArrayList<>();
        final Set<String> links = new LinkedHashSet<>();
        int dropped;
        @Nullable String firstTitle;

        BodyVisitor(String documentPath) {
            this.documentPath = documentPath;
            int slash = documentPath.lastIndexOf('/');
            this.folder = slash < 0 ? List.of() : List.of(documentPath.substring(0, slash).split("/"));
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
            addLink(link.getDestination());
            visitChildren(link);
        }

        private void addLink(String destination) {
            if (destination.isEmpty() || destination.startsWith("#") || destination.startsWith("//")
                    || URL_SCHEME.matcher(destination).find()) {
                return;
            }
            String target = destination;
            int cut = target.indexOf('#');
            if (cut >= 0) {
                target = target.substring(0, cut);
            }
            cut = target.indexOf('?');
            if (cut >= 0) {
                target = target.substring(0, cut);
            }
            if (target.isEmpty()) {
                return; // "?query" alone: this document
            }
            target = percentDecode(target);
            List<String> segments = new ArrayList<>(target.startsWith("/") ? List.of() : folder);
            if (!resolveSegments(segments, target)) {
                dropped++;
                return;
            }
            if (segments.isEmpty()) {
                return; // the root folder, not a document
            }
            String resolved = String.join("/", segments);
            if (!resolved.equals(documentPath)) {
                links.add(resolved);
            }
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

    /** Decodes %XX escapes as UTF-8; returns the text unchanged when it has none or they are not valid UTF-8. */
    static String percentDecode(String text) {
        if (text.indexOf('%') < 0) {
            return text;
        }
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        ByteArrayOutputStream out = new ByteArrayOutputStream(bytes.length);
        for (int i = 0; i < bytes.length; i++) {
            int high;
            int low;
            if (bytes[i] == '%' && i + 2 < bytes.length
                    && (high = Character.digit(bytes[i + 1], 16)) >= 0
                    && (low = Character.digit(bytes[i + 2], 16)) >= 0) {
                out.write(high * 16 + low);
                i += 2;
            } else {
                out.write(bytes[i]);
            }
        }
        try {
            return StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(out.toByteArray()))
                    .toString();
        } catch (CharacterCodingException e) {
            return text;
        }
    }
}
