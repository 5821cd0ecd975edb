package dev.ragkit.documents;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * One sheet of a workbook as lines, shared by the Excel and OpenDocument spreadsheet readers: the sheet is a page
 * whose line {@code n} is its row {@code n} (rows without values are blank lines, so {@code budget.xlsx > Q3, rows
 * 4–9} names the rows a spreadsheet shows), the sheet's name is the section of its lines. The first row with values
 * is the header row when all its values hold a letter; every later row then carries the headers of its cells
 * ({@code Region: North | Q3: 1200}); cells without a header, and every cell of a sheet without a header row, stand
 * as they are, joined by {@code  | }.
 *
 * <p>The sheet stops at the source's character limit instead of failing: {@link #row} returns {@code false} and
 * {@link #cut()} says where; the rows before it are kept. Trailing rows without values cost nothing, so a sheet
 * formatted down to its millionth row with a few rows of data reads as those few rows.
 */
final class SheetRows {
    private final PagedLines out;
    private final int page;
    private final String name;
    private @Nullable Map<Integer, String> headers;
    private boolean seenValues;
    private int lastRow;
    private @Nullable String cut;

    /**
     * @param out  the document's lines
     * @param page the sheet's 1-based position in the workbook
     * @param name the sheet's name
     */
    SheetRows(PagedLines out, int page, String name) {
        this.out = out;
        this.page = page;
        this.name = name;
    }

    /**
     * Adds a row.
     *
     * @param row   its 1-based number, higher than the row before
     * @param cells its formatted values by 0-based column (blank values are left out)
     * @return whether the sheet goes on; {@code false} once the character limit cut it
     */
    boolean row(int row, SortedMap<Integer, String> cells) {
        if (cut != null) {
            return false;
        }
        SortedMap<Integer, String> values = new TreeMap<>();
        cells.forEach((column, value) -> {
            String text = SectionedLines.oneLine(value);
            if (!text.isEmpty()) {
                values.put(column, text);
            }
        });
        if (values.isEmpty() || row <= lastRow) {
            return true;
        }
        String line;
        if (!seenValues) {
            seenValues = true;
            if (values.values().stream().allMatch(v -> v.codePoints().anyMatch(Character::isLetter))) {
                headers = values;
            }
            line = String.join(" | ", values.values());
        } else {
            List<String> parts = new ArrayList<>();
            values.forEach((column, value) -> {
                String header = headers == null ? null : headers.get(column);
                parts.add(header == null ? value : header + ": " + value);
            });
            line = String.join(" | ", parts);
        }
        for (int blank = lastRow + 1; blank < row; blank++) {
            if (!out.fits("")) {
                return stop(blank);
            }
            out.add(page, name, "");
        }
        if (!out.fits(line)) {
            return stop(row);
        }
        out.add(page, name, line);
        lastRow = row;
        return true;
    }

    private boolean stop(int row) {
        cut = String.format(Locale.ROOT, "sheet '%s' was cut at row %,d: the text reached the limit of %,d characters",
                name, row, out.maxChars());
        return false;
    }

    /** @return where the character limit cut the sheet, or {@code null} when it was read whole */
    @Nullable String cut() {
        return cut;
    }
}
