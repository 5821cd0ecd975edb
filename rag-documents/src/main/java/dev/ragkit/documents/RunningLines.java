package dev.ragkit.documents;

import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * A paged document's running headers and footers: the first or last line of a page that is a page number alone
 * ({@code 12}, {@code iv}), or that heads or ends at least {@value #MIN_PAGES} pages and a fifth of them once its
 * numbers are set aside ({@code Chapter 4: Function reference 10}, {@code Shared MIME-info Database}). Printed by the
 * typesetter on every page, they are no part of the text: read as part of it, the header is glued to the page's first
 * sentence ("Chapter 4: Function reference 10 asn1 create element …").
 */
final class RunningLines {
    /** How many pages a line must head or end, at least, to be a running one (and a fifth of the pages). */
    static final int MIN_PAGES = 3;
    private static final Pattern PAGE_NUMBER = Pattern.compile("(?:\\d{1,4}|[ivxlc]{1,7}|[IVXLC]{1,7})");
    private static final Pattern DIGITS = Pattern.compile("\\d+");

    private RunningLines() {
    }

    /**
     * Replaces each page's running header and footer by a blank line.
     *
     * @param lines the document's lines, page after page
     * @param pages the page of each line
     */
    static void blank(List<String> lines, List<Integer> pages) {
        Map<String, Integer> firsts = new HashMap<>();
        Map<String, Integer> lasts = new HashMap<>();
        boolean[] first = new boolean[lines.size()];
        boolean[] last = new boolean[lines.size()];
        for (int start = 0, end; start < lines.size(); start = end) {
            end = start;
            while (end < lines.size() && pages.get(end).equals(pages.get(start))) {
                end++;                                     // [start, end) is one page
            }
            int top = start;
            while (top < end && lines.get(top).isBlank()) {
                top++;
            }
            int bottom = end - 1;
            while (bottom > top && lines.get(bottom).isBlank()) {
                bottom--;
            }
            if (top < end) {
                first[top] = true;
                last[bottom] = true;
            }
        }
        int pageCount = 0;
        for (int i = 0; i < lines.size(); i++) {
            if (first[i]) {
                firsts.merge(key(lines.get(i)), 1, Integer::sum);
                pageCount++;
            }
            if (last[i]) {
                lasts.merge(key(lines.get(i)), 1, Integer::sum);
            }
        }
        if (pageCount < 2) {
            return;
        }
        int needed = Math.max(MIN_PAGES, (pageCount + 4) / 5);
        for (int i = 0; i < lines.size(); i++) {
            if (!first[i] && !last[i]) {
                continue;
            }
            String key = key(lines.get(i));
            if (PAGE_NUMBER.matcher(lines.get(i).strip()).matches()
                    || first[i] && firsts.get(key) >= needed || last[i] && lasts.get(key) >= needed) {
                lines.set(i, "");
            }
        }
    }

    /** The line with its numbers set aside, as it repeats from page to page. */
    private static String key(String line) {
        return DIGITS.matcher(line.strip().toLowerCase(Locale.ROOT)).replaceAll("#");
    }
}
