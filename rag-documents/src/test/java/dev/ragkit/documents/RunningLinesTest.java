package dev.ragkit.documents;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Running headers and footers of a paged document read as blank lines; the text around them stays. */
class RunningLinesTest {

    @Test
    void blank_pageNumbersAndLinesHeadingManyPages_areBlank_otherLinesStay() {
        // libtasn1's manual as PDFBox reads it: a chapter's name and the page number head each page
        List<String> lines = new ArrayList<>();
        List<Integer> pages = new ArrayList<>();
        page(lines, pages, 1, "Libtasn1", "A library for ASN.1.", "", "i");
        page(lines, pages, 2, "Chapter 4: Function reference 9", "asn1 create element", "Returns: ASN1_SUCCESS.", "9");
        page(lines, pages, 3, "Chapter 4: Function reference 10", "asn1 delete element", "Returns: an error.", "10");
        page(lines, pages, 4, "", "Chapter 4: Function reference 11", "asn1 read value", "Returns: the value.");
        page(lines, pages, 5, "Appendix A: Copying 12", "Everyone is permitted to copy.", "Returns: the value.");

        RunningLines.blank(lines, pages);

        assertThat(lines).containsExactly(
                "Libtasn1", "A library for ASN.1.", "", "",
                "", "asn1 create element", "Returns: ASN1_SUCCESS.", "",
                "", "asn1 delete element", "Returns: an error.", "",
                "", "", "asn1 read value", "Returns: the value.",
                "Appendix A: Copying 12", "Everyone is permitted to copy.", "Returns: the value.");
    }

    @Test
    void blank_aSinglePageStays_aLineHeadingTooFewPagesStays_aFooterNumberedPageByPageGoes() {
        List<String> lines = new ArrayList<>();
        List<Integer> pages = new ArrayList<>();
        page(lines, pages, 1, "Summary", "The plan is due in May.");
        List<String> one = List.copyOf(lines);
        RunningLines.blank(lines, pages);
        assertThat(lines).isEqualTo(one);

        page(lines, pages, 2, "Summary", "The budget is fixed.");
        for (int p = 3; p <= 20; p++) {
            page(lines, pages, p, "Section " + (char) ('A' + p), "What section " + (char) ('A' + p) + " says.",
                    "Page " + p + " of 20");
        }
        RunningLines.blank(lines, pages);
        // "Summary" heads 2 of 20 pages: a heading repeated, not a running header
        assertThat(lines).startsWith("Summary", "The plan is due in May.", "Summary", "The budget is fixed.");
        assertThat(lines).contains("Section D", "What section D says.");
        // a footer that differs from page to page only in its numbers is one
        assertThat(lines).doesNotContain("Page 7 of 20");
    }

    private static void page(List<String> lines, List<Integer> pages, int page, String... text) {
        for (String line : text) {
            lines.add(line);
            pages.add(page);
        }
    }
}
