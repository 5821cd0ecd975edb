package dev.ragkit.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

final class MetadataFilterTest {

    private static final Map<String, String> DOC = Map.of("year", "2024", "product", "x", "price", "12.5",
            "published", "2024-05-17", "updated", "2024-05-17T10:15:30+02:00", "title", "a b");

    @Test
    void eq_matchingAndOtherValues_comparesTextExactly() {
        assertThat(MetadataFilter.eq("product", "x").test(DOC)).isTrue();
        assertThat(MetadataFilter.eq("product", "X").test(DOC)).isFalse();
        assertThat(MetadataFilter.eq("year", "2024.0").test(DOC)).isFalse();
        assertThat(MetadataFilter.eq("missing", "x").test(DOC)).isFalse();
    }

    @Test
    void in_valueInList_matches() {
        assertThat(MetadataFilter.in("product", "y", "x").test(DOC)).isTrue();
        assertThat(MetadataFilter.in("product", "y", "z").test(DOC)).isFalse();
        assertThat(MetadataFilter.in("missing", "x").test(DOC)).isFalse();
    }

    @Test
    void numberRange_boundsInclusiveAndExclusive_compareNumerically() {
        assertThat(MetadataFilter.atLeast("year", 2024).test(DOC)).isTrue();
        assertThat(MetadataFilter.greaterThan("year", 2024).test(DOC)).isFalse();
        assertThat(MetadataFilter.atMost("price", 12.5).test(DOC)).isTrue();
        assertThat(MetadataFilter.lessThan("price", 12.5).test(DOC)).isFalse();
        assertThat(MetadataFilter.between("price", 9, 100).test(DOC)).isTrue();
        assertThat(MetadataFilter.atLeast("product", 0).test(DOC)).as("a value that is no number").isFalse();
        assertThat(MetadataFilter.atLeast("missing", 0).test(DOC)).isFalse();
    }

    @Test
    void dateRange_datesAndDateTimes_compareAsInstants() {
        assertThat(MetadataFilter.dateRange("published", "2024-05-17", true, null, false).test(DOC)).isTrue();
        assertThat(MetadataFilter.dateRange("published", "2024-05-17", false, null, false).test(DOC)).isFalse();
        // 10:15:30+02:00 is 08:15:30 UTC
        assertThat(MetadataFilter.dateRange("updated", null, false, "2024-05-17T08:15:30Z", true).test(DOC)).isTrue();
        assertThat(MetadataFilter.dateRange("updated", null, false, "2024-05-17T08:15:30Z", false).test(DOC)).isFalse();
        assertThat(MetadataFilter.dateRange("year", "2000-01-01", true, null, false).test(DOC))
                .as("2024 is a number, not a date").isFalse();
    }

    @Test
    void andOrNot_combineOperands() {
        MetadataFilter x = MetadataFilter.eq("product", "x");
        MetadataFilter y = MetadataFilter.eq("product", "y");
        assertThat(MetadataFilter.and(x, MetadataFilter.atLeast("year", 2020)).test(DOC)).isTrue();
        assertThat(MetadataFilter.and(x, y).test(DOC)).isFalse();
        assertThat(MetadataFilter.or(y, x).test(DOC)).isTrue();
        assertThat(MetadataFilter.not(y).test(DOC)).isTrue();
        assertThat(MetadataFilter.not(MetadataFilter.eq("missing", "v")).test(DOC)).as("not matches absent keys").isTrue();
    }

    @Test
    void factories_badInput_throwTypedErrorsSayingTheFix() {
        assertThatThrownBy(() -> MetadataFilter.eq(null, "x")).isInstanceOf(NullPointerException.class)
                .hasMessageContaining("key");
        assertThatThrownBy(() -> MetadataFilter.eq(" ", "x")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("blank");
        assertThatThrownBy(() -> MetadataFilter.in("k", List.of())).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("at least one value");
        assertThatThrownBy(() -> MetadataFilter.atLeast("k", Double.NaN)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("finite");
        assertThatThrownBy(() -> new MetadataFilter.NumberRange("k", null, true, null, true))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no bounds");
        assertThatThrownBy(() -> MetadataFilter.between("k", 5, 3)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("swap");
        assertThatThrownBy(() -> MetadataFilter.dateRange("k", null, true, null, true))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no bounds");
        assertThatThrownBy(() -> MetadataFilter.dateRange("k", "17.05.2024", true, null, true))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("ISO-8601");
        assertThatThrownBy(() -> new MetadataFilter.And(List.of())).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> MetadataFilter.not(null)).isInstanceOf(NullPointerException.class);
    }

    @Test
    void parse_exampleFromTheIssue_buildsAndOfRangeAndEquals() {
        MetadataFilter f = MetadataFilter.parse("year>=2024 and product=x");

        assertThat(f).isEqualTo(MetadataFilter.and(MetadataFilter.atLeast("year", 2024), MetadataFilter.eq("product", "x")));
    }

    @Test
    void parse_everyOperator_buildsTheMatchingFilter() {
        assertThat(MetadataFilter.parse("a = 1")).isEqualTo(MetadataFilter.eq("a", "1"));
        assertThat(MetadataFilter.parse("a != 1")).isEqualTo(MetadataFilter.notEq("a", "1"));
        assertThat(MetadataFilter.parse("a < 1")).isEqualTo(MetadataFilter.lessThan("a", 1));
        assertThat(MetadataFilter.parse("a <= 1")).isEqualTo(MetadataFilter.atMost("a", 1));
        assertThat(MetadataFilter.parse("a > -1.5")).isEqualTo(MetadataFilter.greaterThan("a", -1.5));
        assertThat(MetadataFilter.parse("a >= 1e3")).isEqualTo(MetadataFilter.atLeast("a", 1000));
        assertThat(MetadataFilter.parse("a in (x, 'y z')")).isEqualTo(MetadataFilter.in("a", "x", "y z"));
        assertThat(MetadataFilter.parse("a NOT IN (x)")).isEqualTo(MetadataFilter.not(MetadataFilter.in("a", "x")));
        assertThat(MetadataFilter.parse("d >= 2024-01-01")).isEqualTo(new MetadataFilter.DateRange("d",
                Instant.parse("2024-01-01T00:00:00Z"), true, null, false));
        assertThat(MetadataFilter.parse("d < \"2024-01-01T10:00:00+01:00\"")).isEqualTo(new MetadataFilter.DateRange(
                "d", null, false, Instant.parse("2024-01-01T09:00:00Z"), false));
    }

    @Test
    void parse_precedence_andBindsTighterThanOrAndNotTighterThanAnd() {
        MetadataFilter a = MetadataFilter.eq("a", "1");
        MetadataFilter b = MetadataFilter.eq("b", "2");
        MetadataFilter c = MetadataFilter.eq("c", "3");

        assertThat(MetadataFilter.parse("a=1 or b=2 and c=3")).isEqualTo(MetadataFilter.or(a, MetadataFilter.and(b, c)));
        assertThat(MetadataFilter.parse("(a=1 or b=2) and c=3")).isEqualTo(MetadataFilter.and(MetadataFilter.or(a, b), c));
        assertThat(MetadataFilter.parse("not a=1 and b=2")).isEqualTo(MetadataFilter.and(MetadataFilter.not(a), b));
        assertThat(MetadataFilter.parse("not (a=1 and b=2)")).isEqualTo(MetadataFilter.not(MetadataFilter.and(a, b)));
    }

    @Test
    void parse_quotedValues_keepBlanksSymbolsKeywordsAndEscapes() {
        assertThat(MetadataFilter.parse("title = 'a b'").test(DOC)).isTrue();
        assertThat(MetadataFilter.parse("k = \"and\"")).isEqualTo(MetadataFilter.eq("k", "and"));
        assertThat(MetadataFilter.parse("k = 'it\\'s (x)'")).isEqualTo(MetadataFilter.eq("k", "it's (x)"));
        assertThat(MetadataFilter.parse("'my key' = v")).isEqualTo(MetadataFilter.eq("my key", "v"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"year>=2024 and product=x", "a = 1 or b in (x, y) and not c = 'q r'",
            "not (a >= 1 and a <= 2)", "d > 2024-05-17T10:00:00Z or \"and\" != \"or\"", "(a = 1 or b = 2) and c < 3.5"})
    void toString_parsedAgain_matchesTheSameDocuments(String text) {
        MetadataFilter f = MetadataFilter.parse(text);

        MetadataFilter again = MetadataFilter.parse(f.toString());

        assertThat(again).isEqualTo(f);
        assertThat(MetadataFilter.parse(MetadataFilter.between("p", 1, 2).toString()).test(DOC)).isFalse();
        assertThat(MetadataFilter.parse(MetadataFilter.between("price", 1, 20).toString()).test(DOC)).isTrue();
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "''|1|empty",
            "year >=|8|expected a value after '>='",
            "year >= abc|9|neither a number nor an ISO-8601 date",
            "year 2024|6|expected one of = != < <= > >= in",
            "a = 1 and|10|expected a metadata key",
            "(a = 1|7|expected ')'",
            "a = 1)|6|without its '('",
            "a in ()|7|expected a value in the list",
            "a in (x y)|9|expected ',' or ')'",
            "a in x|6|expected '(' after 'in'",
            "a = 'open|5|never closed",
            "a ! 1|3|'!' must be followed by '='",
            "a not = 1|7|expected 'in'",
            "and = 1|1|expected a metadata key",
            "a = 1 b = 2|7|expected 'and', 'or' or the end"})
    void parse_badText_throwsSyntaxErrorNamingTheColumn(String text, int column, String message) {
        assertThatThrownBy(() -> MetadataFilter.parse(text))
                .isInstanceOfSatisfying(MetadataFilterSyntaxException.class, e -> {
                    assertThat(e.column()).isEqualTo(column);
                    assertThat(e.input()).isEqualTo(text);
                    assertThat(e.getMessage()).contains("column " + column).contains(message);
                })
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void number_andDate_readOnlyWellFormedValues() {
        assertThat(MetadataFilter.number(" 42 ")).hasValue(42);
        assertThat(MetadataFilter.number("NaN")).isEmpty();
        assertThat(MetadataFilter.number("Infinity")).isEmpty();
        assertThat(MetadataFilter.number("0x10")).isEmpty();
        assertThat(MetadataFilter.number("1d")).isEmpty();
        assertThat(MetadataFilter.date("2024-02-30")).isEmpty();
        assertThat(MetadataFilter.date("2024-05-17T10:15")).contains(Instant.parse("2024-05-17T10:15:00Z"));
        assertThat(MetadataFilter.date("2024-05-17T10:15:30.123456Z")).contains(Instant.parse("2024-05-17T10:15:30.123Z"));
        assertThat(MetadataFilter.date("2024")).isEmpty();
    }

    @Test
    void searchRequest_metadataFilter_isPartOfAcceptsAndEquality() {
        StoredDocument doc = StoredDocument.builder().tenant("t").path("p.md").metadata(Map.of("year", "2023")).build();
        SearchRequest plain = SearchRequest.builder(Scope.of("t")).text("q").build();
        SearchRequest filtered = SearchRequest.builder(Scope.of("t")).text("q").metadataFilter("year >= 2024").build();

        assertThat(plain.accepts(doc)).isTrue();
        assertThat(filtered.accepts(doc)).isFalse();
        assertThat(filtered).isNotEqualTo(plain).isEqualTo(plain.withMetadataFilter(MetadataFilter.atLeast("year", 2024)));
        assertThat(filtered.toString()).contains("year >= 2024");
    }
}
