package dev.ragkit.parse;

import dev.ragkit.internal.CodeLanguages;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * Source code and configuration files: lines unchanged, and the section of each line is the type and function that
 * enclose it ({@code Indexer > index}), found cheaply — by braces for C-like languages, by indentation for Python
 * and Ruby, by top-level keys for YAML and JSON, by statements for SQL. No compiler is run: a construct the
 * heuristics miss only leaves its lines in the enclosing section. Since the chunker prefers to end a chunk where the
 * section changes, chunks end between top-level declarations where they can. The title is the file name; the
 * document type is {@code code} and the metadata holds {@code language}. The {@link DocumentParser} with id
 * {@code code}. Stateless and thread-safe.
 */
public final class CodeDocumentParser implements DocumentParser {

    /** How sections are found in a language. */
    private enum Style { BRACES, INDENTATION, YAML, JSON, SQL, NONE }

    private static final Pattern TYPE = Pattern.compile("\\b(?:class|interface|enum|record|struct|trait|object|"
            + "module|namespace|protocol|extension|union)\\s+([A-Za-z_$][\\w$]*)");
    private static final Pattern IMPL = Pattern.compile("^\\s*impl\\b(?:<[^>]*>)?\\s+([^{]+?)\\s*\\{?\\s*$");
    private static final Pattern FUNCTION_KEYWORD = Pattern.compile(
            "\\b(?:fn|func|function|def|fun|sub)\\s+(?:\\([^)]*\\)\\s*)?([A-Za-z_$][\\w$]*)");
    private static final Pattern METHOD = Pattern.compile("^\\s*(?:[\\w$@<>\\[\\],.?:*&]+\\s+)+"
            + "([A-Za-z_$][\\w$]*)\\s*\\([^;{]*(?:\\{.*)?$");
    private static final Pattern ARROW = Pattern.compile(
            "^\\s*(?:export\\s+)?(?:const|let|var)\\s+([A-Za-z_$][\\w$]*)\\s*=\\s*(?:async\\s*)?\\(?[^=;]*=>");
    private static final Pattern SHELL_FUNCTION = Pattern.compile(
            "^\\s*(?:function\\s+)?([A-Za-z_][\\w-]*)\\s*\\(\\s*\\)\\s*\\{?\\s*$");
    private static final Pattern PY_DECLARATION = Pattern.compile(
            "^(\\s*)(?:async\\s+)?(?:def|class|module)\\s+([A-Za-z_][\\w.]*(?:::[A-Za-z_]\\w*)*)");
    private static final Pattern YAML_KEY = Pattern.compile("^([A-Za-z0-9_\"'][^:#]*?)\\s*:(?:\\s|$)");
    private static final Pattern JSON_KEY = Pattern.compile("^\\s*\"((?:[^\"\\\\]|\\\\.)*)\"\\s*:");
    private static final Pattern SQL_STATEMENT = Pattern.compile("(?i)^\\s*(create|alter|drop)\\s+(?:or\\s+replace"
            + "\\s+)?(?:temporary\\s+)?(table|view|function|procedure|index|trigger|type|schema|sequence)\\s+"
            + "(?:if\\s+(?:not\\s+)?exists\\s+)?([\\w.\"`\\[\\]]+)");
    private static final Set<String> NOT_NAMES = Set.of("if", "for", "while", "switch", "catch", "return", "new",
            "else", "synchronized", "try", "do", "when", "match", "foreach", "using", "lock", "with", "elif",
            "throw", "sizeof", "typeof", "assert", "super", "this");

    /** Creates the parser. */
    public CodeDocumentParser() {
        // nothing to configure
    }

    @Override
    public String id() {
        return "code";
    }

    @Override
    public Set<String> extensions() {
        return CodeLanguages.extensions();
    }

    @Override
    public ParsedDocument parse(DocumentSource source) {
        Objects.requireNonNull(source, "source");
        List<String> lines = DocumentSource.lines(source.text());
        String extension = DocumentPaths.extension(source.path());
        String language = CodeLanguages.ofExtension(extension);
        language = language == null ? extension : language;
        String name = source.path().substring(source.path().lastIndexOf('/') + 1);
        return ParsedDocument.builder(source.path()).title(name).docType("code")
                .metadata(Map.of("language", language)).lines(lines).sections(sections(lines, style(language)))
                .build();
    }

    private static Style style(String language) {
        switch (language) {
            case "python":
            case "ruby":
                return Style.INDENTATION;
            case "yaml":
                return Style.YAML;
            case "json":
                return Style.JSON;
            case "sql":
                return Style.SQL;
            case "xml":
            case "toml":
            case "properties":
            case "ini":
                return Style.NONE;
            default:
                return Style.BRACES;
        }
    }

    static List<@Nullable String> sections(List<String> lines, Style style) {
        switch (style) {
            case BRACES:
                return braceSections(lines);
            case INDENTATION:
                return indentSections(lines);
            case YAML:
                return keySections(lines, true);
            case JSON:
                return keySections(lines, false);
            case SQL:
                return sqlSections(lines);
            case NONE:
            default:
                List<@Nullable String> none = new ArrayList<>();
                lines.forEach(l -> none.add(null));
                return none;
        }
    }

    /** A named block: the name, and the brace depth (or indentation) it was opened at. */
    private record Block(String name, int level) {
    }

    private static List<@Nullable String> braceSections(List<String> lines) {
        List<@Nullable String> sections = new ArrayList<>(lines.size());
        Deque<Block> open = new ArrayDeque<>();
        BraceCounter braces = new BraceCounter();
        String pending = null;            // a declaration whose '{' has not come yet (next line style)
        int pendingAt = -1;               // the line that declared it
        for (String line : lines) {
            int before = braces.depth;
            String declared = declaration(line);
            if (declared != null) {
                pending = declared;
                pendingAt = sections.size();
            }
            int opened = braces.scan(line);
            if (pending != null && opened > 0) {
                open.push(new Block(pending, before));
                pending = null;
                String section = path(open);
                for (int i = pendingAt; i < sections.size(); i++) {
                    sections.set(i, section);     // the declaration's own lines before its '{'
                }
                leadingComments(lines, sections, pendingAt, section, "//", "/*", "*", "@", "#[");
            } else if (pending != null && line.strip().endsWith(";")) {
                pending = null;               // an abstract method or a declaration without a body
            }
            sections.add(path(open));
            while (!open.isEmpty() && braces.depth <= open.peek().level()) {
                open.pop();
            }
        }
        return sections;
    }

    /**
     * Gives the comment and annotation lines right above a declaration (a type's or a method's doc comment, its
     * annotations or decorators, with no blank line between) the declaration's section: they are about it, and a
     * chunk that prefers to end where the section changes then ends above them, not between them and what they
     * describe.
     *
     * @param declaredAt the declaration's first line (an index into {@code lines})
     * @param markers    what such a line starts with, after its indentation
     */
    private static void leadingComments(List<String> lines, List<@Nullable String> sections, int declaredAt,
            @Nullable String section, String... markers) {
        for (int i = declaredAt - 1; i >= 0; i--) {
            String line = lines.get(i).strip();
            boolean comment = false;
            for (String marker : markers) {
                comment |= line.startsWith(marker);
            }
            if (!comment) {
                return;
            }
            sections.set(i, section);
        }
    }

    /** The name a line declares (a type, a function), or {@code null}. */
    private static @Nullable String declaration(String line) {
        String code = line.strip();
        if (code.isEmpty() || code.startsWith("//") || code.startsWith("*") || code.startsWith("/*")
                || code.startsWith("#") || code.startsWith("@")) {
            return null;
        }
        Matcher m = TYPE.matcher(code);
        if (m.find()) {
            return m.group(1);
        }
        m = IMPL.matcher(code);
        if (m.find()) {
            return m.group(1).strip();
        }
        m = FUNCTION_KEYWORD.matcher(code);
        if (m.find()) {
            return m.group(1);
        }
        m = ARROW.matcher(code);
        if (m.find()) {
            return m.group(1);
        }
        m = SHELL_FUNCTION.matcher(code);
        if (m.find() && !NOT_NAMES.contains(m.group(1))) {
            return m.group(1);
        }
        m = METHOD.matcher(code);
        if (m.find() && !NOT_NAMES.contains(m.group(1)) && !code.startsWith("return ")
                && !code.contains(" = ") && !code.startsWith("else")) {
            return m.group(1);
        }
        return null;
    }

    /** Counts braces outside strings, character literals and comments; comments may span lines. */
    private static final class BraceCounter {
        int depth;
        boolean inBlockComment;

        /** @return how many braces the line opened (whatever it closed) */
        int scan(String line) {
            int opened = 0;
            char quote = 0;
            for (int i = 0; i < line.length(); i++) {
                char c = line.charAt(i);
                char next = i + 1 < line.length() ? line.charAt(i + 1) : 0;
                if (inBlockComment) {
                    if (c == '*' && next == '/') {
                        inBlockComment = false;
                        i++;
                    }
                } else if (quote != 0) {
                    if (c == '\\') {
                        i++;
                    } else if (c == quote) {
                        quote = 0;
                    }
                } else if (c == '/' && next == '/') {
                    break;
                } else if (c == '/' && next == '*') {
                    inBlockComment = true;
                    i++;
                } else if (c == '"' || c == '\'' || c == '`') {
                    quote = c;
                } else if (c == '{') {
                    depth++;
                    opened++;
                } else if (c == '}') {
                    depth = Math.max(0, depth - 1);
                }
            }
            return opened;
        }
    }

    private static List<@Nullable String> indentSections(List<String> lines) {
        List<@Nullable String> sections = new ArrayList<>(lines.size());
        Deque<Block> open = new ArrayDeque<>();
        for (String line : lines) {
            if (!line.isBlank()) {
                int indent = indentation(line);
                String stripped = line.strip();
                // a line back at (or left of) a block's own indentation ends it, unless it closes it ("end")
                while (!open.isEmpty() && indent <= open.peek().level() && !stripped.startsWith("end")
                        && !stripped.startsWith("#") && !stripped.startsWith("@")) {
                    open.pop();
                }
                Matcher m = PY_DECLARATION.matcher(line);
                if (m.find()) {
                    while (!open.isEmpty() && indent <= open.peek().level()) {
                        open.pop();
                    }
                    open.push(new Block(m.group(2), indent));
                    leadingComments(lines, sections, sections.size(), path(open), "#", "@");
                }
            }
            sections.add(path(open));
        }
        return sections;
    }

    /** YAML: the top-level key; JSON: the key at depth 1. */
    private static List<@Nullable String> keySections(List<String> lines, boolean yaml) {
        List<@Nullable String> sections = new ArrayList<>(lines.size());
        String current = null;
        BraceCounter braces = new BraceCounter();
        for (String line : lines) {
            if (yaml) {
                Matcher m = YAML_KEY.matcher(line);
                if (!line.isEmpty() && !Character.isWhitespace(line.charAt(0)) && m.find()
                        && !line.startsWith("#") && !line.startsWith("-")) {
                    current = m.group(1).replace("\"", "").replace("'", "").strip();
                }
            } else {
                int depth = braces.depth;
                Matcher m = JSON_KEY.matcher(line);
                if (depth == 1 && m.find()) {
                    current = m.group(1);
                }
                braces.scan(line);
            }
            sections.add(current);
        }
        return sections;
    }

    private static List<@Nullable String> sqlSections(List<String> lines) {
        List<@Nullable String> sections = new ArrayList<>(lines.size());
        String current = null;
        for (String line : lines) {
            Matcher m = SQL_STATEMENT.matcher(line);
            if (m.find()) {
                current = m.group(2).toLowerCase(Locale.ROOT) + " " + m.group(3).replaceAll("[\"`\\[\\]]", "");
            }
            sections.add(current);
        }
        return sections;
    }

    private static @Nullable String path(Deque<Block> open) {
        if (open.isEmpty()) {
            return null;
        }
        StringBuilder path = new StringBuilder();
        for (java.util.Iterator<Block> it = open.descendingIterator(); it.hasNext(); ) {
            path.append(path.length() == 0 ? "" : " > ").append(it.next().name());
        }
        return path.toString();
    }

    private static int indentation(String line) {
        int i = 0;
        while (i < line.length() && (line.charAt(i) == ' ' || line.charAt(i) == '\t')) {
            i++;
        }
        return i;
    }
}
