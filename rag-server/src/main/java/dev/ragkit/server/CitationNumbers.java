package dev.ragkit.server;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Rewrites an answer's {@code [SourceId: <documentId>:<chunk>]} markers as numbered references {@code [1]},
 * {@code [2, 3]}, numbering sources in the order they are first cited (the order of the response's citations), for
 * clients that show plain text (OpenAI chat front ends). Works on a stream: {@link #feed} holds back a marker until
 * it is complete. Not thread-safe; one per answer.
 */
final class CitationNumbers {
    private static final String ID = "[a-f0-9-]{36}:[0-9]+";
    private static final Pattern MARKER = Pattern.compile("\\[\\s*SourceId\\s*:\\s*(" + ID
            + "(?:\\s*[,;]\\s*(?:SourceId\\s*:\\s*)?" + ID + ")*)\\s*]");
    private static final Pattern IDS = Pattern.compile(ID);
    private static final int LONGEST_MARKER = 400;

    private final Map<String, Integer> numbers = new LinkedHashMap<>();
    private final StringBuilder held = new StringBuilder();

    /** Numbers sources as they are first cited. */
    CitationNumbers() {
    }

    /** @param known SourceIds numbered 1, 2, … in this order before any text is read */
    CitationNumbers(List<String> known) {
        known.forEach(id -> numbers.putIfAbsent(id, numbers.size() + 1));
    }

    /**
     * @param text the next piece of the answer
     * @return what can be shown now, markers rewritten
     */
    String feed(String text) {
        held.append(text);
        int open = held.lastIndexOf("[");
        String ready;
        if (open >= 0 && held.indexOf("]", open) < 0 && held.length() - open < LONGEST_MARKER) {
            ready = held.substring(0, open);
            held.delete(0, open);
        } else {
            ready = held.toString();
            held.setLength(0);
        }
        return rewrite(ready);
    }

    /** @return the rest of the answer, markers rewritten */
    String finish() {
        String rest = rewrite(held.toString());
        held.setLength(0);
        return rest;
    }

    /** @return the SourceIds in the order of their numbers (number = index + 1) */
    List<String> order() {
        return List.copyOf(numbers.keySet());
    }

    private String rewrite(String text) {
        Matcher m = MARKER.matcher(text);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            StringBuilder refs = new StringBuilder("[");
            Matcher ids = IDS.matcher(m.group(1));
            while (ids.find()) {
                int n = numbers.computeIfAbsent(ids.group(), k -> numbers.size() + 1);
                refs.append(refs.length() > 1 ? ", " : "").append(n);
            }
            m.appendReplacement(out, Matcher.quoteReplacement(refs.append(']').toString()));
        }
        m.appendTail(out);
        return out.toString();
    }
}
