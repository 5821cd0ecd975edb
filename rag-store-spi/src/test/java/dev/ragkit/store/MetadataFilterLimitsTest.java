package dev.ragkit.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Hostile filter texts (issue 28): nesting and size are bounded by typed errors naming the limit, never a
 * {@link StackOverflowError} or a store's query-size failure; the caret diagram is real lines.
 */
final class MetadataFilterLimitsTest {

    private static MetadataFilterSyntaxException refused(String text) {
        Throwable[] thrown = new Throwable[1];
        assertThatThrownBy(() -> MetadataFilter.parse(text)).satisfies(t -> thrown[0] = t)
                .isInstanceOf(MetadataFilterSyntaxException.class);
        return (MetadataFilterSyntaxException) thrown[0];
    }

    @Test
    void thousandsOfNestedParentheses_areRefusedAtTheFirstLevelBeyondTheLimit() {
        String text = "(".repeat(3_000) + "a = 1" + ")".repeat(3_000);       // 6 KB, as the probe sent

        MetadataFilterSyntaxException e = refused(text);

        assertThat(e.column()).isEqualTo(MetadataFilter.MAX_NESTING + 1);
        assertThat(e.problem()).contains("deeper than " + MetadataFilter.MAX_NESTING).contains("flatter");
        assertThat(e.getMessage()).contains("column " + (MetadataFilter.MAX_NESTING + 1));
    }

    @Test
    void aLongNotChain_isRefusedAtTheFirstNotBeyondTheLimit() {
        MetadataFilterSyntaxException e = refused("not ".repeat(50_000) + "a = 1");

        assertThat(e.column()).isEqualTo(4 * MetadataFilter.MAX_NESTING + 1);
        assertThat(e.problem()).contains("deeper than " + MetadataFilter.MAX_NESTING);
    }

    @Test
    void nestingUpToTheLimit_parsesAndMeansWhatItSays() {
        int n = MetadataFilter.MAX_NESTING;
        MetadataFilter parens = MetadataFilter.parse("(".repeat(n) + "a = 1" + ")".repeat(n));
        MetadataFilter nots = MetadataFilter.parse("not ".repeat(n) + "a = 1");        // an even number: a = 1
        MetadataFilter mixed = MetadataFilter.parse("(not ".repeat(n / 2) + "a = 1" + ")".repeat(n / 2));

        assertThat(parens).isEqualTo(MetadataFilter.eq("a", "1"));
        assertThat(nots.test(Map.of("a", "1"))).isTrue();
        assertThat(nots.test(Map.of("a", "2"))).isFalse();
        assertThat(mixed.test(Map.of("a", "1"))).isTrue();
        // one more level, of either kind, is refused
        assertThat(refused("not " + "(".repeat(n) + "a = 1" + ")".repeat(n)).column()).isEqualTo(n + 4);
        assertThat(refused("(".repeat(n) + "not a = 1" + ")".repeat(n)).column()).isEqualTo(n + 1);
    }

    @Test
    void moreComparisonsThanTheLimit_areRefusedAtTheFirstOneBeyond() {
        int n = MetadataFilter.MAX_CONDITIONS;
        List<String> comparisons = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            comparisons.add("k = v" + i);
        }
        String atLimit = String.join(" or ", comparisons);
        MetadataFilter parsed = MetadataFilter.parse(atLimit);
        assertThat(parsed.test(Map.of("k", "v" + (n - 1)))).isTrue();

        String over = atLimit + " or k = last";
        MetadataFilterSyntaxException e = refused(over);

        assertThat(e.column()).isEqualTo(over.indexOf("k = last") + 1);
        assertThat(e.problem()).contains("more than " + n + " conditions").contains("in (a, b, c)");
    }

    @Test
    void notEqualsNotInAndNot_countTwiceAndAnInListOnce() {
        int n = MetadataFilter.MAX_CONDITIONS;
        String halfNotEquals = String.join(" and ", Collections.nCopies(n / 2, "k != v"));
        assertThat(MetadataFilter.parse(halfNotEquals)).isNotNull();
        // the 257th condition is the key k (or the 'not') just after " and "
        for (String more : List.of(" and k != w", " and k not in (w)", " and not k = w", " and k = w")) {
            assertThat(refused(halfNotEquals + more).column()).as(more).isEqualTo(halfNotEquals.length() + 6);
        }
        // 255 conditions and one '!=': its key is the 256th, the '!=' the 257th
        String oneShort = halfNotEquals.substring(0, halfNotEquals.length() - " and k != v".length()) + " and k = v";
        assertThat(refused(oneShort + " and k != w").column()).isEqualTo(oneShort.length() + 8);

        List<String> values = new ArrayList<>();
        for (int i = 0; i < 10_000; i++) {
            values.add("v" + i);
        }
        MetadataFilter big = MetadataFilter.parse("k in (" + String.join(", ", values) + ")");
        assertThat(big.test(Map.of("k", "v9999"))).isTrue();
    }

    @Test
    void theCaretDiagram_isRealLinesWithTheCaretUnderTheColumn() {
        MetadataFilterSyntaxException e = refused("year >= and");

        List<String> lines = e.getMessage().lines().toList();

        assertThat(lines).hasSize(3);
        assertThat(lines.get(0)).isEqualTo("metadata filter, column 9: " + e.problem());
        assertThat(lines.get(1)).isEqualTo("  year >= and");
        assertThat(lines.get(2)).isEqualTo("  " + " ".repeat(8) + "^");
        assertThat(e.getMessage()).doesNotContain("\\n");
    }

    @Test
    void lineBreaksAndTabsInTheText_keepTheDiagramOnItsLinesAndTheCaretInItsColumn() {
        MetadataFilterSyntaxException e = refused("a = 1\nand\tb >=");

        List<String> lines = e.getMessage().lines().toList();

        assertThat(lines).hasSize(3);
        assertThat(lines.get(1)).isEqualTo("  a = 1 and b >=");
        assertThat(lines.get(2).indexOf('^')).isEqualTo(lines.get(1).length());      // after '>=': the end
    }

    @Test
    void aLongText_isShownAroundTheColumnOnly() {
        String text = "a_long_key = 1 and ".repeat(100) + "b >= and " + "c = 1 and ".repeat(100) + "d = 1";

        MetadataFilterSyntaxException e = refused(text);
        List<String> lines = e.getMessage().lines().toList();

        assertThat(e.getMessage().length()).isLessThan(500);
        assertThat(lines.get(1)).startsWith("  ...").endsWith("...");
        int caret = lines.get(2).indexOf('^');
        assertThat(lines.get(1).substring(caret)).startsWith("and c = 1");
        assertThat(e.input()).isEqualTo(text);
    }

    @Test
    void diagram_writesTheTextAsTheCallerShowsItAndPlacesTheCaretAfterIt() {
        MetadataFilterSyntaxException e = refused("a\u001b = 1 b");

        List<String> escaped = e.diagram(s -> s.replace("\u001b", "\\e"));

        assertThat(escaped.get(0)).isEqualTo("  a\\e = 1 b");
        assertThat(escaped.get(1)).isEqualTo("  " + " ".repeat("a\\e = 1 ".length()) + "^");
    }
}
