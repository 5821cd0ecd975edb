package dev.ragkit.docs;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finds the {@code ```java} blocks of a markdown page and the marker comment of each.
 *
 * <p>The convention (also in docs/design-notes.md, "Docs whose code compiles"): the last non-blank line before the
 * opening fence may be one HTML comment
 *
 * <pre>{@code <!-- snippet: key=value key="value with spaces" -->}</pre>
 *
 * with the keys {@code id}, {@code continues}, {@code given} (declarations separated by {@code ;}), {@code kind}
 * ({@code unit}, {@code members}, {@code statements}) and {@code skip} (the reason the block is not Java that
 * compiles). A marker that is not followed by a {@code ```java} fence, an unknown key, a {@code skip} without a
 * reason or an unclosed fence is an error that names the page and line.
 */
final class SnippetExtractor {

    private static final Pattern MARKER = Pattern.compile("^<!--\\s*snippet:(.*)-->$");
    private static final Pattern PAIR = Pattern.compile("\\s*([a-z]+)=(\"([^\"]*)\"|(\\S+))");
    private static final List<String> KEYS = List.of("id", "continues", "given", "kind", "skip");

    private SnippetExtractor() {
    }

    /**
     * Reads every {@code ```java} block of one page.
     *
     * @param file     the page's name in failures, e.g. {@code docs/ollama.md}
     * @param markdown the page's text
     * @return the blocks in page order
     * @throws IllegalArgumentException naming {@code file:line} for a malformed marker or fence
     */
    static List<Snippet> extract(String file, String markdown) {
        String[] lines = markdown.split("\\R", -1);
        List<Snippet> snippets = new ArrayList<>();
        Snippet.Marker pending = Snippet.Marker.NONE;
        for (int i = 0; i < lines.length; i++) {
            String trimmed = lines[i].strip();
            int lineNo = i + 1;
            if (trimmed.startsWith("<!--") && trimmed.contains("snippet:")) {
                pending = parseMarker(file, lineNo, trimmed);
                continue;
            }
            if (trimmed.isEmpty()) {
                continue;
            }
            if (trimmed.startsWith("```")) {
                String info = trimmed.substring(3).strip().toLowerCase(Locale.ROOT);
                int close = closingFence(lines, i + 1);
                if (close < 0) {
                    throw new IllegalArgumentException(file + ":" + lineNo + ": the code block is never closed with ```");
                }
                if (info.equals("java") || info.startsWith("java ")) {
                    snippets.add(new Snippet(file, lineNo, dedent(lines, i + 1, close), pending));
                } else if (pending.line() > 0) {
                    throw markerWithoutJava(file, pending);
                }
                pending = Snippet.Marker.NONE;
                i = close;
                continue;
            }
            if (pending.line() > 0) {
                throw markerWithoutJava(file, pending);
            }
        }
        if (pending.line() > 0) {
            throw markerWithoutJava(file, pending);
        }
        return snippets;
    }

    private static IllegalArgumentException markerWithoutJava(String file, Snippet.Marker marker) {
        return new IllegalArgumentException(file + ":" + marker.line()
                + ": a snippet marker must be the last non-blank line before a ```java block");
    }

    private static int closingFence(String[] lines, int from) {
        for (int j = from; j < lines.length; j++) {
            if (lines[j].strip().equals("```")) {
                return j;
            }
        }
        return -1;
    }

    private static List<String> dedent(String[] lines, int from, int to) {
        int indent = Integer.MAX_VALUE;
        for (int j = from; j < to; j++) {
            if (!lines[j].isBlank()) {
                indent = Math.min(indent, lines[j].length() - lines[j].stripLeading().length());
            }
        }
        List<String> code = new ArrayList<>();
        for (int j = from; j < to; j++) {
            code.add(lines[j].isBlank() ? "" : lines[j].substring(indent));
        }
        return code;
    }

    private static Snippet.Marker parseMarker(String file, int lineNo, String comment) {
        Matcher m = MARKER.matcher(comment);
        if (!m.matches()) {
            throw new IllegalArgumentException(file + ":" + lineNo
                    + ": write a snippet marker on one line as <!-- snippet: key=value ... -->");
        }
        Map<String, String> values = new LinkedHashMap<>();
        String body = m.group(1).strip();
        Matcher pair = PAIR.matcher(body);
        int at = 0;
        while (at < body.length()) {
            if (!pair.find(at) || pair.start() != at) {
                throw new IllegalArgumentException(file + ":" + lineNo + ": cannot read '" + body.substring(at).strip()
                        + "' in the snippet marker; write key=value or key=\"value with spaces\"");
            }
            String key = pair.group(1);
            if (!KEYS.contains(key)) {
                throw new IllegalArgumentException(file + ":" + lineNo + ": unknown snippet marker key '" + key
                        + "'; known: " + KEYS);
            }
            if (values.put(key, pair.group(3) != null ? pair.group(3) : pair.group(4)) != null) {
                throw new IllegalArgumentException(file + ":" + lineNo + ": '" + key + "' is given twice");
            }
            at = pair.end();
            while (at < body.length() && Character.isWhitespace(body.charAt(at))) {
                at++;
            }
        }
        String skip = values.get("skip");
        if (skip != null && skip.isBlank()) {
            throw new IllegalArgumentException(file + ":" + lineNo
                    + ": skip needs a reason, e.g. skip=\"shows the shape of an interface, not code to compile\"");
        }
        return new Snippet.Marker(lineNo, values.get("id"), values.get("continues"), given(values.get("given")),
                kind(file, lineNo, values.get("kind")), skip == null ? null : skip.strip());
    }

    private static List<String> given(String value) {
        if (value == null) {
            return List.of();
        }
        List<String> declarations = new ArrayList<>();
        for (String part : value.split(";")) {
            if (!part.isBlank()) {
                declarations.add(part.strip());
            }
        }
        return declarations;
    }

    private static Snippet.Kind kind(String file, int lineNo, String value) {
        if (value == null) {
            return null;
        }
        try {
            return Snippet.Kind.valueOf(value.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(file + ":" + lineNo + ": kind must be unit, members or statements, not '"
                    + value + "'", e);
        }
    }
}
